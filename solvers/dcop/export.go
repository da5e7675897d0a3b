package dcop

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/solvers"
)

// Export format names (a public contract: URL and CLI names).
const (
	ExportPyDCOP = "pydcop"
	ExportFRODO  = "frodo"
)

// BigM is the cost of a violated hard constraint in the pyDCOP export
// (pyDCOP has no infinity for intention constraints). Every makespan is at
// most MaxHorizon, far below it. FRODO gets its own "infinity".
const BigM = 1_000_000_000

// MakespanVar is the auxiliary variable of both exports: its value is the
// makespan (see exportData).
const MakespanVar = "makespan"

// maxExportTuples bounds the tuples of the FRODO relations, which are
// extensional: O(T²) for the makespan relations.
const maxExportTuples = 5_000_000

// exports lists the export formats (Strategy.Exports).
func exports() []solvers.ExportFormat {
	return []solvers.ExportFormat{
		{Name: ExportPyDCOP, Label: "pyDCOP YAML", Ext: ".yaml", MIME: "application/yaml"},
		{Name: ExportFRODO, Label: "FRODO XCSP 2.1", Ext: ".xml", MIME: "application/xml"},
	}
}

// exportData is Strategy.Export: the makespan objective of w,
// exactly, with an auxiliary makespan variable (MakespanVar), on the fit
// domain: pyDCOP YAML (hard constraints cost BigM) or FRODO XCSP 2.1 (its
// "infinity"); FRODO relations over maxExportTuples are errs.TooLarge.
func exportData(w *solvers.Workload, format string) ([]byte, error) {
	b, err := export(w, format)
	return b, errs.Wrap(errs.Internal, err)
}

func export(w *solvers.Workload, format string) ([]byte, error) {
	if format != ExportPyDCOP && format != ExportFRODO {
		return nil, errs.Invalidf("format", "unknown export format %q (known: %s, %s)", format, ExportPyDCOP, ExportFRODO)
	}
	in, err := loadWorkload(w)
	if err != nil {
		return nil, err
	}
	name := w.Name
	if name == "" {
		name = "dcop"
	}
	m := newExportModel(in)
	if format == ExportPyDCOP {
		return m.pyDCOP(name), nil
	}
	return m.frodo(name)
}

// exportModel is the instance with exportable names.
type exportModel struct {
	in    *Instance
	vars  []string // variable name per job
	pairs [][2]int // constraint edges a < b, ascending
	cpair []string // constraint name per pair
	cms   []string // makespan constraint name per job
	agent []string // agent name per job
	msAg  string   // agent of the makespan variable
	lo    int      // smallest makespan value
	durs  []int    // distinct durations, ascending
	names map[string]bool
}

// reserved are names a sanitized id must not take: Python keywords (the
// pyDCOP functions are Python expressions), YAML 1.1 scalars that would not
// read as strings, and the auxiliary variable. Compared case-insensitively.
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`false none true and as assert async await break class continue
		def del elif else except finally for from global if import in is lambda nonlocal not or pass
		raise return try while with yield match case yes no on off null y n ` + MakespanVar) {
		m[w] = true
	}
	return m
}()

// identifier maps s to letters, digits and underscores, prefixed when it
// does not start with a letter or underscore.
func identifier(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	id := b.String()
	if id == "" || id[0] >= '0' && id[0] <= '9' {
		id = "j" + id
	}
	return id
}

// unique returns base, or base_2, base_3, ... : the first name not taken.
func (m *exportModel) unique(base string) string {
	name := base
	for i := 2; m.names[strings.ToLower(name)] || reserved[strings.ToLower(name)]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	m.names[strings.ToLower(name)] = true
	return name
}

