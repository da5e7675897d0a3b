package sweep

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The one grammar of swept values (issue 44 item 2). A field of the sweep
// form holds one value ("1.2"), a comma list ("1.1, 1.3") or an inclusive
// integer range ("0..9"); ParseValues reads it and ValuesText writes it
// back. A definition's JSON (JSON) writes the same values typed, a run of
// MinRange or more consecutive integers as {"from": a, "to": b}, which
// experiments.ParseJSON reads back to the same values. Every value is
// kept as Number writes it, as solvers.Params holds it.

// MaxRuns caps the runs of one experiment, and so the values of one range:
// a day of 1 s runs on a few cores.
const MaxRuns = 100_000

// MinRange is the shortest run of consecutive integers written as a range
// (by ValuesText and JSON): shorter runs read better as a list.
const MinRange = 3

// Number writes a number as a parameter value: an integral value in plain
// digits when exact in an int64 (1e3 is "1000"), anything else as the
// shortest float text (1.10 is "1.1"); ok is false when s is not a finite
// number.
func Number(s string) (string, bool) {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
		if r, ok := new(big.Float).SetPrec(0).SetString(s); ok {
			if i, acc := r.Int64(); acc == big.Exact {
				return strconv.FormatInt(i, 10), true
			}
		}
	}
	return strconv.FormatFloat(f, 'g', -1, 64), true
}

// Value is one value as typed: blanks trimmed, a JSON number written as
// Number does (so "1.10" and "1.1" are one value), anything else as it is.
func Value(s string) string {
	s = strings.TrimSpace(s)
	if s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Valid([]byte(s)) {
		if n, ok := Number(s); ok {
			return n
		}
	}
	return s
}

// Range is the inclusive integer range from..to as values, or an error
// saying why it is none: empty (from above to) or more than MaxRuns values.
func Range(from, to int64) ([]string, error) {
	if from > to {
		return nil, fmt.Errorf("range from %d to %d is empty (from must be ≤ to)", from, to)
	}
	if to-from >= MaxRuns || to-from < 0 {
		return nil, fmt.Errorf("range from %d to %d has more than %d values", from, to, MaxRuns)
	}
	out := make([]string, 0, to-from+1)
	for i := from; i <= to; i++ {
		out = append(out, strconv.FormatInt(i, 10))
	}
	return out, nil
}

// ParseValues reads a field: nil when empty (the parameter keeps its
// default), an integer range "a..b" as its values, otherwise the
// comma-separated values (Value).
func ParseValues(text string) ([]string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	if !utf8.ValidString(text) {
		return nil, fmt.Errorf("not valid UTF-8 text")
	}
	if a, b, ok := strings.Cut(text, ".."); ok {
		from, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
		to, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("a range is two whole numbers, from..to (say 0..9), got %q", text)
		}
		return Range(from, to)
	}
	parts := strings.Split(text, ",")
	for i, p := range parts {
		if parts[i] = Value(p); parts[i] == "" {
			return nil, fmt.Errorf("value %d of %q is empty: separate values with one comma", i+1, text)
		}
	}
	return parts, nil
}

// intRun says whether vs are MinRange or more consecutive integers, in
// order, each written as Number writes it.
func intRun(vs []string) (from, to int64, ok bool) {
	if len(vs) < MinRange {
		return 0, 0, false
	}
	from, err := strconv.ParseInt(vs[0], 10, 64)
	if err != nil {
		return 0, 0, false
	}
	for i, v := range vs {
		if v != strconv.FormatInt(from+int64(i), 10) {
			return 0, 0, false
		}
	}
	return from, from + int64(len(vs)-1), true
}

// ValuesText writes values back into a field, as ParseValues reads them:
// "a..b" for a run of consecutive integers, else a comma list.
func ValuesText(vs []string) string {
	if from, to, ok := intRun(vs); ok {
		return fmt.Sprintf("%d..%d", from, to)
	}
	return strings.Join(vs, ", ")
}

// typedValues are values as a definition's JSON writes them.
type typedValues []string

// MarshalJSON writes a run of consecutive integers as {"from", "to"},
// other values as a list, each a JSON number when Number writes it so, a
// boolean for true and false, else a string.
func (vs typedValues) MarshalJSON() ([]byte, error) {
	if from, to, ok := intRun(vs); ok {
		return fmt.Appendf(nil, `{"from":%d,"to":%d}`, from, to), nil
	}
	out := []byte{'['}
	for i, v := range vs {
		if i > 0 {
			out = append(out, ',')
		}
		if n, ok := Number(v); (ok && n == v && json.Valid([]byte(v))) || v == "true" || v == "false" {
			out = append(out, v...)
		} else {
			b, _ := json.Marshal(v)
			out = append(out, b...)
		}
	}
	return append(out, ']'), nil
}

// typedGrid is a grid as a definition's JSON writes it.
type typedGrid map[string]typedValues

func typed(g Grid) typedGrid {
	if len(g) == 0 {
		return nil
	}
	out := make(typedGrid, len(g))
	for k, vs := range g {
		out[k] = typedValues(vs)
	}
	return out
}

// JSON is d as the sweep form shows and downloads it and as a user
// uploads it: indented, keys in the order a reader expects, values typed
// (typedValues). It fails only on a reference whose value is not a finite
// number, which no parsed definition holds.
func (d *Definition) JSON() ([]byte, error) {
	type plain Definition // its fields, not this method
	type workload struct {
		Preset string    `json:"preset,omitempty"`
		Grid   typedGrid `json:"grid,omitempty"`
		IDs    []string  `json:"ids,omitempty"`
	}
	v := struct {
		Name     string    `json:"name"`
		Strategy string    `json:"strategy"`
		Workload workload  `json:"workload"`
		Variants []string  `json:"variants,omitempty"`
		Grid     typedGrid `json:"grid,omitempty"`
		*plain             // replicates, seed, tags, notes, references, notify_url
	}{d.Name, d.Strategy, workload{d.Workload.Preset, typed(d.Workload.Grid), d.Workload.IDs}, d.Variants, typed(d.Grid), (*plain)(d)}
	return json.MarshalIndent(v, "", "  ")
}
