// Command schedlab-worker is the part of schedlab a machine that only
// executes runs needs: `worker` (join a server's queue) and `run` (one
// strategy on one workload), the same commands, flags and code as in
// schedlab, in a binary that links no SQLite.
//
//	schedlab-worker worker --nats URL --creds FILE [--concurrency N] [--exit-when-idle D]
//	schedlab-worker run --strategy S [--variant V] (--workload FILE... | --preset P) [--seed N] [--param k=v]... [--out FILE]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"schedlab/cmd/internal/runcmd"
)

const usage = "usage:\n" + runcmd.WorkerUsage + "\n" + runcmd.RunUsage

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	cmd, args := "", os.Args[1:]
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "worker":
		err = runcmd.Worker(ctx, args, os.Stderr)
	case "run":
		err = runcmd.Run(ctx, args, os.Stdout, os.Stderr)
	case "help", "-h", "--help":
		fmt.Println(usage)
	default:
		err = fmt.Errorf("unknown command %q\n%s", cmd, usage)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedlab-worker:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}
