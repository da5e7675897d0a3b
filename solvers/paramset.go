package solvers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
)

// A family declares its parameters once, as a typed config struct, the way
// flag.FlagSet binds flags to variables: a method Declare binds each field
// to its public name, unit, limits and doc on a ParamSet. Its defaults are
// the field values of the family's defaults constructor, whose literals
// carry their reason (memberlist's DefaultLANConfig is the model):
//
//	type Config struct {
//		Gamma float64 // price markup γ
//		Shift bool
//	}
//
//	func DefaultConfig() Config {
//		return Config{
//			Gamma: 1.2, // the one value in every experiment of the paper
//		}
//	}
//
//	func (c *Config) Declare(ps *solvers.ParamSet) {
//		ps.Float(&c.Gamma, "gamma", "×", 0, 100, "Price markup γ ...")
//		ps.Bool(&c.Shift, "shift", "Shift ...").For(VariantCSS, VariantFair)
//	}
//
// specsOf(&cfg) lists the ParamSpecs the forms, the API and the CLI show,
// with cfg's values as defaults; Decode(&cfg, params) sets the fields from
// resolved params. A name exists in one place, the Declare call, and the
// code reads fields, so the compiler checks every use.

// Declarer is a typed config: Declare binds its fields on ps.
type Declarer interface {
	Declare(ps *ParamSet)
}

// ParamSet collects the bindings of one Declare call.
type ParamSet struct {
	specs []*ParamSpec
	sets  []func(string) error // parse a resolved value into the field
}

// specsOf returns the ParamSpecs cfg declares, in declaration order, with
// cfg's current field values as defaults. It panics on a name declared
// twice: a bug of the family.
func specsOf(cfg Declarer) []ParamSpec {
	var ps ParamSet
	cfg.Declare(&ps)
	out := make([]ParamSpec, len(ps.specs))
	seen := map[string]bool{}
	for i, s := range ps.specs {
		if seen[s.Name] {
			panic("solvers: parameter " + s.Name + " declared twice")
		}
		seen[s.Name] = true
		out[i] = *s
	}
	return out
}

// Decode sets cfg's fields from p, which Resolve has checked against
// specsOf(cfg) (every name present, every value valid). A name missing
// from p keeps the field's value; a value that does not parse is an error
// naming the parameter.
func Decode(cfg Declarer, p Params) error {
	var ps ParamSet
	cfg.Declare(&ps)
	for i, s := range ps.specs {
		v, ok := p[s.Name]
		if !ok {
			continue
		}
		if err := ps.sets[i](v); err != nil {
			return fmt.Errorf("parameter %s: %w", s.Name, err)
		}
	}
	return nil
}

// ResolveConfig checks p against cfg's parameters (Resolve) and decodes
// the result into cfg: the one step from user input to a typed config. It
// returns the resolved params too, every parameter with its value, which is
// what a run stores.
func ResolveConfig(cfg Declarer, p Params) (Params, error) {
	r, err := Resolve(specsOf(cfg), p)
	if err != nil {
		return nil, err
	}
	return r, Decode(cfg, r)
}

// Checker is a typed config with rules across its parameters (dcop's
// per_job ≤ resources), which no one parameter's limits can say: Check
// returns every broken rule at once (errs.Join), each naming a parameter.
type Checker interface {
	Check() error
}

// ResolveChecked is ResolveConfig followed by cfg's Check (Checker), with
// every problem at once, as a form shows them: when some values are bad,
// the others are decoded anyway (the bad ones keep cfg's values) so that
// Check judges them, and its problems on parameters not already named
// are added. A generate form with jobs=-5 and per_job=20 (of 15
// resources) is told both, not jobs alone (issue 42).
func ResolveChecked(cfg Declarer, p Params) (Params, error) {
	r, err := ResolveConfig(cfg, p)
	problems := errs.All(err)
	named := map[string]bool{}
	for _, e := range problems {
		named[errs.FieldOf(e)] = true
	}
	if err != nil {
		good := make(Params, len(p))
		for k, v := range p {
			if !named[k] {
				good[k] = v
			}
		}
		if _, gerr := ResolveConfig(cfg, good); gerr != nil {
			return nil, err
		}
	}
	if c, ok := cfg.(Checker); ok {
		for _, e := range errs.All(c.Check()) {
			if !named[errs.FieldOf(e)] {
				problems = append(problems, e)
			}
		}
	}
	if err := errs.Join(problems); err != nil {
		return nil, err
	}
	return r, nil
}

