package bundle

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/runtypes"
	"schedlab/store"
)

// searchStore is a store holding one ended search with two evaluations
// and its best instance's workload and runs (A's done, B's failed).
func searchStore(t *testing.T) (*store.Store, *store.AdversarySearch) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := &store.AdversarySearch{Strategy: "critical", Config: json.RawMessage(`{"strategy":"critical","a":"heft","b":"list","seed":4}`),
		Build: runtypes.Build{Version: "v1", Commit: "abc", Modified: "false"}}
	if err := st.CreateAdversarySearch(ctx, a); err != nil {
		t.Fatal(err)
	}
	data := `{"tasks":[1,2]}`
	key := sha256Hex([]byte(data))
	c, err := st.AddAdversaryCandidate(ctx, a.ID, key, &runtypes.Workload{Strategy: "critical", Name: "cand", Format: "json", Data: []byte(data)},
		&runtypes.Run{Strategy: "critical", Variant: "heft"}, &runtypes.Run{Strategy: "critical", Variant: "list"})
	if err != nil {
		t.Fatal(err)
	}
	for _, end := range []struct {
		status, msg string
		report      json.RawMessage
	}{{runtypes.StatusDone, "", json.RawMessage(`{"metrics":[{"name":"makespan","value":3,"better":"lower"}]}`)}, {runtypes.StatusFailed, "boom", nil}} {
		r, err := st.ClaimNext(ctx)
		if err != nil || r == nil {
			t.Fatal(r, err)
		}
		if err := st.Finish(ctx, r.ID, end.status, end.report, end.msg, ""); err != nil {
			t.Fatal(err)
		}
	}
	evs := []store.AdversaryEvaluation{{Position: 0, Key: key, Evaluation: json.RawMessage(`{"index":0,"score":"+Inf"}`)},
		{Position: 1, Key: "", Evaluation: json.RawMessage(`{"index":1,"score":"NaN"}`)}}
	best := json.RawMessage(`{"index":0,"key":"` + key + `","run_a":"` + c.RunA + `","run_b":"` + c.RunB + `"}`)
	if err := st.RecordAdversaryEvaluations(ctx, a.ID, evs, best, c.WorkloadID, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.EndAdversarySearch(ctx, a.ID, store.SearchDone, "", "best", "found by "+a.ID); err != nil {
		t.Fatal(err)
	}
	return st, a
}

// TestSearchBundleTravelsWhole: an ended search, exported and imported
// into another database, has the same row, evaluations, best workload
// and runs (reports included) there; a second import is a conflict; a
// running search is not exported.
func TestSearchBundleTravelsWhole(t *testing.T) {
	ctx := context.Background()
	from, a := searchStore(t)
	var buf bytes.Buffer
	if err := ExportSearch(ctx, from, a.ID, &buf); err != nil {
		t.Fatal(err)
	}
	b, err := ReadSearch(bytes.NewReader(buf.Bytes()), 0)
	if err != nil {
		t.Fatal(err)
	}
	if b.Workload == nil || len(b.Runs) != 2 || len(b.Evaluations) != 2 || b.Search.Schedlab.Commit != "abc" {
		t.Fatalf("the bundle: workload %v, %d runs, %d evaluations, %+v", b.Workload != nil, len(b.Runs), len(b.Evaluations), b.Search.Schedlab)
	}
	to, err := store.Open(filepath.Join(t.TempDir(), "to"))
	if err != nil {
		t.Fatal(err)
	}
	defer to.Close()
	if err := ImportSearch(ctx, to, b, ""); err != nil {
		t.Fatal(err)
	}
	got, err := to.GetAdversarySearch(ctx, a.ID)
	want, _ := from.GetAdversarySearch(ctx, a.ID)
	if err != nil || got.Status != store.SearchDone || string(got.Config) != string(want.Config) || string(got.Best) != string(want.Best) ||
		got.BestWorkloadID != want.BestWorkloadID || got.Evaluations != 2 || got.Build != want.Build || !got.CreatedAt.Equal(want.CreatedAt) {
		t.Fatalf("imported %+v, %v; exported %+v", got, err, want)
	}
	gevs, _ := to.AdversaryEvaluations(ctx, a.ID)
	wevs, _ := from.AdversaryEvaluations(ctx, a.ID)
	for i := range wevs {
		if gevs[i].Key != wevs[i].Key || !jsonEqual(gevs[i].Evaluation, wevs[i].Evaluation) {
			t.Errorf("evaluation %d: %s, exported %s", i, gevs[i].Evaluation, wevs[i].Evaluation)
		}
	}
	for _, r := range b.Runs {
		run, err := to.GetRun(ctx, r.ID)
		orig, _ := from.GetRun(ctx, r.ID)
		if err != nil || run.Status != orig.Status || run.Error != orig.Error || !jsonEqual(run.Report, orig.Report) || run.WorkloadID != got.BestWorkloadID {
			t.Errorf("run %s imported %+v, %v", r.ID, run, err)
		}
	}
	if err := ImportSearch(ctx, to, b, ""); !errs.Is(err, errs.Conflict) {
		t.Errorf("imported twice: %v", err)
	}
	running := &store.AdversarySearch{Strategy: "critical", Config: json.RawMessage(`{}`)}
	if err := from.CreateAdversarySearch(ctx, running); err != nil {
		t.Fatal(err)
	}
	if err := ExportSearch(ctx, from, running.ID, &bytes.Buffer{}); !errs.Is(err, errs.Conflict) {
		t.Errorf("a running search exported: %v", err)
	}
}

