package views

import (
	"cmp"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"schedlab/report"
	"schedlab/solvers"
)

// Num formats a number for people: whole numbers and values of 1,000 or
// more as integers with thousands separators, smaller ones with 4
// significant digits, very large or tiny ones in exponent form.
func Num(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprint(v)
	case a >= 1e15 || (a < 1e-4 && a != 0):
		return strconv.FormatFloat(v, 'g', 5, 64)
	case v == math.Trunc(v) || a >= 1000:
		return group(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	default:
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
}

func group(s string) string {
	digits := strings.TrimPrefix(s, "-")
	if len(digits) <= 4 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:len(s)-len(digits)])
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Cell formats one table cell.
func Cell(c any) string {
	switch v := c.(type) {
	case nil:
		return ""
	case float64:
		return Num(v)
	case int:
		return Num(float64(v))
	case int64:
		return Num(float64(v))
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// IsText says whether a cell is left-aligned text.
func IsText(c any) bool {
	_, ok := c.(string)
	return ok
}

// When formats a time for lists.
func When(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

// WhenP formats an optional time.
func WhenP(t *time.Time) string {
	if t == nil {
		return "—"
	}
	return When(*t)
}

// Duration between two optional times, or "".
func Duration(a, b *time.Time) string {
	if a == nil || b == nil {
		return ""
	}
	return b.Sub(*a).Round(time.Millisecond).String()
}

// ParamsLine formats resolved params "k=v, k=v" in the spec order when
// given, leaving out those that do not apply to variant on a workload of
// format (ParamSpec.Applies: a batch run never lists the slot model's
// knobs); a parameter without a spec is listed after them.
func ParamsLine(specs []solvers.ParamSpec, p solvers.Params, variant, format string) string {
	var parts []string
	seen := map[string]bool{}
	for _, s := range specs {
		v, ok := p[s.Name]
		seen[s.Name] = true
		if ok && s.Applies(variant, format) {
			parts = append(parts, s.Name+"="+v)
		}
	}
	for k, v := range p {
		if !seen[k] {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, ", ")
}

// ChangedParams is the parameters of p that differ from their defaults,
// "name=value, ..." in the order of specs (what tells two runs of one
// variant and workload apart in a list); parameters without a spec are
// left out. The parameters named in vary are listed too, at their
// resolved value (a parameter p lacks at its default), default or not:
// those that differ between the listed runs of this variant (VaryingParams),
// so that the default EASY run reads "batch policy=easy" beside "batch
// policy=fcfs", not plain "batch" (issue 42).
func ChangedParams(specs []solvers.ParamSpec, p solvers.Params, variant string, vary map[string]bool) string {
	var parts []string
	for _, s := range specs {
		if !s.AppliesTo(variant) {
			continue
		}
		v, ok := p[s.Name]
		switch {
		case ok && v != s.Default:
			parts = append(parts, s.Name+"="+v)
		case vary[s.Name]:
			parts = append(parts, s.Name+"="+cmp.Or(v, s.Default))
		}
	}
	return strings.Join(parts, ", ")
}

// VaryingParams is, of runs that share specs and variant (given by their
// params), the parameters whose resolved value (a run's own, else the
// default) is not the same in all of them.
func VaryingParams(specs []solvers.ParamSpec, runs []solvers.Params, variant string) map[string]bool {
	vary := map[string]bool{}
	for _, s := range specs {
		if !s.AppliesTo(variant) || len(runs) < 2 {
			continue
		}
		first := cmp.Or(runs[0][s.Name], s.Default)
		for _, p := range runs[1:] {
			if cmp.Or(p[s.Name], s.Default) != first {
				vary[s.Name] = true
				break
			}
		}
	}
	return vary
}

// Pct is the progress of a run in percent.
func Pct(done, total int) float64 {
	if total <= 0 {
		return 0
	}
	return math.Min(100, 100*float64(done)/float64(total))
}

// Active says whether a run may still change.
func Active(status string) bool { return status == "queued" || status == "running" }

// NewRunURL builds the link that prefills /runs/new.
func NewRunURL(strategy, workload string) string {
	v := url.Values{}
	if strategy != "" {
		v.Set("strategy", strategy)
	}
	if workload != "" {
		v.Set("workload", workload)
	}
	return "/runs/new?" + v.Encode()
}

func specDefault(s solvers.ParamSpec, values map[string]string) string {
	if v, ok := values[s.Name]; ok {
		return v
	}
	return s.Default
}

func specHelp(s solvers.ParamSpec) string {
	h := strings.TrimSpace(s.Doc)
	if h != "" && !strings.HasSuffix(h, ".") {
		h += "."
	}
	if s.Unit != "" {
		h += " [" + s.Unit + "]"
	}
	if s.Default != "" && !strings.Contains(h, "Default") {
		h += " Default: " + s.Default + "."
	}
	return h
}

func workloadName(names map[string]string, id string) string {
	if id == "" {
		return "—"
	}
	if n, ok := names[id]; ok {
		return n
	}
	return id
}

func itoa(i int) string { return strconv.Itoa(i) }

// anyActive reports whether any run is still queued or running.
func anyActive(runs []Run) bool {
	return slices.ContainsFunc(runs, func(r Run) bool { return Active(r.Status) })
}

// anyNotDone reports whether any run has not finished successfully, so the
// compare page shows each run's status.
func anyNotDone(runs []Run) bool {
	return slices.ContainsFunc(runs, func(r Run) bool { return r.Status != "done" })
}

// workloadFormat is w's format, or "" without a workload.
func workloadFormat(w *Workload) string {
	if w == nil {
		return ""
	}
	return w.Format
}

// invalidAttrs marks a field with an error: aria-invalid="true" (which
// app.css outlines; a bare aria-invalid reads as false) and
// aria-describedby naming its message; none without one.
func invalidAttrs(problems []FormError, prefix, name string) templ.Attributes {
	if problemOf(problems, name) == "" {
		return nil
	}
	return templ.Attributes{"aria-invalid": "true", "aria-describedby": prefix + name + "-error"}
}

// genFor is g when it is preset's submission, else nil.
func genFor(g *GenForm, preset string) *GenForm {
	if g != nil && g.Preset == preset {
		return g
	}
	return nil
}

func genValues(g *GenForm) map[string]string {
	if g == nil {
		return nil
	}
	return g.Values
}

func genErrs(g *GenForm) []FormError {
	if g == nil {
		return nil
	}
	return g.Errs
}

// genSeed is the seed as typed, or 1 for a fresh form.
func genSeed(g *GenForm) string {
	if g == nil {
		return "1"
	}
	return g.Seed
}

// isTimeCol says column j of t is an instant on the report's time axis.
func isTimeCol(t report.Table, j int) bool { return slices.Contains(t.TimeCols, j) }

// FramedColumn is column j's header: a time column in frame f says so
// ("starting_time (h since the first submission)").
func FramedColumn(t report.Table, j int, f *report.TimeFrame) string {
	if f == nil || !isTimeCol(t, j) {
		return t.Columns[j]
	}
	name := f.AxisName() // "time since the first submission (h)"
	since := strings.TrimPrefix(strings.TrimSuffix(name, " ("+f.Shown()+")"), "time ")
	return t.Columns[j] + " (" + f.Shown() + " " + since + ")"
}

// FramedCell is cell c of column j: a time column's number in frame f.
func FramedCell(t report.Table, j int, f *report.TimeFrame, c any) string {
	if f != nil && isTimeCol(t, j) {
		if v, ok := c.(float64); ok {
			return Num(f.Show(v))
		}
	}
	return Cell(c)
}

// timeColNames lists t's time columns' names ("submission_time,
// starting_time and finish_time").
func timeColNames(t report.Table) string {
	var names []string
	for _, c := range t.TimeCols {
		if c >= 0 && c < len(t.Columns) {
			names = append(names, t.Columns[c])
		}
	}
	if len(names) > 1 {
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return strings.Join(names, "")
}