func (ps *ParamSet) add(s ParamSpec, set func(string) error) *ParamSpec {
	sp := &s
	ps.specs = append(ps.specs, sp)
	ps.sets = append(ps.sets, set)
	return sp
}

// Float binds a number in [min, max] (±Inf: unbounded) to p.
func (ps *ParamSet) Float(p *float64, name, unit string, min, max float64, doc string) *ParamSpec {
	return ps.add(FloatSpec(name, formatFloat(*p), unit, doc, min, max), func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		*p = f
		return err
	})
}

// Int binds a whole number in [min, max] to p.
func (ps *ParamSet) Int(p *int, name, unit string, min, max int, doc string) *ParamSpec {
	return ps.add(IntSpec(name, strconv.Itoa(*p), unit, doc, min, max), func(v string) error {
		n, err := strconv.Atoi(v)
		*p = n
		return err
	})
}

// Int64 binds a whole number in [min, max] to p.
func (ps *ParamSet) Int64(p *int64, name, unit string, min, max int64, doc string) *ParamSpec {
	s := ParamSpec{Name: name, Kind: ParamInt, Default: strconv.FormatInt(*p, 10), Unit: unit, Doc: doc,
		Min: float64(min), Max: float64(max), HasMin: true, HasMax: true}
	return ps.add(s, func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		*p = n
		return err
	})
}

// Bool binds a yes/no switch to p; its values are spelled "true" and
// "false" everywhere (ParseBool also reads on/off and yes/no from older
// links and scripts).
func (ps *ParamSet) Bool(p *bool, name, doc string) *ParamSpec {
	return ps.add(ParamSpec{Name: name, Kind: ParamBool, Default: strconv.FormatBool(*p), Doc: doc,
		Choices: []string{"false", "true"}}, func(v string) error {
		b, err := ParseBool(v)
		*p = b
		return err
	})
}

// Choice binds one of choices to p.
func (ps *ParamSet) Choice(p *string, name string, choices []string, doc string) *ParamSpec {
	return ps.add(ChoiceSpec(name, *p, doc, choices...), func(v string) error {
		*p = v
		return nil
	})
}

// String binds free text to p; give it a Check for its syntax.
func (ps *ParamSet) String(p *string, name, unit, doc string) *ParamSpec {
	return ps.add(ParamSpec{Name: name, Kind: ParamString, Default: *p, Unit: unit, Doc: doc}, func(v string) error {
		*p = v
		return nil
	})
}

// For restricts a parameter to the variants named: the forms show it only
// for them, and the others ignore it. No call: every variant.
func (s *ParamSpec) For(variants ...string) *ParamSpec {
	s.Variants = append(s.Variants, variants...)
	return s
}

// OnFormats restricts a parameter to workloads of the formats named (see
// ParamSpec.Formats). No call: every format.
func (s *ParamSpec) OnFormats(formats ...string) *ParamSpec {
	s.Formats = append(s.Formats, formats...)
	return s
}

// WithCheck adds a syntax check of the value (see ParamSpec.Check).
func (s *ParamSpec) WithCheck(check func(string) error) *ParamSpec {
	s.Check = check
	return s
}

// WithLimit marks the parameter as a budget knob (see ParamSpec.Limit).
func (s *ParamSpec) WithLimit(limit string) *ParamSpec {
	s.Limit = limit
	return s
}

// AppliesToFormat reports whether the parameter matters to a workload of
// format; an empty format (not known, or no workload) matches any.
func (s ParamSpec) AppliesToFormat(format string) bool {
	return len(s.Formats) == 0 || format == "" || slices.Contains(s.Formats, format)
}

// Applies reports whether the parameter matters to a run of variant on a
// workload of format (AppliesTo and AppliesToFormat).
func (s ParamSpec) Applies(variant, format string) bool {
	return s.AppliesTo(variant) && s.AppliesToFormat(format)
}

// AppliesTo reports whether the parameter matters to variant.
func (s ParamSpec) AppliesTo(variant string) bool {
	return len(s.Variants) == 0 || slices.Contains(s.Variants, variant)
}

// ParseBool reads a boolean parameter: "true" or "false", and from older
// links and scripts "on"/"off", "yes"/"no", "1"/"0" (any case).
func ParseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("must be true or false, got %q", v)
}

// formatFloat writes a default as the shortest text that reads back the
// same.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