func newExportModel(in *Instance) *exportModel {
	m := &exportModel{in: in, names: map[string]bool{}}
	m.names[MakespanVar] = true
	m.names[MakespanVar+"_cost"] = true
	for _, j := range in.Jobs {
		m.vars = append(m.vars, m.unique(identifier(j.ID)))
	}
	g := in.ConstraintGraph()
	for a, adj := range g.Adj {
		for _, b := range adj {
			if b > a {
				m.pairs = append(m.pairs, [2]int{a, b})
				m.cpair = append(m.cpair, m.unique("c_"+m.vars[a]+"_"+m.vars[b]))
			}
		}
	}
	for k, j := range in.Jobs {
		m.cms = append(m.cms, m.unique("ms_"+m.vars[k]))
		m.durs = append(m.durs, j.Duration)
	}
	for k := range in.Jobs {
		m.agent = append(m.agent, m.unique("a_"+m.vars[k]))
	}
	m.msAg = m.unique("a_" + MakespanVar)
	slices.Sort(m.durs)
	m.durs = slices.Compact(m.durs)
	m.lo = min(LowerBound(in), in.Horizon)
	return m
}

// pyDCOP writes the pyDCOP YAML DCOP file.
func (m *exportModel) pyDCOP(name string) []byte {
	in := m.in
	var b bytes.Buffer
	fmt.Fprintf(&b, `# Co-allocation DCOP exported by schedlab (EAV: one variable per job, its start slot).
# Objective: the makespan, exactly. The auxiliary variable %[1]s (cost = its
# value) must be at least every job's last slot (constraints ms_*), so the
# minimum total cost is the makespan. Jobs sharing a resource must not overlap
# (constraints c_*). A violated hard constraint costs %[2]d (big-M): any
# total cost of %[2]d or more means no feasible schedule.
`, MakespanVar, BigM)
	fmt.Fprintf(&b, "name: %s\nobjective: min\n\ndomains:\n", strconv.Quote(name))
	for _, d := range m.durs {
		fmt.Fprintf(&b, "  start_L%d:\n    values: [1 .. %d]\n", d, in.Horizon-d+1)
	}
	fmt.Fprintf(&b, "  %s:\n    values: [%d .. %d]\n", MakespanVar, m.lo, in.Horizon)
	b.WriteString("\nvariables:\n")
	for k, j := range in.Jobs {
		fmt.Fprintf(&b, "  %s:\n    domain: start_L%d\n", m.vars[k], j.Duration)
	}
	fmt.Fprintf(&b, "  %[1]s:\n    domain: %[1]s\n    cost_function: %[1]s\n", MakespanVar)
	b.WriteString("\nconstraints:\n")
	for i, p := range m.pairs {
		x, y := m.vars[p[0]], m.vars[p[1]]
		lx, ly := in.Jobs[p[0]].Duration, in.Jobs[p[1]].Duration
		fmt.Fprintf(&b, "  %s:\n    type: intention\n    function: 0 if %s + %d <= %s or %s + %d <= %s else %d\n",
			m.cpair[i], x, lx, y, y, ly, x, BigM)
	}
	for k, j := range in.Jobs {
		end := m.vars[k]
		if j.Duration > 1 {
			end += " + " + strconv.Itoa(j.Duration-1)
		}
		fmt.Fprintf(&b, "  %s:\n    type: intention\n    function: 0 if %s >= %s else %d\n",
			m.cms[k], MakespanVar, end, BigM)
	}
	b.WriteString("\nagents:\n")
	for k := range in.Jobs {
		fmt.Fprintf(&b, "  %s:\n    capacity: 100\n", m.agent[k])
	}
	fmt.Fprintf(&b, "  %s:\n    capacity: 100\n", m.msAg)
	return b.Bytes()
}

// esc escapes s for XML text and attributes.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails
	return b.String()
}

type relKey struct{ la, lb int }

// frodo writes the FRODO XCSP 2.1 file.
func (m *exportModel) frodo(name string) ([]byte, error) {
	keys := m.relationKeys()
	if err := m.checkTuples(keys); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	m.frodoVariables(&b, name)
	ends := m.frodoRelations(&b, keys)
	m.frodoConstraints(&b, ends)
	return b.Bytes(), nil
}

