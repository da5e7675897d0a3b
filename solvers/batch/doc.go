// Package batch is a classic batch-scheduling simulator: rigid parallel
// jobs (submit, processors, user estimate, real runtime) on P identical
// processors, queued in arrival order under one of three policies. It is
// the baseline the cyclic family runs on Parallel Workloads Archive traces
// (variant "batch") and reports the literature's metrics, so its numbers
// can be checked against Batsim, pyss or Alea on the same trace.
// Measurements are in bench/README.md ("solvers/batch").
//
// Model: a job runs min(Run, Estimate) — a real system kills it at its
// requested time (counted: Result.Capped) — on Size concrete processors
// (the lowest free ids, for the Gantt); no preemption, no moldability.
// Policies: FCFS (nothing overtakes the queue head); EASY (Lifka 1995;
// Mu'alem & Feitelson 2001, "aggressive": the head's reservation at the
// shadow time by the running jobs' estimates; a later job starts now if
// it ends by the shadow time or uses only the processors the head leaves
// spare); conservative (Mu'alem & Feitelson 2001: every job reserved on
// arrival in the availability profile; when a job ends the schedule is
// compressed in queue order, each job taking the earliest place, never
// later). At one time: all completions, then arrivals in input order,
// then one pass. Result.Reservations lets a test replay the schedule and
// check that no protected job started after a reservation it was given.
//
// Metrics (Summary; Feitelson's "Metrics for parallel job scheduling" and
// Batsim's job output): over simulated jobs (skipped ones counted apart)
// wait = start − submit, wait_p95 by nearest rank, bounded slowdown
// max(1, (wait + run)/max(run, 10 s)), utilization Σ run·size/(P ×
// makespan), makespan = last end − first submit; the per-job table has
// Batsim's columns (BatsimColumns; stretch unbounded, allocated_resources
// an interval set "0-3 7").
//
// Cost: FCFS and EASY O(Q + R log R) per pass. Conservative keeps the
// profile as one merged sorted step function (K ≤ R + 2Q + 1
// breakpoints); a booking changes only its range (binary searches, at
// most two inserts); a compression first asks where a job would go
// without moving it and rebooks only jobs that move. Schedules,
// reservations included, equal the earlier profile's (pinned KTH, NASA
// and HPC2N schedules; the old profile kept as an oracle in
// profile_test.go).
//
// Simulate reserves SimulateBytes before allocating (errs.TooLarge on
// "procs"); SWFBuilder reserves its jobs as they grow. FromSWF builds jobs
// from a trace read whole; SWFBuilder the same jobs, notes and errors from
// records as they stream (formats.ScanSWF), dropping jobs larger than a
// machine size read later at Finish, in FromSWF's order
// (TestSWFBuilderEqualsFromSWFOnTheTraces, FuzzSWFBuilder).
package batch
