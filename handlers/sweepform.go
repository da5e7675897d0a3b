package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/solvers"
	"schedlab/store"
	"schedlab/views"
)

// The sweep form (/experiments/new) is a definition in fields: the family,
// the workload axis (a preset with its parameters, or stored workloads),
// the variants ticked, a field per run parameter, replicates, seed and a
// notify URL. A parameter field takes one value, a comma list or an
// integer range "a..b"; numbers and booleans are typed in the definition
// it makes (the JSON shown beside it, which static/app.js keeps in step
// as the user types). The server makes the same definition from the
// posted fields and checks it with experiments.Parse and Validate, so
// every problem is shown at once beside its field.

// formDef is a definition as the form writes it: keys in the order a
// reader expects, values typed.
type formDef struct {
	Name       string          `json:"name"`
	Strategy   string          `json:"strategy"`
	Workload   formWorkload    `json:"workload"`
	Variants   []string        `json:"variants,omitempty"`
	Grid       map[string]any  `json:"grid,omitempty"`
	Replicates any             `json:"replicates"`
	Seed       any             `json:"seed"`
	NotifyURL  string          `json:"notify_url,omitempty"`
	Tags       json.RawMessage `json:"tags,omitempty"`
	Notes      json.RawMessage `json:"notes,omitempty"`
	References json.RawMessage `json:"references,omitempty"`
}

type formWorkload struct {
	Preset string         `json:"preset,omitempty"`
	Grid   map[string]any `json:"grid,omitempty"`
	IDs    []string       `json:"ids,omitempty"`
}

// rangeText is an inclusive integer range as a field takes it: "0..9".
var rangeText = regexp.MustCompile(`^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$`)

// typedValue is a value as the definition writes it: a JSON number when
// it reads as a finite number, a boolean for true and false, else text.
func typedValue(s string) any {
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && json.Valid([]byte(s)) {
		return json.Number(s)
	}
	if b, err := strconv.ParseBool(s); err == nil && (s == "true" || s == "false") {
		return b
	}
	return s
}

// fieldValues reads a parameter field: nil when empty (the parameter
// keeps its default), an integer range as {"from", "to"}, otherwise the
// comma-separated values typed.
func fieldValues(text string) (any, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	if m := rangeText.FindStringSubmatch(text); m != nil {
		from, err1 := strconv.ParseInt(m[1], 10, 64)
		to, err2 := strconv.ParseInt(m[2], 10, 64)
		switch {
		case err1 != nil || err2 != nil:
			return nil, fmt.Errorf("range %q: a bound is out of range", text)
		case from > to:
			return nil, fmt.Errorf("range %s..%s is empty: the first number must not be above the second", m[1], m[2])
		case to-from >= experiments.MaxRuns:
			return nil, fmt.Errorf("range %s..%s has more than %d values", m[1], m[2], experiments.MaxRuns)
		}
		return map[string]any{"from": json.Number(m[1]), "to": json.Number(m[2])}, nil
	}
	if strings.Contains(text, "..") {
		return nil, fmt.Errorf("a range is two whole numbers, from..to (say 0..9), got %q", text)
	}
	parts := strings.Split(text, ",")
	out := make([]any, 0, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("value %d of %q is empty: separate values with one comma", i+1, text)
		}
		out = append(out, typedValue(p))
	}
	return out, nil
}

// valuesText writes swept values back into a field: "a..b" for three or
// more consecutive integers, else a comma list.
func valuesText(vs []string) string {
	if len(vs) >= 3 {
		consecutive := true
		prev, err := strconv.ParseInt(vs[0], 10, 64)
		for _, v := range vs[1:] {
			n, e := strconv.ParseInt(v, 10, 64)
			if err != nil || e != nil || n != prev+1 {
				consecutive = false
				break
			}
			prev = n
		}
		if consecutive && err == nil {
			return vs[0] + ".." + vs[len(vs)-1]
		}
	}
	return strings.Join(vs, ", ")
}

// sweepValuesOf reads the sweep form's posted fields.
func sweepValuesOf(form url.Values) views.SweepValues {
	v := views.SweepValues{Name: form.Get("name"), WorkloadKind: form.Get("workload_kind"), Preset: form.Get("preset"),
		IDs: form["ids"], Variants: form["variants"], Replicates: form.Get("replicates"), Seed: form.Get("seed"),
		NotifyURL: strings.TrimSpace(form.Get("notify_url")), Carry: form.Get("carry"),
		WGrid: map[string]string{}, Grid: map[string]string{}}
	for k, vs := range form {
		if len(vs) == 0 {
			continue
		}
		if name, ok := strings.CutPrefix(k, "grid."); ok {
			v.Grid[name] = vs[0]
		} else if name, ok := strings.CutPrefix(k, "wgrid."); ok {
			v.WGrid[name] = vs[0]
		}
	}
	return v
}

