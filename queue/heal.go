package queue

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
)

// WriteErrors lists the JetStream streams and consumers of the embedded
// server that have met a write error (a full disk: "no space left on
// device"). NATS keeps such an error for good: the stream refuses every
// message from then on, even once space is back, until JetStream
// restarts (see Heal).
func (e *Embedded) WriteErrors() []string {
	h := e.Server.Healthz(&server.HealthzOptions{Details: true})
	var out []string
	for _, he := range h.Errors {
		if strings.Contains(he.Error, "write error") {
			out = append(out, he.Error)
		}
	}
	return out
}

// Heal restarts JetStream when a stream or consumer has met a write error
// (WriteErrors), so that it reads its store again and takes messages once
// the disk has room: without it, a disk that filled once wedges the queue
// until the process restarts. Messages stored before the error are kept
// (the store is on disk); clients resume on their own (the dispatcher's
// and the workers' pulls ask again). It returns the errors it healed
// (none: nothing to do).
func (e *Embedded) Heal() ([]string, error) {
	bad := e.WriteErrors()
	if len(bad) == 0 {
		return nil, nil
	}
	cur := e.Server.JetStreamConfig()
	if cur == nil {
		return bad, errors.New("queue: JetStream is not running")
	}
	// The server keeps its store in StoreDir/jetstream and reports that;
	// enabling appends "jetstream" again.
	cfg := *cur
	cfg.StoreDir = filepath.Dir(cfg.StoreDir)
	if err := e.Server.ShutdownJetStream(); err != nil {
		return bad, err
	}
	return bad, e.Server.EnableJetStream(&cfg)
}
