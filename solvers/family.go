package solvers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"schedlab/errs"
	"schedlab/report"
)

// Def is a strategy family defined by its parts: what only the family knows (its
// variants, typed configs, readers, generators, the run itself). Its
// Strategy method builds the family's Strategy, doing the wrapping every
// family needs: variant resolution, progress defaulting, decoding params
// into the typed config, keeping the context's own error; so a family is
// one value of this type and one line in the registry.
//
// C is the family's run config and P its pointer type, which declares the
// parameters (Declarer).
type Def[C any, P interface {
	*C
	Declarer
}] struct {
	// Name is the family's public identifier ("eapm").
	Name string
	// Info describes the family: title, summary, paper, seed file (its
	// Name is Name's).
	Info Info
	// VariantList lists the variants; the first is the default. A
	// family keeps them as one table of its own rows (VariantsOf).
	VariantList []Variant
	// Config returns the run config's defaults.
	Config func() C
	// Run schedules w with a variant (resolved) and a decoded config.
	Run func(ctx context.Context, w *Workload, variant string, cfg C, progress Progress) (*report.Report, error)
	// Parse reads an upload (see Strategy.ParseWorkload).
	Parse func(ctx context.Context, files []File) (*Workload, error)
	// PresetList lists the generators (NewPreset).
	PresetList []PresetDef
	// Repro is the seed experiment (NewReproduce).
	Repro ReproDef

	// The rest are optional (nil: none), each the Strategy field it fills:
	// Uploads, Exports and Export, VariantFits, PreferredVariant, RunsFile
	// and RunFile (run with the decoded config), SeedExperiments, Metrics
	// and Mutate.
	UploadList []Upload
	ExportList []ExportFormat
	Export     func(w *Workload, format string) ([]byte, error)
	Fits       func(format, variant string) error
	Prefers    func(format string) string
	FileRuns   func(name, variant string) bool
	FileRun    func(ctx context.Context, name string, r io.Reader, variant string, cfg C, progress Progress) (*report.Report, error)
	Seeds      func() []SeedExperiment
	Metrics    []report.Metric
	Mutate     func(ctx context.Context, w *Workload, preset string, params Params, rng *rand.Rand) (*Workload, string, error)
}

// PresetDef is a preset with its generator.
type PresetDef struct {
	Preset
	generate func(ctx context.Context, params Params, seed int64) (*Workload, error)
	estimate func(params Params) (Estimate, error)
}

// Estimate is what one Generate of a preset would store, told from its
// parameters alone, before anything is generated (Strategy.EstimateGenerate).
type Estimate struct {
	// Bytes bounds the stored workload: its canonical data and preview
	// (an upper estimate, within a small factor of the real size).
	Bytes int64
	// Field is the parameter that sizes it most ("duration_h"): what a
	// refusal names.
	Field string
}

// NewPreset makes a preset whose parameters are the typed config G
// (declared by its pointer P, defaults from defaults), whose generator
// receives it decoded, and whose size (what one Generate stores, see
// Estimate) size tells from it without generating.
func NewPreset[G any, P interface {
	*G
	Declarer
}](name, doc string, defaults func() G, gen func(ctx context.Context, cfg G, seed int64) (*Workload, error),
	size func(cfg G) Estimate) PresetDef {
	g := defaults()
	decode := func(params Params) (G, error) {
		cfg := defaults()
		_, err := ResolveChecked(P(&cfg), params) // every problem at once, the preset's rules too
		return cfg, err
	}
	return PresetDef{
		Preset: Preset{Name: name, Doc: doc, Params: specsOf(P(&g))},
		generate: func(ctx context.Context, params Params, seed int64) (*Workload, error) {
			cfg, err := decode(params)
			if err != nil {
				return nil, err
			}
			return gen(ctx, cfg, seed)
		},
		estimate: func(params Params) (Estimate, error) {
			cfg, err := decode(params)
			if err != nil {
				return Estimate{}, err
			}
			return size(cfg), nil
		},
	}
}

// ReproDef is a seed experiment with its parameters.
type ReproDef struct {
	params func() []ParamSpec
	run    func(ctx context.Context, params Params, progress Progress) (*report.Report, error)
}

// NewReproduce makes a seed experiment whose parameters are the typed
// config R and which receives it decoded.
func NewReproduce[R any, P interface {
	*R
	Declarer
}](defaults func() R, run func(ctx context.Context, cfg R, progress Progress) (*report.Report, error)) ReproDef {
	return ReproDef{
		params: func() []ParamSpec { r := defaults(); return specsOf(P(&r)) },
		run: func(ctx context.Context, params Params, progress Progress) (*report.Report, error) {
			cfg := defaults()
			if _, err := ResolveConfig(P(&cfg), params); err != nil {
				return nil, err
			}
			return run(ctx, cfg, progress)
		},
	}
}

