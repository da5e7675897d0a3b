// Package solverstest is the conformance suite every strategy family runs,
// in the spirit of testing/fstest: one call checks what the rest of
// schedlab relies on, so a family's own tests can be about its algorithms.
//
//	func TestConformance(t *testing.T) {
//		solverstest.Run(t, New(), solverstest.Options{
//			PresetParams: map[string]solvers.Params{"big": {"jobs": "10"}},
//			Reproduce:    solvers.Params{"instances": "1"},
//		})
//	}
//
// It checks that:
//   - the parameters are well formed: unique names that Strategy.CheckNames
//     accepts, docs, defaults that Resolve accepts, variants that exist;
//   - every preset generates (at the options' small size) a workload that
//     names itself, with a valid preview;
//   - every variant that fits runs on it and returns a Report that
//     validates, whose Gantts (as the preview's) are in one time frame
//     (Report.Time: one frame per page), whose metrics name only variants of
//     the family as those they are meaningful for (Metric.Variants), and
//     runs are deterministic for a seed (the same Report but
//     for the metrics named in Options.Volatile: wall times);
//   - a canceled context stops a run promptly with the context's error;
//   - malformed input is errs.Invalid naming a field: an unknown variant,
//     an unknown parameter, a bad value, a garbage upload;
//   - the reproduce experiment runs at its smallest size (or, with
//     Options.Reproduced, the family's tests ran it) and its report
//     validates.
package solverstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// Options tune the suite to a family.
type Options struct {
	// PresetParams are the preset parameters that make each preset small
	// (by preset name); the rest take their defaults.
	PresetParams map[string]solvers.Params
	// RunParams are run parameters every run of the suite uses (to keep it
	// small: fewer cycles, a shorter simulation).
	RunParams solvers.Params
	// Reproduce are the reproduce parameters of the smallest experiment;
	// nil skips the reproduce check (the family has none).
	Reproduce solvers.Params
	// Reproduced, when set, gives the report of the reproduce at
	// Reproduce that the family's own tests compute anyway (once per test
	// binary, as in cyclic's smallReproduce): the suite checks that report
	// instead of running the experiment once more. It must not change it.
	Reproduced func() (*report.Report, error)
	// Volatile names the metrics that may differ between two runs of one
	// seed (wall-clock times).
	Volatile []string
	// CancelWithin is how long a canceled run may take to return (5 s).
	CancelWithin time.Duration
}

// Run runs the suite on s.
func Run(t *testing.T, s *solvers.Strategy, opt Options) {
	t.Helper()
	if opt.CancelWithin <= 0 {
		opt.CancelWithin = 5 * time.Second
	}
	t.Run("names", func(t *testing.T) {
		if err := s.CheckNames(); err != nil {
			t.Error(err)
		}
	})
	t.Run("params", func(t *testing.T) { checkSpecs(t, s, s.Params, true) })
	t.Run("reproduce params", func(t *testing.T) { checkSpecs(t, s, s.ReproduceParams, false) })
	for _, p := range s.Presets {
		t.Run("preset "+p.Name, func(t *testing.T) {
			checkSpecs(t, s, p.Params, false)
			w := generate(t, s, p.Name, opt.PresetParams[p.Name], 1)
			w2 := generate(t, s, p.Name, opt.PresetParams[p.Name], 1)
			if !bytes.Equal(w.Data, w2.Data) {
				t.Errorf("preset %s: two workloads of one seed differ", p.Name)
			}
			for _, v := range s.VariantsFor(w.Format) {
				t.Run(v.Name, func(t *testing.T) { checkRun(t, s, w, v.Name, opt) })
			}
			checkCancel(t, s, w, opt)
		})
	}
	t.Run("malformed", func(t *testing.T) { checkMalformed(t, s, opt) })
	if opt.Reproduce != nil {
		t.Run("reproduce", func(t *testing.T) {
			reproduce := opt.Reproduced
			if reproduce == nil {
				reproduce = func() (*report.Report, error) { return s.Reproduce(context.Background(), opt.Reproduce, nil) }
			}
			rep, err := reproduce()
			if err != nil {
				t.Fatalf("reproduce at %v: %v", opt.Reproduce, err)
			}
			if err := rep.Validate(); err != nil {
				t.Errorf("the reproduce report does not validate: %v", err)
			}
		})
	}
}

func checkSpecs(t *testing.T, s *solvers.Strategy, specs []solvers.ParamSpec, run bool) {
	t.Helper()
	seen := map[string]bool{}
	for _, sp := range specs {
		if sp.Name == "" || seen[sp.Name] {
			t.Errorf("parameter %q is empty or declared twice", sp.Name)
		}
		seen[sp.Name] = true
		if sp.Doc == "" {
			t.Errorf("parameter %s has no doc", sp.Name)
		}
		for _, v := range sp.Variants {
			if !run || solvers.LookupVariant(s.Variants, v).Name == "" {
				t.Errorf("parameter %s applies to %q, which is not a variant", sp.Name, v)
			}
		}
	}
	if _, err := solvers.Resolve(specs, nil); err != nil {
		t.Errorf("the defaults do not resolve: %v", err)
	}
}

func generate(t *testing.T, s *solvers.Strategy, preset string, params solvers.Params, seed int64) *solvers.Workload {
	t.Helper()
	p, _ := s.FindPreset(preset, "preset")
	resolved, err := solvers.Resolve(p.Params, params)
	if err != nil {
		t.Fatalf("preset %s params %v: %v", preset, params, err)
	}
	w, err := s.Generate(context.Background(), preset, resolved, seed)
	if err != nil {
		t.Fatalf("preset %s: %v", preset, err)
	}
	if w == nil || len(w.Data) == 0 || !json.Valid(w.Data) || w.Summary == "" {
		t.Fatalf("preset %s: a workload without JSON data or summary", preset)
	}
	if w.Preview != nil {
		if err := w.Preview.Validate(); err != nil {
			t.Errorf("preset %s: the preview does not validate: %v", preset, err)
		}
		checkTimeFrame(t, "preset "+preset+" preview", w.Preview)
	}
	return w
}

