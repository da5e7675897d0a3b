package bundle

import (
	"encoding/json"
	"time"

	"schedlab/buildinfo"
)

// Format names the file kind in every header.
const Format = "schedlab-experiment"

// Version is the format version this package writes; readers take 1 …
// Version. Version 2 added a run's labels (name, tags, notes); a version 1
// bundle's runs have none. Version 3 added the build that executed each
// run (Run.Schedlab) and the uploaded file's checksum and size of each
// workload (Workload.UploadSHA256, UploadBytes); earlier bundles have
// none.
const Version = 3

// FileSuffix ends the name of a bundle file: NAME.schedlab-experiment.json.gz.
const FileSuffix = ".schedlab-experiment.json.gz"

// MediaType is a bundle's Content-Type.
const MediaType = "application/gzip"

// DefaultLimit caps the decompressed size of a bundle read by the CLI
// (schedlab import --max-mb changes it): 1 GiB. A record is decoded whole,
// so the limit also bounds the memory one record may take. An EAPM
// zhang2022-case1 run takes about 18 KiB of bundle with its report, so
// 1 GiB holds some 55,000 of them; a larger experiment needs --max-mb.
const DefaultLimit = 1 << 30

// Unknown is the value of a build field the binary does not record.
const Unknown = buildinfo.Unknown

// Header is the first record: what the file is, and what wrote it.
type Header struct {
	Format     string          `json:"format"`  // Format
	Version    int             `json:"version"` // 1 … Version
	Schedlab   buildinfo.Build `json:"schedlab"`
	ExportedAt time.Time       `json:"exported_at"`
}

// CurrentBuild is this binary's Build, from runtime/debug.ReadBuildInfo.
func CurrentBuild() buildinfo.Build { return buildinfo.Current() }

// NewHeader is the header of a bundle written now by this binary.
func NewHeader() Header {
	return Header{Format: Format, Version: Version, Schedlab: CurrentBuild(), ExportedAt: time.Now().UTC().Truncate(time.Microsecond)}
}

// Experiment is the experiment row.
type Experiment struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Strategy string `json:"strategy"`
	// Definition is the definition as stored: a JSON object that
	// experiments.ParseJSON reads.
	Definition json.RawMessage `json:"definition"`
	Tags       []string        `json:"tags"`
	Notes      string          `json:"notes"`  // markdown
	Status     string          `json:"status"` // "done" or "canceled"
	RunsTotal  int             `json:"runs_total"`
	CreatedAt  time.Time       `json:"created_at"`
}

// Workload is a stored workload a run of the experiment uses.
type Workload struct {
	ID       string `json:"id"`
	Strategy string `json:"strategy"`
	Name     string `json:"name"`
	Format   string `json:"format"` // what it was read from: "json", "csv", "preset"
	Summary  string `json:"summary"`
	SHA256   string `json:"sha256"` // lowercase hex SHA-256 of Data
	// Data is the canonical native JSON, as a string so that its bytes
	// (which SHA256 hashes) survive re-encoding.
	Data string `json:"data"`
	// Preview is the JSON of a report.Report drawn before any run, or
	// empty.
	Preview json.RawMessage `json:"preview,omitempty"`
	// UploadSHA256 and UploadBytes (version 3) describe the file(s) as
	// uploaded (the store's upload_sha256, upload_bytes); absent for a
	// generated workload.
	UploadSHA256 string    `json:"upload_sha256,omitempty"`
	UploadBytes  int       `json:"upload_bytes,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
}

// Run is one run of the experiment with its place in the sweep. Fields a
// later schedlab stores with runs are added here (and Version raised).
type Run struct {
	ID         string            `json:"id"`
	Kind       string            `json:"kind"`                  // "run" or "reproduce"
	WorkloadID string            `json:"workload_id,omitempty"` // a Workload of the bundle; empty for "reproduce"
	Strategy   string            `json:"strategy"`              // the experiment's
	Variant    string            `json:"variant"`
	Params     map[string]string `json:"params"` // resolved: every parameter with its value
	Seed       int64             `json:"seed"`
	Status     string            `json:"status"` // done, failed, canceled or interrupted

	ProgressDone  int    `json:"progress_done"`
	ProgressTotal int    `json:"progress_total"`
	ProgressNote  string `json:"progress_note"`

	Error      string `json:"error"`       // why it failed, was canceled or interrupted
	ErrorField string `json:"error_field"` // the input the error is about

	// Labels (version 2): a name, tags and markdown notes; the importing
	// store checks them against its limits (store.CheckLabels).
	Name  string   `json:"name,omitempty"`
	Tags  []string `json:"tags,omitempty"`
	Notes string   `json:"notes,omitempty"`

	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`

	// Schedlab (version 3) is the build of the process that executed the
	// run; absent when it was not recorded.
	Schedlab *buildinfo.Build `json:"schedlab,omitempty"`

	// Report is the JSON object of a report.Report, or empty.
	Report json.RawMessage `json:"report,omitempty"`

	Position  int             `json:"position"`  // 0 … runs_total−1, each once
	Cell      json.RawMessage `json:"cell"`      // the swept values, a JSON object
	Replicate int             `json:"replicate"` // 0, 1, …
}

// record is one line of a bundle: exactly one field set.
type record struct {
	Header     *Header     `json:"header,omitempty"`
	Experiment *Experiment `json:"experiment,omitempty"`
	Workload   *Workload   `json:"workload,omitempty"`
	Run        *Run        `json:"run,omitempty"`
}
