package report

import (
	"fmt"
	"strings"
	"testing"
)

func TestDecodeReportChecksAsValidateAndSaysWhatIsWrongInWords(t *testing.T) {
	many := `{"metrics":[` + strings.Repeat(`{"name":"m","value":1},`, MaxMetrics) + `{"name":"m","value":1}]}`
	for _, c := range []struct{ raw, says string }{
		{`{"metrics":"x"}`, "metrics: must be a list, got JSON string"},
		{`{"metrics":[{"name":"m","value":"1"}]}`, "metrics.value: must be a number, got JSON string"},
		{`{"gantts":[{"title":"g","lanes":[],"bars":[{"lane":2,"start":0,"end":1}]}]}`, `gantt "g" bar 0 is on lane 2 of 0`},
		{many, fmt.Sprintf("%d metrics, over the limit of %d", MaxMetrics+1, MaxMetrics)},
		{`[1]`, "report: must be an object, got JSON array"},
	} {
		_, err := DecodeReport([]byte(c.raw))
		if err == nil || err.Error() != c.says {
			t.Errorf("%.40s: %v, want %q", c.raw, err, c.says)
		}
	}
	if r, err := DecodeReport([]byte(`{"metrics":[{"name":"m","value":1}]}`)); err != nil || len(r.Metrics) != 1 {
		t.Errorf("a good report: %v %v", r, err)
	}
}

func TestDecodeReportPartsKeepsWhatItCanRead(t *testing.T) {
	many := `{"metrics":[` + strings.Repeat(`{"name":"m","value":1},`, 3*MaxMetrics) + `{"name":"m","value":1}],"notes":["kept"]}`
	for _, c := range []struct {
		raw, says string
		check     func(*Report) bool
	}{
		{`{"metrics":"x","notes":["kept"]}`, "metrics: must be a list, got JSON string", func(r *Report) bool { return len(r.Notes) == 1 }},
		{`{"metrics":[{"name":"m","value":1}],"heatmaps":[{"title":"h","x":["a"],"y":[],"values":[[1]]}]}`, `heatmaps: heatmap "h" has 1 rows for 0 labels`,
			func(r *Report) bool { return len(r.Metrics) == 1 && r.Heatmaps == nil }},
		{many, "over the limit of 1000: the first 1000 are shown", func(r *Report) bool { return len(r.Metrics) == MaxMetrics && len(r.Notes) == 1 }},
		{`"a string"`, "the stored report is not a JSON object", func(r *Report) bool { return r.Metrics == nil }},
		{`{"time":{"unit":""},"series":[{"title":"p","x_time":true,"lines":[]}]}`, "time: ", func(r *Report) bool {
			return r.Time == nil && !r.Series[0].XTime && r.Validate() == nil
		}},
	} {
		r := DecodeReportParts([]byte(c.raw))
		if len(r.Unreadable) != 1 || !strings.Contains(r.Unreadable[0], c.says) || !c.check(r) {
			t.Errorf("%.40s: unreadable %q, want one saying %q, and the rest kept", c.raw, r.Unreadable, c.says)
		}
	}
}
