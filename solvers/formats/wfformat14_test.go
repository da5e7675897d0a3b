package formats

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"schedlab/errs"
)

// The same real workflow (makeflow BLAST, small, run 001) in each version;
// see testdata/wfformat/SOURCES.md.
const (
	wf14Real = "testdata/wfformat/blast-chameleon-small-001.wf14.json"
	wf15Real = "testdata/wfformat/blast-chameleon-small-001.wf15.json"
	wf16Real = "testdata/wfformat/blast-chameleon-small-001.wf16.json"
)

// wf14Small exercises the 1.4 → 1.5 mapping: an id inside the name
// (split_ID01 keeps its name as id), an id outside it (work → work_ID02), no
// id (merge → merge_2), a reference by the old id (ID02), a file path, an
// upper-case link and a task with no declared parent (merge), whose parents
// come from the producers of its inputs.
const wf14Small = `{"name":"toy14","schemaVersion":"1.4","workflow":{"makespanInSeconds":9,"executedAt":"x",
 "machines":[{"nodeName":"n1","cpu":{"count":8,"speed":2400}}],
 "tasks":[
  {"name":"split_ID01","id":"ID01","type":"compute","parents":[],"children":["ID02"],
   "files":[{"name":"in.txt","path":"/data/","sizeInBytes":10,"link":"input"},{"name":"a","sizeInBytes":100,"link":"output"},{"name":"b","sizeInBytes":20,"link":"output"}],
   "runtimeInSeconds":1.5,"cores":2,"machine":"n1"},
  {"name":"work","id":"ID02","type":"compute","parents":["split_ID01"],"children":[],
   "files":[{"name":"a","sizeInBytes":100,"link":"INPUT"},{"name":"c","sizeInBytes":5,"link":"output"}],"runtimeInSeconds":2},
  {"name":"merge","type":"compute","files":[{"name":"c","sizeInBytes":5,"link":"input"},{"name":"b","sizeInBytes":20,"link":"input"}],"runtimeInSeconds":0.5}]}}`

func TestReadWfFormat14Mapping(t *testing.T) {
	w, err := ReadWfFormat("toy14.json", []byte(wf14Small))
	if err != nil {
		t.Fatal(err)
	}
	if w.SchemaVersion != "1.4" || w.Name != "toy14" || w.Makespan != 9 {
		t.Fatalf("header %q %q %v", w.SchemaVersion, w.Name, w.Makespan)
	}
	ids := []string{w.Tasks[0].ID, w.Tasks[1].ID, w.Tasks[2].ID}
	if !reflect.DeepEqual(ids, []string{"split_ID01", "work_ID02", "merge_2"}) {
		t.Errorf("ids %v", ids)
	}
	if !reflect.DeepEqual(w.Files, map[string]int64{"/data/in.txt": 10, "a": 100, "b": 20, "c": 5}) {
		t.Errorf("files %v", w.Files)
	}
	if got := w.Tasks[1].Parents; !reflect.DeepEqual(got, []int{0}) {
		t.Errorf("work parents %v, want [0]", got)
	}
	// merge declares no parent: its inputs c and b come from work and split.
	if got := w.Tasks[2].Parents; !reflect.DeepEqual(got, []int{0, 1}) {
		t.Errorf("merge parents %v, want [0 1] (inferred from files)", got)
	}
	if got := w.Tasks[0].Children; !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("split children %v", got)
	}
	for _, e := range []struct {
		p, c int
		b    int64
	}{{0, 1, 100}, {0, 2, 20}, {1, 2, 5}} {
		if b := w.EdgeBytes(e.p, e.c); b != e.b {
			t.Errorf("edge %d→%d bytes %d, want %d", e.p, e.c, b, e.b)
		}
	}
	if !reflect.DeepEqual(w.Tasks[1].Inputs, []string{"a"}) || !reflect.DeepEqual(w.Tasks[0].Outputs, []string{"a", "b"}) {
		t.Errorf("inputs %v outputs %v", w.Tasks[1].Inputs, w.Tasks[0].Outputs)
	}
	if tk := w.Tasks[0]; tk.Runtime != 1.5 || tk.Cores != 2 || tk.Machine != "n1" {
		t.Errorf("task 0 execution %+v", tk)
	}
	if tk := w.Tasks[2]; tk.Runtime != 0.5 || tk.Cores != 0 || tk.Machine != "" {
		t.Errorf("task 2 execution %+v", tk)
	}
	if !reflect.DeepEqual(w.Machines, []WfMachine{{NodeName: "n1", CoreCount: 8, SpeedInMHz: 2400}}) {
		t.Errorf("machines %+v", w.Machines)
	}
}

