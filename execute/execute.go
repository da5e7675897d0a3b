package execute

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
)

// How often a run's progress is reported.
const (
	// DefaultProgressInterval is the least time between two reports of one
	// run's progress (to SQLite, or from a worker to the server): polling
	// pages refresh about twice a second.
	DefaultProgressInterval = 250 * time.Millisecond
)

// memorySampleInterval is how often the memory watchdog reads the heap size.
const memorySampleInterval = 50 * time.Millisecond

// heapMetric is the Go heap occupied by objects, live or not yet swept: the
// memory the process actually holds for the heap.
const heapMetric = "/memory/classes/heap/objects:bytes"

// abandonGrace is how long Run waits, after stopping a run, for the
// strategy to return. A strategy that ignores its context past this is left
// behind (its goroutine runs on until it returns; its result is dropped) so
// the caller is not held forever. A variable for tests.
var abandonGrace = 5 * time.Second

// PanicError is a panic of a strategy, recovered. Its message is the one a
// user reads; Stack is for the log.
type PanicError struct {
	Strategy string
	Value    any
	Stack    []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error in strategy %s: %v", e.Strategy, e.Value)
}

// Causes of a run's cancellation, telling which status to store (see
// Outcome): a run's context canceled with ErrUserCanceled ends canceled,
// with ErrShutdown interrupted.
var (
	ErrUserCanceled = errors.New(runtypes.MsgCanceled)
	ErrShutdown     = errors.New("schedlab is shutting down")
)

// Ended is how a run ended, as the side that executed it stores or sends
// it: a done run's report (report.EncodeReport; a failure to encode is
// the run's internal error), or the final status, message and field of
// err (Outcome). A strategy's panic is logged to log with its stack, as
// "OP: strategy panicked".
func Ended(log *slog.Logger, op, id, strategy string, rep *report.Report, err error) (status string, encoded json.RawMessage, msg, field string) {
	if err == nil {
		if encoded, err = report.EncodeReport(rep); err == nil {
			return runtypes.StatusDone, encoded, "", ""
		}
		err = &errs.Error{Kind: errs.Internal, Err: fmt.Errorf("strategy %s: encoding the report: %w", strategy, err)}
	}
	var pe *PanicError
	if errors.As(err, &pe) {
		log.Error(op+": strategy panicked", "run", id, "strategy", strategy, "panic", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
	}
	status, msg, field = Outcome(err)
	return status, nil, msg, field
}

// Outcome maps an execution error to the run's final status, message and
// field: canceled by the user, interrupted by a shutdown, or failed.
func Outcome(err error) (status, msg, field string) {
	if errs.KindOf(err) == errs.Canceled {
		if errors.Is(err, ErrUserCanceled) {
			return runtypes.StatusCanceled, runtypes.MsgCanceled, ""
		}
		// Cut off by a shutdown (or the server's context): not the run's fault.
		return runtypes.StatusInterrupted, runtypes.MsgInterrupted, ""
	}
	msg, field = err.Error(), errs.FieldOf(err)
	if field != "" {
		msg = strings.TrimPrefix(msg, field+": ")
	}
	return runtypes.StatusFailed, msg, field
}

// Run runs variant of s on w with params, within budget: the path every
// run takes, from the worker pool and from the command line.
//
// It resolves variant (empty: the first) and params against s.Params(),
// stops the run at the time limit or when the Go heap exceeds the memory
// budget (both errs.TooLarge, "run stopped: ..."), turns a panic of the
// strategy into errs.Internal ("internal error in strategy NAME: ...",
// with a *PanicError in the chain), and checks the Report with Validate
// (errs.Internal when invalid). When ctx is canceled the error is
// errs.Canceled and wraps context.Cause(ctx). progress may be nil.
func Run(ctx context.Context, s *solvers.Strategy, w *solvers.Workload, variant string, params solvers.Params,
	progress solvers.Progress, budget solvers.Budget) (*report.Report, error) {
	if s == nil {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "strategy", Err: errors.New("no strategy")}
	}
	if w == nil {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "workload", Err: errors.New("no workload")}
	}
	v, err := s.ResolveVariant(variant)
	if err != nil {
		return nil, errs.Wrap(errs.Invalid, err)
	}
	// Params are resolved once: by Submit for a stored run, by the
	// family's adapter (which decodes them into its typed config) for the
	// CLI. Here only the server's own limits are checked.
	if err := CheckLimits(s, false, params, budget); err != nil {
		return nil, errs.Wrap(errs.Invalid, err)
	}
	return execute(ctx, s.Info.Name, budget, progress, validReport, func(ctx context.Context, progress solvers.Progress) (*report.Report, error) {
		return s.Run(ctx, w, v, params, progress)
	})
}

