package bundle

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"schedlab/buildinfo"
	"schedlab/errs"
)

var t0 = time.Date(2026, 5, 1, 10, 0, 0, 1000, time.UTC)

func at(d time.Duration) *time.Time { t := t0.Add(d); return &t }

// sample is a small valid bundle: two workloads, three runs (written out
// of position order), one failed without a report.
func sample() (Header, Experiment, []Workload, []Run) {
	h := Header{Format: Format, Version: Version, Schedlab: buildinfo.Build{Version: "v1.2.3", Commit: "abc123", Modified: "false"}, ExportedAt: t0}
	e := Experiment{ID: "aaaaaaaaaa", Name: "γ sweep", Strategy: "eapm",
		Definition: json.RawMessage(`{"name":"γ sweep","strategy":"eapm","grid":{"gamma":["1.1","1.3"]}}`),
		Tags:       []string{"paper"}, Notes: "*notes* <b>", Status: "done", RunsTotal: 3, CreatedAt: t0}
	data1, data2 := `{"tasks":[1,2,3]}`, "{\n  \"tasks\": [4]\n}"
	ws := []Workload{
		{ID: "wwwwwwwww2", Strategy: "eapm", Name: "w1", Format: "preset", Summary: "3 tasks", SHA256: sum(data1), Data: data1,
			Preview: json.RawMessage(`{"metrics":[]}`), CreatedAt: t0},
		{ID: "wwwwwwwww3", Strategy: "eapm", Name: "w2", Format: "json", SHA256: sum(data2), Data: data2, CreatedAt: t0},
	}
	rs := []Run{
		{ID: "rrrrrrrrr2", Kind: "run", WorkloadID: "wwwwwwwww2", Strategy: "eapm", Variant: "online", Params: map[string]string{"gamma": "1.1"},
			Seed: 1, Status: "done", ProgressDone: 3, ProgressTotal: 3, CreatedAt: t0, StartedAt: at(time.Second), FinishedAt: at(2 * time.Second),
			Report:   json.RawMessage(`{"metrics":[{"name":"objective","value":4.5}],"tables":[{"title":"a <b> & c"}]}`),
			Position: 1, Cell: json.RawMessage(`{"gamma":"1.1"}`)},
		{ID: "rrrrrrrrr3", Kind: "run", WorkloadID: "wwwwwwwww3", Strategy: "eapm", Variant: "online", Params: map[string]string{"gamma": "1.3"},
			Seed: 2, Status: "failed", Error: "gamma: too big", ErrorField: "gamma", CreatedAt: t0, StartedAt: at(time.Second), FinishedAt: at(3 * time.Second),
			Position: 0, Cell: json.RawMessage(`{"gamma":"1.3"}`), Replicate: 1},
		{ID: "rrrrrrrrr4", Kind: "run", WorkloadID: "wwwwwwwww2", Strategy: "eapm", Variant: "greedy", Params: map[string]string{},
			Status: "canceled", Error: "canceled by the user", CreatedAt: t0, Position: 2, Cell: json.RawMessage(`{}`)},
	}
	return h, e, ws, rs
}

func sum(data string) string {
	h := sha256Hex([]byte(data))
	return h
}

func write(t testing.TB, h Header, e Experiment, ws []Workload, rs []Run) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h, e)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ws {
		if err := w.Workload(&ws[i]); err != nil {
			t.Fatal(err)
		}
	}
	for i := range rs {
		if err := w.Run(&rs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAll reads a whole bundle.
func readAll(b []byte, limit int64) (Header, Experiment, []Workload, []Run, error) {
	r, err := NewReader(bytes.NewReader(b), limit)
	if err != nil {
		return Header{}, Experiment{}, nil, nil, err
	}
	var ws []Workload
	var rs []Run
	for {
		w, run, err := r.Next()
		if err == io.EOF {
			return r.Header(), r.Experiment(), ws, rs, nil
		}
		if err != nil {
			return Header{}, Experiment{}, nil, nil, err
		}
		if w != nil {
			ws = append(ws, *w)
		} else {
			rs = append(rs, *run)
		}
	}
}

func TestWrittenBundleReadsBackTheSame(t *testing.T) {
	h, e, ws, rs := sample()
	b := write(t, h, e, ws, rs)
	gh, ge, gws, grs, err := readAll(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gh, h) || !reflect.DeepEqual(ge, e) || !reflect.DeepEqual(gws, ws) || !reflect.DeepEqual(grs, rs) {
		t.Errorf("read back differs:\n%+v\n%+v\n%+v\n%+v", gh, ge, gws, grs)
	}
	// The workload data keeps its bytes (whitespace included), so its
	// sha256 still matches; HTML characters are not escaped.
	if gws[1].Data != ws[1].Data {
		t.Errorf("data %q, want %q", gws[1].Data, ws[1].Data)
	}
	if !strings.Contains(string(grs[0].Report), "a <b> & c") {
		t.Errorf("report re-encoded: %s", grs[0].Report)
	}
}

// lines is the sample bundle's records as JSON text, one a line, for
// tampering.
func lines(t *testing.T) []string {
	t.Helper()
	h, e, ws, rs := sample()
	zr, err := gzip.NewReader(bytes.NewReader(write(t, h, e, ws, rs)))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(plain), "\n"), "\n")
}

