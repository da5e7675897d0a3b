package solvers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"schedlab/errs"
)

// Def is a strategy family defined by its parts: what only the family knows (its
// variants, typed configs, readers, generators, the run itself). Its
// Strategy method returns the one shared adapter that does the wrapping
// every family needs: variant resolution, progress defaulting, decoding
// params into the typed config, keeping the context's own error, and the
// optional interfaces (Uploader, Exporter, VariantFilter), so a family is
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
	Run func(ctx context.Context, w *Workload, variant string, cfg C, progress Progress) (*Report, error)
	// Parse reads an upload (see Strategy.ParseWorkload).
	Parse func(ctx context.Context, files []File) (*Workload, error)
	// PresetList lists the generators (NewPreset).
	PresetList []PresetDef
	// Repro is the seed experiment (NewReproduce).
	Repro ReproDef

	// UploadList, ExportList with Export, and Fits are optional: nil means
	// no file set, no export formats, every variant fits every workload.
	UploadList []Upload
	ExportList []ExportFormat
	Export     func(w *Workload, format string) ([]byte, error)
	Fits       func(format, variant string) error
	// Prefers is optional: the variant a run form starts from on a
	// workload of format ("" or nil: the first that fits). cyclic starts
	// an SWF trace on batch, the simulation a trace is uploaded for.
	Prefers func(format string) string
	// FileRuns and FileRun are optional: a variant that runs straight from
	// a streamed file (see FileRunner); nil means none does.
	FileRuns func(name, variant string) bool
	FileRun  func(ctx context.Context, name string, r io.Reader, variant string, cfg C, progress Progress) (*Report, error)
	// Seeds lists the seed paper's sweeps as experiment definitions.
	Seeds func() []SeedExperiment
	// Metrics is optional: the metrics the family's reports carry, as
	// declarations (their values unused), the primary result first
	// (MetricDeclarer). A family without them is read from its reports.
	Metrics []Metric
	// Mutate is optional: one random change of an instance that came
	// from preset with params (an adversarial search's move, Mutator).
	Mutate func(ctx context.Context, w *Workload, preset string, params Params, rng *rand.Rand) (*Workload, string, error)
}

// Strategy returns the family as a Strategy.
func (f *Def[C, P]) Strategy() Strategy { return &adapter[C, P]{f: f} }

// PresetDef is a preset with its generator.
type PresetDef struct {
	Preset
	generate func(ctx context.Context, params Params, seed int64) (*Workload, error)
	estimate func(params Params) (Estimate, error)
}

// Estimate is what one Generate of a preset would store, told from its
// parameters alone, before anything is generated (GenerateEstimator).
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
		Preset: Preset{Name: name, Doc: doc, Params: SpecsOf(P(&g))},
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
	run    func(ctx context.Context, params Params, progress Progress) (*Report, error)
}

// NewReproduce makes a seed experiment whose parameters are the typed
// config R and which receives it decoded.
func NewReproduce[R any, P interface {
	*R
	Declarer
}](defaults func() R, run func(ctx context.Context, cfg R, progress Progress) (*Report, error)) ReproDef {
	return ReproDef{
		params: func() []ParamSpec { r := defaults(); return SpecsOf(P(&r)) },
		run: func(ctx context.Context, params Params, progress Progress) (*Report, error) {
			cfg := defaults()
			if _, err := ResolveConfig(P(&cfg), params); err != nil {
				return nil, err
			}
			return run(ctx, cfg, progress)
		},
	}
}

// adapter implements Strategy and the optional interfaces for a Family.
type adapter[C any, P interface {
	*C
	Declarer
}] struct {
	f *Def[C, P]
}

var (
	_ Strategy      = (*adapter[declNone, *declNone])(nil)
	_ Uploader      = (*adapter[declNone, *declNone])(nil)
	_ Exporter      = (*adapter[declNone, *declNone])(nil)
	_ VariantFilter = (*adapter[declNone, *declNone])(nil)
	_ FileRunner    = (*adapter[declNone, *declNone])(nil)

	_ GenerateEstimator = (*adapter[declNone, *declNone])(nil)
)

