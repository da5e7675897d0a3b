package views

import (
	"time"

	"schedlab/experiments"
	"schedlab/report"
	"schedlab/solvers/sweep"

	"github.com/a-h/templ"

	"schedlab/compare"
	"schedlab/solvers"
	"schedlab/views/charts"
)

// StrategyView is what pages need to know of one built strategy.
type StrategyView struct {
	Info     solvers.Info
	Variants []solvers.Variant
	Params   []solvers.ParamSpec
	Presets  []solvers.Preset
	Uploads  []solvers.Upload
	Exports  []solvers.ExportFormat
}

// HomeProps feeds the home page.
type HomeProps struct {
	Families []solvers.Info // a card each
	Recent   []Run
	Names    map[string]string // workload id → name, for the recent runs
}

// WorkloadsProps feeds /workloads.
type WorkloadsProps struct {
	Strategies []StrategyView
	Workloads  []Workload // one page, newest first
	Next       string     // the URL of the next (older) page; empty on the last
	Selected   string     // strategy whose forms are shown
	// Listed is the family the stored workloads are filtered by (the
	// chosen one, ?strategy=); empty: every family.
	Listed string
	Err    *FormError
	// UploadName is the Name typed in an upload form sent back with its
	// problem, shown in it again (a browser keeps no file input's choice).
	UploadName string
	// Gen is a generate form sent back with its problems: its preset's
	// form shows the values as typed and each problem beside its field.
	Gen *GenForm
}

// GenForm is a submitted generate form: the preset, the values as typed
// (parameters by name, and the seed and name) and every problem.
type GenForm struct {
	Preset     string
	Values     map[string]string
	Seed, Name string
	Errs       []FormError
}

// FormError is a failed submission shown above a form.
type FormError struct {
	Message string
	Field   string
}

// WorkloadProps feeds /workloads/:id.
type WorkloadProps struct {
	Workload Workload
	Preview  *report.Report
	Strategy StrategyView
	Runs     []Run
	// Existing: the user just uploaded a file identical to this stored
	// workload (?existing=1), which was not stored again.
	Existing bool
	// FoundBy is the adversarial search whose best instance this is (nil
	// for any other workload): its provenance.
	FoundBy *FoundBy
}

// FoundBy is the search that found a workload: its id, what it compared,
// its seed and the commit of the build that ran it.
type FoundBy struct {
	ID, A, B, Metric, Method, Score, Commit string
	Seed                                    int64
}

// NewRunProps feeds /runs/new.
type NewRunProps struct {
	Strategies []StrategyView
	Strategy   StrategyView // the chosen one
	Workloads  []Workload
	WorkloadID string
	// Format is the chosen workload's (or the first listed one's) format:
	// the form shows the parameters that apply to it (ParamSpec.Formats).
	Format  string
	Variant string
	Values  map[string]string // parameter values to prefill
	Errs    []FormError       // every problem of the last submission
}

// RunProps feeds /runs/:id.
type RunProps struct {
	Run      Run
	Workload *Workload
	Strategy StrategyView
	Report   *report.Report
	// ReportPart, when set, is the report already rendered (ReportView
	// from a cache); it is drawn instead of Report.
	ReportPart templ.Component
	Progress   float64 // 0..100
	Cite       Cite
}

// RunsProps feeds /runs.
type RunsProps struct {
	Runs  []Run             // one page, in the filter's order
	Names map[string]string // workload id → name, for these runs
	Next  string            // the URL of the next page; empty on the last
	// Filter is the list's filter as asked (the query parameters), shown
	// in the filter form; Strategies are the choices of its family field.
	Filter     RunsFilter
	Strategies []string
	// Values are the runs' values of Filter.Metric (run id → value), shown
	// in a column when a metric is chosen.
	Values map[string]float64
	Errs   []FormError // bad filter values
	// Selected is the run others are being chosen to compare with
	// (?select=ID, from its page's "Compare with…"): ticked and marked.
	Selected string
	// Cols are the parameter and metric columns chosen by ?cols=
	// (param:policy,metric:makespan), shown after the run's own.
	Cols []RunColumn
	// NoResult are the done runs that gave no result their family
	// declares for their variant (report.Report.Missing), run id → the
	// reason: shown "no result" beside their status.
	NoResult map[string]string
}

