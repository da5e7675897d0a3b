package formats

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"schedlab/errs"
)

const wfSmall = `{"name":"toy","schemaVersion":"1.5","workflow":{
 "specification":{"tasks":[
  {"name":"a","id":"a","parents":[],"children":["b","c"],"inputFiles":["in"],"outputFiles":["x","y"]},
  {"name":"b","id":"b","parents":["a"],"children":["d"],"inputFiles":["x"],"outputFiles":["z"]},
  {"name":"c","id":"c","parents":["a"],"children":[],"inputFiles":["y","x"],"outputFiles":[]},
  {"name":"d","id":"d","parents":[],"children":[],"inputFiles":["z"],"outputFiles":[]}],
  "files":[{"id":"in","sizeInBytes":5},{"id":"x","sizeInBytes":100},{"id":"y","sizeInBytes":20},{"id":"z","sizeInBytes":7}]},
 "execution":{"makespanInSeconds":10,"executedAt":"x","tasks":[
  {"id":"a","runtimeInSeconds":1.5},{"id":"b","runtimeInSeconds":2,"machines":["m1"]},{"id":"c","runtimeInSeconds":0},{"id":"d","runtimeInSeconds":3,"coreCount":2}],
  "machines":[{"nodeName":"m1","cpu":{"coreCount":48,"speedInMHz":1200}}]}}}`

func TestReadWfFormatSmall(t *testing.T) {
	w, err := ReadWfFormat("toy.json", []byte(wfSmall))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Tasks) != 4 || w.Name != "toy" || w.Makespan != 10 {
		t.Fatalf("got %+v", w)
	}
	// d lists no parent but b lists d as child: the union makes b→d.
	if got := w.Tasks[3].Parents; len(got) != 1 || got[0] != 1 {
		t.Errorf("d parents %v, want [1]", got)
	}
	if got := w.Tasks[0].Children; len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("a children %v", got)
	}
	if b := w.EdgeBytes(0, 2); b != 120 {
		t.Errorf("a→c bytes %d, want 120 (x + y)", b)
	}
	if b := w.EdgeBytes(0, 1); b != 100 {
		t.Errorf("a→b bytes %d, want 100", b)
	}
	if w.Tasks[1].Machine != "m1" || w.Tasks[3].Cores != 2 || w.Tasks[0].Runtime != 1.5 {
		t.Errorf("execution fields not read: %+v", w.Tasks)
	}
	if len(w.Machines) != 1 || w.Machines[0].CoreCount != 48 {
		t.Errorf("machines %+v", w.Machines)
	}
}