// TestReadWfFormat14Real checks the real 1.4 instance against values read
// from the file by hand (python json): 43 tasks, 120 parent/child pairs,
// 794 bytes shared along them in all (each blastall gets a 6-byte
// small.fasta.N from split_fasta), makespan 1279.3 s, two 24-core workers.
func TestReadWfFormat14Real(t *testing.T) {
	data, err := os.ReadFile(wf14Real)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ReadWfFormat("blast.json", data)
	if err != nil {
		t.Fatal(err)
	}
	edges, bytes := 0, int64(0)
	for i, tk := range w.Tasks {
		edges += len(tk.Children)
		for _, c := range tk.Children {
			bytes += w.EdgeBytes(i, c)
		}
	}
	if len(w.Tasks) != 43 || edges != 120 || bytes != 794 || len(w.Files) != 127 {
		t.Errorf("%d tasks, %d edges, %d edge bytes, %d files; want 43, 120, 794, 127", len(w.Tasks), edges, bytes, len(w.Files))
	}
	if w.Makespan != 1279.3 || len(w.Machines) != 2 || w.Machines[1].CoreCount != 24 {
		t.Errorf("makespan %v machines %+v", w.Makespan, w.Machines)
	}
	b := w.Tasks[1]
	if b.ID != "blastall_ID000002" || b.Runtime != 9.798843 || b.Cores != 1 || b.Machine != "worker-2.novalocal" || !reflect.DeepEqual(b.Parents, []int{0}) {
		t.Errorf("task 1 %+v", b)
	}
	if w.EdgeBytes(0, 1) != 6 || w.Files["nt"] != 5112425635 {
		t.Errorf("split→blastall bytes %d, nt %d", w.EdgeBytes(0, 1), w.Files["nt"])
	}
}

