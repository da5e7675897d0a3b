package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/report"
)

// Statuses and kinds a bundle holds: the store's final run statuses, the
// experiment statuses of a finished experiment, the store's run kinds.
var (
	RunStatuses        = []string{"done", "failed", "canceled", "interrupted"}
	ExperimentStatuses = []string{"done", "canceled"}
	RunKinds           = []string{"run", "reproduce"}
)

// IDLen and idAlphabet are the store's ID form: 10 characters of lowercase
// RFC 4648 base32.
const (
	IDLen      = 10
	idAlphabet = "abcdefghijklmnopqrstuvwxyz234567"
)

// ValidID reports whether id has the store's form.
func ValidID(id string) bool {
	if len(id) != IDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if bytes.IndexByte([]byte(idAlphabet), id[i]) < 0 {
			return false
		}
	}
	return true
}

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

// checker checks the records of a bundle in order: the same checks for the
// Writer (so a bundle written is one that reads) and the Reader.
type checker struct {
	n         int // records seen, the current one included
	stage     int // what comes next: stageHeader, stageExperiment, stageWorkloads (or runs), stageRuns
	strategy  string
	total     int
	workloads map[string]bool
	runIDs    map[string]bool
	positions map[int]bool
}

const (
	stageHeader = iota
	stageExperiment
	stageWorkloads
	stageRuns
)

func newChecker() *checker {
	return &checker{workloads: map[string]bool{}, runIDs: map[string]bool{}, positions: map[int]bool{}}
}

func (c *checker) invalid(field, format string, args ...any) error {
	return &errs.Error{Kind: errs.Invalid, Field: strings.TrimSpace(fmt.Sprintf("bundle record %d %s", c.n, field)),
		Err: fmt.Errorf(format, args...)}
}

// add checks the next record; it may normalize it (a JSON null report is
// no report).
func (c *checker) add(rec *record) error {
	c.n++
	set := 0
	for _, p := range []bool{rec.Header != nil, rec.Experiment != nil, rec.Workload != nil, rec.Run != nil} {
		if p {
			set++
		}
	}
	if set != 1 {
		return c.invalid("", "a record holds exactly one of header, experiment, workload, run; this one holds %d", set)
	}
	switch {
	case c.n == 1 && rec.Header == nil:
		return c.invalid("", "not a schedlab experiment bundle: the first record must be the header")
	case rec.Header != nil:
		if c.stage != stageHeader {
			return c.invalid("header", "a second header")
		}
		c.stage = stageExperiment
		return c.header(rec.Header)
	case rec.Experiment != nil:
		if c.stage != stageExperiment {
			return c.invalid("experiment", "a second experiment")
		}
		c.stage = stageWorkloads
		return c.experiment(rec.Experiment)
	case c.stage == stageExperiment:
		return c.invalid("", "the experiment must follow the header")
	case rec.Workload != nil:
		if c.stage != stageWorkloads {
			return c.invalid("workload", "workloads must come before the runs")
		}
		return c.workload(rec.Workload)
	default:
		c.stage = stageRuns
		return c.run(rec.Run)
	}
}

// end checks that the bundle is complete.
func (c *checker) end() error {
	c.n++
	if c.stage < stageWorkloads {
		return c.invalid("", "the bundle ends before its experiment record: it is truncated")
	}
	if len(c.positions) != c.total {
		return c.invalid("", "the bundle ends after %d runs, runs_total is %d: it is truncated or runs_total is wrong", len(c.positions), c.total)
	}
	return nil
}

func (c *checker) header(h *Header) error {
	switch {
	case h.Format != Format:
		return c.invalid("header.format", "must be %q, got %q: not a schedlab experiment bundle", Format, h.Format)
	case h.Version < 1:
		return c.invalid("header.version", "must be 1 to %d, got %d", Version, h.Version)
	case h.Version > Version:
		return c.invalid("header.version", "format version %d is newer than this schedlab reads (%d): import it with a newer schedlab", h.Version, Version)
	case h.Schedlab.Version == "":
		return c.invalid("header.schedlab.version", "missing (%q when not known)", Unknown)
	case h.Schedlab.Commit == "":
		return c.invalid("header.schedlab.commit", "missing (%q when not known)", Unknown)
	case !oneOf(h.Schedlab.Modified, []string{"true", "false", Unknown}):
		return c.invalid("header.schedlab.modified", "must be \"true\", \"false\" or %q, got %q", Unknown, h.Schedlab.Modified)
	case h.ExportedAt.IsZero():
		return c.invalid("header.exported_at", "missing")
	}
	return nil
}

func (c *checker) experiment(e *Experiment) error {
	switch {
	case !ValidID(e.ID):
		return c.invalid("experiment.id", "%q is not a schedlab ID (%d characters of a-z, 2-7)", e.ID, IDLen)
	case e.Strategy == "":
		return c.invalid("experiment.strategy", "missing")
	case !isObject(e.Definition):
		return c.invalid("experiment.definition", "must be a JSON object")
	case !oneOf(e.Status, ExperimentStatuses):
		return c.invalid("experiment.status", "must be one of %v (only finished experiments are exported), got %q", ExperimentStatuses, e.Status)
	case e.RunsTotal < 1:
		return c.invalid("experiment.runs_total", "must be at least 1, got %d", e.RunsTotal)
	case e.CreatedAt.IsZero():
		return c.invalid("experiment.created_at", "missing")
	}
	if _, err := experiments.ParseJSON(e.Definition); err != nil {
		return c.invalid("experiment.definition", "%v", err)
	}
	if e.Tags == nil {
		e.Tags = []string{}
	}
	c.strategy, c.total = e.Strategy, e.RunsTotal
	return nil
}

