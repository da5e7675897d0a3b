package formats

import (
	"strings"
	"testing"

	"schedlab/errs"
)

func TestDecodeStrict(t *testing.T) {
	type doc struct {
		Name string `json:"name"`
		Jobs []struct {
			Duration int `json:"duration"`
		} `json:"jobs"`
	}
	var ok doc
	if err := DecodeStrict([]byte(`{"name":"a","jobs":[{"duration":3}]}`), &ok, "a test doc"); err != nil || ok.Jobs[0].Duration != 3 {
		t.Fatalf("valid document: %v %+v", err, ok)
	}
	cases := []struct {
		name, data, field, says string
	}{
		{"unknown field", `{"name":"a","nmae":"b"}`, "file", `unknown field "nmae"`},
		{"wrong type", "{\"jobs\":[\n{\"duration\":\"3\"}]}", "jobs.duration", "line 2"},
		{"syntax", "{\"name\":\n\"a\",,}", "file", "line 2"},
		{"trailing", `{"name":"a"} {}`, "file", "trailing"},
		{"empty", ``, "file", "empty"},
		{"cut short", `{"name":`, "file", "ends too early"},
	}
	for _, c := range cases {
		var d doc
		err := DecodeStrict([]byte(c.data), &d, "a test doc")
		if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != c.field || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v (field %q), want Invalid on %q saying %q", c.name, err, errs.FieldOf(err), c.field, c.says)
		}
	}
}
