package handlers

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/sweep"
	"schedlab/store"
	"schedlab/views"
)

// sweepFormStore is what the sweep form reads (*store.Store).
type sweepFormStore interface {
	GetWorkloadInfo(ctx context.Context, id string) (*runtypes.Workload, error)
	ListWorkloadsPage(ctx context.Context, strategy, owner string, limit int, cursor store.Cursor) ([]runtypes.Workload, store.Cursor, error)
	WallTimes(ctx context.Context, strategy string) (map[string]store.WallTime, error)
}

// The sweep form (/experiments/new) is a definition in fields: the family,
// the workload axis (a preset with its parameters, or stored workloads),
// the variants ticked, a field per run parameter, replicates, seed and a
// notify URL. A parameter field takes one value, a comma list or an
// integer range "a..b" (sweep.ParseValues, the one grammar of swept
// values). sweepForm fills the typed definition from the fields directly;
// the experiment service checks it (service.Check, or Start), so every
// problem is shown at once beside its field. As the user types, the form
// asks /experiments/preview for the count, the estimate and the
// definition's JSON (static/app.js).

// sweepForm reads the sweep form's posted fields of family st into the
// definition they make, with the problems of fields it could not read
// (each on its form field; the rest is left to the service's check).
func sweepForm(form url.Values, st *solvers.Strategy) (*sweep.Definition, views.SweepValues, []error) {
	v := views.SweepValues{Name: form.Get("name"), WorkloadKind: form.Get("workload_kind"), Preset: form.Get("preset"),
		IDs: form["ids"], Variants: form["variants"], Replicates: form.Get("replicates"), Seed: form.Get("seed"),
		NotifyURL: strings.TrimSpace(form.Get("notify_url")), Carry: form.Get("carry"), WGrid: map[string]string{}, Grid: map[string]string{}}
	for k, vs := range form {
		if name, ok := strings.CutPrefix(k, "grid."); ok && len(vs) > 0 {
			v.Grid[name] = vs[0]
		} else if name, ok := strings.CutPrefix(k, "wgrid."); ok && len(vs) > 0 {
			v.WGrid[name] = vs[0]
		}
	}
	r := formReader{left: 2 * experiments.MaxRuns}
	d := &sweep.Definition{Name: strings.TrimSpace(v.Name), Strategy: st.Info.Name, NotifyURL: v.NotifyURL,
		Replicates: int(r.whole("replicates", v.Replicates, 1)), Seed: r.whole("seed", v.Seed, experiments.DefaultSeed)}
	for _, x := range variantNames(st) {
		if slices.Contains(v.Variants, x) {
			d.Variants = append(d.Variants, x)
		}
	}
	r.problems = append(r.problems, unknownFields(v, st)...)
	d.Grid = r.grid("grid.", st.Params, v.Grid, "")
	if v.WorkloadKind == "ids" {
		for _, id := range v.IDs {
			d.Workload.IDs = append(d.Workload.IDs, strings.TrimSpace(id))
		}
	} else if p, err := st.FindPreset(v.Preset, "preset"); err == nil {
		d.Workload.Preset, d.Workload.Grid = v.Preset, r.grid("wgrid.", p.Params, v.WGrid, v.Preset+".")
	} else {
		d.Workload.Preset = v.Preset // unknown: the check says so
	}
	if strings.TrimSpace(v.Carry) != "" {
		var carry struct {
			Tags       []string          `json:"tags"`
			Notes      string            `json:"notes"`
			References []sweep.Reference `json:"references"`
		}
		if err := json.Unmarshal([]byte(v.Carry), &carry); err != nil {
			r.problems = append(r.problems, errs.Invalidf("carry", "the tags, notes and references kept from the starting definition are not JSON: %v", err))
		}
		d.Tags, d.Notes, d.References = carry.Tags, carry.Notes, carry.References
	}
	return d, v, r.problems
}

// formReader reads the sweep form's fields, collecting their problems;
// left is how many more values its lists and ranges may hold.
type formReader struct {
	problems []error
	left     int
}

