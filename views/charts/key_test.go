package charts

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"schedlab/solvers"
)

// TestKeysNameTheKindsAChartHas: a Gantt's key lists each bar kind it has
// with its count, a graph's each edge kind; a chart of one plain kind has
// no key.
func TestKeysNameTheKindsAChartHas(t *testing.T) {
	var b bytes.Buffer
	g := solvers.Gantt{Bars: []solvers.Bar{{Kind: ""}, {Kind: "moved"}, {Kind: "moved"}, {Kind: "alt"}, {Kind: "local"}}}
	if err := GanttKey(g).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`data-kind="job"`, `data-kind="moved"`, `moved by the shift`, `· 2`, `data-kind="alt"`, `data-kind="local"`} {
		if !strings.Contains(out, want) {
			t.Errorf("Gantt key lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, `data-kind="collision"`) {
		t.Error("Gantt key names a kind the chart does not have")
	}
	b.Reset()
	GanttKey(solvers.Gantt{Bars: []solvers.Bar{{}, {}}}).Render(context.Background(), &b)
	if b.Len() != 0 {
		t.Errorf("plain bars got a key: %s", b.String())
	}
	b.Reset()
	EdgeKey(solvers.Graph{Edges: []solvers.GraphEdge{{Kind: "tree"}, {Kind: "tree"}, {Kind: "back"}, {Kind: "deleted"}}}).Render(context.Background(), &b)
	out = b.String()
	for _, want := range []string{`data-kind="tree"`, `tree edge`, `data-kind="back"`, `back edge`, `data-kind="deleted"`, `stroke-dasharray`} {
		if !strings.Contains(out, want) {
			t.Errorf("edge key lacks %s:\n%s", want, out)
		}
	}
}
