// Package wire is what the schedlab server and its worker processes say
// to each other over NATS JetStream: the names of the streams, subjects
// and buckets, the messages (Job, Result, Progress, Heartbeat), and how a
// worker connects (ConnectWorker). Both sides import it: the dispatcher
// (package queue) and the worker (package queue/worker), which links no
// store.
package wire

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"schedlab/buildinfo"
	"schedlab/runtypes"
)

// Defaults of the queue's timing, shared by the server and the workers.
const (
	// DefaultAckWait is how long a worker may go without a sign of life
	// for a run before JetStream gives it to another worker.
	DefaultAckWait = 30 * time.Second
	// DefaultHeartbeatInterval is the workers' heartbeat interval.
	DefaultHeartbeatInterval = 2 * time.Second
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

	RunSubjectPrefix    = "schedlab.run."
	ResultSubjectPrefix = "schedlab.result." // then the worker's key (auth.go) and the run ID
	ProgressSubjects    = "schedlab.progress.*"
	ProgressPrefix      = "schedlab.progress."
	CancelSubject       = "schedlab.cancel"
	HeartbeatSubject    = "schedlab.heartbeat"

	// WorkloadsBucket is the object store of workloads, keyed by the hex
	// SHA-256 of their data.
	WorkloadsBucket = "schedlab-workloads"
	// ReportsBucket carries reports too large for one message, keyed by run
	// ID; the server deletes each once stored.
	ReportsBucket = "schedlab-reports"
)

// MaxDeliveriesAdvisory is where JetStream says a run's message reached
// MaxDeliver.
const MaxDeliveriesAdvisory = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + RunsStream + "." + RunsConsumer

// Job is a run as a worker receives it: everything it needs to execute it.
type Job struct {
	ID       string            `json:"id"`
	Kind     string            `json:"kind"`
	Strategy string            `json:"strategy"`
	Variant  string            `json:"variant,omitempty"`
	Params   map[string]string `json:"params"`
	Seed     int64             `json:"seed"`
	Workload *WorkloadRef      `json:"workload,omitempty"` // nil for reproduce runs
	// The server's budget of one run (solvers.Budget).
	Timeout time.Duration `json:"timeout_ns"`
	Memory  int64         `json:"memory_bytes"`
	// Dispatch names this publication of the run (its message ID) and
	// Claim is the server's claim of it (claim.go): the worker's progress
	// and result carry both back.
	Dispatch string `json:"dispatch"`
	Claim    string `json:"claim"`
	// Runs, when set, makes this message a batch of short runs (Kind
	// KindBatch): each is a run as above, with its own claim, and ID and
	// Dispatch name the batch's message. A worker executes them one after
	// the other and returns their ends together (Results); see package
	// queue's doc, "Batches".
	Runs []Job `json:"runs,omitempty"`
}

// KindBatch is the Kind of a Job that carries Runs.
const KindBatch = "batch"

// BatchPrefix starts the ID of a batch's message (its subject is
// RunSubjectPrefix+ID): a single run's message has the run's ID.
const BatchPrefix = "batch-"

// PendingSubject is where a worker given a batch again (its last worker
// stopped or died) asks which of its runs have not ended yet: the request
// is a Job naming the batch (ID, Dispatch) and, in Runs, each run's ID and
// claim; the reply is a Pending.
const PendingSubject = "schedlab.pending"

// Pending answers a PendingSubject request: the IDs of the runs of the
// batch the worker is to execute; the others ended already (or were
// given to other workers).
type Pending struct {
	Runs []string `json:"runs"`
}

// Results carries the ends of several runs of one batch in one message
// on ResultsStream.
type Results struct {
	Ends []Result `json:"ends"`
}

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

// Recipe is an experiment's preset workload to be generated (runtypes.Recipe).
type Recipe struct {
	WorkloadID string            `json:"workload_id"`
	Preset     string            `json:"preset"`
	Params     map[string]string `json:"params"`
	Seed       int64             `json:"seed"`
}

// Generated names a workload a worker generated for its run: its data is
// object Data of ReportsBucket (the one bucket a worker may write), its
// name, format, summary and preview (the JSON of a GeneratedMeta) object
// Meta. The server stores it in the workload's row before the run's end;
// later runs of it get it as data. Each generation writes objects of its
// own names: two workers that generate one workload at once must not
// write one object twice, since putting an object over another purges
// the old one's chunks, which a worker may not (it waited out the
// request's 5 s timeout on the refusal).
type Generated struct {
	WorkloadID string `json:"workload_id"`
	SHA256     string `json:"sha256"`
	Meta       string `json:"meta"`
	// Data is the data's object; empty from a worker before Data
	// existed: GeneratedData(SHA256).
	Data string `json:"data,omitempty"`
}

// DataObject is g's data object.
func (g *Generated) DataObject() string { return cmp.Or(g.Data, GeneratedData(g.SHA256)) }

// Named says whether g's objects are its workload's generated objects:
// Meta "generated-ID" or "generated-ID-TAG", Data empty or
// "generated-data-ID-TAG" (the names workers write), so that a result
// cannot make the server read or delete another object.
func (g *Generated) Named() bool {
	if g.WorkloadID == "" || strings.Contains(g.WorkloadID, "-") {
		return false
	}
	meta := g.Meta == "generated-"+g.WorkloadID || strings.HasPrefix(g.Meta, "generated-"+g.WorkloadID+"-")
	return meta && (g.Data == "" || strings.HasPrefix(g.Data, "generated-data-"+g.WorkloadID+"-"))
}

