package critical

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"schedlab/report"
	"schedlab/solvers"
)

// reproduceParams are those of the reproduce TestReproduce and the
// conformance suite check; reproduced runs it once for both, which neither
// may change.
var (
	reproduceParams = solvers.Params{"instances": "2"}
	reproduced      = sync.OnceValues(func() (*report.Report, error) {
		return New().Reproduce(context.Background(), reproduceParams, nil)
	})
)

func TestReproduce(t *testing.T) {
	params := reproduceParams
	r, err := reproduced()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"Claims", "Deadline comparison: critical works vs HEFT and list at deadline = HEFT makespan × factor",
		"Path enumerations: tree of critical paths vs depth-first search of all paths", "Small DAGs: makespan gap to the exact optimum (deadline factor 2)"} {
		if r.Table(title) == nil {
			t.Fatalf("table %q missing", title)
		}
	}
	if r.Tables[0].Title != "Claims" {
		t.Errorf("first table %q, want Claims", r.Tables[0].Title)
	}
	for _, row := range r.Table("Claims").Rows {
		switch row[3] {
		case report.Holds, report.Partly, report.DoesNotHold, report.NotMeasured, report.Unverifiable, report.Inconclusive:
		default:
			t.Errorf("claim %v: verdict %v", row[0], row[3])
		}
	}
	dl := r.Table("Deadline comparison: critical works vs HEFT and list at deadline = HEFT makespan × factor")
	if len(dl.Rows) != len(ReproDeadlineFactors)*len(reproAlgos) {
		t.Fatalf("%d deadline rows", len(dl.Rows))
	}
	for _, row := range dl.Rows {
		// HEFT meets its own makespan × factor ≥ 1 on every graph.
		if row[1] == "heft" && row[3] != row[2] {
			t.Errorf("HEFT meets the deadline on %v of %v graphs at factor %v", row[3], row[2], row[0])
		}
		t.Log(row...)
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

// BenchmarkReproduceDefaults runs the default experiment, times it and
// logs its tables (an engineer's tool: go test never runs it).
//
//	go test ./solvers/critical -run XXX -bench ReproduceDefaults -benchtime 1x -v
func BenchmarkReproduceDefaults(b *testing.B) {
	for range b.N {
		start := time.Now()
		r, err := New().Reproduce(context.Background(), nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("wall %v", time.Since(start))
		for _, tb := range r.Tables {
			b.Logf("== %s: %v", tb.Title, tb.Columns)
			for _, row := range tb.Rows {
				var s strings.Builder
				for _, c := range row {
					if f, ok := c.(float64); ok {
						fmt.Fprintf(&s, "%8.3f ", f)
					} else {
						fmt.Fprintf(&s, "%v ", c)
					}
				}
				b.Log(s.String())
			}
		}
		for _, m := range r.Metrics {
			b.Logf("%s = %v", m.Name, m.Value)
		}
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
