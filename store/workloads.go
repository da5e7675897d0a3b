package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"schedlab/errs"
	"schedlab/runtypes"
)

// CreateWorkload stores w in one statement (all or nothing) and fills in its
// ID, SHA256, Bytes and CreatedAt.
func (s *Store) CreateWorkload(ctx context.Context, w *runtypes.Workload) error {
	switch {
	case strings.TrimSpace(w.Strategy) == "":
		return invalid("strategy", "missing: a workload belongs to a strategy")
	case strings.TrimSpace(w.Name) == "":
		return invalid("name", "missing: a workload needs a name")
	case len(w.Data) == 0:
		return invalid("data", "the workload is empty")
	case !json.Valid(w.Data):
		return invalid("data", "the workload data is not JSON")
	case len(w.Preview) > 0 && !json.Valid(w.Preview):
		return invalid("preview", "the preview is not JSON")
	case w.UploadBytes < 0 || (w.UploadSHA256 == "") != (w.UploadBytes == 0):
		return invalid("upload_sha256", "an uploaded file's checksum and size go together")
	}
	sum := sha256.Sum256(w.Data)
	created := now()
	id, err := insertNew(func(id string) error {
		_, err := s.db.ExecContext(ctx, `INSERT INTO workloads
			(id, strategy, name, format, sha256, bytes, summary, data, preview, owner, created_at, upload_sha256, upload_bytes)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, w.Strategy, w.Name, w.Format, hex.EncodeToString(sum[:]), len(w.Data), w.Summary, w.Data, nullString(string(w.Preview)),
			nullString(w.Owner), fmtTime(created), w.UploadSHA256, w.UploadBytes)
		return err
	})
	if err != nil {
		return err
	}
	w.ID, w.SHA256, w.Bytes, w.CreatedAt = id, hex.EncodeToString(sum[:]), len(w.Data), created
	return nil
}

const workloadListColumns = "id, strategy, name, format, sha256, bytes, summary, owner, created_at, upload_sha256, upload_bytes"

func scanWorkload(sc interface{ Scan(...any) error }, full bool) (*runtypes.Workload, error) {
	var w runtypes.Workload
	var created string
	var preview, owner sql.NullString
	dest := []any{&w.ID, &w.Strategy, &w.Name, &w.Format, &w.SHA256, &w.Bytes, &w.Summary, &owner, &created, &w.UploadSHA256, &w.UploadBytes}
	if full {
		dest = append(dest, &w.Data, &preview)
	}
	if err := sc.Scan(dest...); err != nil {
		return nil, err
	}
	t, err := parseTime(created)
	if err != nil {
		return nil, fmt.Errorf("workload %s: created_at: %w", w.ID, err)
	}
	w.CreatedAt, w.Owner = t, owner.String
	if preview.Valid {
		w.Preview = json.RawMessage(preview.String)
	}
	return &w, nil
}

// GetWorkload returns the workload with its data and preview, or
// errs.NotFound.
func (s *Store) GetWorkload(ctx context.Context, id string) (*runtypes.Workload, error) {
	return s.getWorkload(ctx, "data, preview", id)
}

// GetWorkloadData returns the workload with its data but not its preview
// (a report, which may be larger than the data), or errs.NotFound: what a
// run needs.
func (s *Store) GetWorkloadData(ctx context.Context, id string) (*runtypes.Workload, error) {
	return s.getWorkload(ctx, "data, NULL", id)
}

func (s *Store) getWorkload(ctx context.Context, columns, id string) (*runtypes.Workload, error) {
	row := s.db.QueryRowContext(ctx, "SELECT "+workloadListColumns+", "+columns+" FROM workloads WHERE id = ?", id)
	w, err := scanWorkload(row, true)
	return one(w, err, notFound("workload", id))
}

// GetWorkloadInfo returns the workload without its Data and Preview (which
// may be megabytes), or errs.NotFound: what a page about its runs shows.
func (s *Store) GetWorkloadInfo(ctx context.Context, id string) (*runtypes.Workload, error) {
	w, err := scanWorkload(s.db.QueryRowContext(ctx, "SELECT "+workloadListColumns+" FROM workloads WHERE id = ?", id), false)
	return one(w, err, notFound("workload", id))
}

// FindWorkloadByContent returns the oldest stored workload of strategy
// whose data is data (equal sha256), without Data and Preview, among the
// workloads of owner (a user ID; empty: any); errs.NotFound when there is
// none.
func (s *Store) FindWorkloadByContent(ctx context.Context, strategy string, data []byte, owner string) (*runtypes.Workload, error) {
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	w, err := scanWorkload(s.db.QueryRowContext(ctx, "SELECT "+workloadListColumns+` FROM workloads
		WHERE strategy = ? AND sha256 = ? AND (? = '' OR owner = ?) ORDER BY created_at, rowid LIMIT 1`,
		strategy, sha, owner, owner), false)
	return one(w, err, notFound("workload with sha256", sha))
}

// ListWorkloads returns workloads newest first, without Data and Preview.
// An empty strategy means all; limit ≤ 0 means no limit.
func (s *Store) ListWorkloads(ctx context.Context, strategy string, limit int) ([]runtypes.Workload, error) {
	ws, _, err := s.ListWorkloadsPage(ctx, strategy, "", limit, "")
	return ws, err
}

// ListWorkloadsPage returns a page of workloads newest first, without Data
// and Preview: at most limit (≤ 0: all) from cursor on, and the cursor of the
// next page, empty when this page is the last. An empty strategy means
// all; a non-empty owner (a user ID) only that user's.
func (s *Store) ListWorkloadsPage(ctx context.Context, strategy, owner string, limit int, cursor Cursor) ([]runtypes.Workload, Cursor, error) {
	var where []string
	var args []any
	if strategy != "" {
		where = append(where, "strategy = ?")
		args = append(args, strategy)
	}
	if owner != "" {
		where = append(where, "owner = ?")
		args = append(args, owner)
	}
	q, args, err := pageQuery("workloads", workloadListColumns, where, args, cursor, limit)
	if err != nil {
		return nil, "", err
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, "", dbErr(err)
	}
	return scanPage(rows, limit, func(sc scanner) (*runtypes.Workload, error) { return scanWorkload(sc, false) })
}

// WorkloadNames maps the given workload ids to their names, for lists of
// runs; unknown ids are left out. It reads only those rows.
func (s *Store) WorkloadNames(ctx context.Context, ids []string) (map[string]string, error) {
	m := make(map[string]string, len(ids))
	seen := map[string]bool{}
	var args []any
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	// At most maxNames placeholders per statement, far below SQLite's limit.
	const maxNames = 500
	for len(args) > 0 {
		n := min(len(args), maxNames)
		q := "SELECT id, name FROM workloads WHERE id IN (?" + strings.Repeat(", ?", n-1) + ")"
		rows, err := s.db.QueryContext(ctx, q, args[:n]...)
		if err != nil {
			return nil, dbErr(err)
		}
		for rows.Next() {
			var id, name string
			if err := rows.Scan(&id, &name); err != nil {
				rows.Close()
				return nil, dbErr(err)
			}
			m[id] = name
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, dbErr(err)
		}
		args = args[n:]
	}
	return m, nil
}

// DeleteWorkload deletes a workload no run uses. A workload that runs use is
// errs.Conflict (a stored run must stay re-runnable): delete the runs first.
func (s *Store) DeleteWorkload(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	var exists, used int
	err = tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM workloads WHERE id = ?),
		(SELECT COUNT(*) FROM runs WHERE workload_id = ?)`, id, id).Scan(&exists, &used)
	if err != nil {
		return dbErr(err)
	}
	if exists == 0 {
		return notFound("workload", id)
	}
	if used > 0 {
		return errs.New(errs.Conflict, "id", "workload %s is used by %d run(s): delete them first", id, used)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM workloads WHERE id = ?", id); err != nil {
		return dbErr(err)
	}
	if err := tx.Commit(); err != nil {
		return dbErr(err)
	}
	_, err = s.ReclaimSpace(ctx)
	return err
}
