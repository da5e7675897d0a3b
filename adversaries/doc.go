// Package adversaries runs the adversarial searches of package
// solvers/adversary ("where does A lose to B?", issue 45) in the server:
// stored, evaluated through the normal run path, resumed after a crash.
// solvers/adversary is the search itself (pure: no store, no runs); this
// package is its driver above the runs, as experiments' runs are
// expanded in package experiments and queued by the handlers.
//
// Decisions:
//
//   - A search is a Spec (the form's and the API's fields, the CLI's
//     flags by the same names), checked and built by Build, which the CLI
//     (`schedlab adversary`) calls too: one generator, one set of
//     mutations, one metric direction (the family's declared metric,
//     adversary.Direction), so a seed proposes the same candidates in
//     the CLI and in the server. The generator and the mutations run in
//     the server, under the runner's budget (execute.Generate); no run
//     does. A family that declares no metrics has the metric's direction
//     read from a report: the search queues A and B on its first instance
//     (the candidate it would make first) and reads it from their runs,
//     so an unknown metric of such a family ends the search failed,
//     naming the metric, instead of refusing the request.
//   - Every candidate runs A and B as ordinary runs: the instance is
//     stored as a workload, the two runs queued through the runner
//     (runner.PrepareAll checks them as any run), executed by whichever
//     backend serves the queue (the in-process pool or worker processes
//     over NATS), under the same per-run budget as every run. A failed or
//     canceled run is a result (adversary.SideOf: a side with no value,
//     its message the reason), never skipped.
//   - Determinism on the worker path: the search proposes a batch (one
//     annealing step of every restart, one CMA-ES generation), the
//     Evaluator waits for all of the batch's runs and returns their
//     outcomes in the batch's order; the search then updates in index
//     order. Completion order never matters, so one seed gives the same
//     best instance and score as the CLI's in-process evaluation
//     (TestWorkerPathIsTheInProcessSearch). The time budget (Spec.Seconds)
//     is the exception: where it ends depends on the machine.
//   - Storage (store migration 0014): the search's Spec as its config;
//     each evaluation, in order, as it is made (a batch's evaluations are
//     written before the next batch is submitted, and at the end); the
//     candidates submitted and not yet recorded (adversary_candidates:
//     the instance's sha256, its workload, its two runs). Once recorded,
//     a candidate that is not the best so far loses its runs and its
//     workload; the best's are kept, so the best instance is an ordinary
//     workload with its two runs (the page's Gantts), relabelled at the
//     end with the search, its seed and its build's commit (issue 45
//     item 6).
//   - Resume: at Start the interrupted runs of running searches are
//     queued again (as experiments' are) and each running search is
//     built again from its Spec and run with its stored evaluations as
//     adversary.Search's Known map: the search replays them without
//     running anything (the same candidates, by the seed), re-records
//     them at the same positions (a position is a primary key, so nothing
//     counts twice), finds the runs a previous process had submitted for
//     the batch in flight (the candidate links) instead of submitting
//     them again, and goes on. An interrupted run is never a result: it
//     is queued again, so a stop never scores as a failure.
//   - Waiting: a search waiting for its runs looks at the store when the
//     runner says runs ended (Kick, wired to runner.Options.Ended) and at
//     least every Options.Poll (1 s), for ends another process stored.
package adversaries
