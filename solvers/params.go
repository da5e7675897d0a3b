package solvers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/solvers/sweep"
)

// Params are named parameter values as the user typed them (form fields,
// CLI --param k=v, API JSON). Resolve checks them against ParamSpecs.
type Params map[string]string

// UnmarshalJSON accepts numbers and booleans as well as strings, so the API
// takes {"gamma": 1.2} and {"gamma": "1.2"} alike. Numbers keep the text
// the client sent when it is an integer ({"jobs": 1000000000} and
// {"jobs": 1e9} are "1000000000"), so whole-number parameters stay exact;
// null is as if absent. Objects and arrays are errs.Invalid naming the key.
func (p *Params) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return errs.Invalidf("params", "must be an object of names to values")
	}
	out := make(Params, len(raw))
	for k, m := range raw {
		dec := json.NewDecoder(bytes.NewReader(m))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return errs.Invalidf(k, "must be a number or a string")
		}
		switch v := v.(type) {
		case string:
			out[k] = v
		case json.Number:
			n, ok := sweep.Number(string(v))
			if !ok {
				n = string(v) // out of float range: Resolve reports it
			}
			out[k] = n
		case bool:
			out[k] = strconv.FormatBool(v)
		case nil:
		default:
			return errs.Invalidf(k, "must be a number, a string or a boolean, not an object or a list")
		}
	}
	*p = out
	return nil
}

// Kinds of parameter.
const (
	ParamFloat  = "float"
	ParamInt    = "int"
	ParamChoice = "choice"
	ParamString = "string"
	ParamBool   = "bool" // spelled "true" or "false" (ParseBool reads older spellings)
)

// ParamSpec documents one parameter: its name (a public contract), meaning,
// unit, default and limits.
type ParamSpec struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"` // ParamFloat, ParamInt, ParamChoice, ParamString, ParamBool
	Default string   `json:"default"`
	Unit    string   `json:"unit,omitempty"`
	Doc     string   `json:"doc"`
	Choices []string `json:"choices,omitempty"`
	// Min and Max bound numeric values (inclusive) when HasMin/HasMax.
	Min    float64 `json:"min,omitempty"`
	Max    float64 `json:"max,omitempty"`
	HasMin bool    `json:"has_min,omitempty"`
	HasMax bool    `json:"has_max,omitempty"`
	// Limit marks a knob that is itself a budget (LimitMemoryMiB,
	// LimitTimeSeconds): CheckLimits refuses a value over the server's own
	// limit of that kind.
	Limit string `json:"limit,omitempty"`
	// Check, when set, validates a value after the kind's own checks (a
	// ParamString list's syntax): Resolve returns its error, as errs.Invalid
	// on the parameter when it has no field of its own.
	Check func(string) error `json:"-"`
	// Variants lists the variants the parameter applies to; empty: all.
	// The forms show it only for them (AppliesTo).
	Variants []string `json:"variants,omitempty"`
	// Formats lists the workload formats (Workload.Format) the parameter
	// applies to; empty: all. The forms and run pages show it only for
	// them (AppliesToFormat): cyclic's trace knobs on an SWF trace, never on
	// a slot domain.
	Formats []string `json:"formats,omitempty"`
}

// Resolve checks p against specs and returns a complete set: every spec's
// name with the user's value or the default (a boolean spelled "true" or
// "false"). Unknown names, unparsable numbers, values out of range and
// unknown choices are errs.Invalid naming the parameter; all of them are
// returned at once (an errs.List when there are several), so that a form
// shows every mistake of a submission together.
func Resolve(specs []ParamSpec, p Params) (Params, error) {
	known := make(map[string]ParamSpec, len(specs))
	for _, s := range specs {
		known[s.Name] = s
	}
	var problems []error
	for _, u := range slices.Sorted(maps.Keys(p)) {
		if _, ok := known[u]; ok {
			continue
		}
		if u == "" {
			problems = append(problems, errs.Invalidf("params", "a parameter has an empty name"))
			continue
		}
		names := make([]string, len(specs))
		for i, s := range specs {
			names[i] = s.Name
		}
		problems = append(problems, errs.Invalidf(u, "unknown parameter (known: %s)", strings.Join(names, ", ")))
	}
	out := make(Params, len(specs))
	for _, s := range specs {
		v, ok := p[s.Name]
		v = strings.TrimSpace(v)
		if !ok || v == "" {
			v = s.Default
		}
		if err := s.check(v); err != nil {
			problems = append(problems, err)
			continue
		}
		if s.Kind == ParamBool {
			b, _ := ParseBool(v)
			v = strconv.FormatBool(b)
		}
		out[s.Name] = v
	}
	if err := errs.Join(problems); err != nil {
		return nil, err
	}
	return out, nil
}

