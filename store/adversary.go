package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/runtypes"
)

// Adversarial search statuses (issue 45). A search is created running
// and ends done, failed (its error says why) or canceled.
const (
	SearchRunning  = "running"
	SearchDone     = "done"
	SearchFailed   = "failed"
	SearchCanceled = "canceled"
)

// AdversarySearch is a stored adversarial search (package adversaries
// drives it). The store keeps Config and Best as given and does not read
// them.
type AdversarySearch struct {
	ID       string
	Strategy string
	Config   json.RawMessage // the search's configuration, a JSON object
	Owner    string          // the user who started it; empty without accounts
	Status   string          // SearchRunning, SearchDone, SearchFailed or SearchCanceled
	Error    string          // why a search failed
	// Best summarises the best candidate so far (a JSON object);
	// BestWorkloadID is its instance, kept as an ordinary workload.
	Best           json.RawMessage
	BestWorkloadID string
	Build          runtypes.Build // the schedlab build that started the search
	Evaluations    int            // evaluations stored (read, not written)
	CreatedAt      time.Time
	EndedAt        *time.Time
}

// AdversaryEvaluation is candidate Position of a search, as the driver
// encoded it (Evaluation, a JSON object the store does not read).
type AdversaryEvaluation struct {
	Position   int
	Key        string // sha256 of the instance; empty for no instance
	Evaluation json.RawMessage
}

// AdversaryCandidate is an instance of a search submitted as a workload
// and the two runs of it, A's and B's, until its outcome is recorded.
type AdversaryCandidate struct {
	Key        string
	WorkloadID string
	RunA, RunB string
}

