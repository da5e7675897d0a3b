// Package service owns "definition → stored runs" (issue 44 item 1): the
// one Start that POST /api/experiments, the sweep form and `schedlab
// sweep` call. It sits in layer 6 (docs/architecture.md), above the store
// and the runner it hands an experiment to, beside the pure experiments
// package whose Validate and Expand it calls.
//
// Start checks a definition once (experiments.Validate: every swept
// value against its ParamSpec, written back as the run gets it), expands
// it, plans the workloads its presets name as recipes within the Budget
// (generated later by the first run that needs each, where runs run),
// checks each stored workload, variant and budget knob once, and stores
// the experiment with its recipes and runs in one transaction: a refused
// definition stores nothing. A run's parameters are the family's
// defaults with its cell's checked values over them, so no run is
// resolved again in the request; the worker checks them once more on
// its side, when it decodes them into the family's typed configuration.
//
// The service declares what it needs of the store (Store); the server
// gives it the SQLite store, `schedlab sweep` a Store of its own that
// keeps the experiment in memory and runs it in the process.
package service
