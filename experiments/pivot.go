package experiments

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/stats"
)

// VariantKey names the variant as a pivot dimension.
const VariantKey = "variant"

// Pivot is a table of one metric's rows laid out by chosen dimensions:
// RowBy and ColBy name swept parameters (Row.Params keys) or VariantKey.
type Pivot struct {
	Metric   string
	RowBy    []string
	ColBy    []string
	RowHeads [][]string // each row's values of RowBy, in order
	ColHeads [][]string // each column's values of ColBy, in order
	Cells    [][]*Row   // [row][column]; nil where no row fits
	// Pooled says what each cell pools beyond the replicates ("shift: 2
	// values"), written into the caption; PoolNote makes it.
	Pooled []string
}

// NewPivot lays out the rows of metric. Every parameter that varies among
// them must be in RowBy or ColBy: two rows in one cell are errs.Invalid
// naming what varies (aggregate over it with AggregateBy first). Heads are
// ordered as Aggregate orders values.
func NewPivot(rows []Row, metric string, rowBy, colBy []string) (*Pivot, error) {
	if metric == "" {
		return nil, errs.Invalidf("metric", "choose a metric")
	}
	all := append(slices.Clone(rowBy), colBy...)
	for i, k := range all {
		if slices.Contains(all[:i], k) {
			return nil, errs.Invalidf("pivot", "%q is chosen twice", k)
		}
	}
	p := &Pivot{Metric: metric, RowBy: rowBy, ColBy: colBy}
	var sel []*Row
	for i := range rows {
		if rows[i].Metric == metric {
			sel = append(sel, &rows[i])
		}
	}
	if len(sel) == 0 {
		return nil, errs.Invalidf("metric", "no results for metric %q", metric)
	}
	rowAt, colAt := heads{}, heads{}
	places := make([][2]string, len(sel))
	for i, r := range sel {
		rh, err := dims(r, rowBy)
		if err != nil {
			return nil, err
		}
		ch, err := dims(r, colBy)
		if err != nil {
			return nil, err
		}
		places[i] = [2]string{rowAt.add(rh), colAt.add(ch)}
	}
	p.RowHeads, p.ColHeads = rowAt.sorted(), colAt.sorted()
	p.Cells = make([][]*Row, len(p.RowHeads))
	for i := range p.Cells {
		p.Cells[i] = make([]*Row, len(p.ColHeads))
	}
	for i, r := range sel {
		ri, ci := rowAt[places[i][0]].at, colAt[places[i][1]].at
		if prev := p.Cells[ri][ci]; prev != nil {
			return nil, errs.Invalidf("pivot", "several results fall in one cell: %s varies; put it in the rows or the columns, or aggregate over it", varying(prev, r))
		}
		p.Cells[ri][ci] = r
	}
	return p, nil
}

func dims(r *Row, by []string) ([]string, error) {
	out := make([]string, len(by))
	for i, k := range by {
		if k == VariantKey {
			out[i] = r.Variant
			continue
		}
		v, ok := r.Params[k]
		if !ok {
			return nil, errs.Invalidf("pivot", "%q is not a swept parameter of these results", k)
		}
		out[i] = v
	}
	return out, nil
}

// heads are a pivot's distinct row (or column) heads by their key.
type heads map[string]*head

// head is one, with the order it came in and its place once sorted.
type head struct {
	h         []string
	first, at int
}

func (hs heads) add(h []string) string {
	k := strings.Join(h, "\x00")
	if hs[k] == nil {
		hs[k] = &head{h: h, first: len(hs)}
	}
	return k
}

// sorted orders the heads as Aggregate orders values, value by value, ties
// in the order they came, and notes each one's place.
func (hs heads) sorted() [][]string {
	all := slices.SortedFunc(maps.Values(hs), func(a, b *head) int {
		for k := range a.h {
			if c := compareValues(a.h[k], b.h[k]); c != 0 {
				return c
			}
		}
		return a.first - b.first
	})
	out := make([][]string, len(all))
	for i, e := range all {
		e.at, out[i] = i, e.h
	}
	return out
}