// TestReadWfFormat16 reads a 1.6 instance: the 1.5 document with the
// version changed and the optional metrics objects 1.6 adds.
func TestReadWfFormat16(t *testing.T) {
	src := strings.Replace(wfSmall, `"schemaVersion":"1.5"`, `"schemaVersion":"1.6"`, 1)
	src = strings.Replace(src, `"files":[{"id":"in"`, `"metrics":{"numberOfTasks":4,"numberOfLevels":3},"files":[{"id":"in"`, 1)
	src = strings.Replace(src, `"makespanInSeconds":10,`, `"makespanInSeconds":10,"metrics":{"sumTaskRuntimesInSeconds":6.5},`, 1)
	w16, err := ReadWfFormat("toy16.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w15, _ := ReadWfFormat("toy.json", []byte(wfSmall))
	if w16.SchemaVersion != "1.6" || len(w16.Tasks) != len(w15.Tasks) || w16.EdgeBytes(0, 2) != w15.EdgeBytes(0, 2) || w16.Tasks[3].Runtime != 3 {
		t.Errorf("1.6 read differently from 1.5: %+v", w16)
	}
}

func TestReadWfFormatSharedWorkflows(t *testing.T) {
	files, _ := filepath.Glob("../critical/testdata/*.json")
	if len(files) == 0 {
		t.Fatal("no workflow files in ../critical/testdata")
	}
	want := map[string]int{"montage": 103, "epigenomics": 41, "1000genome": 52, "cycles": 67, "seismology": 101}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := ReadWfFormat(filepath.Base(f), data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for k, n := range want {
			if strings.HasPrefix(filepath.Base(f), k) && len(w.Tasks) != n {
				t.Errorf("%s: %d tasks, want %d", f, len(w.Tasks), n)
			}
		}
	}
}

func TestReadWfFormatRejects(t *testing.T) {
	cases := []struct {
		name, edit, from, field string
	}{
		{"version", `"schemaVersion":"1.3"`, `"schemaVersion":"1.5"`, "toy.json schemaVersion"},
		{"no version", `"x":"1.5"`, `"schemaVersion":"1.5"`, "toy.json schemaVersion"},
		{"unknown parent", `"parents":["zz"]`, `"parents":["a"]`, "toy.json workflow.specification.tasks[1].parents[0]"},
		{"unknown child", `"children":["zz"]`, `"children":["d"]`, "toy.json workflow.specification.tasks[1].children[0]"},
		{"cycle", `{"name":"d","id":"d","parents":[],"children":["a"]`, `{"name":"d","id":"d","parents":[],"children":[]`, "toy.json workflow.specification.tasks[0]"},
		{"negative runtime", `"runtimeInSeconds":-2`, `"runtimeInSeconds":2`, "toy.json workflow.execution.tasks[1].runtimeInSeconds"},
		{"negative size", `"sizeInBytes":-100`, `"sizeInBytes":100`, "toy.json workflow.specification.files[1].sizeInBytes"},
		{"unknown file", `"inputFiles":["nope"]`, `"inputFiles":["x"]`, "toy.json workflow.specification.tasks[1].inputFiles[0]"},
		{"missing runtime", `{"id":"a","runtimeInSeconds":1.5},`, `{"id":"a","runtimeInSeconds":1.5},`, ""},
		{"dup id", `{"name":"d","id":"a"`, `{"name":"d","id":"d"`, "toy.json workflow.specification.tasks[3].id"},
		{"trailing", `}}} x`, `}}}`, "toy.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(wfSmall, c.from, c.edit, 1)
			if c.name == "missing runtime" {
				src = strings.Replace(wfSmall, `{"id":"c","runtimeInSeconds":0},`, "", 1)
				c.field = "toy.json workflow.execution.tasks"
			}
			if c.name == "trailing" {
				src = wfSmall + " x"
			}
			_, err := ReadWfFormat("toy.json", []byte(src))
			if err == nil {
				t.Fatal("accepted")
			}
			if !errs.Is(err, errs.Invalid) {
				t.Errorf("kind %v: %v", errs.KindOf(err), err)
			}
			if c.field != "" && errs.FieldOf(err) != c.field {
				t.Errorf("field %q, want %q (%v)", errs.FieldOf(err), c.field, err)
			}
		})
	}
}

func FuzzReadWfFormat(f *testing.F) {
	f.Add([]byte(wfSmall))
	f.Add([]byte(strings.Replace(wfSmall, `"schemaVersion":"1.5"`, `"schemaVersion":"1.6"`, 1)))
	f.Add([]byte(`{"schemaVersion":"1.5","workflow":{"specification":{"tasks":[{"id":"a","name":"a","parents":["a"],"children":[]}]}}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(wf14Small))
	f.Add([]byte(`{"schemaVersion":"1.4","workflow":{"tasks":[{"name":"a","parents":["a"],"runtimeInSeconds":1}]}}`))
	f.Add([]byte(`{"schemaVersion":"1.4","workflow":{"tasks":[{"name":"a","files":[{"name":"x","sizeInBytes":1,"link":"output"}],"runtimeInSeconds":1},{"name":"b","files":[{"name":"x","sizeInBytes":1,"link":"input"}],"runtimeInSeconds":1}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ReadWfFormat("f.json", data)
		if err != nil {
			if errs.KindOf(err) != errs.Invalid && errs.KindOf(err) != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", errs.KindOf(err), err)
			}
			return
		}
		if findCycle(w.Tasks) >= 0 {
			t.Fatal("accepted a cycle")
		}
		for i, tk := range w.Tasks {
			if tk.Runtime < 0 {
				t.Fatalf("task %d runtime %v", i, tk.Runtime)
			}
			for _, p := range tk.Parents {
				if p < 0 || p >= len(w.Tasks) || p == i {
					t.Fatalf("bad parent %d", p)
				}
				if !slices.Contains(w.Tasks[p].Children, i) {
					t.Fatalf("task %d has parent %d that does not list it as a child", i, p)
				}
			}
			for _, f := range append(slices.Clone(tk.Inputs), tk.Outputs...) {
				if s, ok := w.Files[f]; !ok || s < 0 {
					t.Fatalf("task %d file %q: size %d, known %v", i, f, s, ok)
				}
			}
		}
	})
}
