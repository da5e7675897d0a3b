// Command testworker is a schedlab worker whose only strategy is
// queuetest.Strategy: the queue's tests run it as real worker processes.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"schedlab/queue/queuetest"
	"schedlab/queue/worker"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := worker.Main(ctx, os.Args[1:], queuetest.Lookup, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "testworker:", err)
		os.Exit(1)
	}
}