// File runs variant of s straight from one workload file read from
// r (Strategy.RunFile: the command line's path, where nothing is
// stored), with the guarantees of Run. A strategy that does not run
// this variant from a file named name is errs.Invalid: ask RunsFile first.
func File(ctx context.Context, s *solvers.Strategy, name string, r io.Reader, variant string, params solvers.Params,
	progress solvers.Progress, budget solvers.Budget) (*report.Report, error) {
	if s == nil {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "strategy", Err: errors.New("no strategy")}
	}
	v, err := s.ResolveVariant(variant)
	if err != nil {
		return nil, errs.Wrap(errs.Invalid, err)
	}
	if !s.RunsFileOf(name, v) {
		return nil, errs.New(errs.Invalid, "workload", "%s %s does not run straight from the file %s", s.Info.Name, v, name)
	}
	if err := CheckLimits(s, false, params, budget); err != nil {
		return nil, errs.Wrap(errs.Invalid, err)
	}
	return execute(ctx, s.Info.Name, budget, progress, validReport, func(ctx context.Context, progress solvers.Progress) (*report.Report, error) {
		return s.RunFile(ctx, name, r, v, params, progress)
	})
}

// Reproduce runs the seed experiment of s with params (which the
// family resolves against its ReproduceParams), with the guarantees of
// Run.
func Reproduce(ctx context.Context, s *solvers.Strategy, params solvers.Params, progress solvers.Progress,
	budget solvers.Budget) (*report.Report, error) {
	if s == nil {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "strategy", Err: errors.New("no strategy")}
	}
	if err := CheckLimits(s, true, params, budget); err != nil {
		return nil, errs.Wrap(errs.Invalid, err)
	}
	return execute(ctx, s.Info.Name, budget, progress, validReport, func(ctx context.Context, progress solvers.Progress) (*report.Report, error) {
		return s.Reproduce(ctx, params, progress)
	})
}

// Parse reads an uploaded workload with s.ParseWorkload under
// budget, with the guarantees of Run: the time limit, the heap
// watchdog, a panic turned into errs.Internal, errs.Canceled when ctx (the
// request's context: the client went away) is canceled. The strategy sees
// the budget as solvers.BudgetFrom(ctx).
func Parse(ctx context.Context, s *solvers.Strategy, files []solvers.File, budget solvers.Budget) (*solvers.Workload, error) {
	if s == nil {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "strategy", Err: errors.New("no strategy")}
	}
	return execute(ctx, s.Info.Name, budget, nil, validWorkload, func(ctx context.Context, _ solvers.Progress) (*solvers.Workload, error) {
		return s.ParseWorkload(ctx, files)
	})
}

// Generate builds a workload with s.Generate(preset, params, seed)
// under budget, with the guarantees of RunParse. params should be
// resolved against the preset's ParamSpecs already (solvers.Resolve).
func Generate(ctx context.Context, s *solvers.Strategy, preset string, params solvers.Params, seed int64,
	budget solvers.Budget) (*solvers.Workload, error) {
	if s == nil {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "strategy", Err: errors.New("no strategy")}
	}
	return execute(ctx, s.Info.Name, budget, nil, validWorkload, func(ctx context.Context, _ solvers.Progress) (*solvers.Workload, error) {
		return s.Generate(ctx, preset, params, seed)
	})
}

// Export writes workload w of s in another tool's format
// (Strategy.ExportWorkload) under budget, with the guarantees of Parse; an
// exporter sees no context, so past the time limit it is abandoned.
func Export(ctx context.Context, s *solvers.Strategy, w *solvers.Workload, format string, budget solvers.Budget) ([]byte, solvers.ExportFormat, error) {
	type exported struct {
		data []byte
		f    solvers.ExportFormat
	}
	x, err := execute(ctx, s.Info.Name, budget, nil, func(string, *exported) error { return nil },
		func(context.Context, solvers.Progress) (*exported, error) {
			b, f, err := s.ExportWorkload(w, format)
			return &exported{b, f}, err
		})
	if err != nil {
		return nil, solvers.ExportFormat{}, err
	}
	return x.data, x.f, nil
}

// CheckLimits refuses a budget knob of s (its Params, or its
// ReproduceParams when reproduce) over budget: see solvers.CheckLimits.
func CheckLimits(s *solvers.Strategy, reproduce bool, p solvers.Params, budget solvers.Budget) error {
	specs := s.Params
	if reproduce {
		specs = s.ReproduceParams
	}
	return solvers.CheckLimits(specs, p, budget)
}

// validReport checks a strategy's report before anyone stores it.
func validReport(name string, r *report.Report) error {
	if r == nil {
		return fmt.Errorf("strategy %s returned neither a report nor an error", name)
	}
	if err := r.Validate(); err != nil {
		return fmt.Errorf("strategy %s returned an invalid report: %w", name, err)
	}
	return nil
}

