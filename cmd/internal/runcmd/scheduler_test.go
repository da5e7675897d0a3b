package runcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestWorkerTakesSchedulerFlags: a worker's --scheduler flags (both
// spellings) are read and removed; the rest go to the queue's flags; the
// server hands its own to the workers it starts in the same form.
func TestWorkerTakesSchedulerFlags(t *testing.T) {
	rest, sf, err := TakeSchedulers([]string{"--nats", "nats://x", "--scheduler", "easy=python3 s.py {endpoint}", "--scheduler=mine=tcp://h:1", "--concurrency", "1"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rest, []string{"--nats", "nats://x", "--concurrency", "1"}) {
		t.Errorf("rest %v", rest)
	}
	if len(sf) != 2 || sf[0].Variant() != "external:easy" || sf[1].Endpoint != "tcp://h:1" {
		t.Fatalf("schedulers %+v", sf)
	}
	again, sf2, err := TakeSchedulers(sf.Args())
	if err != nil || len(again) != 0 || sf2[0].String() != sf[0].String() || sf2[1].String() != sf[1].String() {
		t.Errorf("the server's flags for its workers read back as %+v %v %v", sf2, again, err)
	}
	if _, _, err := TakeSchedulers([]string{"--scheduler", "easy=python3 s.py"}); err == nil || !strings.Contains(err.Error(), "{endpoint}") {
		t.Errorf("a command without {endpoint}: %v", err)
	}
	if _, _, err := TakeSchedulers([]string{"--scheduler"}); err == nil {
		t.Error("--scheduler without a value is accepted")
	}
}