// whole reads a whole number field, dflt when empty.
func (r *formReader) whole(field, text string, dflt int64) int64 {
	if text = strings.TrimSpace(text); text == "" {
		return dflt
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		r.problems = append(r.problems, errs.Invalidf(field, "must be a whole number, got %q", text))
		return dflt
	}
	if field == "replicates" {
		n = max(min(n, math.MaxInt32), math.MinInt32)
	}
	return n
}

// grid reads the fields prefix+infix+NAME of specs, empty ones left out.
func (r *formReader) grid(prefix string, specs []solvers.ParamSpec, values map[string]string, infix string) sweep.Grid {
	var g sweep.Grid
	for _, ps := range specs {
		vs, err := sweep.ParseValues(values[infix+ps.Name])
		if r.left -= len(vs); err == nil && r.left < 0 {
			err = fmt.Errorf("the fields hold more than %d values in all", 2*experiments.MaxRuns)
		}
		if err != nil {
			r.problems = append(r.problems, errs.Invalidf(prefix+infix+ps.Name, "%s", err.Error()))
		} else if vs != nil {
			if g == nil {
				g = sweep.Grid{}
			}
			g[ps.Name] = vs
		}
	}
	return g
}

// unknownFields refuses what the family does not have: a ticked variant,
// a run parameter field (grid.NAME), a preset parameter field
// (wgrid.PRESET.NAME) of a preset the family has not or a parameter its
// preset has not. Dropping them, as the form did, ran every variant when
// only unknown ones were ticked, and swept nothing where the user asked
// for a sweep (issue 41). Fields of the family's other presets are the
// form's own (one set per preset, the chosen one used) and are left.
func unknownFields(v views.SweepValues, st *solvers.Strategy) []error {
	var problems []error
	variants := variantNames(st)
	for _, x := range v.Variants {
		if !slices.Contains(variants, x) {
			problems = append(problems, errs.Invalidf("variants", "unknown variant %q of %s (known: %s)", x, st.Info.Name, strings.Join(variants, ", ")))
		}
	}
	params := paramNames(st.Params)
	for _, k := range slices.Sorted(maps.Keys(v.Grid)) {
		if !slices.Contains(params, k) {
			problems = append(problems, errs.Invalidf("grid."+k, "unknown run parameter %q of %s (known: %s)", k, st.Info.Name, strings.Join(params, ", ")))
		}
	}
	presets := st.Presets
	for _, k := range slices.Sorted(maps.Keys(v.WGrid)) {
		i := slices.IndexFunc(presets, func(p solvers.Preset) bool { return strings.HasPrefix(k, p.Name+".") })
		if i < 0 {
			names := mapped(presets, func(p solvers.Preset) string { return p.Name })
			problems = append(problems, errs.Invalidf("wgrid."+k, "names no preset of %s (known: %s)", st.Info.Name, strings.Join(names, ", ")))
			continue
		}
		pn := paramNames(presets[i].Params)
		if name := strings.TrimPrefix(k, presets[i].Name+"."); !slices.Contains(pn, name) {
			problems = append(problems, errs.Invalidf("wgrid."+k, "unknown parameter %q of preset %s (known: %s)", name, presets[i].Name, strings.Join(pn, ", ")))
		}
	}
	return problems
}

func variantNames(st *solvers.Strategy) []string {
	return mapped(st.Variants, func(v solvers.Variant) string { return v.Name })
}

func paramNames(specs []solvers.ParamSpec) []string {
	return mapped(specs, func(ps solvers.ParamSpec) string { return ps.Name })
}

