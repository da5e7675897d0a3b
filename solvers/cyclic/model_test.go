package cyclic

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

const validJSON = `{"interval": 100,
 "nodes": [
  {"id": "n1", "performance": 4, "price": 4.5, "busy": [[0, 10], [50, 60]]},
  {"id": "n2", "performance": 2, "price": 2, "busy": []},
  {"id": "n3", "performance": 8, "price": 9}
 ],
 "jobs": [
  {"id": "j1", "nodes": 2, "volume": 40, "min_performance": 2, "max_price": 200, "criterion": "cost"},
  {"id": "j2", "nodes": 1, "volume": 16, "min_performance": 0, "max_price": 100}
 ]}`

func TestParseJSONValid(t *testing.T) {
	in, err := ParseJSON([]byte(validJSON))
	if err != nil {
		t.Fatal(err)
	}
	if in.Interval != 100 || len(in.Nodes) != 3 || len(in.Jobs) != 2 {
		t.Fatalf("parsed %+v", in)
	}
	if got := in.Nodes[0].Busy; !reflect.DeepEqual(got, []Interval{{0, 10}, {50, 60}}) {
		t.Errorf("busy %v", got)
	}
	if in.Jobs[1].Criterion != CritStart {
		t.Errorf("default criterion %q, want start", in.Jobs[1].Criterion)
	}
	// canonical JSON round-trips
	out, err := in.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	in2, err := ParseJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in.Jobs, in2.Jobs) || len(in2.Nodes) != 3 || !reflect.DeepEqual(in.Nodes[0], in2.Nodes[0]) {
		t.Errorf("round trip differs:\n%+v\n%+v", in, in2)
	}
}

func TestParseJSONBadInputs(t *testing.T) {
	sub := func(old, new string) string {
		if !strings.Contains(validJSON, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(validJSON, old, new, 1)
	}
	cases := []struct {
		name, data, field string
	}{
		{"not JSON", `nodes: 3`, "file"},
		{"empty", ``, "file"},
		{"trailing", validJSON + `{}`, "file"},
		{"unknown field", sub(`"interval": 100,`, `"interval": 100, "horizon": 5,`), "file"},
		{"wrong type", sub(`"performance": 4,`, `"performance": "fast",`), "nodes.performance"},
		{"no jobs", `{"interval": 10, "nodes": [{"id": "a", "performance": 1, "price": 1}], "jobs": []}`, "jobs"},
		{"no nodes", `{"interval": 10, "nodes": [], "jobs": [{"id": "j", "nodes": 1, "volume": 1, "max_price": 1}]}`, "nodes"},
		{"interval", sub(`"interval": 100`, `"interval": 0`), "interval"},
		{"unknown criterion", sub(`"criterion": "cost"`, `"criterion": "speed"`), "jobs[0].criterion"},
		{"perf zero", sub(`"performance": 4,`, `"performance": 0,`), "nodes[0].performance"},
		{"perf negative", sub(`"performance": 2,`, `"performance": -2,`), "nodes[1].performance"},
		{"busy past T", sub(`[50, 60]`, `[50, 101]`), "nodes[0].busy[1]"},
		{"busy negative", sub(`[0, 10]`, `[-1, 10]`), "nodes[0].busy[0]"},
		{"busy empty", sub(`[50, 60]`, `[60, 60]`), "nodes[0].busy[1]"},
		{"busy overlapping", sub(`[50, 60]`, `[5, 60]`), "nodes[0].busy[1]"},
		{"busy not a pair", sub(`[50, 60]`, `[50, 60, 70]`), "nodes[0].busy[1]"},
		{"duplicate job id", sub(`"id": "j2"`, `"id": "j1"`), "jobs[1].id"},
		{"duplicate node id", sub(`"id": "n2"`, `"id": "n1"`), "nodes[1].id"},
		{"empty job id", sub(`"id": "j2"`, `"id": ""`), "jobs[1].id"},
		{"job nodes 0", sub(`"nodes": 2,`, `"nodes": 0,`), "jobs[0].nodes"},
		{"job nodes > nodes", sub(`"nodes": 2,`, `"nodes": 4,`), "jobs[0].nodes"},
		{"volume 0", sub(`"volume": 40`, `"volume": 0`), "jobs[0].volume"},
		{"max price negative", sub(`"max_price": 200`, `"max_price": -1`), "jobs[0].max_price"},
		{"price negative", sub(`"price": 2,`, `"price": -2,`), "nodes[1].price"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(c.data))
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *errs.Error", err)
			}
			if e.Kind != errs.Invalid || e.Field != c.field {
				t.Errorf("kind %v field %q (%v), want Invalid %q", e.Kind, e.Field, err, c.field)
			}
		})
	}
}

// A bad upload is a 4xx error naming the file and field; no workload.
func TestParseWorkloadBadInput(t *testing.T) {
	s := New()
	w, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "x.json", Data: []byte(strings.Replace(validJSON, `"criterion": "cost"`, `"criterion": "x"`, 1))}})
	if w != nil || errs.KindOf(err) != errs.Invalid {
		t.Fatalf("w=%v err=%v", w, err)
	}
	var e *errs.Error
	if !errors.As(err, &e) || !strings.Contains(e.Field, "x.json") || !strings.Contains(e.Field, "jobs[0].criterion") {
		t.Errorf("field %q", e.Field)
	}
	if _, err := s.ParseWorkload(context.Background(), nil); errs.KindOf(err) != errs.Invalid {
		t.Errorf("no file: %v", err)
	}
	w, err = s.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "ok.json", Data: []byte(validJSON)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Preview.Validate(); err != nil {
		t.Error(err)
	}
}

func TestParseJSONTooLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"interval": 10, "nodes": [`)
	for i := range MaxNodes + 1 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id": "n", "performance": 1, "price": 1}`)
	}
	b.WriteString(`], "jobs": []}`)
	if _, err := ParseJSON([]byte(b.String())); errs.KindOf(err) != errs.TooLarge {
		t.Errorf("err = %v, want TooLarge", err)
	}
}

func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(validJSON))
	f.Add([]byte(`{"interval": 5, "nodes": [{"id": "a", "performance": 1, "price": 1, "busy": [[0, 5]]}], "jobs": [{"id": "j", "nodes": 1, "volume": 1, "max_price": 1}]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"interval": 1e99}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseJSON(data)
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", k, err)
			}
			return
		}
		if err := in.Validate(); err != nil {
			t.Fatalf("parsed instance does not validate: %v", err)
		}
		out, err := in.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseJSON(out); err != nil {
			t.Fatalf("canonical JSON does not parse: %v", err)
		}
	})
}
