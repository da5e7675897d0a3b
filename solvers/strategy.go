package solvers

import (
	"context"
	"io"
	"math/rand/v2"
	"strings"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers/sweep"
)

// Strategy is one family of scheduling algorithms from a seed paper: the
// contract between the families and the rest of schedlab, one concrete
// type. What every family has is a field that is always set; an optional
// capability is a func field, nil when the family lacks it. A family
// builds its Strategy with Def (Def.Strategy), which does the wrapping
// every family needs; a test double is a value of this type. The slices
// are the family's own: read them, never write them. A Strategy is safe for
// concurrent use: all state of a run lives in the call.
type Strategy struct {
	// Info names the family and says where it comes from.
	Info Info
	// Variants lists the algorithms a run can choose; the first is the default.
	Variants []Variant
	// Params lists the run parameters with their defaults and limits.
	Params []ParamSpec
	// Presets lists the workload generators.
	Presets []Preset
	// ReproduceParams lists the parameters of the seed experiment (e.g.
	// how many instances).
	ReproduceParams []ParamSpec
	// Uploads lists the named files a workload can come as (EAPM: etc,
	// apc, users); the upload form shows one input per Upload besides the
	// native JSON file input ("file"). Nil: the native file only.
	Uploads []Upload
	// Exports lists the other tools' formats Export writes (DCOP: pyDCOP
	// YAML, FRODO XCSP), so the same problem can be solved there.
	Exports []ExportFormat
	// Metrics declares the metrics the family's reports carry (their
	// values unused): each metric's unit, direction, kind, bounds and
	// variants, the primary result first. Pages take a metric's direction
	// from here, never from whichever report arrived first (a
	// critical-works run that stopped carries no makespan). Nil: read
	// from the reports.
	Metrics []report.Metric

	// ParseWorkload reads an uploaded workload: one native JSON file or the
	// family's own file set (e.g. EAPM's etc.csv, apc.csv, users.csv). Errors
	// are errs.Invalid naming file, line and field; nothing is half-read.
	ParseWorkload func(ctx context.Context, files []File) (*Workload, error)
	// Generate builds a workload from a preset with params (checked against
	// the preset's ParamSpecs: a Def decodes them into its typed config).
	Generate func(ctx context.Context, preset string, params Params, seed int64) (*Workload, error)
	// Run schedules w (its canonical Data) with a variant ("": the first)
	// and params, which it checks against Params and decodes (a Def does
	// this once, into the family's typed config); progress may be nil. It
	// honours ctx (a cancel or the run's time limit) and reports progress.
	Run func(ctx context.Context, w *Workload, variant string, params Params, progress Progress) (*report.Report, error)
	// Reproduce runs the seed experiment and returns our results beside
	// the published ones.
	Reproduce func(ctx context.Context, params Params, progress Progress) (*report.Report, error)

	// EstimateGenerate, optional, tells from a preset's parameters alone
	// and before generating anything what one Generate would store (every
	// family built on Def has it: NewPreset takes the size). An experiment
	// checks its budget of stored bytes with it before a workload is
	// generated. An unknown preset or a bad parameter is errs.Invalid, as
	// Generate says.
	EstimateGenerate func(preset string, params Params) (Estimate, error)
	// VariantFits, optional, reports from the workload's Format alone
	// whether variant can run on it: nil, or an error naming "variant"
	// that says why not (cyclic's batch needs an SWF trace). A run of an
	// unfit variant is refused before it is queued, and "run every
	// variant" runs only the ones that fit. Nil: every variant fits.
	VariantFits func(format, variant string) error
	// PreferredVariant, optional, is the variant a run form starts from
	// on a workload of format (see DefaultVariant).
	PreferredVariant func(format string) string
	// RunsFile and RunFile, optional, run a variant straight from one
	// workload file read as a stream, without building the stored
	// workload (its canonical JSON and its preview): the command line's
	// path (schedlab run --workload FILE), where nothing is stored.
	// RunsFile says, from the file's name and the variant alone, whether
	// RunFile takes them; RunFile returns the report Run would return on
	// ParseWorkload's workload of the same file, refusing the file under
	// the same limits as it reads. Use RunsFileOf to ask.
	RunsFile func(name, variant string) bool
	RunFile  func(ctx context.Context, name string, r io.Reader, variant string, params Params, progress Progress) (*report.Report, error)
	// Export, optional, writes w (its canonical Data) in one of Exports;
	// an unknown format is errs.Invalid on field "format".
	Export func(w *Workload, format string) ([]byte, error)
	// SeedExperiments, optional, lists the seed paper's figures that are
	// sweeps.
	SeedExperiments func() []SeedExperiment
	// Mutate, optional, returns a neighbour of w (from preset with
	// params) and names the change; w itself, with a note, when no change
	// applies (an adversarial search anneals only over families that
	// have it).
	Mutate func(ctx context.Context, w *Workload, preset string, params Params, rng *rand.Rand) (*Workload, string, error)
}

