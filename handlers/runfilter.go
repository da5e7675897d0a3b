package handlers

import (
	"math"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/store"
	"schedlab/views"
)

// The filter of /runs and GET /api/runs, as query parameters:
//
//	strategy, variant, workload, tag   exact values
//	param=name:value                   repeated; the parameter's exact value text
//	metric, min, max                   runs reporting metric, within [min, max]
//	sort                               newest (default), metric-asc, metric-desc
//
// status stays an API filter, as before.

// maxParamFilters bounds the param filters of one request: each is a test
// on every row the list reaches.
const maxParamFilters = 16

// parseParamFilter reads one param filter "name:value": the name up to the
// first colon (trimmed, and one store.ParamNameOK takes: it is looked up
// in the run's params object), the value after it, exactly (it may be empty or
// hold colons).
func parseParamFilter(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, ":")
	switch {
	case !ok:
		return "", "", errs.Invalidf("param", "%q: write name:value, e.g. gamma:1.3", s)
	case strings.TrimSpace(name) == "":
		return "", "", errs.Invalidf("param", "%q: the parameter name before the colon is missing", s)
	case !store.ParamNameOK(strings.TrimSpace(name)):
		return "", "", errs.Invalidf("param", "%q: a parameter name has no quotes, backslashes or control characters", s)
	}
	return strings.TrimSpace(name), value, nil
}

// parseBound reads min or max: a finite number, or "" for none.
func parseBound(field, s string) (*float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, errs.Invalidf(field, "must be a number, got %q", s)
	}
	return &v, nil
}

// runFilter reads the list filter of a request. It returns the filter as
// asked (for the form) even when it is bad, with every problem at once,
// each an errs.Invalid naming its query parameter.
func runFilter(c echo.Context) (store.RunFilter, views.RunsFilter, error) {
	q := c.QueryParams()
	asked := views.RunsFilter{Strategy: q.Get("strategy"), Variant: q.Get("variant"), Workload: q.Get("workload"),
		Tag: q.Get("tag"), Metric: strings.TrimSpace(q.Get("metric")), Min: q.Get("min"), Max: q.Get("max"), Sort: q.Get("sort")}
	f := store.RunFilter{Strategy: asked.Strategy, Variant: asked.Variant, WorkloadID: asked.Workload, Tag: asked.Tag,
		Metric: asked.Metric, Sort: asked.Sort}
	var problems []error
	for _, p := range q["param"] {
		if p == "" {
			continue // the form's empty field
		}
		asked.Params = append(asked.Params, p)
		name, value, err := parseParamFilter(p)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if f.Params == nil {
			f.Params = map[string]string{}
		}
		if old, ok := f.Params[name]; ok && old != value {
			problems = append(problems, errs.Invalidf("param", "parameter %s is given twice, as %q and %q", name, old, value))
		}
		f.Params[name] = value
	}
	if len(f.Params) > maxParamFilters {
		problems = append(problems, errs.Invalidf("param", "at most %d parameters, got %d", maxParamFilters, len(f.Params)))
	}
	var err error
	if f.MetricMin, err = parseBound("min", asked.Min); err != nil {
		problems = append(problems, err)
	}
	if f.MetricMax, err = parseBound("max", asked.Max); err != nil {
		problems = append(problems, err)
	}
	switch f.Sort {
	case "", store.SortNewest:
	case store.SortMetricAsc, store.SortMetricDesc:
		if f.Metric == "" {
			problems = append(problems, errs.Invalidf("metric", "sort=%s needs the metric to sort by", f.Sort))
		}
	default:
		problems = append(problems, errs.Invalidf("sort", "must be %s, %s or %s, got %q",
			store.SortNewest, store.SortMetricAsc, store.SortMetricDesc, f.Sort))
	}
	if f.Metric == "" && (f.MetricMin != nil || f.MetricMax != nil) {
		problems = append(problems, errs.Invalidf("metric", "min and max need the metric they bound"))
	}
	if f.MetricMin != nil && f.MetricMax != nil && *f.MetricMin > *f.MetricMax {
		problems = append(problems, errs.Invalidf("min", "min %s is greater than max %s", asked.Min, asked.Max))
	}
	return f, asked, errs.Join(problems)
}
