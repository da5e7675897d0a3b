package batsim

import (
	"context"
	"testing"
	"time"
)

// BenchmarkRoundTripPython is one request-reply exchange with a Python
// REP socket that answers at once (python3-zmq): the protocol's overhead
// per decision, without any scheduling.
func BenchmarkRoundTripPython(b *testing.B) {
	py := pythonWithZMQ(b)
	c, err := Scheduler{Name: "echo", Command: []string{py, "/tmp/echo_rep.py", "{endpoint}"}}.Open(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer c.(interface{ Kill() }).Kill()
	msg := []byte(`{"now":0,"events":[{"timestamp":0,"type":"JOB_SUBMITTED","data":{"job_id":"w0!1","job":{"id":"w0!1","subtime":0,"walltime":3600,"res":4,"profile":"swf"}}}]}`)
	for b.Loop() {
		if _, err := c.Exchange(context.Background(), msg, time.Minute); err != nil {
			b.Fatal(err)
		}
	}
}
