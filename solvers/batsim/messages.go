package batsim

import (
	"strconv"

	"schedlab/solvers/batch"
)

// The simulator's events are written straight into one buffer (s.ev), in
// the order of the package doc; compose wraps them into a message.

func (s *sim) event(t float64, typ, data, sum string) {
	s.openEvent(t, typ, sum)
	s.ev = append(s.ev, data...)
	s.ev = append(s.ev, '}')
}

// openEvent appends an event up to its data's value, and sum to the
// next message's summary.
func (s *sim) openEvent(t float64, typ, sum string) {
	s.summary = append(s.summary, sum)
	if len(s.ev) > 0 {
		s.ev = append(s.ev, ',')
	}
	s.ev = append(s.ev, `{"timestamp":`...)
	s.ev = appendFloat(s.ev, t)
	s.ev = append(s.ev, `,"type":"`...)
	s.ev = append(s.ev, typ...)
	s.ev = append(s.ev, `","data":`...)
}

// begin is the first event: SIMULATION_BEGINS with the machine and a
// configuration as pybatsim 3.x reads it (no Redis; dynamic jobs and
// their acknowledgement as the run says; profiles never forwarded on
// submission: every profile is in this message).
func (s *sim) begin(now float64) {
	s.openEvent(now, "SIMULATION_BEGINS", "SIMULATION_BEGINS")
	b := s.ev
	b = append(b, `{"nb_resources":`...)
	b = strconv.AppendInt(b, int64(s.p), 10)
	b = append(b, `,"nb_compute_resources":`...)
	b = strconv.AppendInt(b, int64(s.p), 10)
	b = append(b, `,"nb_storage_resources":0,"allow_compute_sharing":false,"allow_storage_sharing":false,`...)
	b = append(b, `"config":{"redis-enabled":false,"redis-hostname":"127.0.0.1","redis-port":6379,"redis-prefix":"default",`...)
	b = append(b, `"profiles-forwarded-on-submission":false,"dynamic-jobs-enabled":`...)
	b = strconv.AppendBool(b, s.o.DynamicJobs)
	b = append(b, `,"dynamic-jobs-acknowledged":`...)
	b = strconv.AppendBool(b, s.o.DynamicJobs && s.o.AckDynamicJobs)
	b = append(b, `,"profile-reuse-enabled":false,"forward-unknown-events":false},`...)
	b = append(b, `"compute_resources":[`...)
	for c := range s.p {
		if c > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, `,"name":"P`...)
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, `","state":"idle","properties":{},"zone_properties":{}}`...)
	}
	b = append(b, `],"storage_resources":[],"workloads":{"w0":`...)
	b = strconv.AppendQuote(b, s.o.Workload)
	b = append(b, `},"profiles":{"w0":{`...)
	for i := range s.n {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, s.profiles[i])
		b = append(b, ':')
		b = append(b, s.workloads["w0"][s.profiles[i]].json...)
	}
	b = append(b, `}}}}`...)
	s.ev = b
}

// submit appends JOB_SUBMITTED of trace job j: the fields Batsim's SWF
// converter gives (id, subtime, walltime, res, profile).
func (s *sim) submit(now float64, j int) {
	s.state[j] = waiting
	job := s.jobs[j]
	id := s.ids[j]
	s.openEvent(now, "JOB_SUBMITTED", "JOB_SUBMITTED "+id)
	b := append(s.ev, `{"job_id":"`...)
	b = append(b, id...)
	b = append(b, `","job":{"id":"`...)
	b = append(b, id...)
	b = append(b, `","subtime":`...)
	b = appendFloat(b, job.Submit)
	b = append(b, `,"walltime":`...)
	b = appendFloat(b, job.Estimate)
	b = append(b, `,"res":`...)
	b = strconv.AppendInt(b, int64(job.Size), 10)
	b = append(b, `,"profile":`...)
	b = strconv.AppendQuote(b, s.profiles[j])
	b = append(b, `}}}`...)
	s.ev = b
}

// complete ends job j at t (its end): frees its hosts, appends JOB_COMPLETED.
func (s *sim) complete(j int, t float64) {
	s.free(j, t)
	s.state[j] = finished
	s.done++
	s.final[j] = "COMPLETED_SUCCESSFULLY"
	if s.jobs[j].Run > s.jobs[j].Estimate {
		s.final[j] = "COMPLETED_WALLTIME_REACHED"
	}
	s.completedEvent(j, t)
}

func (s *sim) completedEvent(j int, t float64) {
	id := s.ids[j]
	s.openEvent(t, "JOB_COMPLETED", "JOB_COMPLETED "+id)
	b := append(s.ev, `{"job_id":`...)
	b = strconv.AppendQuote(b, id)
	b = append(b, `,"job_state":"`...)
	b = append(b, s.final[j]...)
	b = append(b, `","return_code":0,"kill_reason":"","alloc":"`...)
	b = append(b, batch.Intervals(s.place[j].Procs)...)
	b = append(b, `"}}`...)
	s.ev = b
}
