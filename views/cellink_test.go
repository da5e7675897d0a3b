package views

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"schedlab/report"
)

// A Claims row's evidence links the seed experiment that re-runs it and
// leaves every other text, addresses of other sites included, as text.
func TestLinkPartsLinksSeedExperimentsOnly(t *testing.T) {
	got := linkParts("Table 1; re-run it: /experiments/new?seed=cyclic/sensitivity-fig3, or see https://example.org/x and /runs/abc.")
	want := []textPart{{"Table 1; re-run it: ", false}, {"/experiments/new?seed=cyclic/sensitivity-fig3", true},
		{", or see https://example.org/x and /runs/abc.", false}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("linkParts = %#v", got)
	}
	if got := linkParts(""); len(got) != 1 || got[0].link {
		t.Fatalf("empty text: %#v", got)
	}
}

func TestTableCellsLinkSeedExperiments(t *testing.T) {
	tb := report.Table{Title: "Claims", Columns: []string{"claim", "evidence"},
		Rows: [][]any{{"Fig 3", "re-run it: /experiments/new?seed=cyclic/sensitivity-fig3"}}}
	var b strings.Builder
	if err := tableView(tb, "", 0, nil).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<a href="/experiments/new?seed=cyclic/sensitivity-fig3" data-testid="cell-link">`) {
		t.Fatalf("no link in the cell:\n%s", b.String())
	}
}