func varying(a, b *Row) string {
	var ks []string
	for k, v := range a.Params {
		if b.Params[k] != v {
			ks = append(ks, k)
		}
	}
	if a.Variant != b.Variant {
		ks = append(ks, VariantKey)
	}
	slices.Sort(ks)
	if len(ks) == 0 {
		return "nothing (duplicate rows)"
	}
	return strings.Join(ks, ", ")
}

// FailMark marks a cell where runs failed, in every format; the caption
// says what it means.
const FailMark = "†"

// cellText is "mean ± half-width" (4 significant digits; "mean [low,
// high]" for an asymmetric bootstrap interval), the mean alone for n = 1,
// "" for n = 0; with failures, " (d of n done)†" follows.
func cellText(r *Row, pm string) string {
	if r == nil {
		return ""
	}
	s := ""
	switch {
	case r.Mean == nil:
	case r.CI95High == nil:
		s = num(*r.Mean)
	case r.Method == stats.MethodBootstrap:
		s = num(*r.Mean) + " [" + num(*r.CI95Low) + ", " + num(*r.CI95High) + "]"
	default:
		s = num(*r.Mean) + pm + num(r.HalfWidth())
	}
	if r.Failed > 0 {
		s = strings.TrimSpace(s + " " + DoneOf(r) + FailMark)
	}
	return s
}

// DoneOf is "(d of n done)": of the n runs of a cell that ended, d ended
// done.
func DoneOf(r *Row) string {
	return fmt.Sprintf("(%d of %d done)", r.Runs-r.Failed, r.Runs)
}

// Caption names the statistics of the pivot's cells and what they pool:
// the interval's method (each method used, with the metrics it served),
// the runs per cell, what is pooled, and the failure mark if used.
func (p *Pivot) Caption() string {
	methods := map[string]bool{}
	failed := false
	nMin, nMax := -1, -1
	for _, row := range p.Cells {
		for _, r := range row {
			if r == nil {
				continue
			}
			if r.N > 1 {
				methods[r.Method] = true
			}
			failed = failed || r.Failed > 0
			if nMin < 0 || r.Runs < nMin {
				nMin = r.Runs
			}
			nMax = max(nMax, r.Runs)
		}
	}
	parts := []string{p.Metric + ": mean"}
	if methods[stats.MethodT] || len(methods) == 0 {
		parts[0] += " ± 95 % CI half-width (" + stats.MethodT + ")"
	}
	if methods[stats.MethodBootstrap] {
		parts = append(parts, "mean [95 % CI] by "+stats.MethodBootstrap+", the metric being bounded by its definition")
	}
	if len(p.Pooled) > 0 {
		parts = append(parts, "pooled over "+strings.Join(p.Pooled, ", "))
	}
	switch {
	case nMin < 0:
	case nMin == nMax:
		parts = append(parts, fmt.Sprintf("n = %d runs per cell (replicates", nMin)+pooledWord(p.Pooled)+")")
	default:
		parts = append(parts, fmt.Sprintf("n = %d–%d runs per cell (replicates", nMin, nMax)+pooledWord(p.Pooled)+")")
	}
	if failed {
		parts = append(parts, FailMark+" runs failed in this cell: (d of n done); the mean is of the done runs")
	}
	return strings.Join(parts, "; ")
}

func pooledWord(pooled []string) string {
	if len(pooled) > 0 {
		return " and pooled values"
	}
	return ""
}

