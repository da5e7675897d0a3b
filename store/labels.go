package store

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"schedlab/errs"
)

// Limits of the labels of a run or an experiment.
const (
	MaxNameLen  = 200      // characters of a name
	MaxTags     = 32       // tags on one run or experiment
	MaxTagLen   = 64       // characters of a tag
	MaxNotesLen = 64 << 10 // bytes of markdown notes
)

// CheckLabels checks a name, tags and notes against the limits and returns
// the tags as stored: surrounding spaces trimmed, empty ones dropped, each
// once, sorted. A tag is letters, digits and - _ . : / (so that it reads
// the same in a URL and a shell). A violation is errs.Invalid naming the
// field (name, tags or notes).
func CheckLabels(name string, tags []string, notes string) ([]string, error) {
	switch {
	case utf8.RuneCountInString(name) > MaxNameLen:
		return nil, invalid("name", "at most %d characters, got %d", MaxNameLen, utf8.RuneCountInString(name))
	case !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0:
		return nil, invalid("name", "must be one line of text, without control characters")
	case len(notes) > MaxNotesLen:
		return nil, invalid("notes", "at most %d KiB, got %d bytes", MaxNotesLen>>10, len(notes))
	case !utf8.ValidString(notes):
		return nil, invalid("notes", "must be UTF-8 text")
	}
	out := []string{}
	for _, t := range tags {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if n := utf8.RuneCountInString(t); n > MaxTagLen {
			return nil, invalid("tags", "tag %.20q…: at most %d characters, got %d", t, MaxTagLen, n)
		}
		if i := strings.IndexFunc(t, func(r rune) bool { return !tagRune(r) }); i >= 0 {
			r, _ := utf8.DecodeRuneInString(t[i:])
			return nil, invalid("tags", "tag %q: %q is not allowed (use letters, digits and - _ . : /)", t, r)
		}
		out = append(out, t)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > MaxTags {
		return nil, invalid("tags", "at most %d tags, got %d", MaxTags, len(out))
	}
	return out, nil
}

// tagRune reports whether r may appear in a tag.
func tagRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.:/", r)
}

// SetRunLabels replaces the name, tags and notes of a run, in one
// transaction: either all three change or none. The checks are
// CheckLabels'; an unknown run is errs.NotFound. Any run may be labelled,
// whatever its status.
func (s *Store) SetRunLabels(ctx context.Context, id, name string, tags []string, notes string) error {
	tags, err := CheckLabels(name, tags, notes)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE runs SET name = ?, notes = ? WHERE id = ?", name, notes, id)
	if err != nil {
		return dbErr(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return dbErr(err)
	} else if n == 0 {
		return notFound("run", id)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM run_tags WHERE run_id = ?", id); err != nil {
		return dbErr(err)
	}
	tagsJSON, err := json.Marshal(tags)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO run_tags (run_id, tag) SELECT ?, value FROM json_each(?)", id, string(tagsJSON)); err != nil {
		return dbErr(err)
	}
	return dbErr(tx.Commit())
}

// SetExperimentLabels replaces the name, tags and notes of an experiment,
// in one statement (one transaction), with SetRunLabels' checks; an unknown experiment is
// errs.NotFound. The tags stay the JSON array of 0005_experiments.sql.
func (s *Store) SetExperimentLabels(ctx context.Context, id, name string, tags []string, notes string) error {
	tags, err := CheckLabels(name, tags, notes)
	if err != nil {
		return err
	}
	tagsJSON, err := json.Marshal(tags)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	res, err := s.db.ExecContext(ctx, "UPDATE experiments SET name = ?, tags = ?, notes = ? WHERE id = ?",
		name, string(tagsJSON), notes, id)
	if err != nil {
		return dbErr(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return dbErr(err)
	} else if n == 0 { // SQLite counts a matched row even if unchanged
		return notFound("experiment", id)
	}
	return nil
}

const metricValuesQuery = `SELECT m.run_id, m.value FROM json_each(?) AS j
	CROSS JOIN run_metrics AS m ON m.run_id = j.value AND m.name = ?`

// MetricValues returns the value of metric name of each of the runs ids
// that reports it (run id → value): what a list of runs filtered or
// sorted by a metric shows beside each run. One seek per run in
// run_metrics' primary key: CROSS JOIN keeps the ids the outer loop (else
// SQLite may walk the metric's whole range in run_metrics_name_value).
func (s *Store) MetricValues(ctx context.Context, name string, ids []string) (map[string]float64, error) {
	idsJSON, err := json.Marshal(ids)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	rows, err := s.db.QueryContext(ctx, metricValuesQuery, string(idsJSON), name)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	out := make(map[string]float64, len(ids))
	for rows.Next() {
		var id string
		var v float64
		if err := rows.Scan(&id, &v); err != nil {
			return nil, dbErr(err)
		}
		out[id] = v
	}
	return out, dbErr(rows.Err())
}
