// Package batsim lets a scheduler in any language drive schedlab's batch
// simulation (package batch) through Batsim's protocol: schedlab acts as
// Batsim 4.2.1, the ZeroMQ REQ side (pure Go github.com/go-zeromq/zmq4, no
// cgo), and the decision process is the REP side, as pybatsim 3.x,
// batsched and schedulers written against Batsim are. A message is one
// JSON object {"now", "events": [{"timestamp", "type", "data"}]}. The
// rules below are those of Batsim's docs/protocol.rst and its sources
// (src/protocol.cpp, src/server.cpp at tag v4.2.1); pybatsim 3.2.0's
// schedulers against schedlab and the protocol's cost are in
// bench/README.md ("solvers/batsim"). pybatsim 4 (batprotocol, Batsim 5)
// is another protocol, not spoken here.
//
// Who may run what: the operator registers decision processes
// (`--scheduler NAME=COMMAND` on serve and worker: started per run, split
// at spaces, no shell, {endpoint} replaced by a free loopback port; or
// NAME=tcp://host:port, one simulation at a time); a request never names a
// command. Each is the cyclic trace variant external:NAME; `schedlab run
// --scheduler-endpoint` is external:cli. A started process runs in a
// process group of its own, ended with its run (what it started ends
// too), and is killed if the server dies (Pdeathsig). It is waited for
// until it listens (or exits), whatever the reply timeout. A reply frame
// over MaxReplyBytes (64 MiB) fails its run when its size is announced,
// before anything is allocated.
//
// Time. schedlab's clock moves as Batsim's: SIMULATION_BEGINS at min(0,
// first submission); each reply's decisions are applied in order, each at
// its timestamp (one in the past at the current time, as Batsim's reader
// does), the simulation's own events (completions, submissions, finished
// switches, requested calls, in that order at one time) running in
// between; then the clock moves to the reply's now (pybatsim's
// consume_time: thinking time). The next message goes at once, at that
// now, when anything happened meanwhile (each event with its own
// timestamp), else at the next event time. A decision timestamped after
// its reply's now is refused, as Batsim refuses it; a reply whose now is
// before its message's is refused too (Batsim lets it pass; time going
// backwards is a bug worth naming). SIMULATION_ENDS comes when every job
// is finished, no call is pending, no host switching, and dynamic
// registration is off or finished; its reply must be empty.
//
// Jobs. The trace's jobs are "w0!"+job number ("w0!#"+position if numbers
// repeat), with the fields Batsim's SWF converters give (id, subtime,
// walltime = the estimate, res, profile; the converters at v4.2.1 give no
// user). Each job has its own profile "p"+number, in SIMULATION_BEGINS;
// it has no type (a real scheduler does not know the runtime; pybatsim 3's
// batsim.sched API reads it) unless forward_runtime gives Batsim's delay
// profile of the runtime. A job runs min(runtime, walltime) on exactly res
// hosts, alone on each (compute sharing off, as Batsim refuses it); a
// killed job ends at the kill (JOB_COMPLETED COMPLETED_KILLED, then
// JOB_KILLED with its progress, as Batsim's killer sends them). Registered
// jobs (dynamic_jobs) run their profile's duration: delay, or
// parallel_homogeneous with com 0 as cpu / host speed when the run gives
// one; a resubmitted job (pybatsim's resubmit_job: "w0!5#1", profile
// "p5") runs its original's runtime. Registered jobs are in
// Outcome.Dynamic, outside the trace's metrics.
//
// Energy (energy parameter, Batsim's --energy): every host has the power
// model of Power (idle, computing, sleeping watts; switch times; pstates 0
// to sleep_pstate-1 compute, sleep_pstate sleeps), set per run.
// SET_RESOURCE_STATE switches hosts (RESOURCE_STATE_CHANGED when all are
// switched), a sleeping or switching host cannot compute, a computing one
// cannot sleep; QUERY consumed_energy is answered at once (J, every host
// since the start); the run reports consumed_energy.
//
// Refusals. A malformed reply, a bad decision, no reply within
// DefaultTimeout (60 s), a process exiting mid-run (status and last output
// quoted) or a deadlock (jobs waiting, nothing running, no call) fails
// only its run, naming the scheduler, the message, the decision and the
// protocol item. examples/batsim/sched.py implements fcfs and easy as the
// built-in policies do and gives their schedules on KTH job by job
// (TestPythonExamplesGiveTheBuiltInSchedulesOnKTH); testdata/protocol.py
// (thinking time, kill and requeue, power states) gives schedules worked
// out by hand.
//
// Conformance to Batsim 4.2.1's protocol, item by item (the table of
// conformance_test.go, which holds this list and docs/batsim.md to it):
//   - SIMULATION_BEGINS (config, compute_resources with properties and
//     zone_properties, workloads, profiles): sent
//     (TestScriptedScheduleIsApplied)
//   - JOB_SUBMITTED (id, subtime, walltime, res, profile: the fields of
//     Batsim's SWF converters): sent (TestScriptedScheduleIsApplied)
//   - JOB_COMPLETED (job_state, return_code, alloc): sent
//     (TestCompletionsComeBeforeSubmissionsAtOneTime,
//     TestRejectKillAndCallMeLater)
//   - JOB_KILLED (job_ids, job_progress) after the killed jobs'
//     JOB_COMPLETED: sent (TestRejectKillAndCallMeLater)
//   - REQUESTED_CALL: sent (TestRejectKillAndCallMeLater,
//     TestThinkingTimeMessages)
//   - RESOURCE_STATE_CHANGED: sent (energy on) (TestPowerStatesAndEnergy)
//   - ANSWER consumed_energy: sent (energy on) (TestPowerStatesAndEnergy)
//   - NOTIFY no_more_static_job_to_submit: sent
//     (TestScriptedScheduleIsApplied)
//   - SIMULATION_ENDS (its reply must be empty): sent
//     (TestScriptedScheduleIsApplied)
//   - NOTIFY of external events, FROM_JOB_MSG: never sent (no external event
//     lists, no message-passing profiles)
//   - thinking time: decisions timestamped after the message, applied at
//     their timestamps: supported (TestThinkingTimeSchedule,
//     TestThinkingTimeMessages)
//   - a decision timestamped after its reply's now: refused, as Batsim
//     (TestBadDecisionsFailTheRunNamingTheDecision/timestamp_after_the_reply's_now)
//   - a reply whose now is before its message's: refused (Batsim lets it
//     pass) (TestBadDecisionProcessesFailTheirRun/backwards)
//   - interval sets ("1-2 1-3 5 7": unions of ids and ranges): supported
//     (TestParseIntervals)
//   - EXECUTE_JOB with alloc (rigid: exactly res hosts): supported
//     (TestScriptedScheduleIsApplied,
//     TestBadDecisionsFailTheRunNamingTheDecision/wrong_size)
//   - EXECUTE_JOB mapping: refused
//     (TestBadDecisionsFailTheRunNamingTheDecision/unsupported_field)
//   - EXECUTE_JOB storage_mapping, additional_io_job; storage resources:
//     refused (no storage)
//     (TestBadDecisionsFailTheRunNamingTheDecision/storage_mapping)
//   - compute sharing (two jobs on one host): refused, as Batsim with
//     sharing off
//     (TestBadDecisionsFailTheRunNamingTheDecision/busy_resources)
//   - REJECT_JOB: supported (TestRejectKillAndCallMeLater)
//   - KILL_JOB: supported (TestRejectKillAndCallMeLater,
//     TestKillAndRequeueSchedule,
//     TestBadDecisionsFailTheRunNamingTheDecision/kill_a_waiting_job)
//   - CALL_ME_LATER (strictly after the current time): supported; at or
//     before now refused, as Batsim (TestRejectKillAndCallMeLater,
//     TestBadDecisionsFailTheRunNamingTheDecision/call_at_exactly_now,
//     TestBadDecisionsFailTheRunNamingTheDecision/call_in_the_past)
//   - REGISTER_PROFILE delay: supported (dynamic_jobs)
//     (TestKillAndRequeueSchedule)
//   - REGISTER_PROFILE parallel_homogeneous (com 0): supported with a host
//     speed (TestParallelHomogeneousProfile,
//     TestDynamicRegistrationRefusals)
//   - REGISTER_PROFILE of other types: refused
//     (TestDynamicRegistrationRefusals)
//   - REGISTER_JOB (kill and requeue: pybatsim's resubmit_job): supported
//     (dynamic_jobs) (TestKillAndRequeueSchedule,
//     TestDynamicRegistrationRefusals)
//   - acknowledged registration (JOB_SUBMITTED of a registered job):
//     supported (dynamic_jobs_ack) (TestKillAndRequeueSchedule)
//   - NOTIFY registration_finished, continue_registration: supported
//     (TestRegistrationMustFinish, TestKillAndRequeueSchedule)
//   - Redis (a REGISTER_JOB without its job): off: refused
//     (TestDynamicRegistrationRefusals)
//   - SET_JOB_METADATA: supported (TestMetadataAndChangeJobState,
//     TestKillAndRequeueSchedule,
//     TestBadDecisionsFailTheRunNamingTheDecision/metadata_with_quotes)
//   - CHANGE_JOB_STATE a submitted job to REJECTED: supported
//     (TestMetadataAndChangeJobState)
//   - CHANGE_JOB_STATE to RUNNING or completed: refused (use EXECUTE_JOB,
//     KILL_JOB)
//     (TestBadDecisionsFailTheRunNamingTheDecision/job_state_running,
//     TestBadDecisionsFailTheRunNamingTheDecision/job_state_unknown)
//   - SET_RESOURCE_STATE (pstates, switch times, energy): supported (energy)
//     (TestPowerStatesAndEnergy, TestPowerStateRefusals,
//     TestBadDecisionsFailTheRunNamingTheDecision/pstate_without_power)
//   - QUERY consumed_energy: supported (energy) (TestPowerStatesAndEnergy,
//     TestBadDecisionsFailTheRunNamingTheDecision/energy_without_power)
//   - QUERY of anything else: refused, as Batsim
//     (TestBadDecisionsFailTheRunNamingTheDecision/unknown_query)
//   - ANSWER estimate_waiting_time: accepted (Batsim only logs it)
//     (TestMetadataAndChangeJobState,
//     TestBadDecisionsFailTheRunNamingTheDecision/unknown_answer)
//   - TO_JOB_MSG: refused (no message-passing profiles)
//     (TestBadDecisionsFailTheRunNamingTheDecision/message_to_a_job)
//   - NOTIFY of other types from the decision process: refused, as Batsim
//     (TestBadDecisionsFailTheRunNamingTheDecision/notify_unknown)
//   - profiles forwarded (the job's runtime): off by default;
//     forward_runtime gives delay profiles
//     (TestForwardedRuntimeIsADelayProfile)
//   - a reply over MaxReplyBytes: refused when announced
//     (TestBadDecisionProcessesFailTheirRun/huge)
package batsim
