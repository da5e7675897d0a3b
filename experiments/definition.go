package experiments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"schedlab/errs"
	"schedlab/solvers/sweep"
)

// Defaults and limits of a definition.
const (
	DefaultSeed   = 1             // as in the example; any int64 is allowed
	MaxReplicates = 1000          // replicates per cell
	MaxRuns       = sweep.MaxRuns // expanded runs per experiment
	maxTextLen    = 200           // name, tag, reference name
	maxNotesLen   = 64 << 10
	maxDepth      = 64          // nesting of a JSON definition (its own is 4 deep)
	maxNodes      = 200_000     // YAML nodes after alias expansion: a definition is small
	maxValues     = 2 * MaxRuns // values in all lists and ranges of one definition: more cannot expand to ≤ MaxRuns runs unless most lists are fixed values
)

// ParseJSON reads a definition from JSON, strictly: an unknown key, or a
// key given twice, is errs.Invalid naming it. A list of values may also
// be an inclusive integer range {"from": a, "to": b}. Numbers may be JSON
// numbers or strings and become text as solvers.Params holds them
// (integers exact: 1e9 is "1000000000"; 1.10 is "1.1"; a string is kept
// as written, blanks trimmed). Absent replicates mean 1, an absent seed
// DefaultSeed; an empty list is as if absent.
func ParseJSON(data []byte) (*sweep.Definition, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := jsonTree(dec, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errs.Invalidf("definition", "trailing data after the JSON object")
	}
	return (&parser{left: maxValues}).definition(v)
}

// ParseYAML reads a definition from YAML with the keys and rules of
// ParseJSON.
func ParseYAML(data []byte) (*sweep.Definition, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, errs.Invalidf("definition", "not valid YAML: %v", err)
	}
	if n.Kind == 0 {
		return nil, errs.Invalidf("definition", "empty")
	}
	budget := maxNodes
	v, err := yamlTree(&n, "", &budget)
	if err != nil {
		return nil, err
	}
	return (&parser{left: maxValues}).definition(v)
}

// Parse reads JSON when data starts with '{' (after blanks), YAML otherwise.
func Parse(data []byte) (*sweep.Definition, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return ParseJSON(data)
	}
	return ParseYAML(data)
}

// jsonTree reads one JSON value as the tree encoding/json gives (numbers
// as json.Number), refusing a key given twice in one object, which
// encoding/json would resolve silently by keeping the last.
func jsonTree(dec *json.Decoder, path string, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errs.Invalidf(field(path), "nested more than %d deep", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, errs.Invalidf(field(path), "not valid JSON: %v", err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	var out any
	switch d {
	case '{':
		m := map[string]any{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, errs.Invalidf(field(path), "not valid JSON: %v", err)
			}
			k, _ := kt.(string)
			if _, dup := m[k]; dup {
				return nil, errs.Invalidf(join(path, k), "key given twice")
			}
			if m[k], err = jsonTree(dec, join(path, k), depth+1); err != nil {
				return nil, err
			}
		}
		out = m
	case '[':
		l := []any{}
		for i := 0; dec.More(); i++ {
			v, err := jsonTree(dec, fmt.Sprintf("%s[%d]", path, i), depth+1)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		out = l
	default:
		return nil, errs.Invalidf(field(path), "not valid JSON: unexpected %v", d)
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return nil, errs.Invalidf(field(path), "not valid JSON: %v", err)
	}
	return out, nil
}

// number is a numeric scalar of either syntax, kept as its text.
type number string

// yamlTree turns a YAML node into the tree JSON decoding gives (maps,
// slices, strings, bools, numbers as number, nil).
func yamlTree(n *yaml.Node, path string, budget *int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, errs.Invalidf(field(path), "more than %d YAML nodes (aliases expanded)", maxNodes)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlTree(n.Content[0], path, budget)
	case yaml.AliasNode:
		return yamlTree(n.Alias, path, budget)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			v, err := yamlTree(n.Content[i+1], join(path, k), budget)
			if err != nil {
				return nil, err
			}
			m[k] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := yamlTree(c, fmt.Sprintf("%s[%d]", path, i), budget)
			if err != nil {
				return nil, err
			}
			s[i] = v
		}
		return s, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return nil, errs.Invalidf(field(path), "line %d: %v", n.Line, err)
			}
			return b, nil
		case "!!int":
			var i int64
			if err := n.Decode(&i); err != nil {
				return nil, errs.Invalidf(field(path), "line %d: integer out of range", n.Line)
			}
			return number(strconv.FormatInt(i, 10)), nil
		case "!!float":
			var f float64
			if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, errs.Invalidf(field(path), "line %d: must be a finite number", n.Line)
			}
			return number(n.Value), nil
		default:
			return n.Value, nil
		}
	}
	return nil, errs.Invalidf(field(path), "unsupported YAML node")
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func field(path string) string {
	if path == "" {
		return "definition"
	}
	return path
}