// sweepValuesFor fills the form's fields from a definition (a starter,
// or a pasted one): the inverse of sweepForm.
func sweepValuesFor(def *sweep.Definition) views.SweepValues {
	v := views.SweepValues{Name: def.Name, Variants: def.Variants, Replicates: strconv.Itoa(def.Replicates),
		Seed: strconv.FormatInt(def.Seed, 10), NotifyURL: def.NotifyURL, WGrid: map[string]string{}, Grid: map[string]string{}}
	if len(def.Workload.IDs) > 0 {
		v.WorkloadKind, v.IDs = "ids", def.Workload.IDs
	} else {
		v.WorkloadKind, v.Preset = "preset", def.Workload.Preset
		for k, vs := range def.Workload.Grid {
			v.WGrid[def.Workload.Preset+"."+k] = sweep.ValuesText(vs)
		}
	}
	for k, vs := range def.Grid {
		v.Grid[k] = sweep.ValuesText(vs)
	}
	if len(def.Tags) > 0 || def.Notes != "" || len(def.References) > 0 {
		b, _ := json.Marshal(struct {
			Tags       []string          `json:"tags,omitempty"`
			Notes      string            `json:"notes,omitempty"`
			References []sweep.Reference `json:"references,omitempty"`
		}{def.Tags, def.Notes, def.References})
		v.Carry = string(b)
	}
	return v
}

// sweepFieldOf is the form field a definition problem belongs to:
// "grid.gamma[2]" is field grid.gamma, "workload.grid.instance" is
// wgrid.PRESET.instance, "variants[1]" is variants.
func sweepFieldOf(field, preset string) string {
	base, _, _ := strings.Cut(field, "[")
	switch {
	case strings.HasPrefix(base, "workload.grid."):
		return "wgrid." + preset + "." + strings.TrimPrefix(base, "workload.grid.")
	case base == "workload.preset":
		return "preset"
	case base == "workload.ids":
		return "ids"
	}
	return base
}

// sweepErrors lists every problem for the form, each on its field; a
// problem with one element of a list says which one.
func sweepErrors(err error, preset string) []views.FormError {
	var out []views.FormError
	for _, e := range errs.All(err) {
		f := errs.FieldOf(e)
		msg := messageOf(e)
		if i := strings.Index(f, "["); i >= 0 {
			msg = "value " + f[i:] + ": " + msg
		}
		out = append(out, views.FormError{Field: sweepFieldOf(f, preset), Message: msg})
	}
	return out
}

// estimateWords is how long n runs of variants may take, from the past
// runs' median wall time per variant: "about 2 min 30 s of run time
// (online 1.2 s per run, over its last 40 done runs; …)".
func estimateWords(n int64, variants []string, wall map[string]store.WallTime) string {
	if n <= 0 || len(variants) == 0 {
		return ""
	}
	per := float64(n) / float64(len(variants))
	var total time.Duration
	var notes, unknown []string
	for _, v := range variants {
		w, ok := wall[v]
		if !ok || w.Runs == 0 {
			unknown = append(unknown, v)
			continue
		}
		total += time.Duration(per * float64(w.Median))
		notes = append(notes, fmt.Sprintf("%s %s per run over its last %d done runs", v, durationWords(w.Median), w.Runs))
	}
	if len(notes) == 0 {
		return "No past done run of " + strings.Join(variants, ", ") + " to estimate the time from."
	}
	s := "About " + durationWords(total) + " of run time in all, shared by the workers (median wall time: " + strings.Join(notes, "; ") + ")"
	if len(unknown) > 0 {
		s += "; not counted: " + strings.Join(unknown, ", ") + ", which has no past done run"
	}
	return s + "."
}

// durationWords writes a duration for a reader: "850 ms", "12.5 s",
// "4 min 10 s", "3 h 20 min".
func durationWords(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
	case d < time.Hour:
		return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%d h %d min", int(d.Hours()), int(d.Minutes())%60)
}

