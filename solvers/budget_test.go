package solvers

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
)

var budgetSpecs = []ParamSpec{
	{Name: "memory_mb", Kind: ParamInt, Default: "2048", Limit: LimitMemoryMiB, HasMin: true, Min: 1, HasMax: true, Max: 1 << 20},
	{Name: "time_limit_s", Kind: ParamFloat, Default: "5", Limit: LimitTimeSeconds},
	IntSpec("nodes", "10", "", "", 1, 1<<20),
}

func TestCheckLimitsRefusesAKnobOverTheServersLimit(t *testing.T) {
	l := Budget{Memory: 4 << 30, Timeout: time.Minute}
	err := CheckLimits(budgetSpecs, Params{"memory_mb": "1048576"}, l)
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "memory_mb" ||
		!strings.Contains(err.Error(), "must be at most 4096 (the server's --memory-mb limit), got 1048576") {
		t.Errorf("memory_mb 1 TiB: %v", err)
	}
	err = CheckLimits(budgetSpecs, Params{"time_limit_s": "61"}, l)
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "time_limit_s" || !strings.Contains(err.Error(), "--timeout") {
		t.Errorf("time_limit_s 61 s under a 1 min timeout: %v", err)
	}
	for _, ok := range []Params{{"memory_mb": "4096", "time_limit_s": "60"}, {"nodes": "1000000"}, {"memory_mb": "abc"}} {
		if err := CheckLimits(budgetSpecs, ok, l); err != nil {
			t.Errorf("%v refused: %v", ok, err)
		}
	}
	// A default is not the user's choice: the family lowers it itself.
	if err := CheckLimits(budgetSpecs, Params{"memory_mb": "2048"}, Budget{Memory: 1 << 30}); err != nil {
		t.Errorf("the default refused: %v", err)
	}
	// No limits: the defaults (4 GiB, 10 min).
	if err := CheckLimits(budgetSpecs, Params{"memory_mb": "4097"}, Budget{}); errs.FieldOf(err) != "memory_mb" {
		t.Errorf("4097 MiB under the default budget: %v", err)
	}
}

func TestLimitsTravelInTheContextWithDefaults(t *testing.T) {
	if l := BudgetFrom(context.Background()); l.Memory != DefaultMemory || l.Timeout != DefaultTimeout {
		t.Errorf("no limits in ctx: %+v", l)
	}
	ctx := WithBudget(context.Background(), Budget{Memory: 1 << 20})
	if l := BudgetFrom(ctx); l.Memory != 1<<20 || l.Timeout != DefaultTimeout {
		t.Errorf("limits in ctx: %+v", l)
	}
	if b := MemoryBudget(ctx, 1<<10); b != 1<<10 {
		t.Errorf("a lower knob: budget %d", b)
	}
	if b := MemoryBudget(ctx, 1<<40); b != 1<<20 {
		t.Errorf("a higher knob: budget %d", b)
	}
}

func TestReserveRefusesAnEstimateOverTheBudget(t *testing.T) {
	ctx := WithBudget(context.Background(), Budget{Memory: 4 << 30})
	if err := Reserve(ctx, "nodes", 4<<30, "tables"); err != nil {
		t.Errorf("exactly the budget: %v", err)
	}
	err := Reserve(ctx, "nodes", SatMul(100000, 100000, 4), "a 100000 × 100000 table")
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "nodes" ||
		!strings.Contains(err.Error(), "37.25 GiB") || !strings.Contains(err.Error(), "4 GiB") {
		t.Errorf("40 GB: %v", err)
	}
	if err := Reserve(ctx, "n", SatMul(math.MaxInt32, math.MaxInt32, math.MaxInt32), "x"); errs.KindOf(err) != errs.TooLarge {
		t.Errorf("an overflowing estimate: %v", err)
	}
	if err := ReserveWithin(ctx, "memory_mb", 2<<20, "x", 1<<20); errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("over the knob: %v", err)
	}
}

func TestSaturatingArithmetic(t *testing.T) {
	cases := []struct{ got, want int64 }{
		{SatMul(3, 4), 12},
		{SatMul(math.MaxInt64/2, 3), math.MaxInt64},
		{SatMul(1<<40, 1<<40, 0), 0},
		{SatMul(-5, 3), 0},
		{SatAdd(1, 2, -7), 3},
		{SatAdd(math.MaxInt64, 1), math.MaxInt64},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %d, want %d", i, c.got, c.want)
		}
	}
}
