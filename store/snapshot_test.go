package store

import (
	"context"
	"encoding/json"
	"io"
	"schedlab/runtypes"
	"testing"
)

// memSnapshot is an ExportSink and ImportSource in memory: the store's
// side of a bundle without its file format (package bundle's tests, and
// this package's external ones, cover the format).
type memSnapshot struct {
	exp       SnapshotExperiment
	workloads []SnapshotWorkload
	runs      []SnapshotRun
	next      int
}

func (m *memSnapshot) Begin(e *SnapshotExperiment) error { m.exp = *e; return nil }

func (m *memSnapshot) Experiment() SnapshotExperiment { return m.exp }

func (m *memSnapshot) Workload(w *SnapshotWorkload) error {
	m.workloads = append(m.workloads, *w)
	return nil
}

// Run copies the report: the store hands it over only for the call.
func (m *memSnapshot) Run(r *SnapshotRun) error {
	c := *r
	c.Report = append(json.RawMessage(nil), r.Report...)
	m.runs = append(m.runs, c)
	return nil
}

func (m *memSnapshot) Build() runtypes.Build {
	return runtypes.Build{Version: "v0", Commit: "c", Modified: "false"}
}

func (m *memSnapshot) Next() (*SnapshotWorkload, *SnapshotRun, error) {
	defer func() { m.next++ }()
	switch i := m.next; {
	case i < len(m.workloads):
		return &m.workloads[i], nil, nil
	case i < len(m.workloads)+len(m.runs):
		return nil, &m.runs[i-len(m.workloads)], nil
	}
	return nil, nil, io.EOF
}

// exportMem exports experiment id into memory.
func exportMem(t *testing.T, s *Store, id string) *memSnapshot {
	t.Helper()
	m := &memSnapshot{}
	if err := s.ExportExperiment(context.Background(), id, m); err != nil {
		t.Fatal(err)
	}
	return m
}
