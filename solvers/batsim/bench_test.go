package batsim

import (
	"context"
	"testing"
	"time"

	"schedlab/solvers/batch"
	"schedlab/solvers/batsim/batsimtest"
)

// benchExchange times one request-reply exchange with s, answering a
// message with no events.
func benchExchange(b *testing.B, s Scheduler) {
	c, err := s.Open(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer c.(interface{ Kill() }).Kill()
	msg := []byte(`{"now":0,"events":[]}`)
	for b.Loop() {
		if _, err := c.Exchange(context.Background(), msg, time.Minute); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTripGoFake is the protocol's overhead per decision round
// trip with a Go decision process (batsimtest, zmq4 on both sides).
func BenchmarkRoundTripGoFake(b *testing.B) {
	benchExchange(b, Scheduler{Name: "echo", Command: batsimtest.Command(batsimtest.Echo, 0)})
}

// BenchmarkRoundTripPython is the same with the Python example
// (python3-zmq) answering a message with no events.
func BenchmarkRoundTripPython(b *testing.B) {
	benchExchange(b, examplePolicy(pythonWithZMQ(b), "easy"))
}

// BenchmarkKTHEasyPython is the full KTH SP2 trace scheduled by the
// Python EASY example through the protocol; BenchmarkKTHEasyBuiltIn is
// the built-in easy on the same jobs (the target: within 10×).
func BenchmarkKTHEasyPython(b *testing.B) {
	py := pythonWithZMQ(b)
	sj := kth(b)
	rounds := 0
	for b.Loop() {
		c, err := examplePolicy(py, "easy").Open(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		out, err := Simulate(context.Background(), sj.Jobs, sj.Procs, c, Options{Name: "easy-py"})
		c.Close()
		if err != nil {
			b.Fatal(err)
		}
		rounds += out.Rounds
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(rounds), "µs/round-trip")
}

func BenchmarkKTHEasyBuiltIn(b *testing.B) {
	sj := kth(b)
	for b.Loop() {
		if _, err := batch.Simulate(context.Background(), sj.Jobs, sj.Procs, batch.EASY, nil); err != nil {
			b.Fatal(err)
		}
	}
}