// relationKeys are the duration pairs of the constraint edges, one overlap
// relation each, ascending.
func (m *exportModel) relationKeys() []relKey {
	in := m.in
	var keys []relKey
	for _, p := range m.pairs {
		keys = append(keys, relKey{in.Jobs[p[0]].Duration, in.Jobs[p[1]].Duration})
	}
	slices.SortFunc(keys, func(x, y relKey) int { return cmp.Or(x.la-y.la, x.lb-y.lb) })
	return slices.Compact(keys)
}

// checkTuples refuses an export whose extensional relations would list
// more than maxExportTuples tuples.
func (m *exportModel) checkTuples(keys []relKey) error {
	T := m.in.Horizon
	tuples := 0
	for _, k := range keys {
		tuples += (k.la + k.lb - 1) * T
	}
	for range m.durs {
		tuples += (T - m.lo + 1) * (T + 1)
	}
	if tuples > maxExportTuples {
		return errs.New(errs.TooLarge, "horizon",
			"the FRODO export lists infeasible tuples extensionally: about %d tuples, at most %d; use a shorter horizon", tuples, maxExportTuples)
	}
	return nil
}

// frodoVariables writes the header, the agents, the domains and the
// variables.
func (m *exportModel) frodoVariables(b *bytes.Buffer, name string) {
	in := m.in
	T := in.Horizon
	nvars := len(in.Jobs) + 1
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(b, "<!-- Co-allocation DCOP exported by schedlab (EAV: one variable per job, its start slot).\n"+
		"     Objective: the makespan, exactly: the auxiliary variable %s costs its value and\n"+
		"     must be at least every job's last slot; jobs sharing a resource must not overlap. -->\n", MakespanVar)
	b.WriteString("<instance>\n")
	fmt.Fprintf(b, "  <presentation name=\"%s\" maxConstraintArity=\"2\" maximize=\"false\" format=\"XCSP 2.1_FRODO\"/>\n", esc(name))
	fmt.Fprintf(b, "  <agents nbAgents=\"%d\">\n", nvars)
	for k := range in.Jobs {
		fmt.Fprintf(b, "    <agent name=\"%s\"/>\n", esc(m.agent[k]))
	}
	fmt.Fprintf(b, "    <agent name=\"%s\"/>\n  </agents>\n", esc(m.msAg))
	fmt.Fprintf(b, "  <domains nbDomains=\"%d\">\n", len(m.durs)+1)
	for _, d := range m.durs {
		fmt.Fprintf(b, "    <domain name=\"start_L%d\" nbValues=\"%d\">1..%d</domain>\n", d, T-d+1, T-d+1)
	}
	fmt.Fprintf(b, "    <domain name=\"%s\" nbValues=\"%d\">%d..%d</domain>\n  </domains>\n", MakespanVar, T-m.lo+1, m.lo, T)
	fmt.Fprintf(b, "  <variables nbVariables=\"%d\">\n", nvars)
	for k, j := range in.Jobs {
		fmt.Fprintf(b, "    <variable name=\"%s\" domain=\"start_L%d\" agent=\"%s\"/>\n", esc(m.vars[k]), j.Duration, esc(m.agent[k]))
	}
	fmt.Fprintf(b, "    <variable name=\"%[1]s\" domain=\"%[1]s\" agent=\"%[2]s\"/>\n  </variables>\n", MakespanVar, esc(m.msAg))
}