// RunsFileOf says whether s runs variant straight from a file named name.
func (s *Strategy) RunsFileOf(name, variant string) bool {
	return s.RunsFile != nil && s.RunFile != nil && s.RunsFile(name, variant)
}

// Progress is told how far a run has come: done of total units, and a short
// note ("user 120 of 2000"). It must be cheap; callers may call it often.
type Progress func(done, total int, note string)

// NoProgress discards progress.
func NoProgress(int, int, string) {}

// Info describes a strategy family.
type Info struct {
	Name    string `json:"name"`    // "eapm": the public identifier
	Title   string `json:"title"`   // "EAPM: online energy-aware profit maximization"
	Summary string `json:"summary"` // one sentence: what it schedules
	Paper   string `json:"paper"`   // the seed paper's authors, title, year
	Seed    string `json:"seed"`    // seed file name
}

// Variant is one algorithm of a family.
type Variant struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
	// Reference marks a variant that computes a bound or an optimum, not
	// a method to choose (DCOP's exact optimum, EAPM's offline LP bound):
	// a compare draws its values as a reference, never ranks it or marks
	// it best.
	Reference bool `json:"reference,omitempty"`
}

// Spec is v itself. A family keeps its variants as one table of rows that
// embed Variant beside what only the family knows of each (how it runs,
// what it is: exact, the paper's or ours, which metrics mean something
// for it); Spec, promoted to the row, lets VariantsOf, LookupVariant and
// VariantNames read such a table, so a family dispatches by looking its
// row up, never by comparing names.
func (v Variant) Spec() Variant { return v }

// VariantRow is a row of a family's variant table (see Variant.Spec).
type VariantRow interface{ Spec() Variant }

// VariantsOf is the public part of a variant table (Def.VariantList).
func VariantsOf[R VariantRow](table []R) []Variant {
	out := make([]Variant, len(table))
	for i, r := range table {
		out[i] = r.Spec()
	}
	return out
}

// LookupVariant is the row of table named name, the zero row (no Name)
// when none is.
func LookupVariant[R VariantRow](table []R, name string) (none R) {
	for _, r := range table {
		if r.Spec().Name == name {
			return r
		}
	}
	return none
}

// VariantNames names the rows of table for which keep holds, in the
// table's order: the variants a metric is meaningful for
// (Metric.Variants) or a parameter applies to.
func VariantNames[R VariantRow](table []R, keep func(R) bool) []string {
	var out []string
	for _, r := range table {
		if keep(r) {
			out = append(out, r.Spec().Name)
		}
	}
	return out
}

// Preset is a workload generator with its parameters.
type Preset struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Params []ParamSpec `json:"params"`
}

// FindPreset is st's preset called name: the one lookup of a preset by
// name. Not found, it is errs.Invalid on field, naming the family and the
// known presets (and saying "missing" for an empty name).
func (st *Strategy) FindPreset(name, field string) (Preset, error) {
	ps := st.Presets
	known := make([]string, len(ps))
	for i, p := range ps {
		if p.Name == name {
			return p, nil
		}
		known[i] = p.Name
	}
	return Preset{}, presetError(field, st.Info.Name, name, known)
}

func presetError(field, family, name string, known []string) error {
	if name == "" {
		return errs.Invalidf(field, "missing: choose a preset of %s (%s)", family, strings.Join(known, ", "))
	}
	return errs.Invalidf(field, "unknown preset %q for %s (known: %s)", name, family, strings.Join(known, ", "))
}

// File is one uploaded file. Field is the form field or role it came in
// as ("etc", "apc", "users", "file"), empty when only the name is known
// (the CLI); Name is the user's own file name, used in error messages.
type File struct {
	Field string
	Name  string
	Data  []byte
}

