// Package batch is a classic batch-scheduling simulator: a stream of rigid
// parallel jobs (submit time, processors, user estimate, real runtime) on a
// homogeneous machine of P processors, queued in arrival order (FCFS) and
// scheduled by one of three policies. It is the baseline the cyclic
// family's job-flow issue runs on real Parallel Workloads Archive traces
// (variant "batch"), and it reports the metrics the batch-scheduling
// literature uses, so its numbers can be checked against other simulators
// (Batsim, pyss, Alea) on the same trace.
//
// # Model
//
//   - Job: Submit (s), Size (processors, 1..P), Estimate (s, > 0: the
//     walltime the scheduler plans with) and Run (s, > 0: how long it
//     really runs). A job runs for min(Run, Estimate): a real system
//     kills a job at its requested time, so a longer real runtime is cut
//     and counted (Result.Capped).
//   - Machine: P identical processors. A started job holds Size concrete
//     processors (the lowest free ids, for the Gantt) until it ends; no
//     preemption, no moldability.
//   - Policies (Policy):
//     FCFS: start queued jobs in arrival order while the queue head fits;
//     nothing overtakes the head.
//     EASY (Lifka 1995; Mu'alem & Feitelson 2001, "aggressive"): the head
//     gets a reservation at the earliest time it fits, judged by the
//     estimates of the running jobs (the shadow time); a later job may
//     start now if it fits now and does not delay that reservation: it
//     ends by the shadow time, by its estimate, or uses only the
//     processors the head leaves spare at the shadow time.
//     Conservative (Mu'alem & Feitelson 2001): every job gets a
//     reservation when it arrives, at the earliest time it fits in the
//     availability profile of the running jobs (by estimate) and of every
//     earlier reservation; a job starts when its reservation comes. When
//     a job ends (before its estimate, or on time after an earlier
//     compression moved jobs ahead) the schedule is compressed: each
//     waiting job in queue order gives up its reservation and takes the
//     earliest one that fits with all others in place, which is never
//     later than before (its old place is still free), so no reservation
//     is ever delayed.
//   - Events at the same time: all completions, then all arrivals (in
//     input order), then one scheduling pass. Reservations are recorded
//     (Result.Reservations) so that a test can replay the schedule and
//     check that no protected job started after any reservation it was
//     given: the head's shadow time under EASY, every reservation under
//     conservative.
//
// # Metrics (Summary)
//
// Over all simulated jobs (skipped ones excluded, counted apart): wait =
// start − submit; wait_mean and wait_p95 (nearest rank); bounded slowdown
// bsld = max(1, (wait + run) / max(run, τ)) with τ = 10 s, averaged;
// utilization = Σ run × size / (P × makespan); makespan = last end − first
// submit. These are the definitions of Feitelson's "Metrics for parallel
// job scheduling" and of Batsim's job output, whose per-job columns
// (job_id, submission_time, requested_number_of_resources, requested_time,
// starting_time, execution_time, finish_time, waiting_time,
// turnaround_time, stretch, allocated_resources) WriteBatsimCSV writes;
// stretch is turnaround / execution time (unbounded), allocated_resources
// Batsim's interval set ("0-3 7").
//
// # Cost
//
// FCFS and EASY take O(Q + R log R) a scheduling pass for Q queued and R
// running jobs.
//
// Conservative keeps the availability profile, the free processors over
// time by the estimates of the running jobs and the reservations, as a
// sorted step function of K ≤ R + 2Q + 1 breakpoints in one slice, kept
// merged (no breakpoint repeats the count before it; the past is dropped
// from the front as time advances). Booking or releasing [start, end)
// changes only that range: two binary searches (O(log K)), at most two
// inserted breakpoints (a memmove of the ones after them), the counts
// inside the range, a merge check at its two ends. The earliest start of a
// job scans from the origin to the answer, O(K) at most, with one bound
// (min(limit, start+estimate)) per run of room.
//
// A compression visits every waiting job in queue order but moves the
// profile only for a job that moves: it first asks where the job would go
// if it gave up its reservation t, without giving it up (the scan stops at
// t: before t the profile is the same either way, and from t on the job's
// own processors stay free for its estimate); only when the answer is
// earlier than t is the old booking released and the new one made. So a
// compression costs O(Q · K) reads at worst and O(K) writes per job that
// moves, instead of two updates and a whole-profile merge per waiting job
// before issue 23; at a fixed queue length the cost per job is constant
// (linear in jobs, BenchmarkConservativeFixedQueue), and the schedules,
// reservations included, are those of the old profile job by job (the
// pinned KTH, NASA and HPC2N schedules in testdata/, and the old profile
// kept as an oracle in profile_test.go). The result does not depend on
// how the profile is stored: the earliest start is a function of the step
// function alone, with the floating-point sum start+estimate compared to
// the breakpoints as before. Conservative stays the slow policy on long
// queues (a compression reads the whole queue), as in every simulator.
//
// # Memory budget
//
// Simulate reserves, before allocating, what SimulateBytes estimates: per
// processor its busy flag and Gantt lane, per job its order, reservation,
// placement and report row, and 8 bytes per processor a job holds (Σ sizes);
// over the memory budget in the context it is errs.TooLarge on "procs".
// SWFBuilder reserves its kept jobs (40 bytes and a 4-byte index each) as
// their list grows, on the file's name.
//
// # From a trace
//
// FromSWF makes jobs of a trace read whole (formats.ReadSWF); SWFBuilder
// makes the same jobs, counts, notes and errors from records as they are
// read (formats.ScanSWF hands each to SWFBuilder.Add), so the command line
// never holds the trace's 152-byte records. A header line may follow job
// lines and the machine size may come from it, so the records larger than
// the machine are dropped, in order, at Finish, where the options are
// judged too, in FromSWF's order (TestSWFBuilderEqualsFromSWFOnTheTraces,
// TestSWFBuilderEdgeCases, FuzzSWFBuilder).
package batch
