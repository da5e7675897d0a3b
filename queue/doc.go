// Package queue runs schedlab's runs in worker processes, on this machine
// or a cluster, over NATS JetStream. The server stays the only writer of
// SQLite; workers execute runs with package execute and send back what
// happened. This package is the server's side (the Dispatcher, the
// embedded NATS server, the Supervisor of local workers); queue/worker is
// the worker's, which links no SQLite; both speak queue/wire (streams,
// subjects, buckets, messages).
//
// Decisions:
//
//   - At least once, stored once. The Dispatcher claims queued runs and
//     publishes them, a window ahead (Config.Window), on a work queue whose
//     one durable consumer the workers share; the message ID is the run ID.
//     A worker acknowledges a run only once its result is in
//     wire.ResultsStream, sending InProgress every AckWait/3 meanwhile: a
//     dead worker's run goes to another after AckWait (30 s). The server
//     stores results, then acknowledges them: in groups
//     (runner.GroupCommit), idempotently by run ID, only with their run's
//     claim (claim.go).
//   - Batches (issue 43). A sweep's runs are short, and per message the
//     server pays a publish, a claim check, a JetStream acknowledgement
//     (a file-store removal) and a channel hop; the profile of 3,000
//     no-op runs before batches (bench/README.md, "queue") had the store's
//     ends and claims, JetStream's acknowledgements and the per-run
//     messages on top. So runs travel several in one message (a batch,
//     wire.Job.Runs: as many as take about batchWork, 50 ms, by the mean
//     time of recent runs, at most maxBatch, 64; one alone until a run
//     has ended), the window holds two batches per worker slot, the
//     dispatcher claims up to claimGroup (256) runs per transaction, and
//     the worker returns the ends of a batch's runs together (one
//     wire.Results message for those that ended within 50 ms of each
//     other), which the server stores in one group commit and
//     acknowledges once all are stored. A batch's short runs send no
//     progress messages (the heartbeat names the run under way); a run
//     longer than the progress interval does.
//   - A batch given again (its worker died or stopped) asks the server
//     which of its runs have not ended (wire.PendingSubject; answered
//     once the results sent before the question are stored): a run
//     whose end was stored is not executed again. The worker is given
//     the first run left; the others are published alone, so a run that
//     kills every worker ends failed by itself, not with its batch (the
//     batch's MAX_DELIVERIES advisory ends only the runs it still holds).
//     A single run given again asks too.
//   - Progress and heartbeats are core NATS messages, kept in the server's
//     memory: a lost one is repeated by the next.
//   - Workloads travel once, by SHA-256 (wire.WorkloadsBucket); one not
//     generated yet travels as its recipe (wire.WorkloadRef.Generate).
//   - A run that kills every worker it is given (a fatal out-of-memory, a
//     crash no recover catches) ends failed, "worker died: ...", after
//     MaxDeliver (3) deliveries, on JetStream's advisory, which a stream
//     keeps for a server down meanwhile (wire.AdvisoriesStream). The
//     server never executes a run, so it keeps serving.
//   - Each worker enforces a run's memory budget itself (execute's heap
//     watchdog, a Go soft memory limit); with --concurrency 1, what serve
//     starts, the budget is exactly the run's: Go cannot attribute heap to
//     a goroutine.
//   - A stopping worker hands its runs back (Nak), which counts towards
//     MaxDeliver. A restarted server does not mark runs left running
//     interrupted: the stream and the workers outlive it, and Start takes
//     them over. Cancel: see Dispatcher.Cancel.
//
// # What runs in the server
//
// Runs, reproduce runs and experiments' workloads execute on workers. A
// family's code runs in a server request only to read an upload
// (execute.Parse: POST /api/workloads), generate a workload
// (execute.Generate: POST /api/workloads/generate, a strategy's example)
// or export a stored one (execute.Export: GET
// /api/workloads/:id/export/:format), and an adversarial search
// (package adversaries) generates and mutates its candidates there (their
// runs execute on workers). All run under execute's budget, bounded by
// the body (--max-upload-mb, 64 MiB, for an upload, 1 MiB otherwise: 413
// before a parser reads it), a generation's parameters (within their
// ParamSpec's Min and Max), time (--timeout, 10 min, for a parse and the
// example; handlers.DefaultGenerateTimeout, 20 s, for other generations;
// then 413, the call abandoned) and the Go heap (execute's watchdog at
// --memory-mb, 4 GiB, every 50 ms); an export's input was stored within
// those bounds, and a panic in it is an error. Not bounded: one
// allocation larger than the memory left between two samples, and code
// that ignores its stopped context. A Go out-of-memory kills the server,
// so the caps must keep these calls within --memory-mb: cmd/schedlab's
// TestHostileRequestsNeverTakeTheServerDown (every preset at every limit,
// decompression bombs, deep nesting) checks that they do.
//
// # Deployment
//
// schedlab serve starts an embedded NATS server (StartEmbedded) and logs
// `schedlab worker --nats URL --creds FILE`, each worker limited to
// WorkerPermissions; --nats URL uses an existing NATS instead. The
// Supervisor keeps --workers N local workers running; --in-process keeps
// runs in the server. docs/scale-out.md: Slurm and Kubernetes launchers.
package queue
