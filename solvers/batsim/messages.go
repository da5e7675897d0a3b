package batsim

import (
	"strconv"

	"schedlab/solvers/batch"
)

// The simulator's messages are written straight into one buffer, events in
// the order of the package doc.

// msg starts the message at now.
func (s *sim) msg(now float64) {
	s.buf = append(s.buf[:0], `{"now":`...)
	s.buf = appendFloat(s.buf, now)
	s.buf = append(s.buf, `,"events":[`...)
	s.summary = s.summary[:0]
}

// end closes the message.
func (s *sim) end() { s.buf = append(s.buf, "]}"...) }

// event appends one event with its data (JSON).
func (s *sim) event(t float64, typ, data string) {
	s.openEvent(t, typ)
	s.buf = append(s.buf, data...)
	s.buf = append(s.buf, '}')
}

// openEvent appends an event up to its data's value.
func (s *sim) openEvent(t float64, typ string) {
	if s.buf[len(s.buf)-1] != '[' {
		s.buf = append(s.buf, ',')
	}
	s.buf = append(s.buf, `{"timestamp":`...)
	s.buf = appendFloat(s.buf, t)
	s.buf = append(s.buf, `,"type":"`...)
	s.buf = append(s.buf, typ...)
	s.buf = append(s.buf, `","data":`...)
}

// begin is the first message: SIMULATION_BEGINS with the machine and a
// configuration as pybatsim 3.x reads it (no Redis, no forwarded profiles,
// no dynamic jobs).
func (s *sim) begin(now float64) {
	s.msg(now)
	s.openEvent(now, "SIMULATION_BEGINS")
	b := s.buf
	b = append(b, `{"nb_resources":`...)
	b = strconv.AppendInt(b, int64(s.p), 10)
	b = append(b, `,"nb_compute_resources":`...)
	b = strconv.AppendInt(b, int64(s.p), 10)
	b = append(b, `,"nb_storage_resources":0,"allow_compute_sharing":false,"allow_storage_sharing":false,`...)
	b = append(b, `"config":{"redis-enabled":false,"redis-hostname":"127.0.0.1","redis-port":6379,"redis-prefix":"default",`...)
	b = append(b, `"profiles-forwarded-on-submission":false,"dynamic-jobs-enabled":false,"dynamic-jobs-acknowledged":false,"profile-reuse-enabled":false,"forward-unknown-events":false},`...)
	b = append(b, `"compute_resources":[`...)
	for c := range s.p {
		if c > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, `,"name":"P`...)
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, `","state":"idle","properties":{}}`...)
	}
	b = append(b, `],"storage_resources":[],"workloads":{"w0":`...)
	b = strconv.AppendQuote(b, s.o.Workload)
	b = append(b, `},"profiles":{"w0":{"`...)
	b = append(b, profileName...)
	b = append(b, `":{}}}}}`...)
	s.buf = b
	s.summary = append(s.summary, "SIMULATION_BEGINS")
}

// profileName is every job's profile. It is {} (no type): every Batsim
// profile type (delay, parallel, …) gives the job's work, hence its
// runtime, away, which a real scheduler never knows; pybatsim 3's
// scheduler API reads a profile without a type as an unknown one, where
// a type it does not know made it crash (see the package doc).
const profileName = "swf"

// submit appends JOB_SUBMITTED of job j.
func (s *sim) submit(now float64, j int) {
	s.state[j] = waiting
	job := s.jobs[j]
	id := s.ids[j]
	s.openEvent(now, "JOB_SUBMITTED")
	b := append(s.buf, `{"job_id":"`...)
	b = append(b, id...)
	b = append(b, `","job":{"id":"`...)
	b = append(b, id...)
	b = append(b, `","subtime":`...)
	b = appendFloat(b, job.Submit)
	b = append(b, `,"walltime":`...)
	b = appendFloat(b, job.Estimate)
	b = append(b, `,"res":`...)
	b = strconv.AppendInt(b, int64(job.Size), 10)
	b = append(b, `,"profile":"`...)
	b = append(b, profileName...)
	b = append(b, `"}}}`...)
	s.buf = b
	s.summary = append(s.summary, "JOB_SUBMITTED "+id)
}

// complete frees job j's processors and appends its JOB_COMPLETED.
func (s *sim) complete(j int) {
	pl := s.out.Result.Placements[j]
	for _, c := range pl.Procs {
		s.owner[c] = 0
	}
	s.state[j] = finished
	s.done++
	state := "COMPLETED_SUCCESSFULLY"
	if s.jobs[j].Run > s.jobs[j].Estimate {
		state = "COMPLETED_WALLTIME_REACHED"
	}
	id := s.ids[j]
	s.openEvent(pl.End, "JOB_COMPLETED")
	b := append(s.buf, `{"job_id":"`...)
	b = append(b, id...)
	b = append(b, `","job_state":"`...)
	b = append(b, state...)
	b = append(b, `","return_code":0,"kill_reason":"","alloc":"`...)
	b = append(b, batch.Intervals(pl.Procs)...)
	b = append(b, `"}}`...)
	s.buf = b
	s.summary = append(s.summary, "JOB_COMPLETED "+id)
}

// notify appends a NOTIFY of typ.
func (s *sim) notify(now float64, typ string) {
	s.event(now, "NOTIFY", `{"type":"`+typ+`"}`)
	s.summary = append(s.summary, "NOTIFY "+typ)
}

// killed appends the JOB_KILLED of the last reply's kills.
func (s *sim) killed(now float64) {
	s.openEvent(now, "JOB_KILLED")
	b := append(s.buf, `{"job_ids":[`...)
	for i, k := range s.kills {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k.id)
	}
	b = append(b, `],"job_progress":{`...)
	first := true
	for _, k := range s.kills {
		if !k.ran {
			continue // it ended before the kill: no progress
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strconv.AppendQuote(b, k.id)
		b = append(b, `:{"profile":"`+profileName+`","progress":`...)
		b = appendFloat(b, k.progress)
		b = append(b, '}')
	}
	b = append(b, `}}}`...)
	s.buf = b
	s.summary = append(s.summary, "JOB_KILLED")
	s.kills = s.kills[:0]
}
