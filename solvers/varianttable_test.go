package solvers

import (
	"slices"
	"testing"
)

// row is a family's variant table row as the families write it.
type row struct {
	Variant
	exact bool
}

var table = []row{
	{Variant{Name: "a", Doc: "first"}, false},
	{Variant{Name: "b", Doc: "second", Reference: true}, true},
	{Variant{Name: "c", Doc: "third"}, true},
}

func TestVariantTableIsReadByItsRows(t *testing.T) {
	got := VariantsOf(table)
	want := []Variant{{Name: "a", Doc: "first"}, {Name: "b", Doc: "second", Reference: true}, {Name: "c", Doc: "third"}}
	if !slices.Equal(got, want) {
		t.Errorf("VariantsOf = %v, want %v (the table's public part, in order)", got, want)
	}
	if r := LookupVariant(table, "c"); r.Name != "c" || !r.exact {
		t.Errorf(`LookupVariant("c") = %+v, want row c`, r)
	}
	if r := LookupVariant(table, "d"); r.Name != "" || r.exact {
		t.Errorf(`LookupVariant("d") = %+v, want the zero row`, r)
	}
	if got := VariantNames(table, func(r row) bool { return r.exact }); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("VariantNames(exact) = %v, want [b c] in the table's order", got)
	}
	if got := VariantNames(table, func(row) bool { return false }); got != nil {
		t.Errorf("VariantNames(none) = %v, want nil", got)
	}
}