// plainNumber writes f in plain decimals, as a person types it
// (100000000, 0.001), never in exponent form.
func plainNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func (s ParamSpec) check(v string) error {
	switch s.Kind {
	case ParamFloat, ParamInt:
		var f float64
		if s.Kind == ParamInt {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return errs.Invalidf(s.Name, "must be a whole number, got %q", v)
			}
			f = float64(n)
		} else {
			var err error
			f, err = strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return errs.Invalidf(s.Name, "must be a number, got %q", v)
			}
		}
		// Bounds in plain decimals, the value as typed: never 1e+08.
		if s.HasMin && f < s.Min {
			return errs.Invalidf(s.Name, "must be at least %s, got %s", plainNumber(s.Min), strings.TrimSpace(v))
		}
		if s.HasMax && f > s.Max {
			return errs.Invalidf(s.Name, "must be at most %s, got %s", plainNumber(s.Max), strings.TrimSpace(v))
		}
	case ParamChoice:
		if !slices.Contains(s.Choices, v) {
			return errs.Invalidf(s.Name, "must be one of %s, got %q", strings.Join(s.Choices, ", "), v)
		}
	case ParamBool:
		if _, err := ParseBool(v); err != nil {
			return errs.Invalidf(s.Name, "%v", err)
		}
	case ParamString:
	default:
		return fmt.Errorf("parameter %s has unknown kind %q", s.Name, s.Kind)
	}
	if s.Check != nil {
		if err := s.Check(v); err != nil {
			if errs.FieldOf(err) == "" {
				return errs.Invalidf(s.Name, "%v", err)
			}
			return errs.Wrap(errs.Invalid, err)
		}
	}
	return nil
}

// Float returns a resolved numeric parameter. It panics on a name that
// Resolve did not fill: that is a bug in the strategy, not user input.
func (p Params) Float(name string) float64 {
	v, ok := p[name]
	if !ok {
		panic("solvers: parameter " + name + " was not resolved")
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		panic("solvers: parameter " + name + " is not a number: " + v)
	}
	return f
}

// Int returns a resolved whole-number parameter (see Float).
func (p Params) Int(name string) int { return int(p.Float(name)) }

// String returns a resolved parameter as typed (see Float).
func (p Params) String(name string) string {
	v, ok := p[name]
	if !ok {
		panic("solvers: parameter " + name + " was not resolved")
	}
	return v
}

// FloatSpec, IntSpec and ChoiceSpec build ParamSpecs tersely.
func FloatSpec(name, def, unit, doc string, min, max float64) ParamSpec {
	return ParamSpec{Name: name, Kind: ParamFloat, Default: def, Unit: unit, Doc: doc,
		Min: min, Max: max, HasMin: !math.IsInf(min, -1), HasMax: !math.IsInf(max, 1)}
}

func IntSpec(name, def, unit, doc string, min, max int) ParamSpec {
	return ParamSpec{Name: name, Kind: ParamInt, Default: def, Unit: unit, Doc: doc,
		Min: float64(min), Max: float64(max), HasMin: true, HasMax: true}
}

func ChoiceSpec(name, def, doc string, choices ...string) ParamSpec {
	return ParamSpec{Name: name, Kind: ParamChoice, Default: def, Doc: doc, Choices: choices}
}