// starter is the definition the sweep form starts from: a seed paper's
// experiment (?seed=family/name), a run's own values (?run=), the values
// of compared runs (?runs=a,b,c, from the compare page), a stored
// workload (?workload=), or a family's first preset (?strategy=, default
// the first family).
func (s *Server) starter(c echo.Context) (*sweep.Definition, error) {
	def := &sweep.Definition{Replicates: 1, Seed: experiments.DefaultSeed}
	switch {
	case c.QueryParam("seed") != "":
		return s.exps.Seed(c.QueryParam("seed"))
	case c.QueryParam("run") != "" || c.QueryParam("runs") != "":
		ids := strings.Split(c.QueryParam("runs"), ",")
		if c.QueryParam("run") != "" {
			ids = []string{c.QueryParam("run")}
		}
		if len(ids) > maxCompare {
			return nil, errs.New(errs.Invalid, "runs", "at most %d runs, got %d", maxCompare, len(ids))
		}
		return s.exps.FromRuns(c.Request().Context(), ids)
	case c.QueryParam("workload") != "":
		w, err := s.store.GetWorkloadInfo(c.Request().Context(), c.QueryParam("workload"))
		if err != nil {
			return nil, err
		}
		def.Name, def.Strategy = "sweep on "+w.Name, w.Strategy
		def.Workload.IDs = []string{w.ID}
	default:
		name := c.QueryParam("strategy")
		if name == "" && len(s.strategies) > 0 {
			name = s.strategies[0].Info.Name
		}
		st, err := s.lookup(name)
		if err != nil {
			return nil, err
		}
		def.Name, def.Strategy = name+" sweep", name
		if ps := st.Presets; len(ps) > 0 {
			def.Workload.Preset = ps[0].Name
		}
	}
	return def, nil
}

// sweepProps is the sweep form of family st showing def, whose fields
// hold v, with the family's stored workloads.
func (s *Server) sweepProps(c echo.Context, st *solvers.Strategy, def *sweep.Definition, v views.SweepValues) (views.NewExperimentProps, error) {
	p := views.NewExperimentProps{Strategies: s.views(), Strategy: viewOf(st), Form: v, NotifyAllowed: s.notifyAllowedText()}
	if owner, ok := s.listOwner(c); ok {
		ws, _, err := s.store.ListWorkloadsPage(c.Request().Context(), st.Info.Name, owner, 200, "")
		if err != nil {
			return p, err
		}
		p.Workloads = viewWorkloads(ws)
	}
	b, err := def.JSON()
	p.Definition = string(b)
	return p, err
}

// count sets p's run count of def and the time its runs may take, from
// the past runs' wall times.
func (s *Server) count(ctx context.Context, p *views.NewExperimentProps, def *sweep.Definition, st *solvers.Strategy) error {
	wall, err := s.store.WallTimes(ctx, st.Info.Name)
	if err != nil {
		return err
	}
	variants := def.Variants
	if len(variants) == 0 {
		variants = variantNames(st)
	}
	p.Count, p.Counted = experiments.Count(def, st), true
	p.Estimate = estimateWords(p.Count, variants, wall)
	return nil
}

func (s *Server) newExperimentPage(c echo.Context) error {
	def, err := s.starter(c)
	if err != nil {
		return err
	}
	st, err := s.lookup(def.Strategy)
	if err != nil {
		return err
	}
	p, err := s.sweepProps(c, st, def, sweepValuesFor(def))
	if err != nil {
		return err
	}
	p.Paste = p.Definition
	return s.render(c, http.StatusOK, views.NewExperiment(p))
}

