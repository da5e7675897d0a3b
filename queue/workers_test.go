package queue

import (
	"testing"
	"time"

	"schedlab/queue/wire"
	"schedlab/runtypes"
)

// TestWorkersDropsALostWorkerAfterItsGrace: a worker whose heartbeats
// stopped is listed lost for workerGrace, then no more.
func TestWorkersDropsALostWorkerAfterItsGrace(t *testing.T) {
	const interval = time.Second
	d := &Dispatcher{cfg: Config{HeartbeatInterval: interval}, workers: map[string]*workerAt{}}
	at := func(name string, ago time.Duration) {
		d.workers[name] = &workerAt{hb: wire.Heartbeat{WorkerStatus: runtypes.WorkerStatus{Name: name, Running: []string{"run-of-" + name}}, Interval: interval},
			seen: time.Now().Add(-ago)}
	}
	at("live:1", 0)
	at("lost:2", 4*interval)
	at("gone:3", 3*interval+workerGrace+time.Second)
	ws := d.Workers()
	if len(ws) != 2 || ws[0].Name != "live:1" || ws[0].Lost || ws[1].Name != "lost:2" || !ws[1].Lost {
		t.Fatalf("workers %+v, want live:1 then lost:2 (lost), gone:3 dropped", ws)
	}
	if _, ok := d.workers["gone:3"]; ok {
		t.Error("a worker past its grace is still remembered")
	}
}
