package sweep_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"schedlab/experiments"
	"schedlab/solvers/sweep"
)

// A field reads as one value, a list or an integer range; numbers are
// written as solvers.Params holds them; a bad field says why.
func TestParseValuesReadsTheFieldGrammar(t *testing.T) {
	cases := []struct {
		text string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"  ", nil, ""},
		{"1.2", []string{"1.2"}, ""},
		{"1.10, 1e3 , -0.5", []string{"1.1", "1000", "-0.5"}, ""},
		{"true, kth, +1, 1e400", []string{"true", "kth", "+1", "1e400"}, ""},
		{" 0 .. 3 ", []string{"0", "1", "2", "3"}, ""},
		{"-2..-1", []string{"-2", "-1"}, ""},
		{"5..2", nil, "is empty"},
		{"0..100000", nil, "more than 100000 values"},
		{"0..x", nil, "a range is two whole numbers"},
		{"1..2..3", nil, "a range is two whole numbers"},
		{"1,,2", nil, "value 2 of"},
		{"1,", nil, "value 2 of"},
	}
	for _, c := range cases {
		got, err := sweep.ParseValues(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, %v; want an error saying %q", c.text, got, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, %v; want %q", c.text, got, err, c.want)
		}
	}
}

// Values are written back into a field as they read: a run of three or
// more consecutive integers as a range, anything else as a list.
func TestValuesTextWritesWhatParseValuesReads(t *testing.T) {
	cases := map[string][]string{
		"0..2":        {"0", "1", "2"},
		"0, 1":        {"0", "1"},
		"0, 2, 3":     {"0", "2", "3"},
		"3, 2, 1":     {"3", "2", "1"},
		"1.5, 2.5, 3": {"1.5", "2.5", "3"},
		"a, b":        {"a", "b"},
	}
	for want, vs := range cases {
		if got := sweep.ValuesText(vs); got != want {
			t.Errorf("%q written %q, want %q", vs, got, want)
		}
		if back, err := sweep.ParseValues(want); err != nil || !reflect.DeepEqual(back, vs) {
			t.Errorf("%q reads back as %q (%v)", want, back, err)
		}
	}
}

// A definition's JSON is typed (numbers as numbers, booleans as
// booleans, a run of integers as a range) and reads back as the same
// definition.
func TestDefinitionJSONIsTypedAndReadsBack(t *testing.T) {
	d := &sweep.Definition{Name: "s", Strategy: "eapm", Workload: sweep.Workload{Preset: "p", Grid: sweep.Grid{"instance": {"0", "1", "2"}}},
		Variants: []string{"online"}, Grid: sweep.Grid{"gamma": {"1.1", "1.3"}, "shift": {"true"}, "order": {"BaS", "007"}},
		Replicates: 2, Seed: 5, Tags: []string{"t"}, References: []sweep.Reference{{Name: "paper", Metric: "m", Value: 3.5, Params: map[string]string{"gamma": "1.1"}}}}
	b, err := d.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var shown struct {
		Workload struct {
			Grid map[string]json.RawMessage `json:"grid"`
		} `json:"workload"`
		Grid map[string][]any `json:"grid"`
	}
	if err := json.Unmarshal(b, &shown); err != nil {
		t.Fatal(err)
	}
	if r := string(shown.Workload.Grid["instance"]); r != `{"from":0,"to":2}` && !strings.Contains(r, `"from": 0`) {
		t.Errorf("instance written %s, want the range", r)
	}
	if g := shown.Grid["gamma"]; len(g) != 2 || g[0] != 1.1 || shown.Grid["shift"][0] != true || shown.Grid["order"][1] != "007" {
		t.Errorf("grid written %v", shown.Grid)
	}
	back, err := experiments.ParseJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, d) {
		t.Errorf("read back\n%+v\nwant\n%+v\nfrom\n%s", back, d, b)
	}
	if !strings.HasPrefix(string(b), "{\n  \"name\": \"s\",\n  \"strategy\": \"eapm\",\n  \"workload\"") {
		t.Errorf("keys out of a reader's order:\n%s", b)
	}
}

// Whatever a field holds, ParseValues reads it or says why not, and what
// it reads is written back (ValuesText) and into JSON as the same values.
func FuzzParseValues(f *testing.F) {
	for _, s := range []string{"", "1.2", "1.10, 1e3", "0..9", "-3..-1", "a, b", "1,,2", "true, 0", "5..2", "1..2..3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		vs, err := sweep.ParseValues(text)
		if err != nil || vs == nil {
			return
		}
		back, err := sweep.ParseValues(sweep.ValuesText(vs))
		if err != nil || !reflect.DeepEqual(back, vs) {
			t.Fatalf("%q read %q, written %q, read back %q (%v)", text, vs, sweep.ValuesText(vs), back, err)
		}
		d := &sweep.Definition{Name: "f", Strategy: "s", Grid: sweep.Grid{"p": vs}, Replicates: 1, Seed: 1}
		b, err := d.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if got, err := experiments.ParseJSON(b); err != nil || !reflect.DeepEqual(got.Grid["p"], vs) {
			t.Fatalf("%q read %q, its JSON %s reads back %q", text, vs, b, got.Grid["p"])
		}
	})
}
