package handlers

import (
	"context"
	"strings"

	"schedlab/errs"
	"schedlab/runtypes"
	"schedlab/store"
	"schedlab/views"
)

// maxRunColumns bounds the chosen columns of /runs: each metric column is
// one query over the page's runs.
const maxRunColumns = 8

// runColumns reads the columns /runs shows besides its own: ?cols=
// param:policy,metric:makespan (comma-separated, or the parameter
// repeated), in the order given, duplicates dropped. A column is
// param:NAME (the run's resolved parameter) or metric:NAME (the value it
// reported). It returns the columns as asked, for the form, even when one
// is bad.
func runColumns(q []string) (asked string, cols []views.RunColumn, err error) {
	var parts []string
	for _, v := range q {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c != "" {
				parts = append(parts, c)
			}
		}
	}
	asked = strings.Join(parts, ",")
	seen := map[string]bool{}
	for _, c := range parts {
		kind, name, _ := strings.Cut(c, ":")
		kind, name = strings.TrimSpace(kind), strings.TrimSpace(name)
		switch {
		case kind != views.ColumnParam && kind != views.ColumnMetric:
			return asked, nil, errs.Invalidf("cols", "%q: a column is param:NAME or metric:NAME, e.g. param:policy,metric:makespan", c)
		case name == "" || !store.ParamNameOK(name):
			return asked, nil, errs.Invalidf("cols", "%q: the name after %s: is missing or has quotes, backslashes or control characters", c, kind)
		}
		if seen[kind+":"+name] {
			continue
		}
		seen[kind+":"+name] = true
		cols = append(cols, views.RunColumn{Kind: kind, Name: name})
	}
	if len(cols) > maxRunColumns {
		return asked, nil, errs.Invalidf("cols", "at most %d columns, got %d", maxRunColumns, len(cols))
	}
	return asked, cols, nil
}

// fillColumns sets each column's values for runs: a parameter's text, a
// metric's number as the pages write it.
func (s *Server) fillColumns(ctx context.Context, cols []views.RunColumn, runs []runtypes.Run) error {
	ids := runIDs(runs)
	for k := range cols {
		c := &cols[k]
		c.Values = map[string]string{}
		switch c.Kind {
		case views.ColumnParam:
			for _, r := range runs {
				if v, ok := r.Params[c.Name]; ok {
					c.Values[r.ID] = v
				}
			}
		case views.ColumnMetric:
			if len(ids) == 0 {
				continue
			}
			vs, err := s.store.MetricValues(ctx, c.Name, ids)
			if err != nil {
				return err
			}
			for id, v := range vs {
				c.Values[id] = views.Num(v)
			}
		}
	}
	return nil
}
