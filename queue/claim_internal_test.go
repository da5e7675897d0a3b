package queue

import (
	"encoding/json"
	"testing"

	"github.com/nats-io/nats.go"
	"schedlab/queue/wire"
)

// Progress names a run's worker only with the claim of a dispatch of that
// run: a forged or borrowed claim (another run's, another key's) is ignored.
func TestProgressWithoutTheClaimIgnored(t *testing.T) {
	d := NewDispatcher(nil, nil, Config{})
	d.claims = claims{key: []byte("0123456789abcdef0123456789abcdef")}
	other := claims{key: []byte("fedcba9876543210fedcba9876543210")}
	d.outstanding["run1"], d.outstanding["run2"] = true, true
	send := func(id, worker, dispatch, claim string) {
		b, _ := json.Marshal(wire.Progress{Worker: worker, Done: 1, Total: 2, Dispatch: dispatch, Claim: claim})
		d.onProgress(&nats.Msg{Subject: wire.ProgressPrefix + id, Data: b})
	}
	send("run1", "forger", "run1", "")
	send("run1", "forger", "run1", "not-a-claim")
	send("run1", "forger", "run1", other.claim("run1", "run1"))
	send("run1", "forger", "run2", d.claims.claim("run2", "run2"))
	if w := d.workerOf("run1"); w != "" {
		t.Fatalf("progress without run1's claim named %q its worker", w)
	}
	send("run1", "holder", "run1.7", d.claims.claim("run1", "run1.7"))
	if w := d.workerOf("run1"); w != "holder" {
		t.Fatalf("worker of run1 = %q, want holder (it sent the claim)", w)
	}
}

// A claim is bound to its run and dispatch, and its result message ID
// reveals nothing a worker without the claim could compute.
func TestClaimBoundToRunAndDispatch(t *testing.T) {
	c := claims{key: []byte("0123456789abcdef0123456789abcdef")}
	k := c.claim("a", "a")
	if !c.holds("a", "a", k) || c.holds("a", "a.1", k) || c.holds("b", "a", k) || c.holds("a", "", "") {
		t.Fatal("a claim held for another run or dispatch, or an empty one held")
	}
	if c.claim("ab", "c") == c.claim("a", "bc") {
		t.Fatal("run ID and dispatch run together")
	}
	if id := wire.ResultMsgID("a", k); id == "a" || id == wire.ResultMsgID("a", c.claim("a", "a.1")) {
		t.Fatalf("result message ID %q does not depend on the claim", id)
	}
}