// withoutVolatile is a report's JSON with the volatile metrics zeroed.
func withoutVolatile(t *testing.T, rep *report.Report, volatile []string) []byte {
	t.Helper()
	r := *rep
	r.Metrics = append([]report.Metric(nil), rep.Metrics...)
	for i := range r.Metrics {
		if slices.Contains(volatile, r.Metrics[i].Name) {
			r.Metrics[i].Value = 0
		}
	}
	b, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkRun(t *testing.T, s *solvers.Strategy, w *solvers.Workload, variant string, opt Options) {
	t.Helper()
	params := onlyKnown(s.Params, opt.RunParams)
	rep, err := s.Run(context.Background(), w, variant, params, nil)
	if err != nil {
		t.Fatalf("variant %s: %v", variant, err)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("variant %s: the report does not validate: %v", variant, err)
	}
	if len(rep.Metrics) == 0 {
		t.Errorf("variant %s: a report without metrics", variant)
	}
	checkTimeFrame(t, "variant "+variant, rep)
	if err := CheckMetricVariants(s, rep); err != nil {
		t.Errorf("variant %s: %v", variant, err)
	}
	again, err := s.Run(context.Background(), w, variant, params, nil)
	if err != nil {
		t.Fatalf("variant %s, again: %v", variant, err)
	}
	if !bytes.Equal(withoutVolatile(t, rep, opt.Volatile), withoutVolatile(t, again, opt.Volatile)) {
		t.Errorf("variant %s: two runs of one workload and seed differ (name wall-clock metrics in Options.Volatile)", variant)
	}
}

// CheckMetricVariants checks that every metric of rep names, as the
// variants it is meaningful for (Metric.Variants), only variants of s,
// or a pattern "PREFIX*" (report.Covers) with a prefix: variants a
// family adds where it runs (cyclic's external:NAME).
func CheckMetricVariants(s *solvers.Strategy, rep *report.Report) error {
	for _, m := range rep.Metrics {
		for _, v := range m.Variants {
			if p, ok := strings.CutSuffix(v, "*"); ok && p != "" {
				continue
			}
			if solvers.LookupVariant(s.Variants, v).Name == "" {
				return fmt.Errorf("metric %s is meaningful for %q, which is not a variant of %s", m.Name, v, s.Info.Name)
			}
		}
	}
	return nil
}

// checkTimeFrame checks that a report that draws times has one time frame
// for its page: Gantts only with Report.Time (Validate checks the rest:
// their unit, XTime plots only with a frame).
func checkTimeFrame(t *testing.T, what string, rep *report.Report) {
	t.Helper()
	if len(rep.Gantts) > 0 && rep.Time == nil {
		t.Errorf("%s: the report draws Gantts but has no time frame (Report.Time)", what)
	}
}

func onlyKnown(specs []solvers.ParamSpec, p solvers.Params) solvers.Params {
	out := solvers.Params{}
	for _, sp := range specs {
		if v, ok := p[sp.Name]; ok {
			out[sp.Name] = v
		}
	}
	return out
}

func checkCancel(t *testing.T, s *solvers.Strategy, w *solvers.Workload, opt Options) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	_, err := s.Run(ctx, w, "", onlyKnown(s.Params, opt.RunParams), nil)
	if took := time.Since(start); took > opt.CancelWithin {
		t.Errorf("a canceled run took %v to return", took)
	}
	if err == nil {
		return // finished before it looked: allowed for a tiny workload
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled run returned %v, not the context's error", err)
	}
}

func checkMalformed(t *testing.T, s *solvers.Strategy, opt Options) {
	t.Helper()
	ctx := context.Background()
	presets := s.Presets
	if len(presets) == 0 {
		t.Fatal("the family has no preset")
	}
	w := generate(t, s, presets[0].Name, opt.PresetParams[presets[0].Name], 1)
	invalid := func(what string, err error, field string) {
		t.Helper()
		if errs.KindOf(err) != errs.Invalid {
			t.Errorf("%s: %v (%v), want invalid", what, err, errs.KindOf(err))
			return
		}
		if field != "" && errs.FieldOf(err) != field {
			t.Errorf("%s: field %q, want %q", what, errs.FieldOf(err), field)
		}
	}
	_, err := s.Run(ctx, w, "no-such-variant", nil, nil)
	invalid("an unknown variant", err, "variant")
	_, err = s.Run(ctx, w, "", solvers.Params{"no_such_param": "1"}, nil)
	invalid("an unknown parameter", err, "no_such_param")
	for _, sp := range s.Params {
		if slices.Contains([]string{solvers.ParamInt, solvers.ParamFloat, solvers.ParamBool, solvers.ParamChoice}, sp.Kind) {
			_, err = s.Run(ctx, w, "", solvers.Params{sp.Name: "not-a-value"}, nil)
			invalid("parameter "+sp.Name+" = not-a-value", err, sp.Name)
		}
	}
	_, err = s.ParseWorkload(ctx, []solvers.File{{Field: "file", Name: "w.json", Data: []byte("\x00 not json")}})
	invalid("a garbage upload", err, "")
	if errs.FieldOf(err) == "" {
		t.Errorf("a garbage upload: the error names no field: %v", err)
	}
	_, err = s.Generate(ctx, "no-such-preset", nil, 1)
	invalid("an unknown preset", err, "preset")
}
