package registry

import (
	"slices"
	"testing"
	"unicode"

	"schedlab/solvers"
)

func TestEveryFamilyHasWellFormedParameterNames(t *testing.T) {
	if err := Check(); err != nil {
		t.Error(err)
	}
}

// TestFamiliesAreNamed: each family is found under its own Info.Name,
// built once (Lookup and All give the same value), in the design's order.
func TestFamiliesAreNamed(t *testing.T) {
	var names []string
	for i, st := range All() {
		names = append(names, st.Info.Name)
		if got, ok := Lookup(families[i].name); !ok || got != st || st.Info.Name != families[i].name {
			t.Errorf("family %d: Lookup(%q) = %v, %v; All has %q", i, families[i].name, got, ok, st.Info.Name)
		}
	}
	if want := []string{"dcop", "gossip", "critical", "cyclic", "eapm"}; !slices.Equal(names, want) {
		t.Errorf("families %v, want %v", names, want)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup found a family that is not built")
	}
}

// TestHelpTextsNeedNoCJKFont: the forms' help texts (families, variants,
// parameters, presets) are in scripts every default font set covers. A
// Japanese quote of a seed paper drew missing-glyph boxes on a machine
// without a CJK font (issue 22); the quotes stay in the code's comments.
func TestHelpTextsNeedNoCJKFont(t *testing.T) {
	check := func(where, s string) {
		for _, r := range s {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
				(r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef) {
				t.Errorf("%s: help text has %q (U+%04X), which needs a CJK font: %.80q", where, r, r, s)
				return
			}
		}
	}
	params := func(where string, ps []solvers.ParamSpec) {
		for _, p := range ps {
			check(where+" parameter "+p.Name, p.Doc)
			check(where+" parameter "+p.Name+" unit", p.Unit)
		}
	}
	for _, s := range All() {
		info := s.Info
		check(info.Name+" title", info.Title)
		check(info.Name+" summary", info.Summary)
		for _, v := range s.Variants {
			check(info.Name+" variant "+v.Name, v.Doc)
		}
		params(info.Name, s.Params)
		params(info.Name+" reproduce", s.ReproduceParams)
		for _, p := range s.Presets {
			check(info.Name+" preset "+p.Name, p.Doc)
			params(info.Name+" preset "+p.Name, p.Params)
		}
	}
}

// The variants that compute a bound or an optimum rather than schedule as
// a method are marked references, so a compare never ranks them beside
// the methods (issue 30): DCOP's exact search and EAPM's offline LP.
func TestReferenceVariantsAreTheBoundsAndOptima(t *testing.T) {
	var got []string
	for _, s := range All() {
		for _, v := range s.Variants {
			if v.Reference {
				got = append(got, s.Info.Name+"/"+v.Name)
			}
		}
	}
	want := []string{"dcop/exact", "eapm/offline-lp"}
	if !slices.Equal(got, want) {
		t.Fatalf("reference variants %v, want %v", got, want)
	}
}