// Workload is a parsed instance. Data is its canonical native JSON: what the
// store keeps and what Run reads back, so a run never depends on the
// uploaded file's format.
type Workload struct {
	Name    string         `json:"name"`
	Format  string         `json:"format"`  // what it was read from: "json", "csv", "preset"
	Summary string         `json:"summary"` // one line for lists: "30 users, 9 machine types, 17,112 tasks"
	Data    []byte         `json:"-"`
	Preview *report.Report `json:"preview,omitempty"` // heat maps, tables, graphs shown before any run

	// Decoded, when set, keeps what a family decodes from Data, so that
	// the runs given this same *Workload (a sweep runs one workload tens
	// of times) decode it once; nil, every run decodes. The runner and
	// the worker processes set it on the workloads they cache. A family
	// that uses it treats the decoded value as read-only (see Memo).
	Decoded *Memo `json:"-"`
}

// DefaultVariant is the variant a run form starts from on a workload of
// the given format: the strategy's preference (PreferredVariant) if it
// fits, else the first variant that fits, else "".
func (s *Strategy) DefaultVariant(format string) string {
	fits := s.VariantsFor(format)
	if s.PreferredVariant != nil {
		if want := s.PreferredVariant(format); want != "" && LookupVariant(fits, want).Name != "" {
			return want
		}
	}
	if len(fits) > 0 {
		return fits[0].Name
	}
	return ""
}

// VariantsFor lists the variants of s that can run on a workload of the
// given format, in s's order.
func (s *Strategy) VariantsFor(format string) []Variant {
	if s.VariantFits == nil {
		return s.Variants
	}
	var out []Variant
	for _, v := range s.Variants {
		if s.VariantFits(format, v.Name) == nil {
			out = append(out, v)
		}
	}
	return out
}

// Upload is one named file input of an upload form.
type Upload struct {
	Field  string `json:"field"`  // form field and solvers.File.Field: "etc"
	Label  string `json:"label"`  // "ETC matrix (CSV, s)"
	Accept string `json:"accept"` // ".csv,text/csv"
	Doc    string `json:"doc"`
}

// ExportFormat is one format Strategy.Export writes.
type ExportFormat struct {
	Name  string `json:"name"`  // "pydcop": the URL and CLI name
	Label string `json:"label"` // "pyDCOP YAML"
	Ext   string `json:"ext"`   // ".yaml"
	MIME  string `json:"mime"`  // "application/yaml"
}

// ResolveVariant returns the variant a run uses: name itself if s has it,
// the first variant when name is empty, errs.Invalid on field "variant"
// otherwise.
func (s *Strategy) ResolveVariant(name string) (string, error) {
	vs := s.Variants
	if name == "" {
		if len(vs) == 0 {
			return "", nil
		}
		return vs[0].Name, nil
	}
	if LookupVariant(vs, name).Name != "" {
		return name, nil
	}
	known := VariantNames(vs, func(Variant) bool { return true })
	return "", errs.Invalidf("variant", "unknown variant %q of %s (known: %s)", name, s.Info.Name, strings.Join(known, ", "))
}

// ExportWorkload writes workload w of st in another tool's format (the
// download button and `schedlab export` alike): errs.NotFound when st has
// no export formats, errs.Invalid on field "format" for an unknown one.
func (st *Strategy) ExportWorkload(w *Workload, format string) ([]byte, ExportFormat, error) {
	if st.Export == nil || len(st.Exports) == 0 {
		return nil, ExportFormat{}, errs.New(errs.NotFound, "format", "%s workloads have no export formats", st.Info.Name)
	}
	var names []string
	for _, f := range st.Exports {
		if f.Name == format {
			b, err := st.Export(w, format)
			return b, f, err
		}
		names = append(names, f.Name)
	}
	return nil, ExportFormat{}, errs.Invalidf("format", "unknown export format %q (known: %s)", format, strings.Join(names, ", "))
}

// SeedExperiment is a figure or table of a family's seed paper that is a
// sweep, as an experiment definition with the paper's numbers attached as
// references, so a user can open it, change a setting and run it again.
type SeedExperiment struct {
	Name       string           `json:"name"`  // "table1": the URL name
	Title      string           `json:"title"` // "Table 1: objective against γ"
	Definition sweep.Definition `json:"definition"`
}
