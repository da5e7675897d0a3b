package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"

	"schedlab/errs"
)

// Limits of a report's size, checked by Validate: a page draws every
// metric and every chart of a report, and a compare joins them, so a
// report past them could not be drawn in bounded time (the audit's 100,000
// metrics took a compare page 46.5 s). The richest report of any family
// has some tens of metrics and charts.
const (
	// MaxMetrics is the most metrics of one report.
	MaxMetrics = 1000
	// maxParts is the most tables, plots, Gantts, graphs, heat maps and
	// parallel-coordinates charts of one report, together.
	maxParts = 1000
)

// validSize checks the counts against MaxMetrics and maxParts.
func (r *Report) validSize() error {
	if len(r.Metrics) > MaxMetrics {
		return fmt.Errorf("%d metrics, over the limit of %d", len(r.Metrics), MaxMetrics)
	}
	if n := r.parts(); n > maxParts {
		return fmt.Errorf("%d tables and charts, over the limit of %d", n, maxParts)
	}
	return nil
}

func (r *Report) parts() int {
	return len(r.Tables) + len(r.Series) + len(r.Gantts) + len(r.Graphs) + len(r.Heatmaps) + len(r.Parallels)
}

// DecodeReport decodes the JSON of a report from outside a run (an
// imported bundle's) and checks it as the runner checks a run's
// (Validate): it is what may be stored. Errors say in words which part is
// wrong and what it should be ("metrics: must be a list, got JSON
// string"), never Go's names of types.
func DecodeReport(raw []byte) (*Report, error) {
	var r Report
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, jsonWords(err)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}

// reportPart is one top-level field of a report's JSON, decoded and
// checked on its own by DecodeReportParts: where it goes, what to clear
// when it is unreadable, and the check of Validate that covers it.
type reportPart struct {
	name  string
	into  any
	clear func()
	check func() error
}

func reportParts(r *Report) []reportPart {
	return []reportPart{
		{"metrics", &r.Metrics, func() { r.Metrics = nil }, r.validMetrics},
		{"tables", &r.Tables, func() { r.Tables = nil }, r.validTables},
		{"series", &r.Series, func() { r.Series = nil }, r.validSeries},
		{"gantts", &r.Gantts, func() { r.Gantts = nil }, r.validGantts},
		{"graphs", &r.Graphs, func() { r.Graphs = nil }, r.validGraphs},
		{"heatmaps", &r.Heatmaps, func() { r.Heatmaps = nil }, r.validHeatmaps},
		{"parallels", &r.Parallels, func() { r.Parallels = nil }, r.validParallels},
		{"notes", &r.Notes, func() { r.Notes = nil }, nil},
		{"time", &r.Time, func() {
			r.Time = nil
			for i := range r.Series {
				r.Series[i].XTime = false
			}
		}, r.validTime},
		{"detail", &r.Detail, func() { r.Detail = nil }, nil},
	}
}

// DecodeReportParts decodes a stored report part by part for a page: a
// part (metrics, tables, …) that does not decode or fails its check of
// Validate is left out and named in Unreadable with what is wrong; more
// than MaxMetrics metrics or maxParts charts are cut to the limits, and
// said so. The rest is drawn as usual: a report stored before imports were
// checked (or by an older build) shows its error where it cannot be drawn,
// and a page never fails whole for it. A report that is not a JSON object
// is one unreadable part.
func DecodeReportParts(raw []byte) *Report {
	var r Report
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		r.Unreadable = []string{"the stored report is not a JSON object: " + jsonWords(err).Error()}
		return &r
	}
	for _, p := range reportParts(&r) {
		v, ok := top[p.name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(v, p.into); err != nil {
			p.clear()
			r.Unreadable = append(r.Unreadable, jsonWords(prefixField(err, p.name)).Error())
		}
	}
	if len(r.Metrics) > MaxMetrics {
		r.Unreadable = append(r.Unreadable, fmt.Sprintf("metrics: %d, over the limit of %d: the first %d are shown", len(r.Metrics), MaxMetrics, MaxMetrics))
		r.Metrics = r.Metrics[:MaxMetrics:MaxMetrics]
	}
	if n := r.parts(); n > maxParts {
		r.Unreadable = append(r.Unreadable, fmt.Sprintf("%d tables and charts, over the limit of %d: the first %d of each kind are shown", n, maxParts, maxParts/6))
		k := maxParts / 6
		r.Tables, r.Series, r.Gantts = r.Tables[:min(k, len(r.Tables))], r.Series[:min(k, len(r.Series))], r.Gantts[:min(k, len(r.Gantts))]
		r.Graphs, r.Heatmaps, r.Parallels = r.Graphs[:min(k, len(r.Graphs))], r.Heatmaps[:min(k, len(r.Heatmaps))], r.Parallels[:min(k, len(r.Parallels))]
	}
	for _, p := range reportParts(&r) {
		if p.check == nil {
			continue
		}
		if err := p.check(); err != nil {
			p.clear()
			r.Unreadable = append(r.Unreadable, p.name+": "+err.Error())
		}
	}
	return &r
}

// prefixField puts part before the field a type error names.
func prefixField(err error, part string) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		t := *typ
		if t.Field == "" {
			t.Field = part
		} else {
			t.Field = part + "." + t.Field
		}
		return &t
	}
	return fmt.Errorf("%s: %w", part, err)
}

// jsonWords turns an error of encoding/json into words: the field and
// what it must be ("metrics: must be a list, got JSON string"), without
// Go's names of types ("[]report.Metric").
func jsonWords(err error) error {
	var typ *json.UnmarshalTypeError
	var syn *json.SyntaxError
	switch {
	case err == nil:
		return errors.New("no report")
	case errors.As(err, &typ):
		field := typ.Field
		field = cmp.Or(field, "report")
		return fmt.Errorf("%s: must be %s, got JSON %s", field, errs.JSONType(typ.Type), typ.Value)
	case errors.As(err, &syn):
		return fmt.Errorf("malformed JSON at byte %d", syn.Offset)
	}
	return errors.New("malformed JSON")
}
