package handlers

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"schedlab/adversaries"
	"schedlab/bundle"
	"schedlab/errs"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/adversary"
	"schedlab/store"
	"schedlab/views"
	"schedlab/views/charts"
)

// adversaryStore is what the adversarial search pages read (*store.Store).
type adversaryStore interface {
	ExportAdversarySearch(ctx context.Context, id string) (*store.SearchSnapshot, error)
	AdversarySearchOf(ctx context.Context, workloadID string) (*store.AdversarySearch, error)
	GetAdversarySearch(ctx context.Context, id string) (*store.AdversarySearch, error)
	GetRun(ctx context.Context, id string) (*runtypes.Run, error)
}

// maxSearchBody bounds a search's JSON body.
const maxSearchBody = 64 << 10

// newAdversaryPage: GET /adversary/new, the form of a search.
func (s *Server) newAdversaryPage(c echo.Context) error {
	v := map[string]string{"strategy": c.QueryParam("strategy"), "method": "anneal", "budget": "100", "seed": "1"}
	return s.render(c, http.StatusOK, views.AdversaryNew(views.AdversaryFormProps{Families: s.adversaryFamilies(), Values: v}))
}

// adversaryList: GET /adversary, every search, newest first.
func (s *Server) adversaryList(c echo.Context) error {
	list, err := s.searches.List(c.Request().Context())
	if err != nil {
		return err
	}
	rows := mapped(list, func(a adversaries.Summary) views.AdversaryRow {
		return views.AdversaryRow{ID: a.ID, Strategy: a.Strategy, A: a.A, B: a.B, Metric: a.Metric, Method: a.Method,
			Status: a.Status, Evaluations: a.Evaluations, Budget: a.Budget, Best: shortScore(a.Best), Created: a.CreatedAt}
	})
	return s.render(c, http.StatusOK, views.AdversaryList(rows))
}

// shortScore is a stored score to 4 significant digits ("" stays "").
func shortScore(score string) string {
	v, err := strconv.ParseFloat(score, 64)
	if err != nil {
		return score
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// apiListAdversary: GET /api/adversary, every search, newest first.
func (s *Server) apiListAdversary(c echo.Context) error {
	list, err := s.searches.List(c.Request().Context())
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, list)
}

// startAdversaryPage: POST /adversary, the form's submission; a refused
// one is the form again with every problem beside its field.
func (s *Server) startAdversaryPage(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return formErr(err)
	}
	values := map[string]string{}
	for k := range form {
		values[k] = form.Get(k)
	}
	spec, err := specFromForm(form)
	if err == nil {
		var a *store.AdversarySearch
		if a, err = s.createSearch(c, spec); err == nil {
			return c.Redirect(http.StatusSeeOther, "/adversary/"+a.ID)
		}
	}
	if statusOf(err) >= 500 {
		return err
	}
	p := views.AdversaryFormProps{Families: s.adversaryFamilies(), Values: values, Errs: formErrors(err)}
	return s.render(c, statusOf(err), views.AdversaryNew(p))
}

// apiStartAdversary: POST /api/adversary with a search's JSON (the form's
// fields; a_params, b_params and preset_params objects of strings).
func (s *Server) apiStartAdversary(c echo.Context) error {
	spec, err := readSpec(c.Request().Body)
	if err != nil {
		return err
	}
	a, err := s.createSearch(c, spec)
	if err != nil {
		return err
	}
	st, err := s.searches.State(c.Request().Context(), a.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, st)
}

// createSearch checks and stores a search of the request's user. Its
// first instance is generated here (and mutated once, to check that the
// family can), within the time a request may spend generating
// (generateTimeout); past it, a 413 says what to lower.
func (s *Server) createSearch(c echo.Context, spec adversaries.Spec) (*store.AdversarySearch, error) {
	limit := s.generateTimeout
	ctx, cancel := context.WithTimeout(c.Request().Context(), limit)
	defer cancel()
	a, err := s.searches.Create(ctx, spec, ownerID(c))
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, errs.New(errs.TooLarge, "preset_params", "generating the search's first instance took over the %v a request may spend generating in the server: lower the preset's sizes", limit)
	}
	return a, err
}

// apiGetAdversary: GET /api/adversary/:id, the search's state.
func (s *Server) apiGetAdversary(c echo.Context) error {
	st, err := s.searches.State(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, st)
}

