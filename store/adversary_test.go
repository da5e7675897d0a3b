package store

import (
	"context"
	"encoding/json"
	"testing"

	"schedlab/errs"
	"schedlab/runtypes"
)

// TestAdversaryCandidatesLifecycle: a candidate's workload and runs are
// stored together; its interrupted runs are queued again while its
// search runs; a recorded evaluation keeps its first form; a dropped
// candidate loses its runs and workload, the best keeps them and names
// the search that found it; an ended search cannot end again.
func TestAdversaryCandidatesLifecycle(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	a := &AdversarySearch{Strategy: "critical", Config: json.RawMessage(`{"seed":1}`)}
	if err := s.CreateAdversarySearch(ctx, a); err != nil {
		t.Fatal(err)
	}
	add := func(key, data string) *AdversaryCandidate {
		t.Helper()
		run := &runtypes.Run{Strategy: "critical", Variant: "heft"}
		c, err := s.AddAdversaryCandidate(ctx, a.ID, key, &runtypes.Workload{Strategy: "critical", Name: key, Format: "json", Data: []byte(data)}, run, run)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	one, two := add("k1", `{"n":1}`), add("k2", `{"n":2}`)
	if _, err := s.AddAdversaryCandidate(ctx, a.ID, "k1", &runtypes.Workload{Strategy: "critical", Name: "x", Format: "json", Data: []byte(`{}`)},
		&runtypes.Run{Strategy: "critical"}, &runtypes.Run{Strategy: "critical"}); !errs.Is(err, errs.Conflict) {
		t.Errorf("a key twice: %v", err)
	}
	if n, err := s.WorkloadNames(ctx, []string{"x"}); err == nil && len(n) != 0 {
		t.Errorf("a refused candidate left a workload")
	}
	// Claim two runs, stop: they are interrupted, then queued again.
	if _, err := s.ClaimUpTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if n, err := s.MarkInterrupted(ctx); err != nil || n != 2 {
		t.Fatalf("interrupted %d, %v", n, err)
	}
	if n, err := s.RequeueAdversaryRuns(ctx); err != nil || n != 2 {
		t.Fatalf("queued again %d, %v; want 2", n, err)
	}
	for _, id := range []string{one.RunA, one.RunB, two.RunA, two.RunB} {
		if err := s.Finish(ctx, id, runtypes.StatusDone, json.RawMessage(`{"metrics":[]}`), "", ""); err != nil {
			// a queued run is finished through a claim
			r, _ := s.ClaimNext(ctx)
			if r == nil {
				t.Fatal(err)
			}
			if err := s.Finish(ctx, r.ID, runtypes.StatusDone, json.RawMessage(`{"metrics":[]}`), "", ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	ev := func(pos int, key, body string) AdversaryEvaluation {
		return AdversaryEvaluation{Position: pos, Key: key, Evaluation: json.RawMessage(body)}
	}
	best := json.RawMessage(`{"key":"k2"}`)
	if err := s.RecordAdversaryEvaluations(ctx, a.ID, []AdversaryEvaluation{ev(0, "k1", `{"first":true}`), ev(1, "k2", `{}`)}, best, two.WorkloadID, []string{"k1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordAdversaryEvaluations(ctx, a.ID, []AdversaryEvaluation{ev(0, "k1", `{"replay":true}`)}, best, "", nil); err != nil {
		t.Fatal(err)
	}
	got, err := s.AdversaryEvaluations(ctx, a.ID)
	if err != nil || len(got) != 2 || string(got[0].Evaluation) != `{"first":true}` {
		t.Fatalf("evaluations %+v, %v: want 2, the first as first recorded", got, err)
	}
	if _, err := s.GetRunInfo(ctx, one.RunA); !errs.Is(err, errs.NotFound) {
		t.Errorf("a dropped candidate's run: %v", err)
	}
	if _, err := s.GetWorkloadInfo(ctx, one.WorkloadID); !errs.Is(err, errs.NotFound) {
		t.Errorf("a dropped candidate's workload: %v", err)
	}
	cands, err := s.AdversaryCandidates(ctx, a.ID)
	if err != nil || len(cands) != 1 || cands["k2"].RunB != two.RunB {
		t.Errorf("candidates left %+v, %v", cands, err)
	}
	if err := s.EndAdversarySearch(ctx, a.ID, SearchDone, "", "the best", "found by "+a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.EndAdversarySearch(ctx, a.ID, SearchDone, "", "", ""); !errs.Is(err, errs.Conflict) {
		t.Errorf("ended twice: %v", err)
	}
	w, err := s.GetWorkloadInfo(ctx, two.WorkloadID)
	if err != nil || w.Name != "the best" {
		t.Errorf("the best's workload %+v, %v", w, err)
	}
	of, err := s.AdversarySearchOf(ctx, two.WorkloadID)
	if err != nil || of == nil || of.ID != a.ID || of.Status != SearchDone || of.Evaluations != 2 {
		t.Errorf("the best's search %+v, %v", of, err)
	}
}
