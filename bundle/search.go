package bundle

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"time"

	"schedlab/buildinfo"
	"schedlab/errs"
	"schedlab/runtypes"
	"schedlab/store"
)

// Searches travel too (issue 45): an ended adversarial search, with its
// evaluations and its best instance's workload and runs, as one file.

// SearchFormat names a search bundle's kind in its header.
const SearchFormat = "schedlab-search"

// SearchVersion is the search bundle format version this package writes.
const SearchVersion = 1

// SearchFileSuffix ends the name of a search bundle file.
const SearchFileSuffix = ".schedlab-search.json.gz"

// SearchBundle is a search bundle: a gzip stream of one JSON object.
// Search is the search's row (its configuration and best as stored),
// Evaluations every candidate in order, Workload the best instance (nil
// when none was kept) and Runs the runs of it, A's and B's, reports
// whole. A search is small (one record an evaluation, one workload, two
// runs), so it is one object, read whole within the size limit.
type SearchBundle struct {
	Header      Header             `json:"header"`
	Search      Search             `json:"search"`
	Evaluations []SearchEvaluation `json:"evaluations"`
	Workload    *Workload          `json:"workload,omitempty"`
	Runs        []Run              `json:"runs"`
}

// Search is a search's row.
type Search struct {
	ID       string          `json:"id"`
	Strategy string          `json:"strategy"`
	Config   json.RawMessage `json:"config"` // the search's Spec (package adversaries)
	Status   string          `json:"status"` // done, failed or canceled
	Error    string          `json:"error"`
	Best     json.RawMessage `json:"best"`
	Schedlab buildinfo.Build `json:"schedlab"` // the build that ran it
	Created  time.Time       `json:"created_at"`
	Ended    *time.Time      `json:"ended_at,omitempty"`
}

// SearchEvaluation is candidate Position of the search.
type SearchEvaluation struct {
	Position   int             `json:"position"`
	Key        string          `json:"key"` // the instance's sha256, or ""
	Evaluation json.RawMessage `json:"evaluation"`
}

// SearchStatuses are the statuses of a search a bundle carries.
var SearchStatuses = []string{store.SearchDone, store.SearchFailed, store.SearchCanceled}

var hexKey = regexp.MustCompile(`^[0-9a-f]{64}$`)

// ExportSearch writes search id of st as a search bundle to w; a running
// search is refused (errs.Conflict) before anything is written.
func ExportSearch(ctx context.Context, st Store, id string, w io.Writer) error {
	snap, err := st.ExportAdversarySearch(ctx, id)
	if err != nil {
		return err
	}
	a := snap.Search
	b := SearchBundle{Header: NewHeader(), Search: Search{ID: a.ID, Strategy: a.Strategy, Config: a.Config, Status: a.Status,
		Error: a.Error, Best: a.Best, Schedlab: buildinfo.Build{Version: cmp.Or(a.Build.Version, Unknown), Commit: cmp.Or(a.Build.Commit, Unknown),
			Modified: cmp.Or(a.Build.Modified, Unknown)}, Created: a.CreatedAt, Ended: a.EndedAt},
		Evaluations: []SearchEvaluation{}, Runs: []Run{}}
	b.Header.Format, b.Header.Version = SearchFormat, SearchVersion
	for _, e := range snap.Evaluations {
		b.Evaluations = append(b.Evaluations, SearchEvaluation(e))
	}
	if snap.Workload != nil {
		b.Workload = (*Workload)(snap.Workload)
	}
	x := &exporter{}
	for i := range snap.Runs {
		r := snap.Runs[i]
		r.Position, r.Cell, r.Replicate = i, json.RawMessage("{}"), 0
		b.Runs = append(b.Runs, x.run(&r))
	}
	zw := gzip.NewWriter(w)
	if err := json.NewEncoder(zw).Encode(&b); err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return errs.Wrap(errs.Internal, zw.Close())
}

