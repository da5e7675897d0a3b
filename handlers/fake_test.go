package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/store"
)

// The fast tier of the handler tests (issue 44 item 3): pages served over
// an in-memory fake of the store, without SQLite, for what needs no SQL
// behaviour (page renders, 404s, refused forms). The tests over SQLite
// (newApp) stay as the integration suite.

// fakeStore keeps workloads and runs in memory, with the store's rules
// and errors for what the runs and workloads pages call (store/workloads.go,
// store/runs.go). Any other method of Store is its nil embedded Store: a
// call panics, which the server's Recover answers 500, so a page that
// needs more of the store fails its test loudly.
type fakeStore struct {
	Store
	mu        sync.Mutex
	workloads []runtypes.Workload // in the order stored
	runs      []runtypes.Run      // in the order stored
}

// fakeNotFound is the store's errs.NotFound for an unknown id (store.notFound).
func fakeNotFound(what, id string) error {
	return &errs.Error{Kind: errs.NotFound, Field: "id", Err: fmt.Errorf("no %s %q", what, id)}
}

func fakeInvalid(field, msg string) error {
	return &errs.Error{Kind: errs.Invalid, Field: field, Err: fmt.Errorf("%s", msg)}
}

// CreateWorkload keeps a copy of w and fills in its ID, SHA256, Bytes and
// CreatedAt. What the store would refuse (no name, data not JSON) is an
// error here too, in the fake's own words: the store's wording is the
// SQLite suite's to test.
func (f *fakeStore) CreateWorkload(_ context.Context, w *runtypes.Workload) error {
	if strings.TrimSpace(w.Strategy) == "" || strings.TrimSpace(w.Name) == "" || !json.Valid(w.Data) {
		return fakeInvalid("data", "fakeStore: the store refuses this workload (strategy, name and JSON data needed)")
	}
	sum := sha256.Sum256(w.Data)
	f.mu.Lock()
	defer f.mu.Unlock()
	w.ID, w.SHA256, w.Bytes, w.CreatedAt = store.NewID(), hex.EncodeToString(sum[:]), len(w.Data), time.Now().UTC()
	f.workloads = append(f.workloads, *w)
	return nil
}

// info is w without its Data and Preview, as the store's list reads give.
func info(w runtypes.Workload) *runtypes.Workload {
	w.Data, w.Preview = nil, nil
	return &w
}

func (f *fakeStore) GetWorkload(_ context.Context, id string) (*runtypes.Workload, error) {
	return fakeGet(f, &f.workloads, func(w *runtypes.Workload) bool { return w.ID == id }, "workload", id)
}

// fakeGet is a copy of the item of *items that match selects, or the
// store's errs.NotFound for what id.
func fakeGet[T any](f *fakeStore, items *[]T, match func(*T) bool, what, id string) (*T, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, it := range *items {
		if match(&it) {
			return &it, nil
		}
	}
	return nil, fakeNotFound(what, id)
}

func (f *fakeStore) GetWorkloadInfo(ctx context.Context, id string) (*runtypes.Workload, error) {
	w, err := f.GetWorkload(ctx, id)
	if err != nil {
		return nil, err
	}
	return info(*w), nil
}

func (f *fakeStore) FindWorkloadByContent(_ context.Context, strategy string, data []byte, owner string) (*runtypes.Workload, error) {
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, w := range f.workloads {
		if w.Strategy == strategy && w.SHA256 == sha && (owner == "" || w.Owner == owner) {
			return info(w), nil
		}
	}
	return nil, fakeNotFound("workload with sha256", sha)
}

// fakePage is items newest first from cursor (an offset here: the fake's
// own opaque position), at most limit (≤ 0: all), and the next cursor.
func fakePage[T any](items []T, limit int, cursor store.Cursor) ([]T, store.Cursor, error) {
	from := 0
	if cursor != "" {
		n, err := strconv.Atoi(string(cursor))
		if err != nil || n < 0 {
			return nil, "", fakeInvalid("cursor", "not a position of this list")
		}
		from = n
	}
	newest := slices.Clone(items)
	slices.Reverse(newest)
	newest = newest[min(from, len(newest)):]
	if limit <= 0 || len(newest) <= limit {
		return newest, "", nil
	}
	return newest[:limit], store.Cursor(strconv.Itoa(from + limit)), nil
}

func (f *fakeStore) ListWorkloadsPage(_ context.Context, strategy, owner string, limit int, cursor store.Cursor) ([]runtypes.Workload, store.Cursor, error) {
	f.mu.Lock()
	var ws []runtypes.Workload
	for _, w := range f.workloads {
		if (strategy == "" || w.Strategy == strategy) && (owner == "" || w.Owner == owner) {
			ws = append(ws, *info(w))
		}
	}
	f.mu.Unlock()
	return fakePage(ws, limit, cursor)
}

