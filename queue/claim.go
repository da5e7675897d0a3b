package queue

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// Claims: a result is accepted only from the worker that holds its run.
//
// Each time the dispatcher publishes a run (a dispatch, named by the
// message ID it publishes with) it puts a claim in the job: an HMAC of the
// run ID and the dispatch under a key only the server knows. JetStream
// hands the job to one worker, on that worker's own inbox (auth.go), so
// that worker alone learns the claim; its progress and its result carry
// it back, and the server recomputes it. A result or a progress report
// without the claim of a dispatch of its run is refused (the result is
// logged with the run, the worker it names and the key it was sent
// under, and terminated); the real result, published under a message ID
// derived from the claim, cannot be de-duplicated away by a forged one.
//
// The claim is computed, not remembered: a server restarted while runs
// execute checks their results as before. The key lives in the KV bucket
// ClaimBucket, which workers cannot read; it is made on first start.
// JetStream redelivering a run (its worker died) hands the same claim to
// the next worker, and both executions are the same run: the first result
// is stored, as before.

// ClaimBucket is the KV bucket holding the server's claim key; no worker
// may read it.
const ClaimBucket = "schedlab-server"

const claimKeyName = "claim-key"

// claims signs and checks claims with the server's key.
type claims struct{ key []byte }

// claim is the claim of dispatch of run id.
func (c claims) claim(id, dispatch string) string {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte(id))
	m.Write([]byte{0})
	m.Write([]byte(dispatch))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// holds reports whether claim is that of dispatch of run id.
func (c claims) holds(id, dispatch, claim string) bool {
	return claim != "" && dispatch != "" && equalStrings(c.claim(id, dispatch), claim)
}

// loadClaims reads the server's claim key from ClaimBucket, making both
// the first time.
func loadClaims(ctx context.Context, js jetstream.JetStream) (claims, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: ClaimBucket, History: 1,
		Storage: jetstream.FileStorage, Description: "schedlab: the server's own keys; no worker may read them"})
	if err != nil {
		return claims{}, fmt.Errorf("key-value bucket %s: %w", ClaimBucket, err)
	}
	for {
		e, err := kv.Get(ctx, claimKeyName)
		if err == nil {
			if len(e.Value()) < 32 {
				return claims{}, fmt.Errorf("the claim key in bucket %s is %d bytes, not 32: delete it to make a new one", ClaimBucket, len(e.Value()))
			}
			return claims{key: e.Value()}, nil
		}
		if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return claims{}, fmt.Errorf("reading the claim key: %w", err)
		}
		key := make([]byte, 32)
		rand.Read(key)
		if _, err := kv.Create(ctx, claimKeyName, key); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
			return claims{}, fmt.Errorf("storing the claim key: %w", err)
		}
		// Made here or by another server meanwhile: read it back.
	}
}
