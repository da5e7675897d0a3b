package views

import (
	"github.com/a-h/templ"

	"schedlab/solvers"
	"schedlab/store"
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

// FamilyCard is one of the five families on the home page.
type FamilyCard struct {
	Family solvers.Family
	Built  bool
	Runs   int
}

// HomeProps feeds the home page.
type HomeProps struct {
	Families []FamilyCard
	Recent   []store.Run
	Names    map[string]string // workload id → name, for the recent runs
}

// WorkloadsProps feeds /workloads.
type WorkloadsProps struct {
	Strategies []StrategyView
	Workloads  []store.Workload // one page, newest first
	Next       string           // the URL of the next (older) page; empty on the last
	Selected   string           // strategy whose forms are shown
	Err        *FormError
}

// FormError is a failed submission shown above a form.
type FormError struct {
	Message string
	Field   string
}

// WorkloadProps feeds /workloads/:id.
type WorkloadProps struct {
	Workload store.Workload
	Preview  *solvers.Report
	Strategy StrategyView
	Runs     []store.Run
}

// NewRunProps feeds /runs/new.
type NewRunProps struct {
	Strategies []StrategyView
	Strategy   StrategyView // the chosen one
	Workloads  []store.Workload
	WorkloadID string
	Variant    string
	Values     map[string]string // parameter values to prefill
	Errs       []FormError       // every problem of the last submission
}

// RunProps feeds /runs/:id.
type RunProps struct {
	Run      store.Run
	Workload *store.Workload
	Strategy StrategyView
	Report   *solvers.Report
	// ReportPart, when set, is the report already rendered (ReportView
	// from a cache); it is drawn instead of Report.
	ReportPart templ.Component
	Progress   float64 // 0..100
}

// RunsProps feeds /runs.
type RunsProps struct {
	Runs  []store.Run       // one page, newest first
	Names map[string]string // workload id → name, for these runs
	Next  string            // the URL of the next (older) page; empty on the last
}

// CompareProps feeds /compare: Runs in the order asked.
type CompareProps struct {
	Runs    []store.Run
	Labels  []string
	Metrics []MetricRow
	Plots   []solvers.Plot
	Gantts  []solvers.Gantt
	Tables  []solvers.Table
}

// MetricRow is one metric across the compared runs; Values[i] is nil where
// run i lacks it; Best marks the best runs by the metric's Better.
type MetricRow struct {
	Name   string
	Unit   string
	Better string
	Values []*float64
	Best   []bool
}

// ReproCard is one seed experiment on /reproduce.
type ReproCard struct {
	Family solvers.Family
	Built  bool
	Params []solvers.ParamSpec
	Latest *store.Run // the newest reproduce run, whatever its status
	Shown  *store.Run // the newest finished one, whose Report is shown
	Report *solvers.Report
}

// ReproduceProps feeds /reproduce.
type ReproduceProps struct {
	Cards []ReproCard
}
