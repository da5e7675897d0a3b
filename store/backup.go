package store

import (
	"context"
	"errors"
	"fmt"
	"os"

	"schedlab/errs"
)

// Backup writes a consistent copy of the database to the new file out
// with VACUUM INTO: one read transaction, so the copy is the database at
// one instant while the server goes on writing; the copy is compacted and
// has no write-ahead log of its own. Backup refuses (errs.Conflict) a
// path that exists: a backup never overwrites a file.
func (s *Store) Backup(ctx context.Context, out string) error {
	if out == "" {
		return invalid("out", "no backup file given")
	}
	if _, err := os.Lstat(out); err == nil {
		return errs.New(errs.Conflict, "out", "%s already exists: a backup never overwrites a file; give a new name or remove it first", out)
	} else if !errors.Is(err, os.ErrNotExist) {
		return &errs.Error{Kind: errs.Invalid, Field: "out", Err: err}
	}
	// VACUUM INTO itself refuses an existing file that is not empty, so a
	// file made meanwhile is not overwritten either.
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", out); err != nil {
		return dbErr(fmt.Errorf("writing the backup %s: %w", out, err))
	}
	return nil
}
