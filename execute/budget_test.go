package execute

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/runner/runnertest"
	"schedlab/solvers"
)

// budgeted is the test strategy with budget knobs, and a ParseWorkload and
// Generate whose behaviour the file name or preset picks (behave), and an
// export format.
func budgeted() *solvers.Strategy {
	s := runnertest.New("b").Strategy
	run := s.Run
	s.Params = append(s.Params, solvers.ParamSpec{Name: "memory_mb", Kind: solvers.ParamInt, Default: "2048",
		Limit: solvers.LimitMemoryMiB, HasMin: true, Min: 1, HasMax: true, Max: 1 << 20})
	// Run resolves its memory_mb knob and runs the test strategy without it.
	s.Run = func(ctx context.Context, w *solvers.Workload, variant string, p solvers.Params, progress solvers.Progress) (*report.Report, error) {
		rest := solvers.Params{}
		for k, v := range p {
			if k != "memory_mb" {
				rest[k] = v
			}
		}
		return run(ctx, w, variant, rest, progress)
	}
	s.ReproduceParams = append(s.ReproduceParams, solvers.ParamSpec{Name: "time_limit_s", Kind: solvers.ParamFloat, Default: "1",
		Limit: solvers.LimitTimeSeconds})
	s.ParseWorkload = func(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
		return behave(ctx, files[0].Name)
	}
	s.Generate = func(ctx context.Context, preset string, _ solvers.Params, _ int64) (*solvers.Workload, error) {
		return behave(ctx, preset)
	}
	s.Exports = []solvers.ExportFormat{{Name: "x"}}
	// Export panics for a workload named "panic", waits on release for one
	// named "wait", and writes the workload's name otherwise.
	s.Export = func(w *solvers.Workload, _ string) ([]byte, error) {
		switch w.Name {
		case "panic":
			panic("export panic")
		case "wait":
			<-release
		}
		return []byte(w.Name), nil
	}
	return s
}

// behave is what the file name or preset picks: "panic", "wait" (until
// ctx is done), anything else a workload whose Summary is the memory
// budget it saw in its context.
func behave(ctx context.Context, what string) (*solvers.Workload, error) {
	switch what {
	case "panic":
		panic("parse panic")
	case "wait":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	l := solvers.BudgetFrom(ctx)
	return &solvers.Workload{Name: what, Data: []byte(`{"n":1}`),
		Summary: fmt.Sprintf("%d %v", l.Memory, !l.Deadline.IsZero())}, nil
}

func TestExecuteParseAndGenerateRunUnderTheBudget(t *testing.T) {
	s := budgeted()
	ctx := context.Background()
	budget := solvers.Budget{Memory: 64 << 20, Timeout: time.Minute}
	w, err := Parse(ctx, s, []solvers.File{{Name: "ok"}}, budget)
	if err != nil || w.Summary != fmt.Sprint(64<<20, " true") {
		t.Errorf("Parse: %v, %v: want the strategy to see a 64 MiB budget and a deadline", w, err)
	}
	w, err = Generate(ctx, s, "ok", nil, 1, budget)
	if err != nil || w.Summary != fmt.Sprint(64<<20, " true") {
		t.Errorf("Generate: %v, %v", w, err)
	}
	if _, err := Parse(ctx, s, []solvers.File{{Name: "panic"}}, budget); errs.KindOf(err) != errs.Internal || !strings.Contains(err.Error(), "parse panic") {
		t.Errorf("a panicking parser: %v, want Internal", err)
	}
	if _, err := Generate(ctx, s, "wait", nil, 1, solvers.Budget{Timeout: 20 * time.Millisecond}); errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "time limit") {
		t.Errorf("a generator past the time limit: %v, want TooLarge", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if _, err := Parse(cctx, s, []solvers.File{{Name: "wait"}}, budget); errs.KindOf(err) != errs.Canceled {
		t.Errorf("a parse whose client left: %v, want Canceled", err)
	}
	if _, err := Parse(ctx, s, []solvers.File{{Name: "ok", Data: nil}}, budget); err != nil {
		t.Errorf("a workload: %v", err)
	}
}

var release = make(chan struct{})

func TestExportRunsUnderTheBudget(t *testing.T) {
	s := budgeted()
	ctx := context.Background()
	budget := solvers.Budget{Memory: 64 << 20, Timeout: time.Minute}
	if b, f, err := Export(ctx, s, &solvers.Workload{Name: "ok"}, "x", budget); err != nil || string(b) != "ok" || f.Name != "x" {
		t.Errorf("Export: %q, %v, %v", b, f, err)
	}
	if _, _, err := Export(ctx, s, &solvers.Workload{Name: "ok"}, "nope", budget); errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "format" {
		t.Errorf("an unknown format: %v, want Invalid on field format", err)
	}
	if _, _, err := Export(ctx, s, &solvers.Workload{Name: "panic"}, "x", budget); errs.KindOf(err) != errs.Internal || !strings.Contains(err.Error(), "export panic") {
		t.Errorf("a panicking exporter: %v, want Internal", err)
	}
	defer close(release)
	// The exporter ignores its context (an Export has none): it is
	// abandoned after abandonGrace, shortened here as in
	// TestExecuteAbandonsAStrategyThatIgnoresItsContext (5 s of waiting).
	defer func(g time.Duration) { abandonGrace = g }(abandonGrace)
	abandonGrace = 50 * time.Millisecond
	if _, _, err := Export(ctx, s, &solvers.Workload{Name: "wait"}, "x", solvers.Budget{Timeout: 20 * time.Millisecond}); errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "time limit") {
		t.Errorf("an exporter past the time limit: %v, want TooLarge", err)
	}
}

func TestExecuteRefusesABudgetKnobOverTheBudget(t *testing.T) {
	s := budgeted()
	ctx := context.Background()
	w := &solvers.Workload{Data: []byte(`{"n":2}`)}
	_, err := Run(ctx, s, w, "", solvers.Params{"memory_mb": "1048576"}, nil, solvers.Budget{Memory: 1 << 30})
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "memory_mb" || !strings.Contains(err.Error(), "at most 1024 (the server's --memory-mb limit)") {
		t.Errorf("memory_mb 1 TiB under a 1 GiB budget: %v", err)
	}
	if _, err := Run(ctx, s, w, "", solvers.Params{"memory_mb": "1000"}, nil, solvers.Budget{Memory: 1 << 30}); err != nil {
		t.Errorf("memory_mb under the budget: %v", err)
	}
	_, err = Reproduce(ctx, s, solvers.Params{"time_limit_s": "120"}, nil, solvers.Budget{Timeout: time.Minute})
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "time_limit_s" {
		t.Errorf("time_limit_s over --timeout: %v", err)
	}
}
