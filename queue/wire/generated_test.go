package wire

import "testing"

// A result may name only its own workload's generated objects, in the
// names workers write (and the older shared ones): anything else would
// have the server read or delete an object a worker could not.
func TestGeneratedNamedOnlyItsWorkloadsObjects(t *testing.T) {
	for _, c := range []struct {
		g    Generated
		want bool
	}{
		{Generated{WorkloadID: "abc", Meta: "generated-abc"}, true},                                            // a worker before Data
		{Generated{WorkloadID: "abc", Meta: "generated-abc-0f1e", Data: "generated-data-abc-0f1e"}, true},      // today's
		{Generated{WorkloadID: "abc", Meta: "run1.XYZ", Data: "generated-data-abc-0f1e"}, false},               // another run's report
		{Generated{WorkloadID: "abc", Meta: "generated-abc-0f1e", Data: "run1.XYZ"}, false},                    // the same, as data
		{Generated{WorkloadID: "abc", Meta: "generated-abd-0f1e", Data: "generated-data-abd-0f1e"}, false},     // another workload's
		{Generated{WorkloadID: "ab", Meta: "generated-ab-cd-0f1e", Data: "generated-data-ab-cd-0f"}, true},     // ids have no '-': "ab-cd" is not an id
		{Generated{WorkloadID: "ab-cd", Meta: "generated-ab-cd-0f1e", Data: "generated-data-ab-cd-0f"}, false}, // not an id
		{Generated{WorkloadID: "", Meta: "generated-", Data: ""}, false},
	} {
		if got := c.g.Named(); got != c.want {
			t.Errorf("%+v: Named() = %v, want %v", c.g, got, c.want)
		}
	}
	if g := (Generated{WorkloadID: "abc", SHA256: "00ff", Meta: "generated-abc"}); g.DataObject() != "generated-data-00ff" {
		t.Errorf("a worker before Data: data object %q", g.DataObject())
	}
}