// GeneratedData names a generated workload's data in ReportsBucket, as a
// worker before Generated.Data named it.
func GeneratedData(sha string) string { return "generated-data-" + sha }

// GeneratedMeta is a generated workload's description, object
// Generated.Meta of ReportsBucket.
type GeneratedMeta struct {
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
	// Elapsed is how long the worker executed the run (the dispatcher
	// sizes batches from it).
	Elapsed time.Duration `json:"elapsed_ns,omitempty"`
}

// Progress is a running run's progress, published on ProgressPrefix+ID.
type Progress struct {
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

// Heartbeat is what a worker publishes every interval on HeartbeatSubject.
type Heartbeat struct {
	runtypes.WorkerStatus
	Interval time.Duration `json:"interval_ns"`
	Leaving  bool          `json:"leaving,omitempty"` // its last: it is stopping
}

// ResultMsgID is the message ID of a result carrying claim: a worker
// without the claim cannot make a message that JetStream would take for
// it (Nats-Msg-Id de-duplication).
func ResultMsgID(id, claim string) string {
	if claim == "" {
		return id
	}
	sum := sha256.Sum256([]byte(claim))
	return id + "." + hex.EncodeToString(sum[:12])
}

// WorkerInboxPrefix starts the reply inbox of a worker connected with its
// own key: _I.<key>.
const WorkerInboxPrefix = "_I."

// WorkerTokenPrefix starts the token field of a worker's CONNECT: then the
// worker credential's signature of nonce+key, base64 (raw URL).
const WorkerTokenPrefix = "schedlab-worker-v1:"

// workerOptions are the connect options of a worker holding the NKey
// seed seed: a key of its own, its signature and the worker credential's
// of the server's nonce, and its own inbox. It returns the key.
func workerOptions(seed []byte) ([]nats.Option, string, error) {
	cred, err := nkeys.ParseDecoratedNKey(seed)
	if err != nil {
		return nil, "", err
	}
	own, err := nkeys.CreateUser()
	if err != nil {
		return nil, "", err
	}
	pub, err := own.PublicKey()
	if err != nil {
		return nil, "", err
	}
	var mu sync.Mutex
	var proof string
	sign := func(nonce []byte) ([]byte, error) {
		p, err := cred.Sign(append(append([]byte{}, nonce...), pub...))
		if err != nil {
			return nil, err
		}
		mu.Lock()
		proof = WorkerTokenPrefix + base64.RawURLEncoding.EncodeToString(p)
		mu.Unlock()
		return own.Sign(nonce)
	}
	// nats.go signs the nonce, then asks for the token, for each CONNECT.
	token := func() string {
		mu.Lock()
		defer mu.Unlock()
		return proof
	}
	return []nats.Option{nats.Nkey(pub, sign), nats.TokenHandler(token), nats.CustomInboxPrefix(WorkerInboxPrefix + pub)}, pub, nil
}

// Connect connects to the NATS server at url as name, reconnecting for
// ever when the connection drops. creds is an NKey user seed file or a
// NATS .creds file (a user JWT and its seed, as an operator-managed
// deployment issues); empty for none. Workers use ConnectWorker.
func Connect(url, creds, name string, extra ...nats.Option) (*nats.Conn, error) {
	opts, err := credsOptions(creds)
	if err != nil {
		return nil, err
	}
	return connect(url, name, append(opts, extra...)...)
}

// ConnectWorker connects a worker as Connect does. With an NKey seed (as
// StartEmbedded writes) it first connects with a key of its own besides
// (auth.go), which it returns: the embedded server then grants it
// WorkerPermissions of that key. A server that refuses that (a NATS
// deployment of your own, whose permissions are yours to set, see
// docs/scale-out.md) is connected to with the seed alone, and the key is "".
func ConnectWorker(url, creds, name string, extra ...nats.Option) (*nats.Conn, string, error) {
	if creds != "" {
		b, err := os.ReadFile(creds)
		if err != nil {
			return nil, "", fmt.Errorf("--creds: %w", err)
		}
		if !strings.Contains(string(b), "BEGIN NATS USER JWT") {
			opts, key, err := workerOptions(b)
			if err != nil {
				return nil, "", fmt.Errorf("--creds %s: %w", creds, err)
			}
			nc, err := connect(url, name, append(opts, extra...)...)
			if err == nil {
				return nc, key, nil
			}
			if !errors.Is(err, nats.ErrAuthorization) {
				return nil, "", err
			}
		}
	}
	nc, err := Connect(url, creds, name, extra...)
	return nc, "", err
}

func connect(url, name string, extra ...nats.Option) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectBufSize(64 << 20)}
	nc, err := nats.Connect(url, append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("connecting to NATS at %s: %w", url, err)
	}
	return nc, nil
}

// credsOptions are the options of the credential file creds.
func credsOptions(creds string) ([]nats.Option, error) {
	var opts []nats.Option
	if creds != "" {
		b, err := os.ReadFile(creds)
		if err != nil {
			return nil, fmt.Errorf("--creds: %w", err)
		}
		if strings.Contains(string(b), "BEGIN NATS USER JWT") {
			opts = append(opts, nats.UserCredentials(creds))
		} else {
			o, err := nats.NkeyOptionFromSeed(creds)
			if err != nil {
				return nil, fmt.Errorf("--creds %s: %w", creds, err)
			}
			opts = append(opts, o)
		}
	}
	return opts, nil
}

// WaitFor retries f every interval until it succeeds or ctx is done.
func WaitFor(ctx context.Context, interval time.Duration, f func() error) error {
	for {
		err := f()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		case <-time.After(interval):
		}
	}
}
