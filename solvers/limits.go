package solvers

import (
	"context"
	"math"
	"strconv"
	"time"

	"schedlab/errs"
)

// Limits are the server's own budget of one execution (a run, an upload's
// parse, a preset's generation): the runner's --memory-mb and --timeout.
// A user's parameters may lower them, never raise them. They reach a
// strategy through its context (WithLimits, LimitsFrom).
type Limits struct {
	// MemoryBytes is the largest Go heap, in bytes, the execution may need.
	MemoryBytes int64
	// Timeout is the wall-clock limit of the execution.
	Timeout time.Duration
	// Deadline is when the execution is stopped; zero when unknown.
	Deadline time.Time
}

// Defaults of Limits: the runner's defaults, so that a strategy called
// without limits in its context (tests, a library user) stays as safe as a
// server run.
const (
	DefaultMemoryBytes int64 = 4 << 30
	DefaultTimeout           = 10 * time.Minute
)

// Values of ParamSpec.Limit: which server limit a knob is itself a budget
// of, in the knob's unit.
const (
	LimitMemoryMiB   = "memory MiB"   // compared with Limits.MemoryBytes >> 20 (--memory-mb)
	LimitTimeSeconds = "time seconds" // compared with Limits.Timeout in s (--timeout)
)

func (l Limits) withDefaults() Limits {
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = DefaultMemoryBytes
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}

type limitsKey struct{}

// WithLimits returns ctx carrying l (zero fields: the defaults).
func WithLimits(ctx context.Context, l Limits) context.Context {
	return context.WithValue(ctx, limitsKey{}, l.withDefaults())
}

// LimitsFrom returns the limits ctx carries, or the defaults
// (DefaultMemoryBytes, DefaultTimeout) when it carries none.
func LimitsFrom(ctx context.Context) Limits {
	if ctx != nil {
		if l, ok := ctx.Value(limitsKey{}).(Limits); ok {
			return l
		}
	}
	return Limits{}.withDefaults()
}

// MemoryBudget is the memory an execution may use: the server's budget in
// ctx, or knob (a family's own memory_mb, in bytes) when that is lower and
// positive.
func MemoryBudget(ctx context.Context, knob int64) int64 {
	b := LimitsFrom(ctx).MemoryBytes
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
		return errs.New(errs.TooLarge, field, "%s needs about %s, over the memory budget of %s", what, errs.FormatBytes(bytes), errs.FormatBytes(budget))
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
// in p exceeds the server's limit in l: errs.Invalid naming the knob and
// the limit ("must be at most 4096 (the server's --memory-mb limit), got
// 1048576"). A value equal to the spec's Default is not refused: it was
// not the user's choice, and the family lowers it to the server's budget
// (MemoryBudget). Values that do not parse are left to Resolve.
func CheckLimits(specs []ParamSpec, p Params, l Limits) error {
	l = l.withDefaults()
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
			most, flag = float64(l.MemoryBytes>>20), "--memory-mb"
		case LimitTimeSeconds:
			most, flag = l.Timeout.Seconds(), "--timeout"
		default:
			continue
		}
		if f > most {
			return errs.Invalidf(s.Name, "must be at most %v (the server's %s limit), got %v", most, flag, v)
		}
	}
	return nil
}