// Strategy builds the family's Strategy: variant resolution, progress
// defaulting, decoding params into the typed config and keeping the
// context's own error wrap the family's own functions; an optional part
// the family leaves nil stays nil.
func (f *Def[C, P]) Strategy() *Strategy {
	c := f.Config()
	info := f.Info
	info.Name = f.Name
	s := &Strategy{
		Info:             info,
		Variants:         slices.Clip(slices.Clone(f.VariantList)),
		Params:           slices.Clip(specsOf(P(&c))),
		Presets:          make([]Preset, len(f.PresetList)),
		Uploads:          slices.Clip(slices.Clone(f.UploadList)),
		Exports:          slices.Clip(slices.Clone(f.ExportList)),
		Metrics:          slices.Clip(slices.Clone(f.Metrics)),
		Export:           f.Export,
		VariantFits:      f.Fits,
		PreferredVariant: f.Prefers,
		SeedExperiments:  f.Seeds,
		Mutate:           f.Mutate,
	}
	for i, p := range f.PresetList {
		s.Presets[i] = p.Preset
	}
	if f.Repro.params != nil {
		s.ReproduceParams = slices.Clip(f.Repro.params())
	}
	decode := func(variant string, params Params) (string, C, error) {
		cfg := f.Config()
		v, err := s.ResolveVariant(variant)
		if err != nil {
			return "", cfg, err
		}
		_, err = ResolveConfig(P(&cfg), params)
		return v, cfg, err
	}
	// Run resolves the variant and decodes params into the family's
	// config, then runs it. A stop through ctx returns ctx's own error;
	// any other error without a kind is Internal.
	s.Run = func(ctx context.Context, w *Workload, variant string, params Params, progress Progress) (*report.Report, error) {
		v, cfg, err := decode(variant, params)
		if err != nil {
			return nil, err
		}
		rep, err := f.Run(ctx, w, v, cfg, orNone(progress))
		return rep, wrap(ctx, errs.Internal, err)
	}
	if f.FileRuns != nil && f.FileRun != nil {
		s.RunsFile = f.FileRuns
		s.RunFile = func(ctx context.Context, name string, r io.Reader, variant string, params Params, progress Progress) (*report.Report, error) {
			v, err := s.ResolveVariant(variant)
			if err != nil {
				return nil, err
			}
			if !f.FileRuns(name, v) {
				return nil, errs.Invalidf("file", "%s %s does not run straight from a file: parse the workload first", f.Name, v)
			}
			v, cfg, err := decode(v, params)
			if err != nil {
				return nil, err
			}
			rep, err := f.FileRun(ctx, name, r, v, cfg, orNone(progress))
			return rep, wrap(ctx, errs.Invalid, err)
		}
	}
	s.ParseWorkload = func(ctx context.Context, files []File) (*Workload, error) {
		if f.Parse == nil {
			return nil, errs.Invalidf("file", "%s workloads cannot be uploaded", f.Name)
		}
		w, err := f.Parse(ctx, files)
		return w, wrap(ctx, errs.Invalid, err)
	}
	s.Generate = func(ctx context.Context, preset string, params Params, seed int64) (*Workload, error) {
		p, err := f.preset(preset)
		if err != nil {
			return nil, err
		}
		w, err := p.generate(ctx, params, seed)
		return w, wrap(ctx, errs.Internal, err)
	}
	s.EstimateGenerate = func(preset string, params Params) (Estimate, error) {
		p, err := f.preset(preset)
		if err != nil {
			return Estimate{}, err
		}
		return p.estimate(params)
	}
	s.Reproduce = func(ctx context.Context, params Params, progress Progress) (*report.Report, error) {
		if f.Repro.run == nil {
			return nil, errs.New(errs.NotFound, "strategy", "%s has no seed experiment", f.Name)
		}
		rep, err := f.Repro.run(ctx, params, orNone(progress))
		return rep, wrap(ctx, errs.Internal, err)
	}
	return s
}

func orNone(progress Progress) Progress {
	if progress == nil {
		return NoProgress
	}
	return progress
}

// preset is the preset named name, or errs.Invalid naming the known ones.
func (f *Def[C, P]) preset(name string) (*PresetDef, error) {
	known := make([]string, 0, len(f.PresetList))
	for i, p := range f.PresetList {
		if p.Name == name {
			return &f.PresetList[i], nil
		}
		known = append(known, p.Name)
	}
	return nil, presetError("preset", f.Name, name, known)
}

// wrap keeps the context's own error when ctx stopped the call, and gives
// any other error without a kind the kind k (Invalid for a reader: the
// file is at fault; Internal otherwise).
func wrap(ctx context.Context, k errs.Kind, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	return errs.Wrap(k, err)
}

// CheckNames checks a family's parameter names, which the forms, the API
// and the CLI all use: each is lower-case letters, digits and '_',
// starting with a letter; and no run parameter shares its name with a
// parameter of a preset, since the CLI's --param name=value goes to the
// preset when it has that name and would never reach the run. The
// registry calls it for every family at start-up.
func (s *Strategy) CheckNames() error {
	name := s.Info.Name
	run := map[string]bool{}
	var problems []error
	check := func(where string, specs []ParamSpec) {
		for _, sp := range specs {
			if !validName(sp.Name) {
				problems = append(problems, fmt.Errorf("%s: %s parameter %q: a name is lower-case letters, digits and '_', starting with a letter", name, where, sp.Name))
			}
		}
	}
	check("run", s.Params)
	for _, sp := range s.Params {
		run[sp.Name] = true
	}
	for _, p := range s.Presets {
		check("preset "+p.Name, p.Params)
		for _, sp := range p.Params {
			if run[sp.Name] {
				problems = append(problems, fmt.Errorf("%s: preset %s parameter %q is also a run parameter: `schedlab run --preset %s --param %s=…` could not reach the run", name, p.Name, sp.Name, p.Name, sp.Name))
			}
		}
	}
	check("reproduce", s.ReproduceParams)
	return errors.Join(problems...)
}

func validName(n string) bool {
	if n == "" || n[0] < 'a' || n[0] > 'z' {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