// declNone is an empty config, for the compile-time checks above.
type declNone struct{}

func (*declNone) Declare(*ParamSet) {}

func (a *adapter[C, P]) Info() Info {
	info := a.f.Info
	info.Name = a.f.Name
	return info
}

func (a *adapter[C, P]) Variants() []Variant { return append([]Variant(nil), a.f.VariantList...) }

func (a *adapter[C, P]) Params() []ParamSpec {
	c := a.f.Config()
	return SpecsOf(P(&c))
}

func (a *adapter[C, P]) Presets() []Preset {
	out := make([]Preset, len(a.f.PresetList))
	for i, p := range a.f.PresetList {
		out[i] = p.Preset
	}
	return out
}

func (a *adapter[C, P]) ReproduceParams() []ParamSpec {
	if a.f.Repro.params == nil {
		return nil
	}
	return a.f.Repro.params()
}

// Run resolves the variant and decodes params into the family's config,
// then runs it. A stop through ctx returns ctx's own error; any other
// error without a kind is Internal.
func (a *adapter[C, P]) Run(ctx context.Context, w *Workload, variant string, params Params, progress Progress) (*Report, error) {
	v, err := ResolveVariant(a, variant)
	if err != nil {
		return nil, err
	}
	if progress == nil {
		progress = NoProgress
	}
	cfg := a.f.Config()
	if _, err := ResolveConfig(P(&cfg), params); err != nil {
		return nil, err
	}
	rep, err := a.f.Run(ctx, w, v, cfg, progress)
	return rep, wrap(ctx, errs.Internal, err)
}

// RunsFile says whether the family runs variant straight from a file
// named name (FileRunner).
func (a *adapter[C, P]) RunsFile(name, variant string) bool {
	return a.f.FileRuns != nil && a.f.FileRun != nil && a.f.FileRuns(name, variant)
}

// RunFile is Run straight from a streamed file (FileRunner), with the
// variant and params resolved as Run resolves them.
func (a *adapter[C, P]) RunFile(ctx context.Context, name string, r io.Reader, variant string, params Params, progress Progress) (*Report, error) {
	v, err := ResolveVariant(a, variant)
	if err != nil {
		return nil, err
	}
	if !a.RunsFile(name, v) {
		return nil, errs.Invalidf("file", "%s %s does not run straight from a file: parse the workload first", a.f.Name, v)
	}
	if progress == nil {
		progress = NoProgress
	}
	cfg := a.f.Config()
	if _, err := ResolveConfig(P(&cfg), params); err != nil {
		return nil, err
	}
	rep, err := a.f.FileRun(ctx, name, r, v, cfg, progress)
	return rep, wrap(ctx, errs.Invalid, err)
}

func (a *adapter[C, P]) ParseWorkload(ctx context.Context, files []File) (*Workload, error) {
	if a.f.Parse == nil {
		return nil, errs.Invalidf("file", "%s workloads cannot be uploaded", a.f.Name)
	}
	w, err := a.f.Parse(ctx, files)
	return w, wrap(ctx, errs.Invalid, err)
}

func (a *adapter[C, P]) Generate(ctx context.Context, preset string, params Params, seed int64) (*Workload, error) {
	p, err := a.preset(preset)
	if err != nil {
		return nil, err
	}
	w, err := p.generate(ctx, params, seed)
	return w, wrap(ctx, errs.Internal, err)
}

// EstimateGenerate tells what Generate(preset, params, any seed) would
// store, without generating (GenerateEstimator).
func (a *adapter[C, P]) EstimateGenerate(preset string, params Params) (Estimate, error) {
	p, err := a.preset(preset)
	if err != nil {
		return Estimate{}, err
	}
	return p.estimate(params)
}

// preset is the preset named name, or errs.Invalid naming the known ones.
func (a *adapter[C, P]) preset(name string) (*PresetDef, error) {
	known := make([]string, 0, len(a.f.PresetList))
	for i, p := range a.f.PresetList {
		if p.Name == name {
			return &a.f.PresetList[i], nil
		}
		known = append(known, p.Name)
	}
	return nil, presetError("preset", a.f.Name, name, known)
}