// cancelAdversary cancels search :id if the request's user may.
func (s *Server) cancelAdversary(c echo.Context) error {
	ctx := c.Request().Context()
	a, err := s.store.GetAdversarySearch(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if err := s.mayChange(c, a.Owner, "search "+a.ID); err != nil {
		return err
	}
	return s.searches.Cancel(ctx, a.ID)
}

// adversaryPage: GET /adversary/:id.
func (s *Server) adversaryPage(c echo.Context) error {
	p, err := s.adversaryProps(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.AdversaryPage(p))
}

// adversaryLive: GET /adversary/:id/live, the parts of the page a
// running search changes (static/app.js liveSearch swaps them in).
func (s *Server) adversaryLive(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	p, err := s.adversaryProps(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.AdversaryLive(p))
}

// adversaryProps reads search id and its view: the report so far, and
// A's and B's Gantts on the best instance aligned, from the best's runs.
func (s *Server) adversaryProps(ctx context.Context, id string) (views.AdversaryProps, error) {
	st, err := s.searches.State(ctx, id)
	if err != nil {
		return views.AdversaryProps{}, err
	}
	strat, _ := s.lookup(st.Strategy)
	sp := st.Spec
	p := views.AdversaryProps{ID: st.ID, Strategy: st.Strategy, Status: st.Status, Error: st.Error, A: sp.A, B: sp.B,
		Metric: sp.Metric, Better: string(sp.Better), Method: cmp.Or(sp.Method, adversary.Anneal), Score: cmp.Or(sp.Score, adversary.Ratio),
		Preset: sp.Preset, Seed: sp.Seed, Budget: sp.Budget, Seconds: sp.Seconds, Evaluations: len(st.Evaluations),
		BestWorkloadID: st.BestWorkloadID, RunA: st.RunA, RunB: st.RunB, Commit: st.Build.Commit}
	for _, e := range st.Evaluations {
		if !e.Replay && e.Key != "" {
			p.Ran++
		}
	}
	if st.Best == nil {
		return p, nil
	}
	p.Best, p.BestAt = adversary.ScoreText(st.Best.Score), st.Best.Index+1
	ra, rb := s.searchRunReport(ctx, st.RunA), s.searchRunReport(ctx, st.RunB)
	// The report's own Gantts are drawn aligned instead (below).
	p.Report = st.Report(strat, ra, rb)
	p.Report.Gantts = nil
	if ra != nil && rb != nil {
		ja, jb := charts.InFrame(ra), charts.InFrame(rb)
		for _, ga := range ja.Gantts {
			for _, gb := range jb.Gantts {
				if ga.Title == gb.Title {
					p.Gantts = append(p.Gantts, charts.AlignGantts([]string{"A: " + sp.A, "B: " + sp.B}, []report.Gantt{ga, gb}))
				}
			}
		}
		p.Differs = metricDiffs(ra, rb)
	}
	return p, nil
}

// searchRunReport is run id's report when it is done (nil otherwise).
func (s *Server) searchRunReport(ctx context.Context, id string) *report.Report {
	if id == "" {
		return nil
	}
	if _, rep, err := s.doneReport(ctx, id); err == nil {
		return rep
	}
	return nil
}

// metricDiffs are the metrics whose values differ between a and b.
func metricDiffs(a, b *report.Report) [][3]string {
	var out [][3]string
	for _, m := range a.Metrics {
		o, ok := b.Metric(m.Name)
		if !ok || o.Value == m.Value || (math.IsNaN(o.Value) && math.IsNaN(m.Value)) {
			continue
		}
		out = append(out, [3]string{m.Name, views.Num(m.Value) + " " + m.Unit, views.Num(o.Value) + " " + o.Unit})
	}
	return out
}

// adversaryFamilies tells the form what each family offers.
func (s *Server) adversaryFamilies() []views.AdversaryFamily {
	out := make([]views.AdversaryFamily, 0, len(s.strategies))
	for _, st := range s.strategies {
		f := views.AdversaryFamily{Name: st.Info.Name, Variants: variantNames(st),
			Presets: mapped(st.Presets, func(p solvers.Preset) string { return p.Name })}
		for _, m := range st.Metrics {
			if m.Kind == report.KindResult && (m.Better == report.Higher || m.Better == report.Lower) {
				f.Metrics = append(f.Metrics, m.Name)
			}
		}
		f.Mutates = st.Mutate != nil
		out = append(out, f)
	}
	return out
}

// specFromForm reads a search from the form's fields; a number that does
// not read names its field.
func specFromForm(f url.Values) (adversaries.Spec, error) {
	sp := adversaries.Spec{Strategy: f.Get("strategy"), A: strings.TrimSpace(f.Get("a")), B: strings.TrimSpace(f.Get("b")),
		Metric: strings.TrimSpace(f.Get("metric")), Score: f.Get("score"), Method: f.Get("method"),
		Preset: strings.TrimSpace(f.Get("preset")), Workload: strings.TrimSpace(f.Get("workload"))}
	var problems errs.List
	for _, p := range []struct {
		field string
		to    *map[string]string
	}{{"a_params", &sp.AParams}, {"b_params", &sp.BParams}, {"preset_params", &sp.PresetParams}} {
		m, err := pairs(p.field, f.Get(p.field))
		if err != nil {
			problems = append(problems, err)
		}
		*p.to = m
	}
	for _, n := range []struct {
		field string
		to    any
	}{{"budget", &sp.Budget}, {"seconds", &sp.Seconds}, {"seed", &sp.Seed}, {"restarts", &sp.Restarts}, {"stop_at", &sp.StopAt}} {
		v := strings.TrimSpace(f.Get(n.field))
		if v == "" {
			continue
		}
		var err error
		switch to := n.to.(type) {
		case *int:
			*to, err = strconv.Atoi(v)
		case *int64:
			*to, err = strconv.ParseInt(v, 10, 64)
		case *float64:
			*to, err = strconv.ParseFloat(v, 64)
		}
		if err != nil {
			problems = append(problems, errs.Invalidf(n.field, "%q is not a number", v))
		}
	}
	if len(problems) > 0 {
		return sp, problems
	}
	return sp, nil
}

// pairs reads "name=value, name=value" (commas or new lines between).
func pairs(field, s string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == ';' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, errs.Invalidf(field, "%q is not name=value", part)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// readSpec reads a search's JSON strictly: an unknown field or a value
// of the wrong type is refused naming the field.
func readSpec(body io.Reader) (adversaries.Spec, error) {
	var sp adversaries.Spec
	dec := json.NewDecoder(io.LimitReader(body, maxSearchBody+1))
	dec.DisallowUnknownFields()
	err := dec.Decode(&sp)
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		if dec.More() {
			return sp, errs.Invalidf("body", "one JSON object, then nothing")
		}
		return sp, nil
	case errors.As(err, &typ):
		return sp, errs.Invalidf(typ.Field, "must be %s, got JSON %s", errs.JSONType(typ.Type), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return sp, errs.Invalidf(name, "unknown field %q of a search", name)
	}
	return sp, errs.Invalidf("body", "not a search's JSON: %v", fmt.Sprint(err))
}

// foundBy is the search whose best instance workload id is (nil if none).
func (s *Server) foundBy(ctx context.Context, id string) (*views.FoundBy, error) {
	a, err := s.store.AdversarySearchOf(ctx, id)
	if a == nil || err != nil {
		return nil, err
	}
	var sp adversaries.Spec
	if err := json.Unmarshal(a.Config, &sp); err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	return &views.FoundBy{ID: a.ID, A: sp.A, B: sp.B, Metric: sp.Metric, Method: cmp.Or(sp.Method, adversary.Anneal),
		Score: cmp.Or(sp.Score, adversary.Ratio), Commit: a.Build.Commit, Seed: sp.Seed}, nil
}

// searchBundle: GET /api/adversary/:id/bundle (and /adversary/:id/bundle),
// an ended search as a search bundle file (bundle.ExportSearch);
// `schedlab import` reads it into another database.
func (s *Server) searchBundle(c echo.Context) error {
	id := c.Param("id")
	err := bundle.ExportSearch(c.Request().Context(), s.store, id, &download{c: c, name: id + bundle.SearchFileSuffix})
	if err != nil && c.Response().Committed {
		c.Logger().Errorf("export of search %s stopped: %v", id, err)
		panic(http.ErrAbortHandler)
	}
	return err
}
