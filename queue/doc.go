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
// /api/workloads/:id/export/:format), whose result is stored or shown at
// once. All three run under execute's budget. Parse and generate are
// bounded by the body (--max-upload-mb,
// 64 MiB, for an upload, 1 MiB otherwise: 413 before a parser reads it),
// a generation's parameters (within their ParamSpec's Min and Max), time
// (--timeout, 10 min, for a parse and the example; for other generations
// handlers.DefaultGenerateTimeout, 20 s; then 413, the call abandoned) and
// the Go heap (execute's watchdog at --memory-mb, 4 GiB, every 50 ms).
// An export's input was stored within those bounds; it has the time limit
// and the watchdog too, and a panic in it is an error. Not bounded: one allocation larger than the memory left between two samples,
// and code that ignores its stopped context. A Go out-of-memory kills the
// server, so the caps must keep a parse or a generation within
// --memory-mb: cmd/schedlab's TestHostileRequestsNeverTakeTheServerDown
// (every preset at every limit, decompression bombs, deep nesting) checks
// that they do.
//
// # Deployment
//
// schedlab serve starts an embedded NATS server (StartEmbedded) and logs
// `schedlab worker --nats URL --creds FILE`, each worker limited to
// WorkerPermissions; --nats URL uses an existing NATS instead. The
// Supervisor keeps --workers N local workers running; --in-process keeps
// runs in the server. docs/scale-out.md: Slurm and Kubernetes launchers.
package queue
