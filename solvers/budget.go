package solvers

import (
	"context"
	"math"
	"strconv"
	"time"

	"schedlab/errs"
	"schedlab/report"
)

// Budget limits one execution (a run, an upload's parse, a preset's
// generation): the server's --memory-mb and --timeout. execute runs every
// execution under one, and it reaches the strategy through its context
// (WithBudget, BudgetFrom). A user's parameters may lower it, never raise
// it. Zero fields take the defaults.
type Budget struct {
	// Memory is the largest Go heap, in bytes, allowed while the execution
	// runs (DefaultMemory). The heap is the process's: Go cannot tell
	// which goroutine holds what, so when several executions run at once
	// the budget is of them all, and each watchdog that sees it exceeded
	// stops its own.
	Memory int64
	// Timeout is the wall-clock limit of the execution (DefaultTimeout).
	Timeout time.Duration
	// Deadline is when the execution is stopped; zero when unknown (set
	// by execute in the budget a strategy reads from its context).
	Deadline time.Time
}

// Defaults of Budget: the server's, so that a strategy called without a
// budget in its context (tests, a library user) stays as safe as a
// server run.
const (
	// DefaultMemory is the Go heap an execution may grow to: 4 GiB.
	DefaultMemory int64 = 4 << 30
	// DefaultTimeout is the time limit of one execution: the seed
	// experiments at full size finish in minutes, a run past this is
	// almost surely too big.
	DefaultTimeout = 10 * time.Minute
)

// Values of ParamSpec.Limit: which server limit a knob is itself a budget
// of, in the knob's unit.
const (
	LimitMemoryMiB   = "memory MiB"   // compared with Budget.Memory >> 20 (--memory-mb)
	LimitTimeSeconds = "time seconds" // compared with Budget.Timeout in s (--timeout)
)

// WithDefaults is b with its zero fields set to the defaults.
func (b Budget) WithDefaults() Budget {
	if b.Memory <= 0 {
		b.Memory = DefaultMemory
	}
	if b.Timeout <= 0 {
		b.Timeout = DefaultTimeout
	}
	return b
}

type budgetKey struct{}

// WithBudget returns ctx carrying b (zero fields: the defaults).
func WithBudget(ctx context.Context, b Budget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b.WithDefaults())
}

// BudgetFrom returns the budget ctx carries, or the defaults
// (DefaultMemory, DefaultTimeout) when it carries none.
func BudgetFrom(ctx context.Context) Budget {
	if ctx != nil {
		if b, ok := ctx.Value(budgetKey{}).(Budget); ok {
			return b
		}
	}
	return Budget{}.WithDefaults()
}

// MemoryBudget is the memory an execution may use: the server's budget in
// ctx, or knob (a family's own memory_mb, in bytes) when that is lower and
// positive.
func MemoryBudget(ctx context.Context, knob int64) int64 {
	b := BudgetFrom(ctx).Memory
	if knob > 0 && knob < b {
		return knob
	}
	return b
}

// Reserve checks, before anything is allocated, that an estimate of bytes
// for what ("a 100000 × 100000 table") fits the memory budget in ctx. Over
// it, the error is errs.TooLarge on field (the input that sized it) naming
// the estimate and the budget. Estimates should be computed with SatMul
// and SatAdd so that a huge input cannot overflow them into a small number.
func Reserve(ctx context.Context, field string, bytes int64, what string) error {
	return ReserveWithin(ctx, field, bytes, what, 0)
}

// ReserveWithin is Reserve against the lower of the server's budget and
// knob, a family's own memory knob in bytes (≤ 0: none).
func ReserveWithin(ctx context.Context, field string, bytes int64, what string, knob int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	budget := MemoryBudget(ctx, knob)
	if bytes < 0 || bytes > budget {
		return errs.New(errs.TooLarge, field, "%s needs about %s, over the memory budget of %s", what, report.FormatBytes(bytes), report.FormatBytes(budget))
	}
	return nil
}

// SatMul multiplies non-negative factors, saturating at math.MaxInt64 (a
// negative factor counts as 0): the arithmetic of memory estimates.
func SatMul(fs ...int64) int64 {
	p := int64(1)
	for _, f := range fs {
		if f <= 0 {
			return 0
		}
		if p > math.MaxInt64/f {
			p = math.MaxInt64
			continue
		}
		p *= f
	}
	return p
}

// SatAdd adds non-negative terms, saturating at math.MaxInt64.
func SatAdd(ts ...int64) int64 {
	s := int64(0)
	for _, t := range ts {
		if t <= 0 {
			continue
		}
		if s > math.MaxInt64-t {
			return math.MaxInt64
		}
		s += t
	}
	return s
}

// CheckLimits refuses a budget knob (a ParamSpec with a Limit) whose value
// in p exceeds the server's limit in b: errs.Invalid naming the knob and
// the limit ("must be at most 4096 (the server's --memory-mb limit), got
// 1048576"). A value equal to the spec's Default is not refused: it was
// not the user's choice, and the family lowers it to the server's budget
// (MemoryBudget). Values that do not parse are left to Resolve.
func CheckLimits(specs []ParamSpec, p Params, b Budget) error {
	b = b.WithDefaults()
	for _, s := range specs {
		if s.Limit == "" {
			continue
		}
		v, ok := p[s.Name]
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) {
			continue
		}
		if d, err := strconv.ParseFloat(s.Default, 64); err == nil && d == f {
			continue
		}
		var most float64
		var flag string
		switch s.Limit {
		case LimitMemoryMiB:
			most, flag = float64(b.Memory>>20), "--memory-mb"
		case LimitTimeSeconds:
			most, flag = b.Timeout.Seconds(), "--timeout"
		default:
			continue
		}
		if f > most {
			return errs.Invalidf(s.Name, "must be at most %v (the server's %s limit), got %v", most, flag, v)
		}
	}
	return nil
}
