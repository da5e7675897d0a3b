package queue

import (
	"crypto/subtle"
	"encoding/base64"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"schedlab/queue/wire"
)

// Who may do what on the embedded NATS server.
//
// Two kinds of clients connect: the schedlab server (in process, with a
// key made at each start that never leaves the process: every subject)
// and workers, with the credential of DB.nats/worker.nk. Every worker
// holds the same credential, so the credential alone cannot tell one
// worker from another; yet the claim check (claim.go) rests on a run's
// job message reaching only the worker JetStream gave it to, and that
// message arrives on the worker's reply inbox. So a worker connects with
// two signatures of the server's nonce: one by the worker credential (it
// is a worker) and one by a key it makes at start (who it is); its
// permissions name that key, and it may subscribe to its own inbox
// (_I.<key>.>) and nowhere else but the cancel notices. Another client
// with the worker credential cannot read its deliveries, nor publish
// results under its name (schedlab.result.<key>.<run>).

// WorkerPermissions are the subjects a worker connected with key may use,
// publish and subscribe; everything else is refused. They are what
// RunWorker does, and no more:
//
//   - take runs: the runs consumer's info and next message
//     ($JS.API.CONSUMER.INFO and .MSG.NEXT of SCHEDLAB_RUNS.workers),
//     acknowledge, extend or hand back a run ($JS.ACK.SCHEDLAB_RUNS.workers.>,
//     and $JS.ACK.*.*.SCHEDLAB_RUNS.workers.> in the second ack format);
//   - read workloads and write large reports: the info of the two object
//     stores' streams, reading their messages ($JS.API.STREAM.INFO,
//     .STREAM.MSG.GET, .DIRECT.GET of OBJ_schedlab-workloads and
//     OBJ_schedlab-reports), writing a report's chunks and its entry
//     ($O.schedlab-reports.C.> and .M.>); never writing workloads,
//     purging or deleting;
//   - publish results under its key (schedlab.result.<key>.*), progress
//     (schedlab.progress.*), heartbeats (schedlab.heartbeat) and ask
//     which runs of a batch given again are left (schedlab.pending, a
//     request answered on its inbox);
//   - subscribe to the cancel notices (schedlab.cancel) and its own inbox
//     (_I.<key>.>), where replies and its runs arrive.
//
// Not granted, among the rest: creating, changing or deleting streams and
// consumers, reading SCHEDLAB_RUNS or SCHEDLAB_RESULTS other than through
// its own deliveries, publishing runs, cancels or to $SYS, and the
// server's claim key (the KV bucket schedlab-server).
func WorkerPermissions(key string) *server.Permissions {
	api := "$JS.API."
	var pub []string
	pub = append(pub,
		api+"CONSUMER.INFO."+wire.RunsStream+"."+wire.RunsConsumer,
		api+"CONSUMER.MSG.NEXT."+wire.RunsStream+"."+wire.RunsConsumer,
		"$JS.ACK."+wire.RunsStream+"."+wire.RunsConsumer+".>",
		// The same in JetStream's second acknowledgement format (a
		// feature flag today): $JS.ACK.<domain>.<account hash>.<stream>.<consumer>.…
		"$JS.ACK.*.*."+wire.RunsStream+"."+wire.RunsConsumer+".>",
	)
	for _, b := range []string{wire.WorkloadsBucket, wire.ReportsBucket} {
		s := "OBJ_" + b
		pub = append(pub, api+"STREAM.INFO."+s, api+"STREAM.MSG.GET."+s, api+"DIRECT.GET."+s, api+"DIRECT.GET."+s+".>")
	}
	pub = append(pub, "$O."+wire.ReportsBucket+".C.>", "$O."+wire.ReportsBucket+".M.>",
		wire.ResultSubjectPrefix+key+".*", wire.ProgressSubjects, wire.HeartbeatSubject, wire.PendingSubject)
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: pub},
		Subscribe: &server.SubjectPermission{Allow: []string{wire.CancelSubject, wire.WorkerInboxPrefix + key + ".>"}},
	}
}

// embeddedAuth authenticates the clients of the embedded server
// (server.Authentication): the server's key (every subject) and workers
// (WorkerPermissions of their own key). A client with only the worker
// credential, as an older worker connects, is refused.
type embeddedAuth struct {
	serverKey string // public
	workerKey string // public, of the worker credential
}

var _ server.Authentication = (*embeddedAuth)(nil)

func (a *embeddedAuth) Check(c server.ClientAuthentication) bool {
	if c.Kind() != server.CLIENT {
		return false
	}
	o := c.GetOpts()
	nonce := c.GetNonce()
	if !verify(o.Nkey, nonce, o.Sig) {
		return false
	}
	if o.Nkey == a.serverKey {
		c.RegisterUser(&server.User{Username: "schedlab-server"})
		return true
	}
	proof, ok := strings.CutPrefix(o.Token, wire.WorkerTokenPrefix)
	if !ok || !nkeys.IsValidPublicUserKey(o.Nkey) || !verify(a.workerKey, append(append([]byte{}, nonce...), o.Nkey...), proof) {
		return false // refused: the client sees an authorization violation
	}
	c.RegisterUser(&server.User{Username: "worker:" + o.Nkey, Permissions: WorkerPermissions(o.Nkey)})
	return true
}

// verify reports whether sig (base64, raw URL or standard) is the
// signature of data by the public key pub.
func verify(pub string, data []byte, sig string) bool {
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		if raw, err = base64.StdEncoding.DecodeString(sig); err != nil {
			return false
		}
	}
	kp, err := nkeys.FromPublicKey(pub)
	if err != nil {
		return false
	}
	return kp.Verify(data, raw) == nil
}

// senderOf is the key a worker published a result under (its subject
// schedlab.result.<key>.<run>), or "" for a result on
// schedlab.result.<run> (a deployment without per-worker keys).
func senderOf(subject string) string {
	rest := strings.TrimPrefix(subject, wire.ResultSubjectPrefix)
	if key, _, ok := strings.Cut(rest, "."); ok {
		return key
	}
	return ""
}

// equalStrings compares secrets in constant time.
func equalStrings(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
