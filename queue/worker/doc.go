// Package worker is the worker side of the queue: a process that takes
// runs from the server's NATS JetStream work queue, executes them with
// package execute (generating an experiment's workload first when the run
// carries its recipe) and sends back their results, progress and
// heartbeats (see package queue for the whole protocol). It imports no
// store and no runner, so a worker binary links no SQLite; Main is the
// `worker` command of schedlab and schedlab-worker.
package worker
