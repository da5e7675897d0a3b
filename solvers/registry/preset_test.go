package registry

import (
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

// TestFindPresetIsTheOneLookup: every family's presets are found by name
// through Strategy.FindPreset; an unknown name is errs.Invalid on the
// caller's field naming the family and every known preset, an empty one
// says it is missing; the Def adapter's own lookup (Generate) words it
// the same.
func TestFindPresetIsTheOneLookup(t *testing.T) {
	for _, st := range All() {
		name := st.Info.Name
		var known []string
		for _, p := range st.Presets {
			known = append(known, p.Name)
			got, err := st.FindPreset(p.Name, "preset")
			if err != nil || got.Name != p.Name || len(got.Params) != len(p.Params) {
				t.Errorf("%s: preset %s: %v, %v", name, p.Name, got.Name, err)
			}
		}
		_, err := st.FindPreset("nosuch", "workload.preset")
		want := `workload.preset: unknown preset "nosuch" for ` + name + " (known: " + strings.Join(known, ", ") + ")"
		if errs.KindOf(err) != errs.Invalid || err == nil || err.Error() != want {
			t.Errorf("%s: unknown preset: %v, want %q", name, err, want)
		}
		if _, err := st.FindPreset("", "preset"); err == nil || !strings.Contains(err.Error(), "preset: missing: choose a preset of "+name) {
			t.Errorf("%s: no preset: %v", name, err)
		}
		if len(known) == 0 {
			continue
		}
		if _, err := st.Generate(t.Context(), "nosuch", solvers.Params{}, 1); err == nil || err.Error() != `preset: unknown preset "nosuch" for `+name+" (known: "+strings.Join(known, ", ")+")" {
			t.Errorf("%s: Generate of an unknown preset: %v", name, err)
		}
	}
}