// TestReadWfFormatVersionsAgree reads one workflow in its 1.4 form
// (makeflow-instances), its 1.5 form (WfInstances, the official migration's
// output) and a 1.6 form derived from the 1.5 one: the Workflow is the same
// but for SchemaVersion.
func TestReadWfFormatVersionsAgree(t *testing.T) {
	read := func(path string) *Workflow {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := ReadWfFormat(path, data)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	w14, w15, w16 := read(wf14Real), read(wf15Real), read(wf16Real)
	for v, w := range map[string]*Workflow{"1.4": w14, "1.5": w15, "1.6": w16} {
		if w.SchemaVersion != v {
			t.Errorf("version %q, want %q", w.SchemaVersion, v)
		}
	}
	w14.SchemaVersion, w16.SchemaVersion = "1.5", "1.5"
	for name, w := range map[string]*Workflow{"1.4": w14, "1.6": w16} {
		if reflect.DeepEqual(w, w15) {
			continue
		}
		if len(w.Tasks) != len(w15.Tasks) {
			t.Fatalf("%s: %d tasks, 1.5: %d", name, len(w.Tasks), len(w15.Tasks))
		}
		for i := range w.Tasks {
			if !reflect.DeepEqual(w.Tasks[i], w15.Tasks[i]) {
				t.Errorf("%s task %d: %+v\n1.5: %+v", name, i, w.Tasks[i], w15.Tasks[i])
				break
			}
		}
		t.Errorf("%s read differently from 1.5 (files equal: %v, machines equal: %v, makespan %v vs %v)", name,
			reflect.DeepEqual(w.Files, w15.Files), reflect.DeepEqual(w.Machines, w15.Machines), w.Makespan, w15.Makespan)
	}
}

func TestReadWfFormat14Rejects(t *testing.T) {
	cases := []struct {
		name, from, to, field string
	}{
		{"link", `"name":"a","sizeInBytes":100,"link":"output"`, `"name":"a","sizeInBytes":100,"link":"inout"`, "workflow.tasks[0].files[1].link"},
		{"no size", `{"name":"c","sizeInBytes":5,"link":"output"}`, `{"name":"c","link":"output"}`, "workflow.tasks[1].files[1].sizeInBytes"},
		{"fractional size", `"sizeInBytes":10,`, `"sizeInBytes":10.5,`, "workflow.tasks[0].files[0].sizeInBytes"},
		{"size conflict", `{"name":"a","sizeInBytes":100,"link":"INPUT"}`, `{"name":"a","sizeInBytes":101,"link":"INPUT"}`, "workflow.tasks[1].files[0].sizeInBytes"},
		{"no file name", `{"name":"c","sizeInBytes":5,"link":"input"}`, `{"sizeInBytes":5,"link":"input"}`, "workflow.tasks[2].files[0].name"},
		{"unknown parent", `"parents":["split_ID01"]`, `"parents":["nope"]`, "workflow.tasks[1].parents[0]"},
		{"unknown child", `"children":["ID02"]`, `"children":["ID03"]`, "workflow.tasks[0].children[0]"},
		{"self parent", `"parents":["split_ID01"]`, `"parents":["work"]`, "workflow.tasks[1].parents[0]"},
		{"no runtime", `,"runtimeInSeconds":0.5}`, `}`, "workflow.tasks[2].runtimeInSeconds"},
		{"negative runtime", `"runtimeInSeconds":2}`, `"runtimeInSeconds":-2}`, "workflow.tasks[1].runtimeInSeconds"},
		{"runtime type", `"runtimeInSeconds":2}`, `"runtimeInSeconds":"2"}`, "workflow.tasks.runtimeInSeconds"},
		{"empty name", `{"name":"merge",`, `{"name":"",`, "workflow.tasks[2].name"},
		{"duplicate id", `{"name":"work","id":"ID02"`, `{"name":"split_ID01","id":"ID01"`, "workflow.tasks[1].name"},
		{"cores", `"cores":2`, `"cores":-1`, "workflow.tasks[0].cores"},
		{"makespan", `"makespanInSeconds":9`, `"makespanInSeconds":-9`, "workflow.makespanInSeconds"},
		{"no tasks", `"tasks":[`, `"tasks":[],"x":[`, "workflow.tasks"},
		{"cycle", `"files":[{"name":"c","sizeInBytes":5,"link":"input"}`, `"children":["split_ID01"],"files":[{"name":"c","sizeInBytes":5,"link":"input"}`, "workflow.tasks["},
		{"no workflow", `"workflow":{`, `"x":{`, "workflow"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(wf14Small, c.from) {
				t.Fatalf("edit %q not found", c.from)
			}
			src := strings.Replace(wf14Small, c.from, c.to, 1)
			_, err := ReadWfFormat("toy14.json", []byte(src))
			if err == nil {
				t.Fatal("accepted")
			}
			if !errs.Is(err, errs.Invalid) {
				t.Errorf("kind %v: %v", errs.KindOf(err), err)
			}
			if f := errs.FieldOf(err); f != "toy14.json "+c.field && !(strings.HasSuffix(c.field, "[") && strings.HasPrefix(f, "toy14.json "+c.field)) {
				t.Errorf("field %q, want %q (%v)", f, "toy14.json "+c.field, err)
			}
		})
	}
}