func gz(ls []string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(strings.Join(ls, "\n") + "\n"))
	zw.Close()
	return buf.Bytes()
}

func TestReaderRefusesBadBundles(t *testing.T) {
	edit := func(i int, old, new string) func([]string) []string {
		return func(ls []string) []string {
			if !strings.Contains(ls[i], old) {
				panic("no " + old + " in line " + ls[i])
			}
			ls[i] = strings.Replace(ls[i], old, new, 1)
			return ls
		}
	}
	// Lines: 0 header, 1 experiment, 2 and 3 workloads, 4-6 runs (positions 1, 0, 2).
	cases := []struct {
		name  string
		edit  func([]string) []string
		field string // the error's field
		msg   string // in its message
	}{
		{"unknown top-level field", edit(4, `{"run":`, `{"extra":1,"run":`), "bundle record 5", `unknown field "extra"`},
		{"unknown run field", edit(4, `"seed":`, `"colour":"red","seed":`), "bundle record 5", `unknown field "colour"`},
		{"two records in one line", edit(4, `{"run":`, `{"workload":{},"run":`), "bundle record 5", "exactly one"},
		{"no header first", func(ls []string) []string { return ls[1:] }, "bundle record 1", "first record must be the header"},
		{"another format", edit(0, `"format":"schedlab-experiment"`, `"format":"zip"`), "bundle record 1 header.format", "not a schedlab"},
		{"newer version", edit(0, fmt.Sprintf(`"version":%d`, Version), fmt.Sprintf(`"version":%d`, Version+1)), "bundle record 1 header.version", "newer"},
		{"missing commit", edit(0, `"commit":"abc123"`, `"commit":""`), "bundle record 1 header.schedlab.commit", "missing"},
		{"bad experiment id", edit(1, `"id":"aaaaaaaaaa"`, `"id":"AAAAAAAAAA"`), "bundle record 2 experiment.id", "not a schedlab ID"},
		{"running experiment", edit(1, `"status":"done"`, `"status":"running"`), "bundle record 2 experiment.status", "only finished"},
		{"definition with an unknown key", edit(1, `"grid":{`, `"gird":1,"grid":{`), "bundle record 2 experiment.definition", "gird"},
		{"definition not an object", edit(1, `"definition":{"name":"γ sweep","strategy":"eapm","grid":{"gamma":["1.1","1.3"]}}`, `"definition":[1]`), "bundle record 2 experiment.definition", "JSON object"},
		{"tampered sha256", edit(2, `"sha256":"`, `"sha256":"0`), "bundle record 3 workload.sha256", "does not match"},
		{"tampered data", edit(2, `[1,2,3]`, `[1,2,4]`), "bundle record 3 workload.sha256", "does not match"},
		{"workload twice", func(ls []string) []string { return append(ls[:3], append([]string{ls[2]}, ls[3:]...)...) }, "bundle record 4 workload.id", "twice"},
		{"workload after a run", func(ls []string) []string { ls[3], ls[4] = ls[4], ls[3]; return ls }, "bundle record 5 workload", "before the runs"},
		{"run of a workload not in the bundle", edit(4, `"workload_id":"wwwwwwwww2"`, `"workload_id":"wwwwwwwww7"`), "bundle record 5 run.workload_id", "not in the bundle"},
		{"queued run", edit(4, `"status":"done"`, `"status":"queued"`), "bundle record 5 run.status", "only finished"},
		{"run of another strategy", edit(4, `"strategy":"eapm"`, `"strategy":"dcop"`), "bundle record 5 run.strategy", "not the experiment's"},
		{"position twice", edit(5, `"position":0`, `"position":1`), "bundle record 6 run.position", "given twice"},
		{"position out of range", edit(6, `"position":2`, `"position":3`), "bundle record 7 run.position", "outside 0 to 2"},
		{"negative position", edit(6, `"position":2`, `"position":-1`), "bundle record 7 run.position", "outside"},
		{"a run missing", func(ls []string) []string { return ls[:6] }, "bundle record 7", "after 2 runs, runs_total is 3"},
		{"runs_total too small", edit(1, `"runs_total":3`, `"runs_total":2`), "bundle record 7 run.position", "outside 0 to 1"},
		{"run twice", edit(6, `"id":"rrrrrrrrr4"`, `"id":"rrrrrrrrr2"`), "bundle record 7 run.id", "twice"},
		{"cell not an object", edit(4, `"cell":{"gamma":"1.1"}`, `"cell":["1.1"]`), "bundle record 5 run.cell", "JSON object"},
		{"report not an object", edit(4, `"report":{"metrics"`, `"report":[{"metrics"`), "bundle record 5", "malformed JSON"},
		{"report a string", edit(4, `"report":{"metrics":[{"name":"objective","value":4.5}],"tables":[{"title":"a <b> & c"}]}`, `"report":"x"`), "bundle record 5 run.report", "JSON object"},
		{"seed of the wrong type", edit(4, `"seed":1`, `"seed":"1"`), "bundle record 5 run.seed", "must be a whole number, got JSON string"},
		{"no experiment", func(ls []string) []string { return ls[:1] }, "bundle record 2", "before its experiment"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, _, err := readAll(gz(c.edit(lines(t))), 0)
			if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != c.field || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v (%v, field %q), want Invalid on %q saying %q", err, errs.KindOf(err), errs.FieldOf(err), c.field, c.msg)
			}
		})
	}
}

