package experiments

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
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
	rowIdx, colIdx := map[string]int{}, map[string]int{}
	type placed struct{ r, c int }
	var places []placed
	for _, r := range sel {
		rh, err := dims(r, rowBy)
		if err != nil {
			return nil, err
		}
		ch, err := dims(r, colBy)
		if err != nil {
			return nil, err
		}
		places = append(places, placed{index(rowIdx, &p.RowHeads, rh), index(colIdx, &p.ColHeads, ch)})
	}
	rowOrder, colOrder := order(p.RowHeads), order(p.ColHeads)
	p.RowHeads, p.ColHeads = permute(p.RowHeads, rowOrder), permute(p.ColHeads, colOrder)
	rowAt, colAt := inverse(rowOrder), inverse(colOrder)
	p.Cells = make([][]*Row, len(p.RowHeads))
	for i := range p.Cells {
		p.Cells[i] = make([]*Row, len(p.ColHeads))
	}
	for i, r := range sel {
		ri, ci := rowAt[places[i].r], colAt[places[i].c]
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

func index(idx map[string]int, heads *[][]string, h []string) int {
	k := strings.Join(h, "\x00")
	i, ok := idx[k]
	if !ok {
		i = len(*heads)
		idx[k] = i
		*heads = append(*heads, h)
	}
	return i
}

func order(heads [][]string) []int {
	o := make([]int, len(heads))
	for i := range o {
		o[i] = i
	}
	slices.SortStableFunc(o, func(a, b int) int {
		for k := range heads[a] {
			if c := compareValues(heads[a][k], heads[b][k]); c != 0 {
				return c
			}
		}
		return 0
	})
	return o
}

func permute(heads [][]string, o []int) [][]string {
	out := make([][]string, len(o))
	for i, j := range o {
		out[i] = heads[j]
	}
	return out
}

func inverse(o []int) []int {
	inv := make([]int, len(o))
	for i, j := range o {
		inv[j] = i
	}
	return inv
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

// cellText is "mean ± half-width" (4 significant digits), the mean alone
// for n = 1, "" for n = 0; with failures, " (k failed)" follows.
func cellText(r *Row, pm string) string {
	if r == nil {
		return ""
	}
	s := ""
	switch {
	case r.Mean == nil:
	case r.CI95High == nil:
		s = num(*r.Mean)
	default:
		s = num(*r.Mean) + pm + num(r.HalfWidth())
	}
	if r.Failed > 0 {
		s = strings.TrimSpace(s + fmt.Sprintf(" (%d failed)", r.Failed))
	}
	return s
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
// column per column head ("variant, name=value"); cells "mean ± half-width".
func (p *Pivot) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := slices.Clone(p.RowBy)
	for _, h := range p.ColHeads {
		head = append(head, cmp(headText(p.ColBy, h), p.Metric))
	}
	_ = w.Write(head)
	for i, rh := range p.RowHeads {
		rec := slices.Clone(rh)
		for j := range p.ColHeads {
			rec = append(rec, cellText(p.Cells[i][j], " ± "))
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return buf.Bytes()
}

func cmp(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// LaTeX writes the pivot as a booktabs tabular (\toprule, \midrule,
// \bottomrule), cells "$mean \pm half\text{-}width$", every text escaped.
func (p *Pivot) LaTeX() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%% %s: mean ± 95%% CI half-width (Student t)\n", EscapeLaTeX(p.Metric))
	fmt.Fprintf(&b, "\\begin{tabular}{%s%s}\n\\toprule\n", strings.Repeat("l", max(len(p.RowBy), 1)), strings.Repeat("r", len(p.ColHeads)))
	head := make([]string, 0, len(p.RowBy)+len(p.ColHeads))
	for _, k := range p.RowBy {
		head = append(head, EscapeLaTeX(k))
	}
	if len(p.RowBy) == 0 {
		head = append(head, "")
	}
	for _, h := range p.ColHeads {
		head = append(head, EscapeLaTeX(cmp(headText(p.ColBy, h), p.Metric)))
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
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	return b.Bytes()
}

func latexCell(r *Row) string {
	if r == nil || r.Mean == nil {
		if r != nil && r.Failed > 0 {
			return fmt.Sprintf("(%d failed)", r.Failed)
		}
		return "--"
	}
	s := "$" + num(*r.Mean)
	if r.CI95High != nil {
		s += ` \pm ` + num(r.HalfWidth())
	}
	s += "$"
	if r.Failed > 0 {
		s += fmt.Sprintf(" (%d failed)", r.Failed)
	}
	return s
}

// PivotCSV is NewPivot then CSV.
func PivotCSV(rows []Row, metric string, rowBy, colBy []string) ([]byte, error) {
	p, err := NewPivot(rows, metric, rowBy, colBy)
	if err != nil {
		return nil, err
	}
	return p.CSV(), nil
}

// PivotLaTeX is NewPivot then LaTeX.
func PivotLaTeX(rows []Row, metric string, rowBy, colBy []string) ([]byte, error) {
	p, err := NewPivot(rows, metric, rowBy, colBy)
	if err != nil {
		return nil, err
	}
	return p.LaTeX(), nil
}

var latexEscapes = strings.NewReplacer(
	`\`, `\textbackslash{}`,
	`&`, `\&`, `%`, `\%`, `$`, `\$`, `#`, `\#`, `_`, `\_`, `{`, `\{`, `}`, `\}`,
	`~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
)

// EscapeLaTeX escapes LaTeX's special characters in text: & % $ # _ { } ~ ^ \.
func EscapeLaTeX(s string) string { return latexEscapes.Replace(s) }
