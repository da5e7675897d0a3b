package execute

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/runner/runnertest"
	"schedlab/solvers"
)

// stubborn ignores its context: Run sleeps a fixed time.
func stubborn() *solvers.Strategy {
	s := runnertest.New("stubborn").Strategy
	s.Run = func(ctx context.Context, w *solvers.Workload, v string, p solvers.Params, pr solvers.Progress) (*report.Report, error) {
		time.Sleep(10 * time.Second)
		return nil, nil
	}
	return s
}

func TestExecuteAbandonsAStrategyThatIgnoresItsContext(t *testing.T) {
	defer func(g time.Duration) { abandonGrace = g }(abandonGrace)
	abandonGrace = 50 * time.Millisecond
	begin := time.Now()
	_, err := Run(context.Background(), stubborn(), &solvers.Workload{}, "", nil, nil,
		solvers.Budget{Timeout: 50 * time.Millisecond})
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("Run returned after %v: it waited for a strategy that ignores its context", d)
	}
	if errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "time limit of 50ms") {
		t.Errorf("abandoned run: %v", err)
	}
}

func TestExecuteChecksTheReportAndItsInputs(t *testing.T) {
	fake := runnertest.New("fake").Strategy
	w := &solvers.Workload{Data: []byte(`{"n":2}`)}
	ctx := context.Background()
	_, err := Run(ctx, fake, w, runnertest.VariantInvalid, nil, nil, solvers.Budget{})
	if errs.KindOf(err) != errs.Internal || !strings.Contains(err.Error(), "invalid report") {
		t.Errorf("NaN in a report: %v, want Internal invalid report", err)
	}
	if _, err := Run(ctx, fake, w, "magic", nil, nil, solvers.Budget{}); errs.FieldOf(err) != "variant" {
		t.Errorf("bad variant: %v", err)
	}
	if _, err := Run(ctx, fake, w, "", solvers.Params{"steps": "-1"}, nil, solvers.Budget{}); errs.FieldOf(err) != "steps" {
		t.Errorf("bad param: %v", err)
	}
	var calls atomic.Int64
	rep, err := Run(ctx, fake, w, "", solvers.Params{"steps": "2"}, func(int, int, string) { calls.Add(1) }, solvers.Budget{})
	if err != nil || rep == nil || calls.Load() != 2 {
		t.Errorf("Run with the default variant: %v, %v, %d progress calls", rep, err, calls.Load())
	}
	cctx, cancel := context.WithCancelCause(ctx)
	cancel(ErrUserCanceled)
	if _, err := Run(cctx, fake, w, runnertest.VariantWait, nil, nil, solvers.Budget{}); errs.KindOf(err) != errs.Canceled {
		t.Errorf("Run on a canceled context: %v, want Canceled", err)
	}
}