func jsonEqual(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

func gzipped(s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.Bytes()
}

// TestReadSearchRefusesBadBundles: each damage is refused naming what.
func TestReadSearchRefusesBadBundles(t *testing.T) {
	from, a := searchStore(t)
	var buf bytes.Buffer
	if err := ExportSearch(context.Background(), from, a.ID, &buf); err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(&buf)
	var good bytes.Buffer
	good.ReadFrom(zr)
	text := good.String()
	for _, c := range []struct{ old, new, field string }{
		{`"format":"schedlab-search"`, `"format":"schedlab-experiment"`, "header.format"},
		{`"status":"done"`, `"status":"running"`, "search.status"},
		{`"position":1`, `"position":5`, "evaluations.position"},
		{`"config":{`, `"config":[{`, "search.config"},
		{`"evaluations":[`, `"bogus":1,"evaluations":[`, "bundle"},
		{`"strategy":"critical","name"`, `"strategy":"eapm","name"`, "workload.strategy"},
	} {
		if !strings.Contains(text, c.old) {
			t.Fatalf("the bundle lacks %s", c.old)
		}
		bad := strings.Replace(text, c.old, c.new, 1)
		if strings.HasPrefix(c.new, `"config":[{`) {
			bad = strings.Replace(bad, `"seed":4},`, `"seed":4}],`, 1)
		}
		_, err := ReadSearch(bytes.NewReader(gzipped(bad)), 0)
		if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%s → %s: %v, want invalid %s", c.old, c.new, err, c.field)
		}
	}
	if _, err := ReadSearch(bytes.NewReader(gzipped(text+text)), 0); err == nil {
		t.Error("two searches in one bundle read")
	}
	if _, err := ReadSearch(bytes.NewReader(gzipped(text)), 64); !errs.Is(err, errs.TooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadSearch(strings.NewReader(text), 0); !errs.Is(err, errs.Invalid) {
		t.Errorf("not gzip: %v", err)
	}
}

// FuzzReadSearch: no input panics the reader; what it accepts is a
// search bundle that passes its checks.
func FuzzReadSearch(f *testing.F) {
	f.Add(gzipped(`{"header":{"format":"schedlab-search","version":1},"search":{},"evaluations":[],"runs":[]}`))
	f.Add(gzipped(`{}`))
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadSearch(bytes.NewReader(data), 1<<20)
		if err == nil && (b.Header.Format != SearchFormat || !ValidID(b.Search.ID)) {
			t.Fatalf("accepted %+v", b.Header)
		}
	})
}
