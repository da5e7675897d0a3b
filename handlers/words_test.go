package handlers

import (
	"encoding/json"
	"strings"
	"testing"

	"schedlab/errs"
)

// TestJSONErrorsSayTheFieldAndTypeInWords: a body of the wrong shape is
// answered with the field and the JSON it must be, in words, never Go's
// names of types ("json: cannot unmarshal array into Go value of type
// handlers.apiStartRun").
func TestJSONErrorsSayTheFieldAndTypeInWords(t *testing.T) {
	a := newFakeApp(t, 0)
	for _, c := range []struct{ path, body, field, says string }{
		{"/api/runs", `{"workload_id":"zzzzzzzzzz","seed":"abc"}`, "seed", "must be a whole number, got JSON string"},
		{"/api/runs", `{"workload_id":7}`, "workload_id", "must be a string, got JSON number"},
		{"/api/runs", `[1,2,3]`, "body", "must be an object, got JSON array"},
		{"/api/workloads/generate", `{"strategy":["eapm"]}`, "strategy", "must be a string, got JSON array"},
		{"/api/workloads/generate", `"eapm"`, "body", "must be an object, got JSON string"},
	} {
		status, b := a.postJSON(t, c.path, c.body)
		var e apiError
		json.Unmarshal(b, &e)
		if status != 400 || e.Field != c.field || e.Error != c.field+": "+c.says && e.Error != c.says {
			t.Errorf("%s %s: %d field %q error %q, want 400 on %q saying %q", c.path, c.body, status, e.Field, e.Error, c.field, c.says)
		}
		for _, goName := range []string{"Go ", "handlers.", "int64", "[]", "json:"} {
			if strings.Contains(e.Error, goName) {
				t.Errorf("%s %s: the error names Go: %q", c.path, c.body, e.Error)
			}
		}
	}
}

// TestInternalJSONErrorsSayTheFieldInWords: an error of stored JSON that
// reaches the error handler (a compare of a damaged stored report) names
// the field and what it must be, not Go's types.
func TestInternalJSONErrorsSayTheFieldInWords(t *testing.T) {
	var r struct {
		Metrics []struct{ Value float64 } `json:"metrics"`
	}
	err := json.Unmarshal([]byte(`{"metrics":"x"}`), &r)
	got := messageOf(errs.Wrap(errs.Internal, err))
	if got != "stored data does not read: metrics must be a list, got JSON string" {
		t.Errorf("message %q", got)
	}
	if in := messageOf(errs.Invalidf("file", "line 3: must be a number")); in != "line 3: must be a number" {
		t.Errorf("a user's input error was rewritten: %q", in)
	}
}
