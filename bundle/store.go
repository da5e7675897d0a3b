package bundle

import (
	"context"
	"io"

	"schedlab/buildinfo"
	"schedlab/errs"
	"schedlab/runtypes"
	"schedlab/store"
)

// The store gives and takes an experiment as typed rows (store.Snapshot*);
// this file turns them into records and back. Experiment and Workload are
// the store's rows with JSON tags (a conversion); Run differs in its build.

// Store is what Export, Import and ExportSearch need of the store
// (*store.Store).
type Store interface {
	ExportExperiment(ctx context.Context, id string, sink store.ExportSink) error
	ImportExperiment(ctx context.Context, r store.ImportSource, owner string) (*store.Imported, error)
	ExportAdversarySearch(ctx context.Context, id string) (*store.SearchSnapshot, error)
}

// Export writes experiment id of st as a bundle to w, streaming: one run
// is in memory at a time. What store.ExportExperiment refuses (an unknown
// experiment, one still running) is refused before anything is written.
// An error after writing began leaves w without the gzip trailer, which
// the Reader refuses as truncated.
func Export(ctx context.Context, st Store, id string, w io.Writer) error {
	x := &exporter{w: w}
	if err := st.ExportExperiment(ctx, id, x); err != nil {
		return err
	}
	return errs.Wrap(errs.Internal, x.bw.Close())
}

// Import stores the experiment r holds in st, owned by owner, in one
// transaction (store.ImportExperiment): on any error, a bundle found
// truncated or inconsistent at its end included, nothing is stored.
func Import(ctx context.Context, st Store, r *Reader, owner string) (*store.Imported, error) {
	return st.ImportExperiment(ctx, source{r}, owner)
}

// exporter is the store.ExportSink that writes a bundle.
type exporter struct {
	w  io.Writer
	bw *Writer
}

func (x *exporter) Begin(e *store.SnapshotExperiment) (err error) {
	x.bw, err = NewWriter(x.w, NewHeader(), Experiment(*e))
	return err
}

func (x *exporter) Workload(w *store.SnapshotWorkload) error { return x.bw.Workload((*Workload)(w)) }

func (x *exporter) Run(r *store.SnapshotRun) error {
	rec := x.run(r)
	return x.bw.Run(&rec)
}

// run is a store's run as a bundle's record.
func (x *exporter) run(r *store.SnapshotRun) Run {
	rec := Run{ID: r.ID, Kind: r.Kind, WorkloadID: r.WorkloadID, Strategy: r.Strategy, Variant: r.Variant,
		Params: r.Params, Seed: r.Seed, Status: r.Status,
		ProgressDone: r.ProgressDone, ProgressTotal: r.ProgressTotal, ProgressNote: r.ProgressNote,
		Error: r.Error, ErrorField: r.ErrorField, Name: r.Name, Tags: r.Tags, Notes: r.Notes,
		CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt,
		Report: r.Report, Position: r.Position, Cell: r.Cell, Replicate: r.Replicate}
	if r.Build != nil {
		rec.Schedlab = &buildinfo.Build{Version: r.Build.Version, Commit: r.Build.Commit, Modified: r.Build.Modified}
	}
	return rec
}

// source is the store.ImportSource that reads a bundle.
type source struct{ r *Reader }

func (s source) Experiment() store.SnapshotExperiment {
	return store.SnapshotExperiment(s.r.Experiment())
}

func (s source) Build() runtypes.Build { return runtypes.Build(s.r.Header().Schedlab) }

func (s source) Next() (*store.SnapshotWorkload, *store.SnapshotRun, error) {
	w, r, err := s.r.Next()
	if err != nil || w != nil {
		return (*store.SnapshotWorkload)(w), nil, err
	}
	return nil, runRow(r), nil
}

// runRow is a bundle's run record as the store's row.
func runRow(r *Run) *store.SnapshotRun {
	row := &store.SnapshotRun{ID: r.ID, Kind: r.Kind, WorkloadID: r.WorkloadID, Strategy: r.Strategy, Variant: r.Variant,
		Params: r.Params, Seed: r.Seed, Status: r.Status,
		ProgressDone: r.ProgressDone, ProgressTotal: r.ProgressTotal, ProgressNote: r.ProgressNote,
		Error: r.Error, ErrorField: r.ErrorField, Name: r.Name, Tags: r.Tags, Notes: r.Notes,
		CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt,
		Report: r.Report, Position: r.Position, Cell: r.Cell, Replicate: r.Replicate}
	if r.Schedlab != nil {
		row.Build = &runtypes.Build{Version: r.Schedlab.Version, Commit: r.Schedlab.Commit, Modified: r.Schedlab.Modified}
	}
	return row
}