// RunsFilter is the filter of /runs as its query parameters spell it.
type RunsFilter struct {
	Strategy, Variant, Workload, Tag string
	Params                           []string // "name:value"
	Metric, Min, Max, Sort           string
	Cols                             string // ?cols= as asked
}

// CompareProps feeds /compare: Runs in the order asked.
type CompareProps struct {
	Runs []Run
	// Labels name the runs by what differs between them
	// (compare.Labels): columns, legends, bars and Gantt panels.
	Labels []string
	// Fields are the runs' family, workload, variant, parameters, seed
	// and resources, those that differ first.
	Fields []compare.Field
	// Reference marks the runs whose variant is a bound or an optimum:
	// a column marked reference, never best.
	Reference []bool
	Metrics   []compare.Row
	// Ranked: the best value of each result metric is marked (runs of one
	// family on equal terms); Notes say why not, or what else to keep in
	// mind.
	Ranked bool
	Notes  []string
	// Bars is one bar chart per result metric, Costs one per cost metric
	// (not ranked), drawn beside the table (runs of one family).
	Bars, Costs []charts.MetricBars
	Plots       []report.Plot
	// Time is the one time frame the plots and Gantts are drawn in, when
	// the runs share one (charts.JoinFrames); the page states it.
	Time *report.TimeFrame
	// Gantts are each Gantt title's panels, one per run, on the same lanes
	// and time span.
	Gantts []charts.Aligned
	Tables []report.Table
}

// ReproCard is one seed experiment on /reproduce.
type ReproCard struct {
	Family solvers.Info
	Params []solvers.ParamSpec
	Latest *Run // the newest reproduce run, whatever its status
	Shown  *Run // the newest finished one, whose Report is shown
	Report *report.Report
	// Sweeps are the seed's figures that are sweeps, each opened as an
	// experiment definition with the paper's numbers as references.
	Sweeps []solvers.SeedExperiment
}

// ReproduceProps feeds /reproduce.
type ReproduceProps struct {
	Cards []ReproCard
}

// Run is a run as the pages show it; handlers fill it from the store.
type Run struct {
	// Changed is the run's parameters that differ from the defaults
	// (ChangedParams), filled for lists.
	Changed    string
	ID         string
	Kind       string // "run" or "reproduce"
	WorkloadID string
	Strategy   string
	Variant    string
	Params     map[string]string // resolved
	Seed       int64
	Status     string

	ProgressDone, ProgressTotal int
	ProgressNote                string

	Error      string
	ErrorField string
	RerunOf    string
	Owner      string // a user ID; empty without accounts
	Worker     string // the worker process that ran it (host:pid); empty in-process

	Name  string
	Tags  []string
	Notes string // markdown; empty in lists

	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
}

// Workload is a stored workload as the pages show it (no data).
type Workload struct {
	ID       string
	Strategy string
	Name     string
	Format   string
	SHA256   string // of the canonical JSON schedlab converted the upload to
	Bytes    int
	// UploadSHA256 and UploadBytes describe the file(s) as uploaded
	// (runtypes.Workload.UploadSHA256); empty for a generated workload.
	UploadSHA256 string
	UploadBytes  int
	Summary      string
	Owner        string
	CreatedAt    time.Time
}

// ExperimentProps feeds /experiments/:id.
type ExperimentProps struct {
	Cite                       Cite // the page's Cite block (cite.templ)
	ID, Name, Strategy, Status string
	Total, Done, Failed        int
	Notes                      string
	Tags                       []string
	// Analysis is the results for the chosen metric, x, pooling and pair
	// (package experiments builds it; the page only draws it).
	Analysis experiments.Analysis
	RunList  ExperimentRunList
	// Fields is what the runs are made of, swept (what differs between
	// them) first, then what every run shares.
	Fields  []sweep.Field
	Labels  LabelsProps   // name, tags and notes, and their edit form
	Workers []WorkerCount // which workers ran its runs
	// WorkloadNames are its stored workloads' names by ID: "What
	// differs" shows a workload by its name, its ID on hover.
	WorkloadNames map[string]string
}