// validWorkload checks a parsed or generated workload.
func validWorkload(name string, w *solvers.Workload) error {
	if w == nil {
		return fmt.Errorf("strategy %s returned neither a workload nor an error", name)
	}
	if len(w.Data) == 0 {
		return fmt.Errorf("strategy %s returned a workload without data", name)
	}
	if w.Preview != nil {
		if err := w.Preview.Validate(); err != nil {
			return fmt.Errorf("strategy %s returned an invalid preview: %w", name, err)
		}
	}
	return nil
}

type result[T any] struct {
	v   T
	err error
	ok  bool // call returned
}

// execute calls call under budget (see Run) and checks what it
// returns with valid; T is what the strategy makes (a report, a workload).
func execute[T any](parent context.Context, name string, budget solvers.Budget, progress solvers.Progress,
	valid func(string, T) error, call func(context.Context, solvers.Progress) (T, error)) (T, error) {
	var zero T
	budget = budget.WithDefaults()
	if progress == nil {
		progress = solvers.NoProgress
	}
	if err := parent.Err(); err != nil {
		return zero, canceled(parent)
	}
	timeLimit := &errs.Error{Kind: errs.TooLarge,
		Err: fmt.Errorf("run stopped: exceeded its time limit of %v", budget.Timeout)}
	overMemory := &errs.Error{Kind: errs.TooLarge,
		Err: fmt.Errorf("run stopped: Go heap exceeded the memory budget of %s", report.FormatBytes(budget.Memory))}

	mctx, stop := context.WithCancelCause(parent)
	defer stop(nil)
	ctx, cancel := context.WithTimeoutCause(mctx, budget.Timeout, timeLimit)
	defer cancel()
	deadline, _ := ctx.Deadline()
	budget.Deadline = deadline
	ctx = solvers.WithBudget(ctx, budget)
	watchDone := make(chan struct{})
	defer close(watchDone)
	go watchMemory(watchDone, ctx.Done(), uint64(budget.Memory), func() { stop(overMemory) })

	ch := make(chan result[T], 1) // buffered: an abandoned strategy never blocks on it
	go func() {
		defer func() {
			if v := recover(); v != nil {
				pe := &PanicError{Strategy: name, Value: v, Stack: debug.Stack()}
				ch <- result[T]{err: &errs.Error{Kind: errs.Internal, Err: pe}}
			}
		}()
		v, err := call(ctx, progress)
		ch <- result[T]{v: v, err: err, ok: true}
	}()

	var res result[T]
	select {
	case res = <-ch:
	case <-ctx.Done():
		t := time.NewTimer(abandonGrace)
		select {
		case res = <-ch:
		case <-t.C:
			res = result[T]{err: ctx.Err()}
		}
		t.Stop()
	}

	var pe *PanicError
	switch {
	case errors.As(res.err, &pe):
		return zero, res.err
	case res.ok && res.err == nil && (ctx.Err() == nil || valid(name, res.v) == nil):
		// Finished, even if a limit struck as it did: keep the result.
		if err := valid(name, res.v); err != nil {
			return zero, &errs.Error{Kind: errs.Internal, Err: err}
		}
		return res.v, nil
	case ctx.Err() != nil:
		// Stopped: say why, whatever the strategy made of it.
		cause := context.Cause(ctx)
		if cause == timeLimit || cause == overMemory {
			return zero, cause
		}
		return zero, canceled(parent)
	case res.err != nil:
		var e *errs.Error
		if errors.As(res.err, &e) {
			return zero, res.err // kept as is: it may be a strategy's shared value
		}
		return zero, &errs.Error{Err: res.err}
	}
	return zero, &errs.Error{Kind: errs.Internal, Err: fmt.Errorf("strategy %s returned neither a result nor an error", name)}
}

// canceled is the error of a run stopped through its parent context; it
// wraps the context's cause.
func canceled(ctx context.Context) error {
	cause := context.Cause(ctx)
	cause = cmp.Or(cause, context.Canceled)
	return &errs.Error{Kind: errs.Canceled, Err: fmt.Errorf("run stopped: %w", cause)}
}

// watchMemory samples the Go heap every memorySampleInterval until done or
// stopped is closed, and calls over once if the heap exceeds limit.
func watchMemory(done <-chan struct{}, stopped <-chan struct{}, limit uint64, over func()) {
	sample := []metrics.Sample{{Name: heapMetric}}
	t := time.NewTicker(memorySampleInterval)
	defer t.Stop()
	for {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > limit {
			over()
			return
		}
		select {
		case <-done:
			return
		case <-stopped:
			return
		case <-t.C:
		}
	}
}