func (c *checker) workload(w *Workload) error {
	switch {
	case !ValidID(w.ID):
		return c.invalid("workload.id", "%q is not a schedlab ID (%d characters of a-z, 2-7)", w.ID, IDLen)
	case c.workloads[w.ID]:
		return c.invalid("workload.id", "workload %s is in the bundle twice", w.ID)
	case w.Strategy == "":
		return c.invalid("workload.strategy", "missing")
	case w.Name == "":
		return c.invalid("workload.name", "missing")
	case w.Data == "":
		return c.invalid("workload.data", "empty")
	case !validJSON([]byte(w.Data)):
		return c.invalid("workload.data", "not JSON")
	case w.CreatedAt.IsZero():
		return c.invalid("workload.created_at", "missing")
	}
	if got := sha256Hex([]byte(w.Data)); w.SHA256 != got {
		return c.invalid("workload.sha256", "%q does not match the data (its SHA-256 is %s): the bundle is damaged or was edited", w.SHA256, got)
	}
	w.Preview = nullIsEmpty(w.Preview)
	if len(w.Preview) > 0 && !isObject(w.Preview) {
		return c.invalid("workload.preview", "must be a JSON object or absent")
	}
	if len(w.Preview) > 0 {
		if _, err := report.DecodeReport(w.Preview); err != nil {
			return c.invalid("workload.preview", "workload %s: its preview is not a report schedlab can draw: %v", w.ID, err)
		}
	}
	c.workloads[w.ID] = true
	return nil
}

func (c *checker) run(r *Run) error {
	switch {
	case !ValidID(r.ID):
		return c.invalid("run.id", "%q is not a schedlab ID (%d characters of a-z, 2-7)", r.ID, IDLen)
	case c.runIDs[r.ID]:
		return c.invalid("run.id", "run %s is in the bundle twice", r.ID)
	case !oneOf(r.Kind, RunKinds):
		return c.invalid("run.kind", "must be one of %v, got %q", RunKinds, r.Kind)
	case r.Kind == "run" && r.WorkloadID == "":
		return c.invalid("run.workload_id", "missing: a run of kind \"run\" has a workload")
	case r.Kind == "reproduce" && r.WorkloadID != "":
		return c.invalid("run.workload_id", "a reproduce run has no workload")
	case r.WorkloadID != "" && !c.workloads[r.WorkloadID]:
		return c.invalid("run.workload_id", "workload %q is not in the bundle (workloads come before the runs that use them)", r.WorkloadID)
	case r.Strategy != c.strategy:
		return c.invalid("run.strategy", "%q is not the experiment's strategy %q", r.Strategy, c.strategy)
	case !oneOf(r.Status, RunStatuses):
		return c.invalid("run.status", "must be one of %v (only finished runs are exported), got %q", RunStatuses, r.Status)
	case r.CreatedAt.IsZero():
		return c.invalid("run.created_at", "missing")
	case r.Position < 0 || r.Position >= c.total:
		return c.invalid("run.position", "%d is outside 0 to %d (runs_total − 1)", r.Position, c.total-1)
	case c.positions[r.Position]:
		return c.invalid("run.position", "position %d is given twice", r.Position)
	case !isObject(r.Cell):
		return c.invalid("run.cell", "must be a JSON object")
	case r.Replicate < 0:
		return c.invalid("run.replicate", "must be 0 or more, got %d", r.Replicate)
	case r.ProgressDone < 0 || r.ProgressTotal < 0:
		return c.invalid("run.progress_done", "progress must be 0 or more")
	}
	for _, t := range []struct {
		field string
		at    *time.Time
	}{{"run.started_at", r.StartedAt}, {"run.finished_at", r.FinishedAt}} {
		if t.at != nil && t.at.IsZero() {
			return c.invalid(t.field, "a zero time: leave it out when there is none")
		}
	}
	r.Report = nullIsEmpty(r.Report)
	if len(r.Report) > 0 && !isObject(r.Report) {
		return c.invalid("run.report", "must be a JSON object (a report) or absent")
	}
	// A report is checked as the runner checks a run's before storing it
	// (report.Report.Validate, with its limits on metrics and charts).
	if len(r.Report) > 0 {
		if _, err := report.DecodeReport(r.Report); err != nil {
			return c.invalid("run.report", "run %s: %v", r.ID, err)
		}
	}
	if r.Params == nil {
		r.Params = map[string]string{}
	}
	c.runIDs[r.ID] = true
	c.positions[r.Position] = true
	return nil
}

// isObject reports whether b is a JSON object (b is valid JSON already,
// or is checked here).
func isObject(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && validJSON(b)
}

// nullIsEmpty treats a JSON null as absent.
func nullIsEmpty(b []byte) []byte {
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	return b
}

func validJSON(b []byte) bool { return json.Valid(b) }

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