// ExperimentRunList is one page of an experiment's runs, failed first,
// as its filter selects them.
type ExperimentRunList struct {
	Status, Variant string // the filter; "" all
	Variants        []string
	From, Total     int // the page's offset; how many runs the filter selects
	Items           []ExperimentRunItem
	Next            string // the next page's URL; "" on the last
	// Metric is the page's metric; NoResult lists the first runs that
	// ended done without a value of it (experiments.Outcome), each with
	// the reason, and NoResultCount counts them all.
	Metric        string
	NoResult      []ExperimentRunItem
	NoResultCount int
}

// ExperimentRunItem is one run in an experiment's run list.
type ExperimentRunItem struct {
	ID, Status, Error, Variant string
	Cell                       string // "gamma=1.3, instance=4"
	Replicate                  int
	// NoResult, for a done run that gave no value of the page's metric
	// needed of it, says so with the reason ("no makespan: STOPPED: …").
	NoResult string
}

// WorkerCount is how many runs of an experiment a worker ran.
type WorkerCount struct {
	Name string
	Runs int
}

// WorkersProps feeds /workers: the workers executing runs, as the server
// last heard of them.
type WorkersProps struct {
	Workers []Worker
	// InProcess is true when runs execute inside the server (no queue).
	InProcess bool
}

// Worker is one worker on /workers.
type Worker struct {
	Name, Host        string
	PID               int
	Concurrency       int
	Running           []string          // IDs of its runs executing now (the viewer's own only, unless OthersRunning is 0)
	OthersRunning     int               // its runs of other users, whose IDs the viewer may not see
	Moved             map[string]string // of a lost worker: where each run went ("now on host:pid", "queued again", "done")
	Done              int
	Started, LastSeen time.Time
	Lost              bool
}

// NewExperimentProps feeds /experiments/new: the sweep form's fields,
// the definition they make (shown as JSON and downloadable), the paste
// area for a definition written by hand, how many runs it makes once
// counted with the time it may take, and every problem found.
type NewExperimentProps struct {
	Strategies []StrategyView
	Strategy   StrategyView // the chosen family
	Form       SweepValues
	Workloads  []Workload // the family's stored workloads
	Definition string     // the JSON the fields make
	Paste      string     // the paste area's text (JSON or YAML)
	Pasted     bool       // the last submission came from the paste area
	Count      int64
	Counted    bool
	Estimate   string // the time the counted runs may take, in words
	Errs       []FormError
	// NotifyAllowed says where a notify_url may point (public addresses,
	// and the networks schedlab serve --notify-allow names).
	NotifyAllowed string
}

// SweepValues are the sweep form's fields as typed. A parameter field
// takes one value ("1.2"), a list ("1.1, 1.3") or an integer range
// ("0..9"); empty leaves the parameter at its default.
type SweepValues struct {
	Name         string
	WorkloadKind string            // "preset" or "ids"
	Preset       string            // with WorkloadKind preset
	WGrid        map[string]string // "PRESET.PARAM" → values of a preset parameter
	IDs          []string          // with WorkloadKind ids
	Variants     []string          // ticked
	Grid         map[string]string // run parameter → values
	Replicates   string
	Seed         string
	NotifyURL    string
	// Carry is what the fields do not show (tags, notes, references) as
	// JSON, kept from the definition the form started from.
	Carry string
}

// ExperimentItem is one experiment in the list.
type ExperimentItem struct {
	ID, Name, Strategy, Status string
	Total, Done, Failed        int
	CreatedAt                  time.Time
}

// ExperimentsProps feeds /experiments.
type ExperimentsProps struct {
	Items []ExperimentItem // one page, newest first
	Next  string           // the URL of the next (older) page; empty on the last
}