// ReadSearch reads and checks a search bundle, at most limit bytes
// decompressed (≤ 0: DefaultLimit). Errors are errs.Invalid naming the
// field ("search.status", "evaluations[3].position"), or errs.TooLarge.
func ReadSearch(r io.Reader, limit int64) (*SearchBundle, error) {
	limit = runtypes.OrDefault(limit, DefaultLimit)
	zr, err := gzip.NewReader(bufio.NewReader(r))
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrHeader) {
		return nil, errs.Invalidf("bundle", "not a gzip file: a search bundle is a %s file", SearchFileSuffix)
	}
	if err != nil {
		return nil, streamErr(err, limit)
	}
	dec := json.NewDecoder(&capReader{r: zr, left: limit, limit: limit})
	dec.DisallowUnknownFields()
	var b SearchBundle
	if err := dec.Decode(&b); err != nil {
		if e := streamErr(err, limit); !errs.Is(e, errs.Other) {
			return nil, e
		}
		return nil, errs.Invalidf("bundle", "not a search bundle: %v", err)
	}
	// The rest of the stream: nothing, and a gzip checksum that holds.
	var extra json.RawMessage
	if err := dec.Decode(&extra); err != io.EOF {
		if e := streamErr(err, limit); err != nil && !errs.Is(e, errs.Other) {
			return nil, e
		}
		return nil, errs.Invalidf("bundle", "one search a bundle: more follows it")
	}
	return &b, b.check()
}

// check refuses what the store could not keep or the pages not show.
func (b *SearchBundle) check() error {
	c := newChecker()
	h, s := &b.Header, &b.Search
	switch {
	case h.Format != SearchFormat:
		return errs.Invalidf("header.format", "must be %q, got %q: not a schedlab search bundle", SearchFormat, h.Format)
	case h.Version < 1 || h.Version > SearchVersion:
		return errs.Invalidf("header.version", "must be 1 to %d, got %d", SearchVersion, h.Version)
	case !ValidID(s.ID):
		return errs.Invalidf("search.id", "%q is not a schedlab ID", s.ID)
	case s.Strategy == "":
		return errs.Invalidf("search.strategy", "missing")
	case !isObject(s.Config):
		return errs.Invalidf("search.config", "must be a JSON object")
	case !isObject(s.Best):
		return errs.Invalidf("search.best", "must be a JSON object")
	case !oneOf(s.Status, SearchStatuses):
		return errs.Invalidf("search.status", "must be one of %v (only ended searches are exported), got %q", SearchStatuses, s.Status)
	case s.Created.IsZero():
		return errs.Invalidf("search.created_at", "missing")
	case len(b.Runs) > 0 && b.Workload == nil:
		return errs.Invalidf("runs", "runs without the workload they ran on")
	}
	for i, e := range b.Evaluations {
		switch {
		case e.Position != i:
			return errs.Invalidf("evaluations.position", "evaluation %d is at position %d: they come in order from 0", i, e.Position)
		case e.Key != "" && !hexKey.MatchString(e.Key):
			return errs.Invalidf("evaluations.key", "evaluation %d: %q is not a sha256", i, e.Key)
		case !isObject(e.Evaluation):
			return errs.Invalidf("evaluations.evaluation", "evaluation %d is not a JSON object", i)
		}
	}
	c.strategy, c.total = s.Strategy, len(b.Runs)
	if b.Workload != nil {
		if b.Workload.Strategy != s.Strategy {
			return errs.Invalidf("workload.strategy", "%q is not the search's strategy %q", b.Workload.Strategy, s.Strategy)
		}
		if err := c.workload(b.Workload); err != nil {
			return err
		}
	}
	for i := range b.Runs {
		if err := c.run(&b.Runs[i]); err != nil {
			return err
		}
	}
	return nil
}

// ImportSearch stores b's search in st, owned by owner, keeping its IDs,
// in one transaction (store.ImportAdversarySearch).
func ImportSearch(ctx context.Context, st *store.Store, b *SearchBundle, owner string) error {
	s := b.Search
	snap := &store.SearchSnapshot{Search: store.AdversarySearch{ID: s.ID, Strategy: s.Strategy, Config: s.Config, Status: s.Status,
		Error: s.Error, Best: s.Best, Build: runtypes.Build(s.Schedlab), CreatedAt: s.Created, EndedAt: s.Ended}}
	for _, e := range b.Evaluations {
		snap.Evaluations = append(snap.Evaluations, store.AdversaryEvaluation(e))
	}
	if b.Workload != nil {
		snap.Workload = (*store.SnapshotWorkload)(b.Workload)
	}
	for i := range b.Runs {
		snap.Runs = append(snap.Runs, *runRow(&b.Runs[i]))
	}
	return st.ImportAdversarySearch(ctx, snap, owner)
}