// parser decodes the generic tree strictly; left is how many more
// values its lists and ranges may hold.
type parser struct{ left int }

// definition decodes the generic tree strictly into a Definition.
func (ps *parser) definition(v any) (*sweep.Definition, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errs.Invalidf("definition", "must be an object")
	}
	d := &sweep.Definition{Replicates: 1, Seed: DefaultSeed}
	var problems []error
	add := func(err error) {
		if err != nil {
			problems = append(problems, err)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		x := m[k]
		var err error
		switch k {
		case "name":
			d.Name, err = str(x, k)
		case "strategy":
			d.Strategy, err = str(x, k)
		case "notes":
			d.Notes, err = str(x, k)
		case "workload":
			d.Workload, err = ps.workload(x, k)
		case "variants":
			d.Variants, err = strList(x, k)
		case "tags":
			d.Tags, err = strList(x, k)
		case "grid":
			d.Grid, err = ps.grid(x, k)
		case "replicates":
			var i int64
			i, err = integer(x, k)
			d.Replicates = int(max(min(i, math.MaxInt32), math.MinInt32))
		case "seed":
			d.Seed, err = integer(x, k)
		case "references":
			d.References, err = referencesOf(x, k)
		case "notify_url":
			d.NotifyURL, err = str(x, k)
		default:
			err = unknownKey(k, "", "name, strategy, workload, variants, grid, replicates, seed, tags, notes, references, notify_url")
		}
		add(err)
	}
	if err := errs.Join(problems); err != nil {
		return nil, err
	}
	// An empty list or object is as if absent (as encoding/json's
	// omitempty writes it), so a definition round-trips unchanged.
	if len(d.Variants) == 0 {
		d.Variants = nil
	}
	if len(d.Tags) == 0 {
		d.Tags = nil
	}
	if len(d.References) == 0 {
		d.References = nil
	}
	if len(d.Grid) == 0 {
		d.Grid = nil
	}
	if len(d.Workload.Grid) == 0 {
		d.Workload.Grid = nil
	}
	if len(d.Workload.IDs) == 0 {
		d.Workload.IDs = nil
	}
	return d, nil
}

func unknownKey(k, path, known string) error {
	return errs.Invalidf(join(path, k), "unknown key (known: %s)", known)
}

func str(x any, path string) (string, error) {
	s, ok := x.(string)
	if !ok {
		return "", errs.Invalidf(path, "must be a string")
	}
	return s, nil
}

