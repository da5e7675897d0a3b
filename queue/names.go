package queue

import (
	"encoding/json"
	"time"

	"schedlab/buildinfo"
	"schedlab/execute"
	"schedlab/runner"
)

// Names on the NATS side. A run's subject ends with its ID, so one run's
// message can be found, deleted or purged by subject.
const (
	// RunsStream is the work queue of runs to execute (WorkQueuePolicy:
	// a message is removed when a worker acknowledges it).
	RunsStream = "SCHEDLAB_RUNS"
	// RunsConsumer is the one durable pull consumer every worker shares;
	// JetStream hands each message to one of them.
	RunsConsumer = "workers"
	// ResultsStream holds the ends of runs until the server has stored them.
	ResultsStream = "SCHEDLAB_RESULTS"
	// ResultsConsumer is the server's durable consumer of ResultsStream.
	ResultsConsumer = "server"
	// AdvisoriesStream keeps JetStream's MAX_DELIVERIES advisories of
	// RunsConsumer until the server has taken them: an advisory is a core
	// message, sent once, so one sent while the server is down (its NATS
	// up: an external deployment, or a restart) would be lost, and its run
	// would stay running.
	AdvisoriesStream = "SCHEDLAB_ADVISORIES"
	// AdvisoriesConsumer is the server's durable consumer of
	// AdvisoriesStream.
	AdvisoriesConsumer = "server"

	runSubjectPrefix    = "schedlab.run."
	resultSubjectPrefix = "schedlab.result." // then the worker's key (auth.go) and the run ID
	progressSubjects    = "schedlab.progress.*"
	progressPrefix      = "schedlab.progress."
	cancelSubject       = "schedlab.cancel"
	heartbeatSubject    = "schedlab.heartbeat"

	// WorkloadsBucket is the object store of workloads, keyed by the hex
	// SHA-256 of their data.
	WorkloadsBucket = "schedlab-workloads"
	// ReportsBucket carries reports too large for one message, keyed by run
	// ID; the server deletes each once stored.
	ReportsBucket = "schedlab-reports"
)

// maxDeliveriesAdvisory is where JetStream says a run's message reached
// MaxDeliver.
const maxDeliveriesAdvisory = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + RunsStream + "." + RunsConsumer

// Job is a run as a worker receives it: everything it needs to execute it.
type Job struct {
	ID       string            `json:"id"`
	Kind     string            `json:"kind"`
	Strategy string            `json:"strategy"`
	Variant  string            `json:"variant,omitempty"`
	Params   map[string]string `json:"params"`
	Seed     int64             `json:"seed"`
	Workload *WorkloadRef      `json:"workload,omitempty"` // nil for reproduce runs
	// The server's budget of one run (execute.Budget).
	Timeout time.Duration `json:"timeout_ns"`
	Memory  uint64        `json:"memory_bytes"`
	// Dispatch names this publication of the run (its message ID) and
	// Claim is the server's claim of it (claim.go): the worker's progress
	// and result carry both back.
	Dispatch string `json:"dispatch"`
	Claim    string `json:"claim"`
}

func (j *Job) budget() execute.Budget { return execute.Budget{Timeout: j.Timeout, Memory: j.Memory} }

// WorkloadRef names a workload in WorkloadsBucket by its SHA-256, or, for
// an experiment's workload not generated yet, how to generate it.
type WorkloadRef struct {
	SHA256  string `json:"sha256"`
	Name    string `json:"name"`
	Format  string `json:"format"`
	Summary string `json:"summary"`
	// Generate, when set, is the recipe the worker generates the workload
	// from before running (SHA256 is then empty); the worker puts what it
	// generated in WorkloadsBucket and names it in its Result.
	Generate *Recipe `json:"generate,omitempty"`
}

// Recipe is an experiment's preset workload to be generated (store.Recipe).
type Recipe struct {
	WorkloadID string            `json:"workload_id"`
	Preset     string            `json:"preset"`
	Params     map[string]string `json:"params"`
	Seed       int64             `json:"seed"`
}

// Generated names a workload a worker generated for its run: its data is
// object SHA256 of WorkloadsBucket, its name, format, summary and preview
// (the JSON of a generatedMeta) object Meta. The server stores it in the
// workload's row before the run's end.
type Generated struct {
	WorkloadID string `json:"workload_id"`
	SHA256     string `json:"sha256"`
	Meta       string `json:"meta"`
}

// generatedData names a generated workload's data in ReportsBucket.
func generatedData(sha string) string { return "generated-data-" + sha }

// generatedMeta is a generated workload's description, object
// Generated.Meta of ReportsBucket.
type generatedMeta struct {
	Name    string          `json:"name"`
	Format  string          `json:"format"`
	Summary string          `json:"summary"`
	Preview json.RawMessage `json:"preview,omitempty"`
}

// Result is the end of a run, as a worker publishes it on ResultsStream.
type Result struct {
	ID     string `json:"id"`
	Worker string `json:"worker"`
	Status string `json:"status"` // a final store status
	Error  string `json:"error,omitempty"`
	Field  string `json:"field,omitempty"`
	// Report is the JSON of the report of a done run, or empty when it was
	// too large for a message: then it is object ReportObject of ReportsBucket.
	Report       json.RawMessage `json:"report,omitempty"`
	ReportObject string          `json:"report_object,omitempty"`
	// ReportSHA256 is the hex SHA-256 of the report of ReportObject: the
	// server stores that report only if it has not changed since.
	ReportSHA256 string `json:"report_sha256,omitempty"`
	// Dispatch and Claim are those of the job (Job.Claim): without them the
	// result is refused.
	Dispatch string `json:"dispatch,omitempty"`
	Claim    string `json:"claim,omitempty"`
	// StartedAt is when the worker began executing the run.
	StartedAt time.Time `json:"started_at,omitzero"`
	// Generated is the workload the worker generated for the run, if it
	// did (WorkloadRef.Generate).
	Generated *Generated `json:"generated,omitempty"`
	// Build is the worker binary's build (a worker of an older build
	// sends none: the run then records none).
	Build buildinfo.Build `json:"build,omitzero"`
}

// progress is a running run's progress, published on progressPrefix+ID.
type progress struct {
	Worker string `json:"worker"`
	Done   int    `json:"done"`
	Total  int    `json:"total"`
	Note   string `json:"note"`
	// Started is when the worker began executing the run.
	Started time.Time `json:"started,omitzero"`
	// Dispatch and Claim are those of the job: progress without them is
	// ignored, so no other client can name itself the run's worker.
	Dispatch string `json:"dispatch,omitempty"`
	Claim    string `json:"claim,omitempty"`
}

// heartbeat is what a worker publishes every interval on heartbeatSubject.
type heartbeat struct {
	runner.WorkerStatus
	Interval time.Duration `json:"interval_ns"`
	Leaving  bool          `json:"leaving,omitempty"` // its last: it is stopping
}
