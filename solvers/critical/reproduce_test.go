package critical

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"schedlab/solvers"
)

func TestReproduce(t *testing.T) {
	params := solvers.Params{"instances": "2"}
	r, err := New().Reproduce(context.Background(), params, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"Workflows: makespan over lower bound", "Workflows: mean processor load",
		"Random DAGs: mean makespan over lower bound", "Random DAGs: mean processor load", "Shortest makespan: wins per algorithm", "Small DAGs: gap to the exact optimum"} {
		tb := r.Table(title)
		if tb == nil {
			t.Fatalf("table %q missing", title)
		}
		for _, row := range tb.Rows {
			for _, c := range row {
				if f, ok := c.(float64); ok && f < 0 {
					t.Errorf("%s: negative cell %v", title, f)
				}
			}
		}
	}
	wf := r.Table("Workflows: makespan over lower bound")
	if len(wf.Rows) != 5 {
		t.Fatalf("%d workflow rows", len(wf.Rows))
	}
	for _, row := range wf.Rows {
		for _, c := range row[3:] {
			if c.(float64) < 1-1e-9 {
				t.Errorf("%v: ratio below 1: %v", row[0], c)
			}
		}
		t.Log(row...)
	}
	for _, row := range r.Table("Random DAGs: mean makespan over lower bound").Rows {
		t.Log(row...)
	}
	if r.Plot("Makespan over bound vs tasks") == nil {
		t.Error("plot missing")
	}
	// Deterministic across runs (parallel workers write by index).
	r2, err := New().Reproduce(context.Background(), params, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Tables {
		for j := range r.Tables[i].Rows {
			for k := range r.Tables[i].Rows[j] {
				if r.Tables[i].Rows[j][k] != r2.Tables[i].Rows[j][k] {
					t.Fatalf("reproduce not deterministic at %s row %d", r.Tables[i].Title, j)
				}
			}
		}
	}
}

// TestReproduceDefaults runs the default experiment and logs its tables
// (CRITICAL_REPRO=1; it takes about 10 s).
func TestReproduceDefaults(t *testing.T) {
	if os.Getenv("CRITICAL_REPRO") == "" {
		t.Skip("set CRITICAL_REPRO=1")
	}
	start := time.Now()
	r, err := New().Reproduce(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wall %v", time.Since(start))
	for _, tb := range r.Tables {
		t.Logf("== %s: %v", tb.Title, tb.Columns)
		for _, row := range tb.Rows {
			var b strings.Builder
			for _, c := range row {
				if f, ok := c.(float64); ok {
					fmt.Fprintf(&b, "%8.3f ", f)
				} else {
					fmt.Fprintf(&b, "%v ", c)
				}
			}
			t.Log(b.String())
		}
	}
	for _, m := range r.Metrics {
		t.Logf("%s = %v", m.Name, m.Value)
	}
}

func TestReproduceCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New().Reproduce(ctx, nil, nil); err == nil {
		t.Error("canceled reproduce succeeded")
	}
	if _, err := New().Reproduce(context.Background(), solvers.Params{"instances": "0"}, nil); err == nil {
		t.Error("instances 0 accepted")
	}
}