// scalar turns a string, number or boolean into a parameter value.
func scalar(x any, path string) (string, error) {
	switch x := x.(type) {
	case string:
		return strings.TrimSpace(x), nil
	case json.Number:
		if s, ok := sweep.Number(string(x)); ok {
			return s, nil
		}
	case number:
		if s, ok := sweep.Number(string(x)); ok {
			return s, nil
		}
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", errs.Invalidf(path, "must be a number, a string or a boolean")
}

func integer(x any, path string) (int64, error) {
	s, err := scalar(x, path)
	if err == nil {
		var i int64
		if i, err = strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	return 0, errs.Invalidf(path, "must be an integer")
}

func float(x any, path string) (float64, error) {
	s, err := scalar(x, path)
	if err == nil {
		var f float64
		if f, err = strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, nil
		}
	}
	return 0, errs.Invalidf(path, "must be a finite number")
}

func strList(x any, path string) ([]string, error) {
	l, ok := x.([]any)
	if !ok {
		return nil, errs.Invalidf(path, "must be a list of strings")
	}
	out := make([]string, len(l))
	for i, e := range l {
		s, err := str(e, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// values reads a list of scalars or an inclusive integer range
// {"from": a, "to": b}.
func (ps *parser) values(x any, path string) ([]string, error) {
	switch x := x.(type) {
	case []any:
		if ps.left -= len(x); ps.left < 0 {
			return nil, errs.Invalidf(path, "the definition's lists hold more than %d values in all", maxValues)
		}
		out := make([]string, len(x))
		var problems []error
		for i, e := range x {
			s, err := scalar(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				problems = append(problems, err)
			}
			out[i] = s
		}
		return out, errs.Join(problems)
	case map[string]any:
		var from, to int64
		var hasFrom, hasTo bool
		for _, k := range slices.Sorted(maps.Keys(x)) {
			var err error
			switch k {
			case "from":
				from, err = integer(x[k], join(path, k))
				hasFrom = true
			case "to":
				to, err = integer(x[k], join(path, k))
				hasTo = true
			default:
				err = unknownKey(k, path, "from, to")
			}
			if err != nil {
				return nil, err
			}
		}
		if !hasFrom || !hasTo {
			return nil, errs.Invalidf(path, "a range needs both from and to")
		}
		if to >= from && to-from < MaxRuns {
			if ps.left -= int(to - from + 1); ps.left < 0 {
				return nil, errs.Invalidf(path, "the definition's lists hold more than %d values in all", maxValues)
			}
		}
		out, err := sweep.Range(from, to)
		if err != nil {
			return nil, errs.Invalidf(path, "%v", err)
		}
		return out, nil
	}
	return nil, errs.Invalidf(path, `must be a list of values or an integer range {"from": a, "to": b}`)
}

func (ps *parser) grid(x any, path string) (sweep.Grid, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, errs.Invalidf(path, "must be an object of parameter names to lists of values")
	}
	g := make(sweep.Grid, len(m))
	var problems []error
	for _, k := range slices.Sorted(maps.Keys(m)) {
		vs, err := ps.values(m[k], join(path, k))
		if err != nil {
			problems = append(problems, err)
			continue
		}
		g[k] = vs
	}
	return g, errs.Join(problems)
}

func (ps *parser) workload(x any, path string) (sweep.Workload, error) {
	var w sweep.Workload
	m, ok := x.(map[string]any)
	if !ok {
		return w, errs.Invalidf(path, `must be {"preset": …, "grid": {…}} or {"ids": […]}`)
	}
	var problems []error
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var err error
		switch k {
		case "preset":
			w.Preset, err = str(m[k], join(path, k))
		case "grid":
			w.Grid, err = ps.grid(m[k], join(path, k))
		case "ids":
			w.IDs, err = ps.values(m[k], join(path, k))
		default:
			err = unknownKey(k, path, "preset, grid, ids")
		}
		if err != nil {
			problems = append(problems, err)
		}
	}
	return w, errs.Join(problems)
}

func referencesOf(x any, path string) ([]sweep.Reference, error) {
	l, ok := x.([]any)
	if !ok {
		return nil, errs.Invalidf(path, "must be a list of references")
	}
	out := make([]sweep.Reference, len(l))
	var problems []error
	for i, e := range l {
		p := fmt.Sprintf("%s[%d]", path, i)
		m, ok := e.(map[string]any)
		if !ok {
			problems = append(problems, errs.Invalidf(p, `must be {"name", "metric", "variant", "params", "value"}`))
			continue
		}
		r := &out[i]
		if _, ok := m["value"]; !ok {
			problems = append(problems, errs.Invalidf(p+".value", "required: the published number"))
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			var err error
			switch k {
			case "name":
				r.Name, err = str(m[k], join(p, k))
			case "metric":
				r.Metric, err = str(m[k], join(p, k))
			case "variant":
				r.Variant, err = str(m[k], join(p, k))
			case "value":
				r.Value, err = float(m[k], join(p, k))
			case "params":
				pm, ok := m[k].(map[string]any)
				if !ok {
					err = errs.Invalidf(join(p, k), "must be an object of parameter names to values")
					break
				}
				r.Params = make(map[string]string, len(pm))
				for _, pk := range slices.Sorted(maps.Keys(pm)) {
					s, perr := scalar(pm[pk], join(join(p, k), pk))
					if perr != nil {
						problems = append(problems, perr)
					}
					r.Params[pk] = s
				}
			default:
				err = unknownKey(k, p, "name, metric, variant, params, value")
			}
			if err != nil {
				problems = append(problems, err)
			}
		}
	}
	return out, errs.Join(problems)
}