func (f *fakeStore) WorkloadNames(_ context.Context, ids []string) (map[string]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := map[string]string{}
	for _, w := range f.workloads {
		if slices.Contains(ids, w.ID) {
			m[w.ID] = w.Name
		}
	}
	return m, nil
}

func (f *fakeStore) GetRun(_ context.Context, id string) (*runtypes.Run, error) {
	return fakeGet(f, &f.runs, func(r *runtypes.Run) bool { return r.ID == id }, "run", id)
}

func (f *fakeStore) GetRunInfo(ctx context.Context, id string) (*runtypes.Run, error) {
	r, err := f.GetRun(ctx, id)
	if err != nil {
		return nil, err
	}
	r.Report = nil
	return r, nil
}

// ListRunsPage filters by strategy, kind, status, workload and owner; a
// filter the fake does not read (tags, parameters, metrics, sorts) is an
// error, so a test that needs the store's SQL belongs to the SQLite suite.
func (f *fakeStore) ListRunsPage(_ context.Context, q store.RunFilter) ([]runtypes.Run, store.Cursor, error) {
	if q.Variant != "" || q.Tag != "" || len(q.Params) > 0 || q.Metric != "" || (q.Sort != "" && q.Sort != store.SortNewest) {
		return nil, "", fmt.Errorf("fakeStore: filter %+v needs the SQLite store", q)
	}
	f.mu.Lock()
	var rs []runtypes.Run
	for _, r := range f.runs {
		if (q.Strategy == "" || r.Strategy == q.Strategy) && (q.Kind == "" || r.Kind == q.Kind) &&
			(q.Status == "" || r.Status == q.Status) && (q.WorkloadID == "" || r.WorkloadID == q.WorkloadID) &&
			(q.Owner == "" || r.Owner == q.Owner) {
			r.Report = nil
			rs = append(rs, r)
		}
	}
	f.mu.Unlock()
	return fakePage(rs, q.Limit, q.Cursor)
}

func (f *fakeStore) ListRuns(ctx context.Context, q store.RunFilter) ([]runtypes.Run, error) {
	rs, _, err := f.ListRunsPage(ctx, q)
	return rs, err
}

// LatestRun is the newest run of strategy and kind, or the store's
// errs.NotFound.
func (f *fakeStore) LatestRun(_ context.Context, strategy, kind string) (*runtypes.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range slices.Backward(f.runs) {
		if r.Strategy == strategy && r.Kind == kind {
			return &r, nil
		}
	}
	return nil, &errs.Error{Kind: errs.NotFound, Field: "strategy", Err: fmt.Errorf("no %s run of %s yet", kind, strategy)}
}

// WallTimes is empty, as the store's is with no done run of strategy;
// the medians of done runs are the SQLite suite's.
func (f *fakeStore) WallTimes(_ context.Context, strategy string) (map[string]store.WallTime, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.runs {
		if r.Strategy == strategy && r.Status == runtypes.StatusDone {
			return nil, fmt.Errorf("fakeStore: the wall times of done runs need the SQLite store")
		}
	}
	return map[string]store.WallTime{}, nil
}

// AdversarySearchOf is nil: the fake holds no adversarial searches.
func (f *fakeStore) AdversarySearchOf(context.Context, string) (*store.AdversarySearch, error) {
	return nil, nil
}

// fakeRunner is the runner's budget without its workers; any other
// method of Runner panics (its nil embedded Runner).
type fakeRunner struct{ Runner }

// Budget is the budget of a runner with the default options.
func (fakeRunner) Budget() solvers.Budget { return runner.New(nil, nil, runner.Options{}).Budget() }

// fakeDisk is a disk with room: nothing is refused.
type fakeDisk struct{}

func (fakeDisk) Status() store.DiskStatus {
	return store.DiskStatus{State: store.DiskOK, FreeBytes: -1}
}
func (fakeDisk) Refuse() error   { return nil }
func (fakeDisk) Full(error) bool { return false }

// newFakeApp serves the application over a fakeStore, every family built.
// Its store and runner fields are nil; fake is the store.
func newFakeApp(t testing.TB, maxUpload int64) *app {
	t.Helper()
	fs := &fakeStore{}
	server := newServer(fs, fakeDisk{}, fakeRunner{}, registry.All(), Options{MaxUpload: maxUpload})
	e := echo.New()
	server.Routes(e)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &app{Server: srv, server: server, fake: fs}
}

