//go:build schedlab_bench

package runcmd

import "schedlab/queue/queuetest"

// Built with -tags schedlab_bench: the queue's test strategy qtest joins
// the strategies (bench/sweep sweeps its no-op runs through the server).
func init() { benchStrategies = append(benchStrategies, queuetest.Strategy) }
