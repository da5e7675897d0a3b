package experiments

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strings"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/solvers/sweep"
)

// Validate checks def against strategy (the caller looks it up by
// def.Strategy; nil means there is none) and returns every problem at
// once: an errs.List of errs.Invalid, each naming its field
// ("grid.gamma[2]", "workload.grid.instance", "variants[1]"). Each grid
// value is checked once, against its ParamSpec alone (solvers.Resolve),
// and written back as the run gets it (a boolean as true or false), so
// that the runs Expand makes need no second check.
func Validate(def *sweep.Definition, strategy *solvers.Strategy) error {
	var ps []error
	bad := func(field, format string, args ...any) {
		ps = append(ps, errs.Invalidf(field, format, args...))
	}
	if strings.TrimSpace(def.Name) == "" {
		bad("name", "must not be empty")
	} else if len(def.Name) > maxTextLen {
		bad("name", "longer than %d bytes", maxTextLen)
	}
	if strategy == nil {
		if def.Strategy == "" {
			bad("strategy", "must not be empty")
		} else {
			bad("strategy", "unknown strategy %q", def.Strategy)
		}
		return errs.Join(ps)
	}
	if def.Strategy != strategy.Info.Name {
		bad("strategy", "is %q but the definition is checked against %q", def.Strategy, strategy.Info.Name)
	}
	variants := variantsOf(def, strategy)
	known := strategy.Variants
	seen := map[string]int{}
	for i, v := range def.Variants {
		f := fmt.Sprintf("variants[%d]", i)
		if !slices.ContainsFunc(known, func(k solvers.Variant) bool { return k.Name == v }) {
			bad(f, "unknown variant %q (known: %s)", v, strings.Join(variantNames(known), ", "))
		}
		if j, ok := seen[v]; ok {
			bad(f, "duplicate of variants[%d]", j)
		}
		seen[v] = i
	}
	ps = append(ps, checkGrid("grid", def.Grid, strategy.Params, variants)...)
	w := def.Workload
	switch {
	case w.Preset != "" && len(w.IDs) > 0:
		bad("workload", "give either a preset or ids, not both")
	case w.Preset != "":
		if p, err := strategy.FindPreset(w.Preset, "workload.preset"); err != nil {
			ps = append(ps, err)
		} else {
			ps = append(ps, checkGrid("workload.grid", w.Grid, p.Params, nil)...)
		}
	case len(w.IDs) > 0:
		if len(w.Grid) > 0 {
			bad("workload.grid", "a grid applies to a preset, not to stored workloads")
		}
		at := map[string]int{}
		for i, id := range w.IDs {
			f := fmt.Sprintf("workload.ids[%d]", i)
			if id == "" {
				bad(f, "must not be empty")
			}
			if j, ok := at[id]; ok {
				bad(f, "duplicate of workload.ids[%d]", j)
			}
			at[id] = i
		}
	default:
		bad("workload", "give a preset (with an optional grid) or the ids of stored workloads")
	}
	if def.Replicates < 1 || def.Replicates > MaxReplicates {
		bad("replicates", "must be 1 to %d, got %d", MaxReplicates, def.Replicates)
	}
	if n := Count(def, strategy); n > MaxRuns {
		bad("definition", "expands to %s runs, more than the limit of %d: sweep fewer values, instances or replicates", countText(n), MaxRuns)
	}
	if def.Seed > math.MaxInt64-MaxReplicates {
		bad("seed", "must be at most %d so that seed + replicate stays an int64", int64(math.MaxInt64-MaxReplicates))
	}
	for i, t := range def.Tags {
		if strings.TrimSpace(t) == "" || len(t) > maxTextLen {
			bad(fmt.Sprintf("tags[%d]", i), "must be 1 to %d bytes", maxTextLen)
		}
	}
	if def.NotifyURL != "" {
		if err := CheckNotifyURL(def.NotifyURL); err != nil {
			bad("notify_url", "%s", err.Error())
		}
	}
	if len(def.Notes) > maxNotesLen {
		bad("notes", "longer than %d bytes", maxNotesLen)
	}
	swept := cellValues(def)
	keys := slices.Sorted(maps.Keys(swept))
	for i, r := range def.References {
		f := fmt.Sprintf("references[%d]", i)
		if strings.TrimSpace(r.Name) == "" {
			bad(f+".name", "must not be empty")
		}
		if strings.TrimSpace(r.Metric) == "" {
			bad(f+".metric", "must not be empty")
		}
		if r.Variant != "" && !slices.Contains(variants, r.Variant) {
			bad(f+".variant", "%q is not a variant of this experiment (%s)", r.Variant, strings.Join(variants, ", "))
		}
		for _, k := range slices.Sorted(maps.Keys(r.Params)) {
			if !slices.Contains(keys, k) {
				bad(f+".params."+k, "not a swept parameter (swept: %s)", strings.Join(keys, ", "))
			} else if !slices.Contains(swept[k], r.Params[k]) {
				bad(f+".params."+k, "%q is not one of the values swept (%s)", r.Params[k], strings.Join(swept[k], ", "))
			}
		}
	}
	return errs.Join(ps)
}

