// Package batsim lets a scheduler written in any language schedule
// schedlab's batch simulation (package batch) through Batsim's protocol:
// schedlab acts as Batsim. It is the ZeroMQ REQ side (pure Go,
// github.com/go-zeromq/zmq4, so the one binary needs no cgo) and connects
// to a decision process, the REP side, which pybatsim 3.x, batsched and
// the research schedulers written against Batsim implement. Each message
// is one JSON object {"now": t, "events": [{"timestamp", "type", "data"}]}
// (Batsim's docs/protocol.rst, as pybatsim's batsim.py reads it).
//
// # Who may run what
//
// A decision process is registered by the operator, never named by a
// request: `schedlab serve --scheduler NAME=COMMAND` (and the same flag
// on `schedlab worker`; serve passes its own to the workers it starts)
// starts COMMAND for each run on the worker, split at spaces (no shell),
// with every {endpoint} replaced by tcp://127.0.0.1:PORT on a free port;
// `--scheduler NAME=tcp://host:port` connects to one the user runs (it
// serves one simulation at a time, as pybatsim does). Each becomes the
// variant external:NAME of the cyclic family's trace simulation (Scheduler,
// ParseScheduler); `schedlab run --scheduler-endpoint tcp://…` is the
// one-off variant external:cli.
//
// # Messages schedlab sends
//
//   - SIMULATION_BEGINS, alone, at time min(0, first submission):
//     nb_resources and nb_compute_resources (P), nb_storage_resources 0,
//     allow_compute_sharing and allow_storage_sharing false, config
//     (redis-enabled, profiles-forwarded-on-submission, dynamic-jobs-enabled,
//     dynamic-jobs-acknowledged, forward-unknown-events: all false; the
//     Redis host, port and prefix pybatsim reads), compute_resources
//     (id 0..P−1, name "P<id>", state idle, no properties),
//     storage_resources [], workloads {"w0": the trace's name}, profiles
//     {"w0": {"swf": {}}}: every job has the profile "swf", with no type,
//     which does not give its runtime away (a real scheduler knows only
//     the requested time; every Batsim profile type would tell it).
//   - Then one message per event time t, its events in this order (the
//     built-in policies' rule, package batch: all completions, then all
//     arrivals, then one scheduling pass):
//     JOB_COMPLETED for each job ending at t, by (end, trace position):
//     job_id, job_state (COMPLETED_SUCCESSFULLY, or
//     COMPLETED_WALLTIME_REACHED for a job cut at its requested time),
//     return_code 0, kill_reason "", alloc;
//     JOB_SUBMITTED for each job submitted at t, in trace order (by submit
//     time, ties in file order): job_id and job {id, subtime, walltime (the
//     estimate), res (processors), profile "swf"}; job ids are "w0!" and
//     the trace's job number ("w0!#" and the record's position when the
//     trace repeats numbers);
//     NOTIFY no_more_static_job_to_submit right after the last submission;
//     REQUESTED_CALL for each CALL_ME_LATER whose time is t.
//   - JOB_KILLED (job_ids, and job_progress {id: {profile, progress}} for
//     the jobs really killed) in a message of its own, at the time of the
//     KILL_JOB, before anything else happens.
//   - SIMULATION_ENDS when every job has finished or been rejected; the
//     reply must hold no events. A CALL_ME_LATER still pending then is not
//     called: the simulation is over.
//
// # Decisions schedlab applies, and checks
//
// Decisions take effect at the time of the message they answer (the
// decision process takes no simulated time, as the built-in policies): an
// event timestamp or a reply now before it is "time going backwards", one
// after it is refused too (consume_time is not supported). In order:
//
//   - EXECUTE_JOB {job_id, alloc}: alloc is an interval set ("0-3 7"). The
//     job must exist, be submitted, not running, not finished, not
//     rejected; every resource must exist and be free; the set's size must
//     be the job's res (rigid jobs). The job runs min(runtime, walltime)
//     on them. mapping, storage_mapping and additional_io_job are refused.
//   - REJECT_JOB {job_id}: a submitted, waiting job leaves the simulation;
//     the report leaves it out of its metrics and counts it
//     (jobs_rejected), as Batsim leaves rejected jobs out of its output.
//   - CALL_ME_LATER {timestamp ≥ now}: a REQUESTED_CALL at that time (one
//     per request). More than 10,000 messages at one time is an error.
//   - KILL_JOB {job_ids}: running jobs end now (their placement ends at the
//     kill); a job that already finished is acknowledged without progress;
//     any other is an error.
//   - NOTIFY registration_finished and continue_registration: accepted and
//     change nothing (dynamic registration is off).
//
// Everything else is an error that fails the run naming it: QUERY,
// ANSWER, REGISTER_JOB, REGISTER_PROFILE, SET_RESOURCE_STATE,
// SET_JOB_METADATA, CHANGE_JOB_STATE, TO_JOB_MSG, any other type or NOTIFY
// type, and any field a supported decision does not have. Nothing is
// dropped silently.
//
// # Failures
//
// A bad decision, a reply that is not a message (not JSON, not an object,
// missing now or events, a field of the wrong kind), no reply within the
// timeout (DefaultTimeout, 60 s, per reply), a decision process that
// exits mid-run (its exit status and last output are quoted), and a
// simulation left with waiting jobs, nothing running and no call
// requested each fail only their run, with an error that names the
// scheduler, the message (its number, time and events) and the decision
// (its position, type and job). A started process is killed when its run
// fails, and given 2 s to exit by itself after SIMULATION_ENDS.
//
// # Same rules, same schedules
//
// examples/batsim/sched.py implements FCFS and EASY as the built-in
// policies do (the queue in submission order, the head's shadow time by
// the walltimes of the running jobs, backfilling that ends by the shadow
// time or fits in the processors the head leaves spare, the lowest free
// processor ids); on the full KTH SP2 trace its schedules are the
// built-in fcfs and easy schedules job by job, start, end and processors
// (TestPythonExamplesGiveTheBuiltInSchedulesOnKTH).
//
// # pybatsim's own schedulers
//
// pybatsim 3.2.0 (tag v3.2.0, commit fa6600e, a release speaking this
// protocol; procset 1.0; Debian's python3-zmq, -sortedcontainers,
// -redis, -docopt), run unmodified through its CLI (`pybatsim`'s
// launcher.py NAME -s tcp://127.0.0.1:PORT) against `schedlab run
// --scheduler-endpoint`:
//
//   - easyBackfill runs the full KTH SP2 trace (27,992 jobs, 16 s) with
//     every decision accepted, also under its validating machine (-p).
//     It is not schedlab's easy: it gives each job one interval of
//     consecutive processors ("schedules rectangles"), so jobs wait for a
//     contiguous block; 12,799 of 27,992 jobs start and end as under the
//     built-in easy (mean wait 13,470 s against 6,351 s). On the trace
//     with every job made one processor wide on 12 processors, where
//     contiguity cannot matter, all 27,992 start and end as under the
//     built-in easy.
//   - schedFcfs, schedFiller and schedEasySjfBackfill (its batsim.sched
//     API) crash on the first JOB_SUBMITTED: pybatsim's Profiles.Unknown
//     passes type= to a constructor that does not take it, so a profile of
//     a type pybatsim does not know (our first one,
//     schedlab_swf_hidden_runtime) was a TypeError. Batsim itself only
//     ever sends its own profile types (delay, parallel, …: each gives the
//     job's work, hence its runtime, away), so schedlab now sends a
//     profile with no type ({}), which that API reads without the
//     constructor that fails: schedFcfs now runs unpatched (the first
//     2,000 KTH jobs made one processor wide on 8 processors: all 2,000
//     start and end as under the built-in fcfs, 1,987 on the same
//     processors). With that constructor patched outside pybatsim (before
//     the change), all three ran the first 2,000 KTH jobs to the end,
//     every decision accepted;
//     schedFcfs also takes consecutive processors only (91 of the 2,000
//     start and end as under the built-in fcfs; all 2,000 when every job
//     is one processor wide).
//   - fillerSched (consume_time 0.005 s per decision) is refused: a
//     decision timestamped after its message. randomSched is refused: it
//     picks random processors, busy ones included, which needs Batsim's
//     compute sharing (allow_compute_sharing is false here, and Batsim
//     refuses it the same way). fcfsSchedSleep is refused at its first
//     SET_RESOURCE_STATE (no power states).
//
// pybatsim 4 (batprotocol, Batsim 5: a binary hello frame, BatsimHello /
// EDCHello events with "event_type" and "event") is another protocol,
// not spoken here.
//
// # Cost
//
// One request-reply exchange per event time (about 55,000 for the KTH
// trace's 28,000 jobs); an exchange costs a loopback round trip between
// two processes (BenchmarkRoundTripPython, BenchmarkRoundTripGoFake),
// which dominates the run: the built-in easy simulates the trace in tens
// of milliseconds, the protocol takes seconds (BenchmarkKTHEasyPython).
package batsim
