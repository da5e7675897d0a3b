package dcop

import (
	"testing"

	"schedlab/errs"
)

const validJSON = `{"horizon": 10, "resources": ["A", "B"],
 "jobs": [{"id": "E1", "resources": ["A", "B"], "duration": 2, "value": 3},
          {"id": "E2", "resources": ["B"], "duration": 1}]}`

func TestParseJSONReadsNativeWorkload(t *testing.T) {
	in, err := ParseJSON([]byte(validJSON))
	if err != nil {
		t.Fatal(err)
	}
	if in.Horizon != 10 || len(in.Jobs) != 2 || in.Jobs[0].Value != 3 || in.Jobs[1].Value != 1 ||
		len(in.Jobs[0].Resources) != 2 || in.Jobs[1].Resources[0] != 1 {
		t.Fatalf("parsed %+v", in)
	}
	out, err := in.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseJSON(out)
	if err != nil {
		t.Fatalf("canonical JSON does not parse: %v\n%s", err, out)
	}
	if back.Jobs[1].ID != "E2" || back.Jobs[0].Value != 3 {
		t.Fatalf("round trip %+v", back)
	}
}

func TestParseJSONNamesTheBadField(t *testing.T) {
	for _, tc := range []struct{ name, data, field string }{
		{"unknown resource", `{"horizon":5,"resources":["A"],"jobs":[{"id":"a","resources":["Z"],"duration":1}]}`, "jobs[0].resources"},
		{"duration over horizon", `{"horizon":5,"resources":["A"],"jobs":[{"id":"a","resources":["A"],"duration":6}]}`, "jobs[0].duration"},
		{"zero duration", `{"horizon":5,"resources":["A"],"jobs":[{"id":"a","resources":["A"],"duration":0}]}`, "jobs[0].duration"},
		{"no jobs", `{"horizon":5,"resources":["A"],"jobs":[]}`, "jobs"},
		{"duplicate id", `{"horizon":5,"resources":["A"],"jobs":[{"id":"a","resources":["A"],"duration":1},{"id":"a","resources":["A"],"duration":1}]}`, "jobs[1].id"},
		{"duplicate resource", `{"horizon":5,"resources":["A","A"],"jobs":[{"id":"a","resources":["A"],"duration":1}]}`, "resources[1]"},
		{"zero horizon", `{"horizon":0,"resources":["A"],"jobs":[{"id":"a","resources":["A"],"duration":1}]}`, "horizon"},
		{"negative value", `{"horizon":5,"resources":["A"],"jobs":[{"id":"a","resources":["A"],"duration":1,"value":-1}]}`, "jobs[0].value"},
		{"unknown field", `{"horizon":5,"resources":["A"],"jobs":[],"x":1}`, "file"},
		{"not JSON", `horizon: 5`, "file"},
		{"trailing data", validJSON + `{}`, "file"},
		{"wrong type", `{"horizon":"5","resources":["A"],"jobs":[]}`, "horizon"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(tc.data))
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("want errs.Invalid, got %v", err)
			}
			if f := errs.FieldOf(err); f != tc.field {
				t.Fatalf("field %q, want %q (%v)", f, tc.field, err)
			}
		})
	}
}

func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(validJSON))
	f.Add([]byte(`{"horizon":5,"resources":["A"],"jobs":[{"id":"a","resources":["A"],"duration":6}]}`))
	f.Add([]byte(`{}`))
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