// PoolNote is what a sample pools over param, which takes values
// distinct values: "shift: 2 values".
func PoolNote(param string, values int) string {
	if values == 1 {
		return param + ": 1 value"
	}
	return fmt.Sprintf("%s: %d values", param, values)
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

func headText(by []string, h []string) string {
	parts := make([]string, len(h))
	for i := range h {
		if by[i] == VariantKey {
			parts[i] = h[i]
		} else {
			parts[i] = by[i] + "=" + h[i]
		}
	}
	return strings.Join(parts, ", ")
}

// CSV writes the pivot: a header of the row dimensions' names then one
// column per column head ("variant, name=value"); cells "mean ± half-width"
// (see cellText); a last record holds the caption in its first field.
func (p *Pivot) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := slices.Clone(p.RowBy)
	for _, h := range p.ColHeads {
		head = append(head, cmp.Or(headText(p.ColBy, h), p.Metric))
	}
	_ = w.Write(head)
	for i, rh := range p.RowHeads {
		rec := slices.Clone(rh)
		for j := range p.ColHeads {
			rec = append(rec, cellText(p.Cells[i][j], " ± "))
		}
		_ = w.Write(rec)
	}
	caption := make([]string, len(head))
	caption[0] = "note: " + p.Caption()
	_ = w.Write(caption)
	w.Flush()
	return buf.Bytes()
}

// LaTeX writes the pivot as a booktabs tabular (\toprule, \midrule,
// \bottomrule), cells "$mean \pm half\text{-}width$", every text escaped;
// the caption in a comment above and in a last row spanning the table.
func (p *Pivot) LaTeX() []byte {
	var b bytes.Buffer
	caption := strings.NewReplacer(FailMark, `$^\dagger$`, "±", `$\pm$`, "–", "--").Replace(EscapeLaTeX(p.Caption()))
	fmt.Fprintf(&b, "%% %s\n", caption)
	cols := max(len(p.RowBy), 1) + len(p.ColHeads)
	fmt.Fprintf(&b, "\\begin{tabular}{%s%s}\n\\toprule\n", strings.Repeat("l", max(len(p.RowBy), 1)), strings.Repeat("r", len(p.ColHeads)))
	head := make([]string, 0, len(p.RowBy)+len(p.ColHeads))
	for _, k := range p.RowBy {
		head = append(head, EscapeLaTeX(k))
	}
	if len(p.RowBy) == 0 {
		head = append(head, "")
	}
	for _, h := range p.ColHeads {
		head = append(head, EscapeLaTeX(cmp.Or(headText(p.ColBy, h), p.Metric)))
	}
	b.WriteString(strings.Join(head, " & ") + " \\\\\n\\midrule\n")
	for i, rh := range p.RowHeads {
		rec := make([]string, 0, len(head))
		for _, v := range rh {
			rec = append(rec, EscapeLaTeX(v))
		}
		if len(p.RowBy) == 0 {
			rec = append(rec, EscapeLaTeX(p.Metric))
		}
		for j := range p.ColHeads {
			rec = append(rec, latexCell(p.Cells[i][j]))
		}
		b.WriteString(strings.Join(rec, " & ") + " \\\\\n")
	}
	fmt.Fprintf(&b, "\\bottomrule\n\\multicolumn{%d}{l}{\\footnotesize %s} \\\\\n\\end{tabular}\n", cols, caption)
	return b.Bytes()
}

func latexCell(r *Row) string {
	if r == nil || r.Mean == nil {
		if r != nil && r.Failed > 0 {
			return DoneOf(r) + `$^\dagger$`
		}
		return "--"
	}
	s := "$" + num(*r.Mean)
	switch {
	case r.CI95High == nil:
	case r.Method == stats.MethodBootstrap:
		s += ` \ [` + num(*r.CI95Low) + ", " + num(*r.CI95High) + "]"
	default:
		s += ` \pm ` + num(r.HalfWidth())
	}
	s += "$"
	if r.Failed > 0 {
		s += " " + DoneOf(r) + `$^\dagger$`
	}
	return s
}

var latexEscapes = strings.NewReplacer(
	`\`, `\textbackslash{}`,
	`&`, `\&`, `%`, `\%`, `$`, `\$`, `#`, `\#`, `_`, `\_`, `{`, `\{`, `}`, `\}`,
	`~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
)

// EscapeLaTeX escapes LaTeX's special characters in text: & % $ # _ { } ~ ^ \.
func EscapeLaTeX(s string) string { return latexEscapes.Replace(s) }
