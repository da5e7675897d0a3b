package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"schedlab/errs"
	"schedlab/runtypes"
)

// Experiment snapshots: ExportExperiment reads a finished experiment with
// the workloads and runs it uses as plain rows and hands them to an
// ExportSink; ImportExperiment stores the rows an ImportSource gives. The
// file format of such a snapshot (an experiment bundle) is package
// bundle's, above the store: the store knows rows, not the format.

// SnapshotExperiment is the experiment row of a snapshot.
type SnapshotExperiment struct {
	ID, Name, Strategy string
	Definition         json.RawMessage // as stored
	Tags               []string
	Notes              string
	Status             string // ExperimentDone or ExperimentCanceled
	RunsTotal          int
	CreatedAt          time.Time
}

// SnapshotWorkload is a workload a run of the snapshot uses.
type SnapshotWorkload struct {
	ID, Strategy, Name, Format, Summary string
	SHA256                              string // of Data
	Data                                string
	Preview                             json.RawMessage // or empty
	UploadSHA256                        string
	UploadBytes                         int
	CreatedAt                           time.Time
}

// SnapshotRun is one run of the snapshot with its place in the sweep and
// its whole report (paged tables' rows back in).
type SnapshotRun struct {
	ID, Kind, WorkloadID, Strategy, Variant string
	Params                                  map[string]string
	Seed                                    int64
	Status                                  string
	ProgressDone, ProgressTotal             int
	ProgressNote, Error, ErrorField         string
	Name                                    string
	Tags                                    []string
	Notes                                   string
	CreatedAt                               time.Time
	StartedAt, FinishedAt                   *time.Time
	Build                                   *runtypes.Build // nil when not recorded
	Report                                  json.RawMessage
	Position                                int
	Cell                                    json.RawMessage
	Replicate                               int
}

// ExportSink receives a snapshot: the experiment first (Begin), then its
// workloads, then its runs in position order. The values are only valid
// during the call (a report is not copied).
type ExportSink interface {
	Begin(*SnapshotExperiment) error
	Workload(*SnapshotWorkload) error
	Run(*SnapshotRun) error
}

// ImportSource gives a snapshot to store: Next returns a workload or a
// run, and io.EOF after the last; Build is the build that wrote it.
type ImportSource interface {
	Experiment() SnapshotExperiment
	Build() runtypes.Build
	Next() (*SnapshotWorkload, *SnapshotRun, error)
}

// ExportExperiment gives experiment id, the workloads its runs use and
// every run with its report to sink (package bundle writes them as a
// bundle). It reads
// everything in one read transaction (a snapshot: runs finishing meanwhile
// do not tear it) and streams: one workload or run is in memory at a time.
// An unknown experiment is errs.NotFound and one with queued or running
// runs errs.Conflict (a bundle holds finished experiments only); both are
// found before anything is written. A "running" experiment whose runs are
// all final is given as "done".
func (s *Store) ExportExperiment(ctx context.Context, id string, sink ExportSink) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	e, err := scanExperiment(tx.QueryRowContext(ctx, "SELECT "+experimentColumns+" FROM experiments WHERE id = ?", id))
	if e, err = one(e, err, notFound("experiment", id)); err != nil {
		return err
	}
	var active int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM experiment_runs JOIN runs ON runs.id = run_id
		WHERE experiment_id = ? AND status IN (?, ?)`, id, runtypes.StatusQueued, runtypes.StatusRunning).Scan(&active); err != nil {
		return dbErr(err)
	}
	if active > 0 {
		return errs.New(errs.Conflict, "id", "experiment %s has %d queued or running runs: export it when it has finished, or cancel it first", id, active)
	}
	var pending int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM workloads WHERE sha256 = '' AND id IN (SELECT r.workload_id
		FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id WHERE er.experiment_id = ?)`, id).Scan(&pending); err != nil {
		return dbErr(err)
	}
	if pending > 0 {
		return errs.New(errs.Conflict, "id", "experiment %s has %d workloads not generated yet (their runs were canceled first): resume it and let it finish to export it", id, pending)
	}
	if e.Status == ExperimentRunning {
		e.Status = ExperimentDone
	}
	if err := sink.Begin(&SnapshotExperiment{ID: e.ID, Name: e.Name, Strategy: e.Strategy,
		Definition: e.Definition, Tags: e.Tags, Notes: e.Notes, Status: e.Status, RunsTotal: e.RunsTotal, CreatedAt: e.CreatedAt}); err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	if err := exportWorkloads(ctx, tx, id, sink); err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return errs.Wrap(errs.Internal, exportRuns(ctx, tx, id, sink))
}

