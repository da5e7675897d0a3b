package worker

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"schedlab/queue/wire"
	"schedlab/solvers"
)

// Usage is the worker command's synopsis.
const Usage = "schedlab worker --nats URL --creds FILE [--concurrency N] [--exit-when-idle D]"

// Main is the worker command: it parses args (--nats URL --creds
// FILE [--concurrency N] [--exit-when-idle D] [--heartbeat D]), connects
// and executes runs of the strategies lookup finds until ctx is done.
func Main(ctx context.Context, args []string, lookup func(string) (*solvers.Strategy, bool), stderr io.Writer) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("nats", "", "NATS server URL, as `schedlab serve` prints it (nats://host:port)")
	creds := fs.String("creds", "", "credential file: the NKey seed `schedlab serve` writes beside its database, or a NATS .creds file")
	concurrency := fs.Int("concurrency", 1, "runs executed at once (1: each run has the process and its memory to itself)")
	idle := fs.Duration("exit-when-idle", 0, "exit after this long without a run (0: never); for pilot jobs")
	hb := fs.Duration("heartbeat", wire.DefaultHeartbeatInterval, "heartbeat interval")
	name := fs.String("name", "", "worker name on the /workers page (default host:pid)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" {
		return errors.New("--nats: missing: give the URL `schedlab serve` prints\nusage: " + Usage)
	}
	if *concurrency < 1 {
		return fmt.Errorf("--concurrency: must be at least 1, got %d", *concurrency)
	}
	if *idle < 0 {
		return fmt.Errorf("--exit-when-idle: must not be negative, got %v", *idle)
	}
	if *hb <= 0 || *hb > time.Minute {
		return fmt.Errorf("--heartbeat: must be in (0, 1m], got %v", *hb)
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	nc, key, err := wire.ConnectWorker(*url, *creds, "schedlab worker")
	if err != nil {
		return err
	}
	defer nc.Close()
	return Run(ctx, nc, Config{Lookup: lookup, Concurrency: *concurrency, ExitWhenIdle: *idle,
		HeartbeatInterval: *hb, Name: *name, Key: key, Logger: log})
}