// sweepDefinition makes the definition of family st the fields hold, as
// indented JSON, and the problems of fields it could not read (each on
// its form field; the rest is left to experiments.Validate).
func sweepDefinition(v views.SweepValues, st *solvers.Strategy) ([]byte, []error) {
	var problems []error
	d := formDef{Name: strings.TrimSpace(v.Name), Strategy: st.Info.Name, Replicates: json.Number("1"), Seed: json.Number("1"), NotifyURL: v.NotifyURL}
	d.Variants = solvers.VariantNames(st.Variants, func(variant solvers.Variant) bool { return slices.Contains(v.Variants, variant.Name) })
	problems = append(problems, unknownFields(v, st)...)
	whole := func(field, text string, into *any) {
		text = strings.TrimSpace(text)
		if text == "" {
			return
		}
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			problems = append(problems, errs.Invalidf(field, "must be a whole number, got %q", text))
			return
		}
		*into = json.Number(text)
	}
	whole("replicates", v.Replicates, &d.Replicates)
	whole("seed", v.Seed, &d.Seed)
	grid := func(field string, specs []solvers.ParamSpec, values map[string]string, key func(string) string) map[string]any {
		g := map[string]any{}
		for _, ps := range specs {
			x, err := fieldValues(values[key(ps.Name)])
			if err != nil {
				problems = append(problems, errs.Invalidf(field+key(ps.Name), "%s", err.Error()))
			} else if x != nil {
				g[ps.Name] = x
			}
		}
		return g
	}
	d.Grid = grid("grid.", st.Params, v.Grid, func(n string) string { return n })
	if v.WorkloadKind == "ids" {
		d.Workload.IDs = v.IDs
	} else if i := slices.IndexFunc(st.Presets, func(p solvers.Preset) bool { return p.Name == v.Preset }); i >= 0 {
		d.Workload.Preset = v.Preset
		d.Workload.Grid = grid("wgrid.", st.Presets[i].Params, v.WGrid, func(n string) string { return v.Preset + "." + n })
	} else {
		d.Workload.Preset = v.Preset // unknown: Validate says so
	}
	if strings.TrimSpace(v.Carry) != "" {
		var carry struct {
			Tags       json.RawMessage `json:"tags"`
			Notes      json.RawMessage `json:"notes"`
			References json.RawMessage `json:"references"`
		}
		if err := json.Unmarshal([]byte(v.Carry), &carry); err != nil {
			problems = append(problems, errs.Invalidf("carry", "the tags, notes and references kept from the starting definition are not JSON: %v", err))
		}
		d.Tags, d.Notes, d.References = carry.Tags, carry.Notes, carry.References
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		problems = append(problems, errs.Wrap(errs.Internal, err))
	}
	return b, problems
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
	variants := make([]string, 0, len(st.Variants))
	for _, x := range st.Variants {
		variants = append(variants, x.Name)
	}
	for _, x := range v.Variants {
		if !slices.Contains(variants, x) {
			problems = append(problems, errs.Invalidf("variants", "unknown variant %q of %s (known: %s)", x, st.Info.Name, strings.Join(variants, ", ")))
		}
	}
	paramNames := func(specs []solvers.ParamSpec) []string {
		out := make([]string, len(specs))
		for i, ps := range specs {
			out[i] = ps.Name
		}
		return out
	}
	params := paramNames(st.Params)
	for _, k := range sortedKeys(v.Grid) {
		if !slices.Contains(params, k) {
			problems = append(problems, errs.Invalidf("grid."+k, "unknown run parameter %q of %s (known: %s)", k, st.Info.Name, strings.Join(params, ", ")))
		}
	}
	presets := st.Presets
	for _, k := range sortedKeys(v.WGrid) {
		i := slices.IndexFunc(presets, func(p solvers.Preset) bool { return strings.HasPrefix(k, p.Name+".") })
		if i < 0 {
			names := make([]string, len(presets))
			for j, p := range presets {
				names[j] = p.Name
			}
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

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// sweepValuesFor fills the form's fields from a definition (a starter,
// or a pasted one): the inverse of sweepDefinition.
func sweepValuesFor(def *experiments.Definition) views.SweepValues {
	v := views.SweepValues{Name: def.Name, Variants: def.Variants, Replicates: strconv.Itoa(def.Replicates),
		Seed: strconv.FormatInt(def.Seed, 10), NotifyURL: def.NotifyURL, WGrid: map[string]string{}, Grid: map[string]string{}}
	if len(def.Workload.IDs) > 0 {
		v.WorkloadKind, v.IDs = "ids", def.Workload.IDs
	} else {
		v.WorkloadKind, v.Preset = "preset", def.Workload.Preset
		for k, vs := range def.Workload.Grid {
			v.WGrid[def.Workload.Preset+"."+k] = valuesText(vs)
		}
	}
	for k, vs := range def.Grid {
		v.Grid[k] = valuesText(vs)
	}
	if len(def.Tags) > 0 || def.Notes != "" || len(def.References) > 0 {
		carry := map[string]any{}
		if len(def.Tags) > 0 {
			carry["tags"] = def.Tags
		}
		if def.Notes != "" {
			carry["notes"] = def.Notes
		}
		if len(def.References) > 0 {
			carry["references"] = def.References
		}
		b, _ := json.Marshal(carry)
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
func estimateWords(n int64, variants []string, wall map[string]views.WallTime) string {
	if n <= 0 || len(variants) == 0 {
		return ""
	}
	per := float64(n) / float64(len(variants))
	var total float64
	var notes, unknown []string
	for _, v := range variants {
		w, ok := wall[v]
		if !ok || w.Runs == 0 {
			unknown = append(unknown, v)
			continue
		}
		total += per * w.MS
		notes = append(notes, fmt.Sprintf("%s %s per run over its last %d done runs", v, durationWords(w.MS), w.Runs))
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

// durationWords writes milliseconds for a reader: "850 ms", "12.5 s",
// "4 min 10 s", "3 h 20 min".
func durationWords(ms float64) string {
	d := time.Duration(ms * float64(time.Millisecond))
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

// indentJSON indents a definition written by hand for the paste area.
func indentJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// starter is the definition the sweep form starts from, and the text of
// its paste area: a seed paper's experiment (?seed=family/name), a run's
// own values (?run=), the values of compared runs (?runs=a,b,c, from the
// compare page), a stored workload (?workload=), or a family's first
// preset (?strategy=, default the first family).
func (s *Server) starter(c echo.Context) (*experiments.Definition, string, error) {
	ctx := c.Request().Context()
	def := &experiments.Definition{Replicates: 1, Seed: experiments.DefaultSeed}
	switch {
	case c.QueryParam("seed") != "":
		family, name, _ := strings.Cut(c.QueryParam("seed"), "/")
		st, err := s.lookup(family)
		if err != nil {
			return nil, "", err
		}
		if st.SeedExperiments != nil {
			for _, sw := range st.SeedExperiments() {
				if sw.Name == name {
					d, err := experiments.ParseJSON(sw.JSON())
					if err != nil {
						return nil, "", errs.Wrap(errs.Internal, err)
					}
					return d, indentJSON(sw.JSON()), nil
				}
			}
		}
		return nil, "", errs.New(errs.NotFound, "seed", "%s has no seed experiment %q", family, name)
	case c.QueryParam("run") != "" || c.QueryParam("runs") != "":
		ids := strings.Split(c.QueryParam("runs"), ",")
		if c.QueryParam("run") != "" {
			ids = []string{c.QueryParam("run")}
		}
		if len(ids) > maxCompare {
			return nil, "", errs.New(errs.Invalid, "runs", "at most %d runs, got %d", maxCompare, len(ids))
		}
		// The runs' own inputs: their workloads and variants, and every
		// parameter that applies to one of their variants with the values
		// they gave it (one value: ready to widen); the first run's seed.
		var st *solvers.Strategy
		grid := experiments.Grid{}
		for i, id := range ids {
			r, err := s.store.GetRunInfo(ctx, id)
			if err != nil {
				return nil, "", err
			}
			if i == 0 {
				if st, err = s.lookup(r.Strategy); err != nil {
					return nil, "", err
				}
				def.Strategy, def.Seed = r.Strategy, r.Seed
			}
			if r.Kind != store.KindRun || r.Strategy != def.Strategy {
				return nil, "", errs.New(errs.Invalid, "runs", "run %s is a %s %s run; an experiment sweeps runs of one strategy on stored workloads (%s)", r.ID, r.Strategy, r.Kind, def.Strategy)
			}
			if !slices.Contains(def.Workload.IDs, r.WorkloadID) {
				def.Workload.IDs = append(def.Workload.IDs, r.WorkloadID)
			}
			if !slices.Contains(def.Variants, r.Variant) {
				def.Variants = append(def.Variants, r.Variant)
			}
			for _, ps := range st.Params {
				v := strings.TrimSpace(r.Params[ps.Name])
				if v != "" && ps.AppliesTo(r.Variant) && !slices.Contains(grid[ps.Name], v) {
					grid[ps.Name] = append(grid[ps.Name], v)
				}
			}
		}
		def.Name, def.Grid = "sweep of run "+strings.Join(ids, ", "), grid
	case c.QueryParam("workload") != "":
		w, err := s.store.GetWorkloadInfo(ctx, c.QueryParam("workload"))
		if err != nil {
			return nil, "", err
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
			return nil, "", err
		}
		def.Name, def.Strategy = name+" sweep", name
		if ps := st.Presets; len(ps) > 0 {
			def.Workload.Preset = ps[0].Name
		}
	}
	return def, "", nil
}

// sweepProps is the sweep form of family st holding v: the definition the
// fields make, the family's stored workloads and its past runs' wall
// times for the estimate.
func (s *Server) sweepProps(c echo.Context, st *solvers.Strategy, v views.SweepValues) (views.NewExperimentProps, []error, error) {
	ctx := c.Request().Context()
	p := views.NewExperimentProps{Strategies: s.views(), Strategy: viewOf(st), Form: v, Wall: map[string]views.WallTime{},
		NotifyAllowed: s.notifyAllowedText()}
	if owner, ok := s.listOwner(c); ok {
		ws, _, err := s.store.ListWorkloadsPage(ctx, st.Info.Name, owner, 200, "")
		if err != nil {
			return p, nil, err
		}
		p.Workloads = viewWorkloads(ws)
	}
	wall, err := s.store.WallTimes(ctx, st.Info.Name)
	if err != nil {
		return p, nil, err
	}
	for k, w := range wall {
		p.Wall[k] = views.WallTime{MS: float64(w.Median) / float64(time.Millisecond), Runs: w.Runs}
	}
	b, problems := sweepDefinition(v, st)
	p.Definition = string(b)
	return p, problems, nil
}

func (s *Server) newExperimentPage(c echo.Context) error {
	def, paste, err := s.starter(c)
	if err != nil {
		return err
	}
	st, err := s.lookup(def.Strategy)
	if err != nil {
		return err
	}
	p, _, err := s.sweepProps(c, st, sweepValuesFor(def))
	if err != nil {
		return err
	}
	p.Paste = paste
	if paste == "" {
		p.Paste = p.Definition
	}
	return s.render(c, http.StatusOK, views.NewExperiment(p))
}

// startExperimentPage is the form's POST, from the fields or from the
// paste area (a "definition"): "count" shows how many runs the definition
// makes and how long they may take, "download" sends the definition as a
// file, "start" queues its runs. Every problem is listed, each beside its
// field, and the input is kept.
func (s *Server) startExperimentPage(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return formErr(err)
	}
	action := form.Get("action")
	var def *experiments.Definition
	var p views.NewExperimentProps
	var problems []error
	var raw []byte
	if _, pasted := form["definition"]; pasted {
		raw = []byte(form.Get("definition"))
		if def, err = experiments.Parse(raw); err == nil {
			var st *solvers.Strategy
			if st, err = s.lookup(def.Strategy); err == nil {
				if p, _, err = s.sweepProps(c, st, sweepValuesFor(def)); err != nil {
					return err
				}
				err = experiments.Validate(def, st)
			}
		}
		if p.Strategies == nil && len(s.strategies) > 0 { // the paste names no family it could be shown as
			var perr error
			if p, _, perr = s.sweepProps(c, s.strategies[0], views.SweepValues{WorkloadKind: "preset"}); perr != nil {
				return perr
			}
		}
		p.Paste, p.Pasted = form.Get("definition"), true
		if err != nil {
			problems = errs.All(err)
		}
	} else {
		st, err := s.lookup(form.Get("strategy"))
		if err != nil {
			return err
		}
		v := sweepValuesOf(form)
		if p, problems, err = s.sweepProps(c, st, v); err != nil {
			return err
		}
		raw = []byte(p.Definition)
		p.Paste = p.Definition
		if def, err = experiments.ParseJSON(raw); err != nil {
			problems = append(problems, errs.All(err)...)
		} else if err := experiments.Validate(def, st); err != nil {
			problems = append(problems, errs.All(err)...)
		}
	}
	if len(problems) == 0 {
		st, _ := s.lookup(def.Strategy)
		p.Count, p.Counted = experiments.Count(def, st), true
		variants := def.Variants
		if len(variants) == 0 {
			for _, v := range st.Variants {
				variants = append(variants, v.Name)
			}
		}
		p.Estimate = estimateWords(p.Count, variants, p.Wall)
		switch action {
		case "start":
			e, err := s.createExperiment(c.Request().Context(), c, def)
			if err == nil {
				return c.Redirect(http.StatusSeeOther, "/experiments/"+e.ID)
			}
			problems = errs.All(err)
		case "download":
			name := strings.Trim(fileSlug(def.Name), "-")
			if name == "" {
				name = "experiment"
			}
			c.Response().Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name+".json"))
			return c.Blob(http.StatusOK, "application/json; charset=utf-8", raw)
		}
	}
	status := http.StatusOK
	if len(problems) > 0 {
		joined := errs.Join(problems)
		p.Errs = sweepErrors(joined, p.Form.Preset)
		status = statusOf(joined)
		p.Counted = false
	}
	return s.render(c, status, views.NewExperiment(p))
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
