// Package queue runs schedlab's runs in worker processes, on this machine
// or on a cluster, over NATS JetStream (issue 21). The server stays the
// only writer of SQLite; workers execute runs with execute.Run and send
// back what happened. This package is the server's side (the Dispatcher,
// the embedded NATS server, its permissions, the Supervisor); the worker's
// side is package queue/worker, which imports no store and no runner, and
// both speak package queue/wire (names, messages, connecting).
//
// # Pieces
//
//	server process                                    worker processes (schedlab worker)
//	┌──────────────────────────────┐                  ┌─────────────────────────────────┐
//	│ runner.Runner (Submit, ...)  │                  │ worker.Run: Concurrency slots   │
//	│ Dispatcher (runner.Backend)  │  SCHEDLAB_RUNS   │  Next ─▶ execute.Run ─▶      │
//	│  ClaimNext ─▶ publish ───────┼─ work queue ────▶│  publish result, then ack       │
//	│  store results (store.End) ◀─┼─ SCHEDLAB_RESULTS┤  InProgress every AckWait/3     │
//	│  progress, heartbeats ◀──────┼─ core subjects ──┤  progress, heartbeats           │
//	│  Cancel ─────────────────────┼─ schedlab.cancel▶│  cancels the run's context      │
//	│ Embedded NATS (optional)     │  object store    │  workloads by SHA-256, cached   │
//	│ Supervisor: --workers N      │                  │                                 │
//	└──────────────────────────────┘                  └─────────────────────────────────┘
//
// In detail:
//
//   - RunsStream (SCHEDLAB_RUNS, subjects schedlab.run.<run id>) is a
//     WorkQueuePolicy stream with one durable pull consumer, RunsConsumer,
//     that every worker shares: JetStream hands each run to one worker.
//     Each message is published with Nats-Msg-Id = the run ID, so a
//     publish repeated within the duplicate window (10 min) is one message.
//   - The Dispatcher claims queued runs (store.ClaimNext: they become
//     running) and publishes them while fewer than a window are out: the
//     larger of Config.Window (16) and twice the workers' concurrency from
//     their heartbeats. A 10,000-run experiment thus shows a few dozen runs
//     running, not all of them, and a server restart has few to take over.
//   - A worker acknowledges a run only after its result is stored in
//     ResultsStream (SCHEDLAB_RESULTS, subjects schedlab.result.<worker
//     key>.<run id>, publish acknowledged by JetStream, Nats-Msg-Id = run
//     ID and a digest of the run's claim, claim.go). While a run executes it sends InProgress every
//     AckWait/3, so a long run keeps its message; a worker that dies stops
//     sending, and after AckWait (30 s) JetStream gives the run to another.
//   - The server consumes ResultsStream with a durable consumer and stores
//     each result with store.End before acknowledging it, in groups: the
//     results read while the last group was written share one transaction
//     (one commit, most of what storing a run costs). Storing is
//     idempotent by run ID: the end of a run that is no longer running
//     (stored already, or canceled meanwhile) is a Conflict, acknowledged
//     and dropped. A report larger than a message (NATS max payload less
//     64 KiB) goes through the ReportsBucket object store.
//   - Progress (schedlab.progress.<id>, at most every 250 ms per run) and
//     heartbeats (schedlab.heartbeat, every 2 s: name host:pid, concurrency,
//     the runs it executes, runs done) are core NATS messages: losing one
//     loses nothing that the next does not repeat. The server keeps them in
//     memory (Runner.Progress, Runner.Workers, the /workers page) and writes
//     progress and the run's worker (runs.worker) at most every 250 ms.
//   - Workloads go to the WorkloadsBucket object store once, keyed by their
//     SHA-256 (content addressed: an unchanged workload is never sent
//     twice); a worker keeps up to 256 MiB of them in memory.
//   - An experiment's workload not generated yet goes as its recipe
//     (WorkloadRef.Generate): the worker generates it (once per workload
//     per process, remembered), puts its data (by SHA-256) and its
//     description (name, summary, preview) in WorkloadsBucket and names
//     them in the run's Result (Generated); the server stores them in the
//     workload's row before the run's end, and later runs get it as data.
//     Two workers that take runs of one workload at once may both
//     generate it (the same bytes; the first stored stays).
//
// # Failures
//
//   - A worker killed mid-run (SIGKILL, the OOM killer, a machine gone):
//     its run is given to another worker after AckWait; the attempt number
//     shows in the run's progress note.
//   - A run that kills every worker it is given (a fatal "out of memory",
//     a crash in a strategy that no recover catches) is not retried past
//     MaxDeliver (3): JetStream publishes the MAX_DELIVERIES advisory
//     ($JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.SCHEDLAB_RUNS.workers), and
//     the server ends the run failed with "worker died: the run was given to
//     a worker 3 times and each stopped before finishing it (...); last on
//     host:pid", then deletes its message. The server never executes a
//     run, so it keeps serving (what of a strategy's code it does run is
//     below, "What runs in the server"). An advisory is a core message, sent
//     once: AdvisoriesStream captures its subject, so one sent while the
//     server is down (NATS up: an external deployment, or the moments of a
//     restart) waits there, up to 30 days, and the server's durable
//     consumer of it ends the run when it is back. The advisory is
//     acknowledged once the run is stored failed (or was ended already).
//   - Memory: each worker process enforces the run's budget for itself: the
//     execute's heap watchdog stops a run over budget ("run stopped: Go heap
//     exceeded the memory budget of ..."), and the Go soft memory limit
//     (debug.SetMemoryLimit) is set to budget × concurrency + 256 MiB so the
//     GC works harder before that. With --concurrency 1 (what serve starts)
//     the budget is exactly the run's, which the in-process pool could not
//     do (Go cannot attribute heap to a goroutine).
//   - A worker stopping (SIGTERM, --exit-when-idle never stops a busy one)
//     cancels its runs and hands them back at once (Nak). JetStream counts
//     that as a delivery: a run cut off by its worker stopping MaxDeliver
//     times (say, three server stops while it executes on local workers)
//     ends failed with "worker died: ..." like a crashing one.
//   - Server restart: runs running in SQLite are not marked interrupted
//     (runner.Backend): the stream and the workers outlive the server. On
//     Start the Dispatcher counts them as out, stores the results waiting
//     in ResultsStream, waits two heartbeat intervals, and publishes again
//     (a fresh message ID) only those whose message is gone, no worker
//     reports running, and which are still running: runs claimed but never
//     published when the server died. A worker whose connection drops keeps
//     executing and retries sending its result until it reconnects.
//   - Cancel: the run's message is deleted from the stream if still there,
//     and a message on schedlab.cancel reaches every worker; the one
//     running the run cancels its context (cause execute.ErrUserCanceled)
//     and stores the run canceled. If no worker is known to run it (no
//     progress or heartbeat named it) the server stores it canceled at
//     once, so canceling an experiment ends its runs waiting in the stream
//     without a round trip each; a worker that has not stored it within
//     10 s is overruled the same way. A worker remembers cancels of runs it
//     does not have for a minute, in case their message is on its way to
//     it; a result arriving after the server stored the cancel is dropped.
//
// # What runs in the server
//
// Runs, reproduce runs and an experiment's workloads execute on the
// workers. Two things of a strategy's code run in the server's request
// goroutine, through package execute: reading an upload
// (execute.Parse: POST /api/workloads, the upload form) and generating a
// workload a user asks for (execute.Generate: POST /api/workloads/generate
// and its form, the example workload of a strategy's page). They are
// there because their result is stored at once and shown in the response.
// What bounds them:
//
//   - the upload body: at most --max-upload-mb (64 MiB), refused with 413
//     before a strategy's parser sees it; every other body at most 1 MiB;
//   - a preset's parameters are resolved against their ParamSpecs (each
//     number within its Min and Max) before generating;
//   - time: a parse has the run's --timeout (10 min), a generation in a
//     request 20 s (handlers.DefaultGenerateTimeout), the example the
//     run's --timeout; past it the request fails with 413 and the call is
//     abandoned (its goroutine runs on until the strategy honours its
//     context);
//   - memory: execute's heap watchdog stops the call once the Go heap
//     passes --memory-mb (4 GiB), sampled every 50 ms.
//
// Exporting a stored workload to another tool's format (GET
// /api/workloads/:id/export/:format, solvers.ExportWorkload) also runs a
// family's code in the request, without execute's budget: its input is a
// workload already stored, so made within the bounds above, and a panic
// is caught by echo's Recover middleware.
//
// Not bounded: a single allocation larger than the memory left between
// two samples, and a parser that ignores its context after it was
// stopped. A Go out-of-memory is fatal to the process, so such a request
// takes the server down with it; an upload cap and parameter limits that
// keep a parse or a generation within --memory-mb are what prevents it
// (cmd/schedlab's hostile-request test sends every preset at every
// limit, decompression bombs and deep nesting, and checks the server
// stays up).
//
// # Deployment
//
// schedlab serve starts an embedded NATS server (StartEmbedded) with
// JetStream stored in DB.nats/jetstream beside the database, listening on
// a free loopback port unless --nats-listen ADDR; workers authenticate
// with the NKey seed generated once into DB.nats/worker.nk (mode 0600)
// plus a key of their own, and may use only a worker's subjects
// (WorkerPermissions, auth.go); a result is stored only if it carries its
// run's claim (claim.go). The log prints the URL and the seed's path:
// `schedlab worker --nats URL --creds FILE`.
// With --nats URL [--creds FILE] it uses an existing NATS deployment
// instead (a NATS .creds file or an NKey seed). Supervisor keeps --workers
// N local worker processes (default 2, this program's own binary) running,
// restarting one that exits after a pause that doubles up to 30 s; on
// Linux they get SIGTERM when the server dies (Pdeathsig), even killed
// outright, so none is left behind. serve --in-process keeps the old
// in-process pool (no NATS), which the handlers' tests use.
// docs/scale-out.md shows Slurm and Kubernetes launchers.
package queue