func (a *adapter[C, P]) Reproduce(ctx context.Context, params Params, progress Progress) (*Report, error) {
	if a.f.Repro.run == nil {
		return nil, errs.New(errs.NotFound, "strategy", "%s has no seed experiment", a.f.Name)
	}
	if progress == nil {
		progress = NoProgress
	}
	rep, err := a.f.Repro.run(ctx, params, progress)
	return rep, wrap(ctx, errs.Internal, err)
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

func (a *adapter[C, P]) Uploads() []Upload { return append([]Upload(nil), a.f.UploadList...) }

func (a *adapter[C, P]) Exports() []ExportFormat {
	return append([]ExportFormat(nil), a.f.ExportList...)
}

func (a *adapter[C, P]) Export(w *Workload, format string) ([]byte, error) {
	if a.f.Export == nil {
		return nil, errs.Invalidf("format", "%s workloads have no export formats", a.f.Name)
	}
	return a.f.Export(w, format)
}

// DeclaredMetrics is MetricDeclarer's: Def.Metrics (a copy).
func (a *adapter[C, P]) DeclaredMetrics() []Metric { return append([]Metric(nil), a.f.Metrics...) }

// Mutator is implemented by every family built on Def; Mutates says
// whether it has instance mutations (an adversarial search anneals only
// over those).
type Mutator interface {
	Mutates() bool
	// Mutate returns a neighbour of w (from preset with params) and names
	// the change; w itself, with a note, when no change applies.
	Mutate(ctx context.Context, w *Workload, preset string, params Params, rng *rand.Rand) (*Workload, string, error)
}

func (a *adapter[C, P]) Mutates() bool { return a.f.Mutate != nil }

func (a *adapter[C, P]) Mutate(ctx context.Context, w *Workload, preset string, params Params, rng *rand.Rand) (*Workload, string, error) {
	if a.f.Mutate == nil {
		return nil, "", errs.Invalidf("method", "%s workloads have no mutations: search its generator's parameters (method cmaes)", a.f.Name)
	}
	return a.f.Mutate(ctx, w, preset, params, rng)
}

func (a *adapter[C, P]) SeedExperiments() []SeedExperiment {
	if a.f.Seeds == nil {
		return nil
	}
	return a.f.Seeds()
}

func (a *adapter[C, P]) VariantFits(format, variant string) error {
	if a.f.Fits == nil {
		return nil
	}
	return a.f.Fits(format, variant)
}

func (a *adapter[C, P]) PreferredVariant(format string) string {
	if a.f.Prefers == nil {
		return ""
	}
	return a.f.Prefers(format)
}

// CheckNames checks a family's parameter names, which the forms, the API
// and the CLI all use: each is lower-case letters, digits and '_',
// starting with a letter; and no run parameter shares its name with a
// parameter of a preset, since the CLI's --param name=value goes to the
// preset when it has that name and would never reach the run. The
// registry calls it for every family at start-up.
func CheckNames(s Strategy) error {
	name := s.Info().Name
	run := map[string]bool{}
	var problems []error
	check := func(where string, specs []ParamSpec) {
		for _, sp := range specs {
			if !validName(sp.Name) {
				problems = append(problems, fmt.Errorf("%s: %s parameter %q: a name is lower-case letters, digits and '_', starting with a letter", name, where, sp.Name))
			}
		}
	}
	check("run", s.Params())
	for _, sp := range s.Params() {
		run[sp.Name] = true
	}
	for _, p := range s.Presets() {
		check("preset "+p.Name, p.Params)
		for _, sp := range p.Params {
			if run[sp.Name] {
				problems = append(problems, fmt.Errorf("%s: preset %s parameter %q is also a run parameter: `schedlab run --preset %s --param %s=…` could not reach the run", name, p.Name, sp.Name, p.Name, sp.Name))
			}
		}
	}
	check("reproduce", s.ReproduceParams())
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
