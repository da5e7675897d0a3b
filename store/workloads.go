package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"schedlab/errs"
)

// Workload is a stored workload: a strategy's canonical JSON instance.
type Workload struct {
	ID       string // assigned by CreateWorkload
	Strategy string // the strategy family that parsed or generated it
	Name     string
	Format   string // what it was read from: "json", "csv", "preset"
	SHA256   string // hex SHA-256 of Data, set by CreateWorkload
	Bytes    int    // len(Data), set by CreateWorkload
	Summary  string // one line for lists
	// Data is the canonical native JSON; empty in ListWorkloads results.
	Data []byte
	// Preview is the JSON of a solvers.Report drawn before any run; may be
	// empty, and is empty in ListWorkloads results.
	Preview json.RawMessage
	// Owner is the ID of the user who stored it; empty on a server
	// without accounts.
	Owner     string
	CreatedAt time.Time // set by CreateWorkload
}

// CreateWorkload stores w in one statement (all or nothing) and fills in its
// ID, SHA256, Bytes and CreatedAt.
func (s *Store) CreateWorkload(ctx context.Context, w *Workload) error {
	const op = "store.CreateWorkload"
	switch {
	case strings.TrimSpace(w.Strategy) == "":
		return invalid(op, "strategy", "missing: a workload belongs to a strategy")
	case strings.TrimSpace(w.Name) == "":
		return invalid(op, "name", "missing: a workload needs a name")
	case len(w.Data) == 0:
		return invalid(op, "data", "the workload is empty")
	case !json.Valid(w.Data):
		return invalid(op, "data", "the workload data is not JSON")
	case len(w.Preview) > 0 && !json.Valid(w.Preview):
		return invalid(op, "preview", "the preview is not JSON")
	}
	sum := sha256.Sum256(w.Data)
	created := now()
	var preview sql.NullString
	if len(w.Preview) > 0 {
		preview = sql.NullString{String: string(w.Preview), Valid: true}
	}
	for attempt := 0; ; attempt++ {
		id := NewID()
		_, err := s.db.ExecContext(ctx, `INSERT INTO workloads
			(id, strategy, name, format, sha256, bytes, summary, data, preview, owner, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, w.Strategy, w.Name, w.Format, hex.EncodeToString(sum[:]), len(w.Data), w.Summary, w.Data, preview,
			nullString(w.Owner), fmtTime(created))
		if isIDCollision(err) && attempt < idAttempts {
			continue
		}
		if err != nil {
			return dbErr(op, err)
		}
		w.ID, w.SHA256, w.Bytes, w.CreatedAt = id, hex.EncodeToString(sum[:]), len(w.Data), created
		return nil
	}
}

const workloadListColumns = "id, strategy, name, format, sha256, bytes, summary, owner, created_at"

func scanWorkload(sc interface{ Scan(...any) error }, full bool) (*Workload, error) {
	var w Workload
	var created string
	var preview, owner sql.NullString
	dest := []any{&w.ID, &w.Strategy, &w.Name, &w.Format, &w.SHA256, &w.Bytes, &w.Summary, &owner, &created}
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
func (s *Store) GetWorkload(ctx context.Context, id string) (*Workload, error) {
	const op = "store.GetWorkload"
	row := s.db.QueryRowContext(ctx, "SELECT "+workloadListColumns+", data, preview FROM workloads WHERE id = ?", id)
	w, err := scanWorkload(row, true)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(op, "workload", id)
	}
	if err != nil {
		return nil, dbErr(op, err)
	}
	return w, nil
}

// ListWorkloads returns workloads newest first, without Data and Preview.
// An empty strategy means all; limit ≤ 0 means no limit.
func (s *Store) ListWorkloads(ctx context.Context, strategy string, limit int) ([]Workload, error) {
	const op = "store.ListWorkloads"
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+workloadListColumns+` FROM workloads
		WHERE (? = '' OR strategy = ?) ORDER BY created_at DESC, rowid DESC LIMIT ?`, strategy, strategy, limit)
	if err != nil {
		return nil, dbErr(op, err)
	}
	defer rows.Close()
	out := []Workload{}
	for rows.Next() {
		w, err := scanWorkload(rows, false)
		if err != nil {
			return nil, dbErr(op, err)
		}
		out = append(out, *w)
	}
	if err := rows.Err(); err != nil {
		return nil, dbErr(op, err)
	}
	return out, nil
}

// DeleteWorkload deletes a workload no run uses. A workload that runs use is
// errs.Conflict (a stored run must stay re-runnable): delete the runs first.
func (s *Store) DeleteWorkload(ctx context.Context, id string) error {
	const op = "store.DeleteWorkload"
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(op, err)
	}
	defer tx.Rollback()
	var exists, used int
	err = tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM workloads WHERE id = ?),
		(SELECT COUNT(*) FROM runs WHERE workload_id = ?)`, id, id).Scan(&exists, &used)
	if err != nil {
		return dbErr(op, err)
	}
	if exists == 0 {
		return notFound(op, "workload", id)
	}
	if used > 0 {
		return &errs.Error{Op: op, Kind: errs.Conflict, Field: "id",
			Err: fmt.Errorf("workload %s is used by %d run(s): delete them first", id, used)}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM workloads WHERE id = ?", id); err != nil {
		return dbErr(op, err)
	}
	return dbErr(op, tx.Commit())
}
