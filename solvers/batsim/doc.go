// Package batsim lets a scheduler in any language drive schedlab's batch
// simulation (package batch) through Batsim's protocol: schedlab acts as
// Batsim, the ZeroMQ REQ side (pure Go github.com/go-zeromq/zmq4, so no
// cgo), and the decision process is the REP side, as pybatsim 3.x,
// batsched and schedulers written against Batsim are. A message is one
// JSON object {"now", "events": [{"timestamp", "type", "data"}]} (Batsim's
// docs/protocol.rst, as pybatsim's batsim.py reads it). Tests against
// pybatsim's own schedulers and the protocol's cost are in bench/README.md
// ("solvers/batsim").
//
// Who may run what: the operator registers decision processes
// (`--scheduler NAME=COMMAND` on serve and worker: started per run, split
// at spaces, no shell, {endpoint} replaced by a free loopback port; or
// NAME=tcp://host:port, one simulation at a time); a request never names a
// command. Each is the cyclic trace variant external:NAME; `schedlab run
// --scheduler-endpoint` is external:cli.
//
// Sent: SIMULATION_BEGINS at min(0, first submission) with P compute
// resources "P<id>", no storage, sharing off, every dynamic or Redis
// option off, and one profile "swf" with no type — it does not give the
// runtime away (every Batsim profile type would), and pybatsim's
// batsim.sched API reads it. Then one message per event time, in the
// built-in policies' order: JOB_COMPLETED (by end, then trace position;
// COMPLETED_WALLTIME_REACHED for a job cut at its request), JOB_SUBMITTED
// in trace order (id "w0!"+job number, "w0!#"+position if numbers repeat;
// walltime = the estimate), NOTIFY no_more_static_job_to_submit after the
// last, REQUESTED_CALL. JOB_KILLED goes in a message of its own at the
// kill. SIMULATION_ENDS when every job finished or was rejected; its
// reply must be empty; pending calls are dropped.
//
// Accepted decisions take effect at the time of the message they answer
// (no consume_time: a timestamp before or after it is refused):
// EXECUTE_JOB (a waiting job, free existing resources, exactly res of
// them: rigid; runs min(runtime, walltime); mapping and storage fields
// refused), REJECT_JOB (left out of the metrics, counted in
// jobs_rejected, as Batsim's output does), CALL_ME_LATER (≥ now; over
// 10,000 messages at one time is an error), KILL_JOB (running jobs end
// now; a finished one is acknowledged without progress), NOTIFY
// registration_finished / continue_registration (no-ops). Every other
// type, NOTIFY or field fails the run naming it: nothing is dropped
// silently. A malformed reply, no reply within DefaultTimeout (60 s), a
// process exiting mid-run (status and last output quoted) or a deadlock
// (jobs waiting, none running, no call) fails only its run, naming the
// scheduler, message and decision; the process is killed, or given 2 s
// after SIMULATION_ENDS. examples/batsim/sched.py implements fcfs and easy
// as the built-in policies do and gives their schedules on KTH job by job
// (TestPythonExamplesGiveTheBuiltInSchedulesOnKTH). pybatsim 4
// (batprotocol, Batsim 5) is another protocol, not spoken here.
package batsim