// readSweep reads the form's POST, from the fields or from the paste area
// (a "definition"): the definition (nil when the paste is not one), the
// form to show again, the text to download and the problems found
// reading it.
func (s *Server) readSweep(c echo.Context, form url.Values) (*sweep.Definition, views.NewExperimentProps, []byte, []error, error) {
	if _, pasted := form["definition"]; !pasted {
		st, err := s.lookup(form.Get("strategy"))
		if err != nil {
			return nil, views.NewExperimentProps{}, nil, nil, err
		}
		def, v, problems := sweepForm(form, st)
		p, err := s.sweepProps(c, st, def, v)
		p.Paste = p.Definition
		return def, p, []byte(p.Definition), problems, err
	}
	raw := []byte(form.Get("definition"))
	def, perr := experiments.Parse(raw)
	var p views.NewExperimentProps
	var err error
	if perr == nil {
		st, lerr := s.lookup(def.Strategy)
		if perr = lerr; lerr == nil {
			p, err = s.sweepProps(c, st, def, sweepValuesFor(def))
		}
	}
	if p.Strategies == nil && len(s.strategies) > 0 && err == nil { // the paste names no family it could be shown as
		first := &sweep.Definition{Strategy: s.strategies[0].Info.Name, Replicates: 1, Seed: experiments.DefaultSeed}
		p, err = s.sweepProps(c, s.strategies[0], first, views.SweepValues{WorkloadKind: "preset"})
	}
	p.Paste, p.Pasted = form.Get("definition"), true
	if perr != nil {
		return nil, p, raw, errs.All(perr), err
	}
	return def, p, raw, nil, err
}

// startExperimentPage is the form's POST: "count" shows how many runs the
// definition makes and how long they may take, "download" sends the
// definition as a file, "start" queues its runs (service.Start). Every
// problem is listed, each beside its field, and the input is kept.
func (s *Server) startExperimentPage(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return formErr(err)
	}
	def, p, raw, problems, err := s.readSweep(c, form)
	if err != nil {
		return err
	}
	if def != nil && len(problems) == 0 && form.Get("action") == "start" {
		e, err := s.exps.Start(c.Request().Context(), def, ownerID(c))
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/experiments/"+e.ID)
		}
		problems = errs.All(err)
	} else if def != nil {
		if st, err := s.exps.Check(def); err != nil {
			problems = append(problems, errs.All(err)...)
		} else if len(problems) == 0 {
			if form.Get("action") == "download" {
				return downloadDefinition(c, def.Name, raw)
			}
			if err := s.count(c.Request().Context(), &p, def, st); err != nil {
				return err
			}
		}
	}
	status := http.StatusOK
	if len(problems) > 0 {
		joined := errs.Join(problems)
		p.Errs, status = sweepErrors(joined, p.Form.Preset), statusOf(joined)
	}
	return s.render(c, status, views.NewExperiment(p))
}

// downloadDefinition sends a definition's text as a file named after it.
func downloadDefinition(c echo.Context, title string, raw []byte) error {
	name := cmp.Or(strings.Trim(fileSlug(title), "-"), "experiment")
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name+".json"))
	return c.Blob(http.StatusOK, "application/json; charset=utf-8", raw)
}

// sweepPreview is what the form shows as the user types (static/app.js):
// the definition the fields make, its run count and estimate, or the
// problems of fields that could not be read.
type sweepPreview struct {
	Definition string            `json:"definition"`
	Count      int64             `json:"count"`
	Counted    bool              `json:"counted"`
	Estimate   string            `json:"estimate"`
	Problems   []views.FormError `json:"problems"`
}

// previewExperiment: POST /experiments/preview with the sweep form's
// fields. Nothing is checked against the family here but the fields'
// grammar: the form's POST checks the rest.
func (s *Server) previewExperiment(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return formErr(err)
	}
	st, err := s.lookup(form.Get("strategy"))
	if err != nil {
		return err
	}
	def, _, problems := sweepForm(form, st)
	b, err := def.JSON()
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	out := sweepPreview{Definition: string(b), Problems: []views.FormError{}}
	if len(problems) > 0 {
		out.Problems = sweepErrors(errs.Join(problems), def.Workload.Preset)
		return c.JSON(http.StatusOK, out)
	}
	var p views.NewExperimentProps
	if err := s.count(c.Request().Context(), &p, def, st); err != nil {
		return err
	}
	out.Count, out.Counted, out.Estimate = p.Count, true, p.Estimate
	return c.JSON(http.StatusOK, out)
}

// fileSlug makes a file name of a title: letters, digits, '-', '_' and
// '.' kept, runs of anything else one '-'.
func fileSlug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range title {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	s := b.String()
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}
