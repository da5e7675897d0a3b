package eapm

import (
	"context"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

func TestBudgetRefusesARunOverTheBudget(t *testing.T) {
	w, err := New().Generate(context.Background(), PresetTarplee, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 1 << 10})
	if _, err := New().Run(ctx, w, VariantOnline, nil, nil); errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "workload" {
		t.Errorf("Tarplee's instance under 1 KiB: %v, want TooLarge on workload", err)
	}
	if _, err := New().Run(context.Background(), w, VariantOnline, nil, nil); err != nil {
		t.Errorf("Tarplee's instance under the default budget: %v", err)
	}
}

func TestMachinesPerTypeIsCheckedAtResolve(t *testing.T) {
	s := New()
	for _, v := range []string{"", "40", "1,2,3", " 5 , 6 "} {
		if _, err := solvers.Resolve(s.Params, solvers.Params{"machines_per_type": v}); err != nil {
			t.Errorf("machines_per_type %q: %v", v, err)
		}
	}
	for _, v := range []string{"x", "0", "1,,2", "-4", "2000000", "1.5"} {
		_, err := solvers.Resolve(s.Params, solvers.Params{"machines_per_type": v})
		if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "machines_per_type" {
			t.Errorf("machines_per_type %q: %v, want Invalid on machines_per_type", v, err)
		}
	}
}

// FuzzMachinesPerType reads machines_per_type values: no panic, and an
// accepted value gives m counts in 1..MaxMachinesPerType.
func FuzzMachinesPerType(f *testing.F) {
	for _, s := range []string{"", "40", "1,2,3", " 5 , 6 ", "x", "0", "1,,2", "999999999999999999999", "+3"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, v string, m int) {
		if m < 1 || m > 1000 {
			return
		}
		if err := checkMachinesPerType(v); err != nil && errs.FieldOf(err) != "machines_per_type" {
			t.Fatalf("check %q: %v names no field", v, err)
		}
		out, err := parseMachinesPerType(v, m)
		if err != nil {
			if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "machines_per_type" {
				t.Fatalf("parse %q: %v", v, err)
			}
			return
		}
		if out == nil {
			return
		}
		if len(out) != m {
			t.Fatalf("parse %q for m = %d: %d counts", v, m, len(out))
		}
		for _, c := range out {
			if c < 1 || c > MaxMachinesPerType {
				t.Fatalf("parse %q: count %d out of range", v, c)
			}
		}
	})
}