// CreateAdversarySearch stores a as a new running search and sets its
// ID, Status and CreatedAt.
func (s *Store) CreateAdversarySearch(ctx context.Context, a *AdversarySearch) error {
	switch {
	case strings.TrimSpace(a.Strategy) == "":
		return invalid("strategy", "missing: choose a strategy")
	case !isJSONObject(a.Config):
		return invalid("config", "the search's configuration must be a JSON object")
	}
	created := now()
	id, err := insertNew(func(id string) error {
		_, err := s.db.ExecContext(ctx, `INSERT INTO adversary_searches
			(id, strategy, config, owner, status, build_version, build_commit, build_modified, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, a.Strategy, string(a.Config), nullString(a.Owner), SearchRunning,
			a.Build.Version, a.Build.Commit, a.Build.Modified, fmtTime(created))
		return err
	})
	if err != nil {
		return err
	}
	a.ID, a.Status, a.CreatedAt, a.Best = id, SearchRunning, created, json.RawMessage("{}")
	return nil
}

const searchColumns = `id, strategy, config, owner, status, error, best, best_workload_id, build_version, build_commit,
	build_modified, created_at, ended_at, (SELECT COUNT(*) FROM adversary_evaluations WHERE search_id = adversary_searches.id)`

func scanSearch(sc scanner) (*AdversarySearch, error) {
	var a AdversarySearch
	var config, best, created string
	var owner, bestWorkload, ended sql.NullString
	if err := sc.Scan(&a.ID, &a.Strategy, &config, &owner, &a.Status, &a.Error, &best, &bestWorkload, &a.Build.Version,
		&a.Build.Commit, &a.Build.Modified, &created, &ended, &a.Evaluations); err != nil {
		return nil, err
	}
	a.Config, a.Best, a.Owner, a.BestWorkloadID = json.RawMessage(config), json.RawMessage(best), owner.String, bestWorkload.String
	var err error
	if a.CreatedAt, err = parseTime(created); err != nil {
		return nil, fmt.Errorf("search %s: created_at: %w", a.ID, err)
	}
	if a.EndedAt, err = parseTimePtr(ended); err != nil {
		return nil, fmt.Errorf("search %s: ended_at: %w", a.ID, err)
	}
	return &a, nil
}

// GetAdversarySearch reads search id (errs.NotFound if none).
func (s *Store) GetAdversarySearch(ctx context.Context, id string) (*AdversarySearch, error) {
	a, err := scanSearch(s.db.QueryRowContext(ctx, "SELECT "+searchColumns+" FROM adversary_searches WHERE id = ?", id))
	return one(a, err, notFound("search", id))
}

// ListAdversarySearches lists the searches of status (all when empty),
// oldest first.
func (s *Store) ListAdversarySearches(ctx context.Context, status string) ([]*AdversarySearch, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+searchColumns+` FROM adversary_searches
		WHERE ?1 = '' OR status = ?1 ORDER BY created_at, id`, status)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	var out []*AdversarySearch
	for rows.Next() {
		a, err := scanSearch(rows)
		if err != nil {
			return nil, dbErr(err)
		}
		out = append(out, a)
	}
	return out, dbErr(rows.Err())
}

// AdversarySearchOf is the search whose best instance is workload id,
// or nil: a saved best's provenance.
func (s *Store) AdversarySearchOf(ctx context.Context, workloadID string) (*AdversarySearch, error) {
	a, err := scanSearch(s.db.QueryRowContext(ctx, "SELECT "+searchColumns+
		" FROM adversary_searches WHERE best_workload_id = ? ORDER BY created_at LIMIT 1", workloadID))
	return one(a, err, nil)
}

// AddAdversaryCandidate stores w (with its ID when drawn, else a new
// one) and runs (A's and B's, checked by the
// runner) as candidate key of search, in one transaction, and returns the
// link. A key already linked is errs.Conflict.
func (s *Store) AddAdversaryCandidate(ctx context.Context, search, key string, w *runtypes.Workload, runA, runB *runtypes.Run) (*AdversaryCandidate, error) {
	if len(w.Data) == 0 || !json.Valid(w.Data) || strings.TrimSpace(w.Name) == "" {
		return nil, invalid("data", "a candidate instance needs a name and JSON data")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, dbErr(err)
	}
	defer tx.Rollback()
	created := now()
	wid := w.ID
	if len(wid) != IDLen {
		wid = NewID()
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO workloads
		(id, strategy, name, format, sha256, bytes, summary, data, owner, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, wid, w.Strategy, w.Name, w.Format, key, len(w.Data), w.Summary, w.Data,
		nullString(w.Owner), fmtTime(created)); err != nil {
		return nil, dbErr(err)
	}
	ins, err := newRunInserter(ctx, tx)
	if err != nil {
		return nil, dbErr(err)
	}
	defer ins.close()
	c := &AdversaryCandidate{Key: key, WorkloadID: wid}
	for _, r := range []struct {
		run *runtypes.Run
		id  *string
	}{{runA, &c.RunA}, {runB, &c.RunB}} {
		in := *r.run
		in.WorkloadID = wid
		got, err := ins.insert(ctx, &in, created)
		if err != nil {
			return nil, err
		}
		*r.id = got.ID
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO adversary_candidates (search_id, key, workload_id, run_a, run_b)
		VALUES (?, ?, ?, ?, ?)`, search, key, wid, c.RunA, c.RunB); err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return nil, errs.New(errs.Conflict, "key", "search %s already has candidate %s", search, key)
		}
		return nil, dbErr(err)
	}
	if err := tx.Commit(); err != nil {
		return nil, dbErr(err)
	}
	w.ID, w.SHA256, w.Bytes, w.CreatedAt = wid, key, len(w.Data), created
	return c, nil
}

// AdversaryCandidates are the candidates of search still linked.
func (s *Store) AdversaryCandidates(ctx context.Context, search string) (map[string]AdversaryCandidate, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, workload_id, run_a, run_b FROM adversary_candidates WHERE search_id = ?`, search)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	out := map[string]AdversaryCandidate{}
	for rows.Next() {
		var c AdversaryCandidate
		if err := rows.Scan(&c.Key, &c.WorkloadID, &c.RunA, &c.RunB); err != nil {
			return nil, dbErr(err)
		}
		out[c.Key] = c
	}
	return out, dbErr(rows.Err())
}

// RequeueAdversaryRuns queues again the interrupted runs of the
// candidates of running searches, as RequeueExperimentRuns does for
// experiments, and returns how many.
func (s *Store) RequeueAdversaryRuns(ctx context.Context) (int, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET status = ?1, error = '', error_field = '', started_at = NULL,
		finished_at = NULL, progress_done = 0, progress_total = 0, progress_note = '', worker = '', build_version = '', build_commit = '', build_modified = ''
		WHERE status = ?2 AND id IN (SELECT c.run_a FROM adversary_candidates c JOIN adversary_searches a ON a.id = c.search_id WHERE a.status = ?3
			UNION SELECT c.run_b FROM adversary_candidates c JOIN adversary_searches a ON a.id = c.search_id WHERE a.status = ?3)`,
		runtypes.StatusQueued, runtypes.StatusInterrupted, SearchRunning)
	if err != nil {
		return 0, dbErr(err)
	}
	n, err := res.RowsAffected()
	return int(n), dbErr(err)
}