// exportWorkloads writes the workloads the experiment's runs use, by id.
func exportWorkloads(ctx context.Context, tx *sql.Tx, id string, sink ExportSink) error {
	return snapshotWorkloads(ctx, tx, `id IN (SELECT r.workload_id FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
			WHERE er.experiment_id = ?)`, []any{id}, sink.Workload)
}

// snapshotWorkloads gives the workloads where selects to sink, by id.
func snapshotWorkloads(ctx context.Context, tx *sql.Tx, where string, args []any, sink func(*SnapshotWorkload) error) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, strategy, name, format, summary, sha256, data, preview, created_at,
			upload_sha256, upload_bytes
		FROM workloads WHERE `+where+`
		ORDER BY id`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var w SnapshotWorkload
		var data, preview sql.RawBytes
		var created string
		if err := rows.Scan(&w.ID, &w.Strategy, &w.Name, &w.Format, &w.Summary, &w.SHA256, &data, &preview, &created,
			&w.UploadSHA256, &w.UploadBytes); err != nil {
			return err
		}
		if w.CreatedAt, err = parseTime(created); err != nil {
			return fmt.Errorf("workload %s: created_at: %w", w.ID, err)
		}
		w.Data, w.Preview = string(data), json.RawMessage(preview)
		if err := sink(&w); err != nil {
			return err
		}
	}
	return rows.Err()
}

// exportRuns writes the experiment's runs in position order with their
// reports; each report is scanned as RawBytes and encoded before the next
// row is read, so it is never copied.
func exportRuns(ctx context.Context, tx *sql.Tx, id string, sink ExportSink) error {
	return snapshotRuns(ctx, tx, `SELECT er.position, er.cell, er.replicate, `+snapshotRunColumns+`
		FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id LEFT JOIN run_reports AS rr ON rr.run_id = r.id
		WHERE er.experiment_id = ?
		ORDER BY er.position`, []any{id}, sink.Run)
}

// snapshotRunColumns are the columns of a run snapshotRuns reads after
// its position, cell and replicate.
const snapshotRunColumns = `r.id, r.kind, r.workload_id, r.strategy,
			r.variant, r.params, r.seed, r.status, r.progress_done, r.progress_total, r.progress_note, r.error, r.error_field,
			r.created_at, r.started_at, r.finished_at, rr.report, r.name, r.notes,
			r.build_version, r.build_commit, r.build_modified,
			(SELECT json_group_array(tag) FROM run_tags WHERE run_id = r.id)`

// snapshotRuns gives each run query selects (position, cell, replicate,
// then snapshotRunColumns) to sink, its report whole.
func snapshotRuns(ctx context.Context, tx *sql.Tx, query string, args []any, sink func(*SnapshotRun) error) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r SnapshotRun
		var cell, params, report, tags sql.RawBytes
		var workload, started, finished sql.NullString
		var created string
		var b runtypes.Build
		if err := rows.Scan(&r.Position, &cell, &r.Replicate, &r.ID, &r.Kind, &workload, &r.Strategy, &r.Variant, &params,
			&r.Seed, &r.Status, &r.ProgressDone, &r.ProgressTotal, &r.ProgressNote, &r.Error, &r.ErrorField,
			&created, &started, &finished, &report, &r.Name, &r.Notes, &b.Version, &b.Commit, &b.Modified, &tags); err != nil {
			return err
		}
		if b != (runtypes.Build{}) {
			r.Build = &b
		}
		if err := json.Unmarshal(tags, &r.Tags); err != nil {
			return fmt.Errorf("run %s: tags: %w", r.ID, err)
		}
		if len(r.Tags) == 0 {
			r.Tags = nil
		}
		if err := json.Unmarshal(params, &r.Params); err != nil {
			return fmt.Errorf("run %s: params: %w", r.ID, err)
		}
		if r.CreatedAt, err = parseTime(created); err != nil {
			return fmt.Errorf("run %s: created_at: %w", r.ID, err)
		}
		if r.StartedAt, err = parseTimePtr(started); err != nil {
			return fmt.Errorf("run %s: started_at: %w", r.ID, err)
		}
		if r.FinishedAt, err = parseTimePtr(finished); err != nil {
			return fmt.Errorf("run %s: finished_at: %w", r.ID, err)
		}
		r.WorkloadID, r.Cell, r.Report = workload.String, json.RawMessage(cell), json.RawMessage(report)
		// A bundle carries whole reports: paged tables' rows go back in.
		if r.Report, err = pageIn(r.Report, func(index int) ([]json.RawMessage, error) {
			return allTableRows(ctx, tx, r.ID, index)
		}); err != nil {
			return fmt.Errorf("run %s: report: %w", r.ID, err)
		}
		if err := sink(&r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Imported says what ImportExperiment stored.
type Imported struct {
	ExperimentID string
	Runs         int
	// Workloads counts the workloads the bundle holds; Reused those of
	// them this database had already (same id and data), stored once.
	Workloads, Reused int
	// Schedlab is the build that wrote the snapshot.
	Schedlab runtypes.Build
}

// ImportExperiment stores the experiment a snapshot (a bundle, read by
// package bundle) holds, with its
// workloads and runs, keeping their IDs (links stay the same), in one
// transaction: on any error nothing is stored. It reads r to its end: a
// truncated or inconsistent bundle is refused (errs.Invalid, or
// errs.TooLarge past its limit) after the rows read so far are rolled
// back. An experiment or run ID already in the database is errs.Conflict;
// a workload ID already in it is reused when its data is the same (equal
// sha256) and errs.Conflict otherwise. Done runs get their run_metrics as
// Finish gives them. What is stored is owned by owner (a user ID; empty
// without accounts). It returns what it stored (Imported) to the importer.
func (s *Store) ImportExperiment(ctx context.Context, r ImportSource, owner string) (*Imported, error) {
	e := r.Experiment()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, dbErr(err)
	}
	defer tx.Rollback()
	conflict := func(format string, args ...any) error {
		return errs.New(errs.Conflict, "bundle", format, args...)
	}
	if err := exists(ctx, tx, "SELECT 1 FROM experiments WHERE id = ?", e.ID); err == nil {
		return nil, conflict("experiment %s is already in this database", e.ID)
	} else if !errors.Is(err, sql.ErrNoRows) {
		return nil, dbErr(err)
	}
	tags, err := json.Marshal(e.Tags)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO experiments
		(id, name, strategy, definition, tags, notes, owner, status, runs_total, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.Name, e.Strategy, string(e.Definition), string(tags), e.Notes, nullString(owner), e.Status, e.RunsTotal,
		fmtTime(e.CreatedAt)); err != nil {
		return nil, dbErr(err)
	}
	ins, err := newImporter(ctx, tx)
	if err != nil {
		return nil, dbErr(err)
	}
	defer ins.close()
	out := &Imported{ExperimentID: e.ID, Schedlab: r.Build()}
	for {
		w, run, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if w != nil {
			var have string
			err := tx.QueryRowContext(ctx, "SELECT sha256 FROM workloads WHERE id = ?", w.ID).Scan(&have)
			switch {
			case err == nil && have == w.SHA256:
				out.Reused++
			case err == nil:
				return nil, conflict("workload %s is already in this database with other data (sha256 %s, the bundle's %s)", w.ID, have, w.SHA256)
			case !errors.Is(err, sql.ErrNoRows):
				return nil, dbErr(err)
			default:
				if err := ins.workload(ctx, w, owner); err != nil {
					return nil, dbErr(err)
				}
			}
			out.Workloads++
			continue
		}
		err = ins.run(ctx, e.ID, run, owner)
		if isIDCollision(err) {
			return nil, conflict("run %s is already in this database", run.ID)
		}
		if err != nil {
			return nil, dbErr(err)
		}
		out.Runs++
	}
	if err := recountExperiment(ctx, tx, e.ID); err != nil {
		return nil, dbErr(err)
	}
	if err := tx.Commit(); err != nil {
		return nil, dbErr(err)
	}
	return out, nil
}

// importer inserts a bundle's rows with prepared statements.
type importer struct {
	workloadStmt, runStmt, tagsStmt, reportStmt, metricsStmt, linkStmt, pageStmt *sql.Stmt
}

func newImporter(ctx context.Context, tx *sql.Tx) (*importer, error) {
	ins := &importer{}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&ins.workloadStmt, `INSERT INTO workloads (id, strategy, name, format, sha256, bytes, summary, data, preview, owner, created_at,
			upload_sha256, upload_bytes)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&ins.runStmt, `INSERT INTO runs (id, kind, workload_id, strategy, variant, params, seed, status,
			progress_done, progress_total, progress_note, error, error_field, owner, created_at, started_at, finished_at,
			name, notes, build_version, build_commit, build_modified)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&ins.tagsStmt, "INSERT INTO run_tags (run_id, tag) SELECT ?, value FROM json_each(?)"},
		{&ins.reportStmt, "INSERT INTO run_reports (run_id, report) VALUES (?, ?)"},
		{&ins.metricsStmt, metricsInsert},
		{&ins.pageStmt, insertTablePage},
		{&ins.linkStmt, "INSERT INTO experiment_runs (experiment_id, position, run_id, cell, replicate) VALUES (?, ?, ?, ?, ?)"},
	} {
		st, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			ins.close()
			return nil, err
		}
		*p.stmt = st
	}
	return ins, nil
}

func (ins *importer) close() {
	for _, st := range []*sql.Stmt{ins.workloadStmt, ins.runStmt, ins.tagsStmt, ins.reportStmt, ins.metricsStmt, ins.linkStmt, ins.pageStmt} {
		if st != nil {
			st.Close()
		}
	}
}

func (ins *importer) workload(ctx context.Context, w *SnapshotWorkload, owner string) error {
	_, err := ins.workloadStmt.ExecContext(ctx, w.ID, w.Strategy, w.Name, w.Format, w.SHA256, len(w.Data), w.Summary,
		[]byte(w.Data), nullString(string(w.Preview)), nullString(owner), fmtTime(w.CreatedAt), w.UploadSHA256, w.UploadBytes)
	return err
}

// run inserts a run, its report, its metrics (a done run's, as Finish
// stores them) and its link to the experiment.
func (ins *importer) run(ctx context.Context, experiment string, r *SnapshotRun, owner string) error {
	params, err := json.Marshal(r.Params)
	if err != nil {
		return err
	}
	fmtPtr := func(t *time.Time) sql.NullString {
		if t == nil {
			return sql.NullString{}
		}
		return sql.NullString{String: fmtTime(*t), Valid: true}
	}
	tags, err := CheckLabels(r.Name, r.Tags, r.Notes)
	if err != nil {
		return fmt.Errorf("run %s: %w", r.ID, err)
	}
	var b runtypes.Build
	if r.Build != nil {
		b = *r.Build
	}
	if _, err := ins.runStmt.ExecContext(ctx, r.ID, r.Kind, nullString(r.WorkloadID), r.Strategy, r.Variant, string(params),
		r.Seed, r.Status, r.ProgressDone, r.ProgressTotal, r.ProgressNote, r.Error, r.ErrorField, nullString(owner),
		fmtTime(r.CreatedAt), fmtPtr(r.StartedAt), fmtPtr(r.FinishedAt), r.Name, r.Notes, b.Version, b.Commit, b.Modified); err != nil {
		return err
	}
	if len(tags) > 0 {
		tagsJSON, err := json.Marshal(tags)
		if err != nil {
			return err
		}
		if _, err := ins.tagsStmt.ExecContext(ctx, r.ID, string(tagsJSON)); err != nil {
			return err
		}
	}
	if len(r.Report) > 0 {
		if err := storeReport(ctx, ins.reportStmt, ins.pageStmt, r.ID, r.Report); err != nil {
			return err
		}
		if r.Status == runtypes.StatusDone {
			if m := metricsOf(r.Report); m != nil {
				if _, err := ins.metricsStmt.ExecContext(ctx, r.ID, string(m)); err != nil {
					return err
				}
			}
		}
	}
	if experiment == "" {
		return nil // a search's run: no sweep to link it to
	}
	_, err = ins.linkStmt.ExecContext(ctx, experiment, r.Position, r.ID, string(r.Cell), r.Replicate)
	return err
}
