package batch

import (
	"context"
	"runtime"
	"testing"

	"schedlab/errs"
)

func TestSimulateRefusesPlacementsOverTheBudgetBeforeAllocating(t *testing.T) {
	// 1000 jobs of 5 million processors each on a 10-million-processor
	// machine (procs is at most 10,000,000): 40 GB of processor ids.
	jobs := make([]Job, 1000)
	for i := range jobs {
		jobs[i] = Job{ID: i + 1, Submit: float64(i), Size: 5_000_000, Estimate: 10, Run: 10}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	_, err := Simulate(context.Background(), jobs, 10_000_000, EASY, nil)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "procs" {
		t.Errorf("40 GB of placements: %v, want TooLarge on procs", err)
	}
	runtime.ReadMemStats(&m)
	if d := m.TotalAlloc - before; d > 64<<20 {
		t.Errorf("refusing it allocated %d MiB", d>>20)
	}
}