// frodoRelations writes the relations: overlap per duration pair (keys),
// the makespan bound per duration and the makespan's cost. It returns the
// bound's infeasible tuples per duration.
func (m *exportModel) frodoRelations(b *bytes.Buffer, keys []relKey) map[int][]string {
	T := m.in.Horizon
	// (s, ms) with ms < s+d−1: the job ends after the makespan. A duration
	// whose jobs always end by the smallest makespan gets no relation and
	// its jobs no (vacuous) bound constraint.
	ends := map[int][]string{}
	bounds := 0
	for _, d := range m.durs {
		for s := 1; s <= T-d+1; s++ {
			for ms := m.lo; ms <= min(T, s+d-2); ms++ {
				ends[d] = append(ends[d], fmt.Sprintf("%d %d", s, ms))
			}
		}
		if len(ends[d]) > 0 {
			bounds++
		}
	}
	fmt.Fprintf(b, "  <relations nbRelations=\"%d\">\n", len(keys)+bounds+1)
	for _, k := range keys {
		// (s_a, s_b) overlap: s_a ≤ s_b+L_b−1 and s_b ≤ s_a+L_a−1.
		var ts []string
		for sa := 1; sa <= T-k.la+1; sa++ {
			for sb := max(1, sa-k.lb+1); sb <= min(T-k.lb+1, sa+k.la-1); sb++ {
				ts = append(ts, fmt.Sprintf("%d %d", sa, sb))
			}
		}
		writeRelation(b, fmt.Sprintf("overlap_L%d_L%d", k.la, k.lb), 2, ts, "infinity: ")
	}
	for _, d := range m.durs {
		if ts := ends[d]; len(ts) > 0 {
			writeRelation(b, fmt.Sprintf("ends_after_makespan_L%d", d), 2, ts, "infinity: ")
		}
	}
	var costs []string
	for v := m.lo; v <= T; v++ {
		costs = append(costs, fmt.Sprintf("%d: %d", v, v))
	}
	writeRelation(b, "makespan_cost", 1, costs, "")
	b.WriteString("  </relations>\n")
	return ends
}

// frodoConstraints writes the constraints: one overlap per constraint
// edge, the makespan bound of every job whose duration has one (ends), and
// the makespan's cost.
func (m *exportModel) frodoConstraints(b *bytes.Buffer, ends map[int][]string) {
	in := m.in
	nbounds := 0
	for _, j := range in.Jobs {
		if len(ends[j.Duration]) > 0 {
			nbounds++
		}
	}
	fmt.Fprintf(b, "  <constraints nbConstraints=\"%d\">\n", len(m.pairs)+nbounds+1)
	for i, p := range m.pairs {
		fmt.Fprintf(b, "    <constraint name=\"%s\" arity=\"2\" scope=\"%s %s\" reference=\"overlap_L%d_L%d\"/>\n",
			esc(m.cpair[i]), esc(m.vars[p[0]]), esc(m.vars[p[1]]), in.Jobs[p[0]].Duration, in.Jobs[p[1]].Duration)
	}
	for k, j := range in.Jobs {
		if len(ends[j.Duration]) == 0 {
			continue
		}
		fmt.Fprintf(b, "    <constraint name=\"%s\" arity=\"2\" scope=\"%s %s\" reference=\"ends_after_makespan_L%d\"/>\n",
			esc(m.cms[k]), esc(m.vars[k]), MakespanVar, j.Duration)
	}
	fmt.Fprintf(b, "    <constraint name=\"%s_cost\" arity=\"1\" scope=\"%s\" reference=\"makespan_cost\"/>\n", MakespanVar, MakespanVar)
	b.WriteString("  </constraints>\n</instance>\n")
}

// writeRelation writes a soft relation with default cost 0; prefix (e.g.
// "infinity: ") gives every tuple one cost, or each tuple carries its own.
func writeRelation(b *bytes.Buffer, name string, arity int, tuples []string, prefix string) {
	fmt.Fprintf(b, "    <relation name=\"%s\" arity=\"%d\" nbTuples=\"%d\" semantics=\"soft\" defaultCost=\"0\">", name, arity, len(tuples))
	if len(tuples) > 0 {
		b.WriteString(prefix)
		b.WriteString(strings.Join(tuples, "|"))
	}
	b.WriteString("</relation>\n")
}