// checkGrid checks every name of g against specs and resolves every value
// alone; a parameter that applies to none of variants (when given) is an
// error too, since sweeping it would change nothing.
// maxListProblems is how many bad values of one list are reported: a
// list of 100,000 bad values took 18.9 s and 25 MB of page to refuse
// value by value (issue 41); the first ones say what is wrong, and the
// check stops there.
const maxListProblems = 10

func checkGrid(path string, g sweep.Grid, specs []solvers.ParamSpec, variants []string) []error {
	var ps []error
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	for _, name := range slices.Sorted(maps.Keys(g)) {
		f := path + "." + name
		i := slices.IndexFunc(specs, func(s solvers.ParamSpec) bool { return s.Name == name })
		if i < 0 {
			ps = append(ps, errs.Invalidf(f, "unknown parameter (known: %s)", strings.Join(names, ", ")))
			continue
		}
		spec := specs[i]
		if len(spec.Variants) > 0 && variants != nil &&
			!slices.ContainsFunc(variants, func(v string) bool { return slices.Contains(spec.Variants, v) }) {
			ps = append(ps, errs.Invalidf(f, "applies only to variants %s, none of which this experiment runs", strings.Join(spec.Variants, ", ")))
		}
		if len(g[name]) == 0 {
			ps = append(ps, errs.Invalidf(f, "needs at least one value"))
		}
		at := map[string]int{}
		bad := 0
		for j, v := range g[name] {
			if bad >= maxListProblems {
				ps = append(ps, errs.Invalidf(f, "%d problems in its first %d values; the other %d values are not checked until these are fixed",
					bad, j, len(g[name])-j))
				break
			}
			vf := fmt.Sprintf("%s[%d]", f, j)
			if r, err := solvers.Resolve([]solvers.ParamSpec{spec}, solvers.Params{name: v}); err != nil {
				for _, e := range errs.All(err) {
					ps = append(ps, errs.Invalidf(vf, "%s", message(e)))
				}
				bad++
			} else {
				v = r[name]
				g[name][j] = v // as the run gets it: the request's one check of it
			}
			if k, ok := at[v]; ok {
				ps = append(ps, errs.Invalidf(vf, "duplicate of %s[%d]", f, k))
				bad++
			}
			at[v] = j
		}
	}
	return ps
}

// message is an error's text without the field its *errs.Error names.
func message(err error) string {
	var e *errs.Error
	if errors.As(err, &e) && e.Err != nil {
		return e.Err.Error()
	}
	return err.Error()
}

func variantNames(vs []solvers.Variant) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name
	}
	return out
}

// variantsOf is the variants an experiment runs: its own, or all of the
// strategy's when it names none.
func variantsOf(def *sweep.Definition, strategy *solvers.Strategy) []string {
	if len(def.Variants) > 0 {
		return def.Variants
	}
	return variantNames(strategy.Variants)
}

func countText(n int64) string {
	if n == math.MaxInt64 {
		return "more than 9e18"
	}
	return fmt.Sprint(n)
}

// maxURLLen caps a notify URL: an address, not a document.
const maxURLLen = 2048

// CheckNotifyURL says why raw cannot be an experiment's notify URL: it
// must be an absolute http or https URL with a host, without user
// credentials in it, at most 2,048 bytes.
func CheckNotifyURL(raw string) error {
	if len(raw) > maxURLLen {
		return fmt.Errorf("longer than %d bytes", maxURLLen)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a URL: %q", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("must be an http:// or https:// URL, got %q", raw)
	}
	if u.Host == "" || u.Hostname() == "" {
		return fmt.Errorf("has no host: %q", raw)
	}
	if u.User != nil {
		return errors.New("must not carry a user name or password; put a token in the path or query instead")
	}
	return nil
}