// RecordAdversaryEvaluations stores evaluations of search (a position
// stored before is kept as it was: a resumed search records its replays
// again, and they count once, as first made) and its best so far, and drops the candidates
// named in drop: their link, their runs and their workloads (the runs
// must have ended), all in one transaction. keep, when not empty, is the
// best's workload.
func (s *Store) RecordAdversaryEvaluations(ctx context.Context, search string, evs []AdversaryEvaluation, best json.RawMessage, keep string, drop []string) error {
	if !isJSONObject(best) {
		return invalid("best", "the best must be a JSON object")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO adversary_evaluations (search_id, position, key, evaluation) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return dbErr(err)
	}
	defer ins.Close()
	for _, e := range evs {
		if !isJSONObject(e.Evaluation) || e.Position < 0 {
			return invalid("evaluation", "evaluation %d is not a JSON object at a position ≥ 0", e.Position)
		}
		if _, err := ins.ExecContext(ctx, search, e.Position, e.Key, string(e.Evaluation)); err != nil {
			return dbErr(err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE adversary_searches SET best = ?, best_workload_id = COALESCE(?, best_workload_id) WHERE id = ?`,
		string(best), nullString(keep), search); err != nil {
		return dbErr(err)
	}
	for _, key := range drop {
		var c AdversaryCandidate
		err := tx.QueryRowContext(ctx, `SELECT workload_id, run_a, run_b FROM adversary_candidates WHERE search_id = ? AND key = ?`,
			search, key).Scan(&c.WorkloadID, &c.RunA, &c.RunB)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return dbErr(err)
		}
		// The runs (and with them the link), then the workload unless
		// something else uses it.
		if _, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE id IN (?, ?) AND status NOT IN (?, ?)`,
			c.RunA, c.RunB, runtypes.StatusQueued, runtypes.StatusRunning); err != nil {
			return dbErr(err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM workloads WHERE id = ? AND NOT EXISTS (SELECT 1 FROM runs WHERE workload_id = ?)
			AND NOT EXISTS (SELECT 1 FROM adversary_searches WHERE best_workload_id = ?)`, c.WorkloadID, c.WorkloadID, c.WorkloadID); err != nil {
			return dbErr(err)
		}
	}
	return dbErr(tx.Commit())
}

// AdversaryEvaluations reads the evaluations of search in order.
func (s *Store) AdversaryEvaluations(ctx context.Context, search string) ([]AdversaryEvaluation, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT position, key, evaluation FROM adversary_evaluations WHERE search_id = ? ORDER BY position`, search)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	var out []AdversaryEvaluation
	for rows.Next() {
		var e AdversaryEvaluation
		var ev string
		if err := rows.Scan(&e.Position, &e.Key, &ev); err != nil {
			return nil, dbErr(err)
		}
		e.Evaluation = json.RawMessage(ev)
		out = append(out, e)
	}
	return out, dbErr(rows.Err())
}

// EndAdversarySearch ends a running search with status (SearchDone,
// SearchFailed or SearchCanceled) and msg; when the best's workload is
// kept, name and summary relabel it (its provenance). A search already
// ended is errs.Conflict.
func (s *Store) EndAdversarySearch(ctx context.Context, id, status, msg, name, summary string) error {
	switch status {
	case SearchDone, SearchFailed, SearchCanceled:
	default:
		return invalid("status", "must be %q, %q or %q, got %q", SearchDone, SearchFailed, SearchCanceled, status)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE adversary_searches SET status = ?, error = ?, ended_at = ? WHERE id = ? AND status = ?`,
		status, msg, fmtTime(now()), id, SearchRunning)
	if err != nil {
		return dbErr(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		tx.Rollback()
		if _, err := s.GetAdversarySearch(ctx, id); err != nil {
			return err
		}
		return errs.New(errs.Conflict, "id", "search %s has already ended", id)
	}
	if name != "" {
		if _, err := tx.ExecContext(ctx, `UPDATE workloads SET name = ?, summary = ?
			WHERE id = (SELECT best_workload_id FROM adversary_searches WHERE id = ?)`, name, summary, id); err != nil {
			return dbErr(err)
		}
	}
	return dbErr(tx.Commit())
}