func TestReaderRefusesDamagedGzip(t *testing.T) {
	h, e, ws, rs := sample()
	good := write(t, h, e, ws, rs)
	flipped := bytes.Clone(good)
	flipped[len(flipped)-6] ^= 0xff // in the CRC-32 of the trailer
	for _, c := range []struct {
		name string
		b    []byte
		msg  string
	}{
		{"truncated", good[:len(good)-20], "truncated"},
		{"trailer cut", good[:len(good)-4], "truncated"},
		{"checksum", flipped, "checksum"},
		{"not gzip", []byte(`{"header":{}}`), "not a gzip file"},
		{"empty", nil, "not a gzip file"},
	} {
		_, _, _, _, err := readAll(c.b, 0)
		if errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v (%v), want Invalid saying %q", c.name, err, errs.KindOf(err), c.msg)
		}
	}
}

// TestGzipBombStopsAtTheLimit reads a bundle whose one run report is
// 1 GiB of "a" (1,024 concatenated gzip members of 1 MiB each, 1 MiB on
// disk in all) with a 4 MiB limit: TooLarge naming the limit, having
// allocated a few times the limit, not the gigabyte.
func TestGzipBombStopsAtTheLimit(t *testing.T) {
	ls := lines(t)
	var bomb bytes.Buffer
	bomb.Write(gz(ls[:4]))
	zw := gzip.NewWriter(&bomb)
	zw.Write([]byte(`{"run":{"report":{"x":"`))
	zw.Close()
	var mib bytes.Buffer
	zw = gzip.NewWriter(&mib)
	zw.Write(bytes.Repeat([]byte("a"), 1<<20))
	zw.Close()
	for range 1024 {
		bomb.Write(mib.Bytes())
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, _, _, err := readAll(bomb.Bytes(), 4<<20)
	runtime.ReadMemStats(&after)
	if errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "limit of 4 MiB") {
		t.Fatalf("got %v (%v), want TooLarge naming 4 MiB", err, errs.KindOf(err))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("reading the bomb allocated %d MiB, want a few times the 4 MiB limit", alloc>>20)
	}
	// Exactly at the limit is fine; one byte over is not.
	h, e, ws, rs := sample()
	good := write(t, h, e, ws, rs)
	zr, _ := gzip.NewReader(bytes.NewReader(good))
	plain, _ := io.ReadAll(zr)
	if _, _, _, _, err := readAll(good, int64(len(plain))); err != nil {
		t.Errorf("a bundle of exactly the limit: %v", err)
	}
	if _, _, _, _, err := readAll(good, int64(len(plain)-1)); errs.KindOf(err) != errs.TooLarge {
		t.Errorf("a bundle one byte over the limit: %v, want TooLarge", err)
	}
}

