package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"schedlab/bundle"
	"schedlab/runtypes"
	. "schedlab/store"
)

// largeExperiment fills a database with an experiment of n done runs, each
// with a report of about 600 bytes (three metrics and a small table).
func largeExperiment(b *testing.B, n int) (*Store, string) {
	b.Helper()
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Data: []byte(`{"tasks":[1,2,3]}`)}
	if err := s.CreateWorkload(ctx, w); err != nil {
		b.Fatal(err)
	}
	e := &Experiment{Strategy: "eapm", Status: ExperimentDone, Definition: json.RawMessage(`{"name":"large"}`)}
	err = s.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online",
		Params: map[string]string{"gamma": "1.3", "order": "fifo"}}, n,
		func(i int) ExperimentCell {
			return ExperimentCell{Cell: json.RawMessage(`{"gamma":"1.3","instance":` + strconv.Itoa(i/100) + `}`), Replicate: i % 100}
		},
		func(i int) []Metric {
			return []Metric{{Name: "objective", Value: float64(i)}, {Name: "energy", Value: float64(i) / 3}, {Name: "time", Value: 1}}
		})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := DB(s).Exec(`INSERT INTO run_reports (run_id, report)
		SELECT run_id, json_object('metrics', json_array(
				json_object('name', 'objective', 'value', position, 'unit', '$', 'better', 'higher'),
				json_object('name', 'energy', 'value', position / 3.0, 'unit', 'J', 'better', 'lower'),
				json_object('name', 'time', 'value', 1, 'unit', 's', 'better', 'lower')),
			'tables', json_array(json_object('title', 'Assignment', 'columns', json_array('task', 'machine', 'start', 'end'),
				'rows', json_array(json_array(1, 'm1', 0, 3.5), json_array(2, 'm2', 0, 4.25), json_array(3, 'm1', 3.5, 9))))) 
		FROM experiment_runs WHERE experiment_id = ?`, e.ID); err != nil {
		b.Fatal(err)
	}
	return s, e.ID
}

// counter counts what is written to it.
type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

// BenchmarkExportExperiment100k streams an experiment of 100,000 done runs
// with their reports as a bundle.
func BenchmarkExportExperiment100k(b *testing.B) {
	s, id := largeExperiment(b, benchRuns)
	b.ReportAllocs()
	b.ResetTimer()
	var n counter
	for b.Loop() {
		n = 0
		if err := bundle.Export(context.Background(), s, id, &n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/(1<<20), "MiB-bundle")
}

// BenchmarkImportExperiment100k stores that bundle into a fresh database.
func BenchmarkImportExperiment100k(b *testing.B) {
	s, id := largeExperiment(b, benchRuns)
	var buf bytes.Buffer
	if err := bundle.Export(context.Background(), s, id, &buf); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		dst, err := Open(filepath.Join(b.TempDir(), "dst.db"))
		if err != nil {
			b.Fatal(err)
		}
		r, err := bundle.NewReader(bytes.NewReader(buf.Bytes()), 0)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		got, err := bundle.Import(context.Background(), dst, r, "")
		if err != nil || got.Runs != benchRuns {
			b.Fatal(got, err)
		}
		b.StopTimer()
		dst.Close()
		b.StartTimer()
	}
}

// benchRuns is the size of the benchmarks' experiment: the largest.
const benchRuns = 100_000