// TestFakeStoreAnswersAsTheStore holds the fake to the store for what
// the fast tier reads: the same sequence on both gives the same errors
// (kind, field, words) and the same workloads.
func TestFakeStoreAnswersAsTheStore(t *testing.T) {
	real, err := store.Open(filepath.Join(t.TempDir(), "contract.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	ctx := context.Background()
	owners := map[string]string{} // name → user ID, the same for both
	for _, name := range []string{"ann", "bob"} {
		u, err := real.CreateUser(ctx, name, "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		owners[name] = u.ID
	}
	type answers struct {
		Errors []string
		Infos  []runtypes.Workload
		Names  []string
		Listed []string
	}
	answer := func(st Store) answers {
		var a answers
		say := func(err error) {
			a.Errors = append(a.Errors, fmt.Sprintf("%v %s %v", errs.KindOf(err), errs.FieldOf(err), err))
		}
		for _, owner := range []string{"ann", "bob", "ann"} {
			w := &runtypes.Workload{Strategy: "eapm", Name: "w-" + owner, Data: json.RawMessage(`{"n":1}`),
				Preview: json.RawMessage(`{"p":2}`), Owner: owners[owner]}
			if err := st.CreateWorkload(ctx, w); err != nil {
				t.Fatal(err)
			}
		}
		_, err := st.GetWorkload(ctx, "nosuchwork")
		say(err)
		_, err = st.GetWorkloadInfo(ctx, "nosuchwork")
		say(err)
		_, err = st.GetRun(ctx, "nosuchrun1")
		say(err)
		_, err = st.GetRunInfo(ctx, "nosuchrun1")
		say(err)
		_, err = st.FindWorkloadByContent(ctx, "eapm", []byte(`{"n":2}`), "")
		say(err)
		_, err = st.LatestRun(ctx, "eapm", runtypes.KindReproduce)
		say(err)
		if wt, err := st.WallTimes(ctx, "eapm"); len(wt) != 0 || err != nil {
			t.Errorf("WallTimes with no run: %v, %v", wt, err)
		}
		_, err = st.FindWorkloadByContent(ctx, "dcop", []byte(`{"n":1}`), "")
		say(err)
		all, next, err := st.ListWorkloadsPage(ctx, "", "", 2, "")
		if err != nil || next == "" || len(all) != 2 {
			t.Fatalf("first page of 2: %d workloads, next %q, %v", len(all), next, err)
		}
		rest, next, err := st.ListWorkloadsPage(ctx, "", "", 2, next)
		if err != nil || next != "" || len(rest) != 1 {
			t.Fatalf("second page: %d workloads, next %q, %v", len(rest), next, err)
		}
		var ids []string
		for _, w := range append(all, rest...) {
			a.Listed = append(a.Listed, w.Name)
			ids = append(ids, w.ID)
		}
		bob, _, err := st.ListWorkloadsPage(ctx, "eapm", owners["bob"], 10, "")
		if err != nil || len(bob) != 1 {
			t.Fatalf("bob's workloads: %d, %v", len(bob), err)
		}
		found, err := st.FindWorkloadByContent(ctx, "eapm", []byte(`{"n":1}`), owners["bob"])
		if err != nil || found.ID != bob[0].ID {
			t.Fatalf("FindWorkloadByContent for bob: %v, %v; want %s", found, err, bob[0].ID)
		}
		first, err := st.FindWorkloadByContent(ctx, "eapm", []byte(`{"n":1}`), "")
		if err != nil || first.ID != ids[2] {
			t.Fatalf("FindWorkloadByContent for anyone: %v, %v; want the oldest %s", first, err, ids[2])
		}
		full, err := st.GetWorkload(ctx, ids[0])
		if err != nil || string(full.Data) != `{"n":1}` || string(full.Preview) != `{"p":2}` {
			t.Fatalf("GetWorkload: %+v, %v", full, err)
		}
		for _, id := range ids {
			w, err := st.GetWorkloadInfo(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			w.ID, w.CreatedAt = "", time.Time{}
			a.Infos = append(a.Infos, *w)
		}
		names, err := st.WorkloadNames(ctx, []string{ids[0], "nosuchwork"})
		if err != nil {
			t.Fatal(err)
		}
		a.Names = slices.Collect(maps.Values(names)) // the IDs differ; the names found do not
		if s, err := st.AdversarySearchOf(ctx, ids[0]); s != nil || err != nil {
			t.Errorf("AdversarySearchOf a plain workload: %v, %v", s, err)
		}
		return a
	}
	want, got := answer(real), answer(&fakeStore{})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the fake answers\n%+v\nthe store\n%+v", got, want)
	}
}