func TestWriterRefusesWhatTheReaderWould(t *testing.T) {
	h, e, ws, rs := sample()
	if _, err := NewWriter(io.Discard, h, Experiment{ID: "x"}); errs.KindOf(err) != errs.Invalid {
		t.Errorf("bad experiment: %v", err)
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h, e)
	if err != nil {
		t.Fatal(err)
	}
	w.Workload(&ws[0])
	bad := rs[0]
	bad.Status = "running"
	if err := w.Run(&bad); errs.FieldOf(err) != "bundle record 4 run.status" {
		t.Errorf("a running run: %v", err)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after an error succeeded")
	}
	// What was written is not a bundle: no trailer.
	if _, _, _, _, err := readAll(buf.Bytes(), 0); err == nil {
		t.Error("a bundle whose writer failed reads")
	}
	// Too few runs: Close refuses.
	w, _ = NewWriter(io.Discard, h, e)
	w.Workload(&ws[0])
	w.Workload(&ws[1])
	w.Run(&rs[0])
	if err := w.Close(); errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), "after 1 runs, runs_total is 3") {
		t.Errorf("Close with 1 of 3 runs: %v", err)
	}
}

func TestBuildFields(t *testing.T) {
	b := CurrentBuild()
	if b.Version == "" || b.Commit == "" || (b.Modified != "true" && b.Modified != "false" && b.Modified != Unknown) {
		t.Errorf("CurrentBuild %+v: every field must be set (%q when not known)", b, Unknown)
	}
	got := buildinfo.Of(&debug.BuildInfo{Main: debug.Module{Path: "schedlab", Version: "v1.0.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "89dc2e5"}, {Key: "vcs.modified", Value: "true"}}})
	if want := (buildinfo.Build{Version: "v1.0.0", Commit: "89dc2e5", Modified: "true"}); got != want {
		t.Errorf("buildOf: %+v, want %+v", got, want)
	}
	if got := buildinfo.Of(&debug.BuildInfo{}); got != (buildinfo.Build{Version: Unknown, Commit: Unknown, Modified: Unknown}) {
		t.Errorf("buildOf without VCS: %+v, want every field %q", got, Unknown)
	}
	h := NewHeader()
	if h.Format != Format || h.Version != Version || h.Schedlab != b || h.ExportedAt.IsZero() {
		t.Errorf("NewHeader %+v", h)
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{"abcdefgh23": true, "abcdefgh2": false, "abcdefgh210": false, "abcdefgh01": false, "ABCDEFGH23": false, "abcdefgh2-": false} {
		if ValidID(id) != want {
			t.Errorf("ValidID(%q) = %v", id, !want)
		}
	}
}

// FuzzReader: no input panics or reads past its limit, and whatever reads
// writes back and reads again the same.
func FuzzReader(f *testing.F) {
	h, e, ws, rs := sample()
	good := write(f, h, e, ws, rs)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(gz([]string{`{"header":{"format":"schedlab-experiment","version":1}}`}))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255})
	f.Fuzz(func(t *testing.T, b []byte) {
		gh, ge, gws, grs, err := readAll(b, 1<<20)
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", k, err)
			}
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("not an errs.Error: %v", err)
			}
			return
		}
		again := write(t, gh, ge, gws, grs)
		h2, e2, ws2, rs2, err := readAll(again, 0)
		if err != nil {
			t.Fatalf("a bundle that read does not read after writing it again: %v", err)
		}
		if !reflect.DeepEqual(h2, gh) || !reflect.DeepEqual(e2, ge) || len(ws2) != len(gws) || len(rs2) != len(grs) {
			t.Fatalf("written again, it reads differently")
		}
	})
}

// FuzzRecords fuzzes the records themselves (the text inside the gzip
// stream, which FuzzReader's mutations seldom reach intact), with the same
// properties.
func FuzzRecords(f *testing.F) {
	h, e, ws, rs := sample()
	zr, _ := gzip.NewReader(bytes.NewReader(write(f, h, e, ws, rs)))
	plain, _ := io.ReadAll(zr)
	f.Add(plain)
	f.Fuzz(func(t *testing.T, plain []byte) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(plain)
		zw.Close()
		gh, ge, gws, grs, err := readAll(buf.Bytes(), 1<<20)
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", k, err)
			}
			return
		}
		h2, e2, ws2, rs2, err := readAll(write(t, gh, ge, gws, grs), 0)
		if err != nil {
			t.Fatalf("a bundle that read does not read after writing it again: %v", err)
		}
		if !reflect.DeepEqual(h2, gh) || !reflect.DeepEqual(e2, ge) || !reflect.DeepEqual(ws2, gws) || !reflect.DeepEqual(rs2, grs) {
			t.Fatalf("written again, it reads differently")
		}
	})
}
