package batsim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docLine and tableRow are an item as the package doc and docs/batsim.md
// write it.
func docLine(c ConformanceItem) string {
	s := c.Item + ": " + c.Status
	if len(c.Tests) > 0 {
		s += " (" + strings.Join(c.Tests, ", ") + ")"
	}
	return s
}

func tableRow(c ConformanceItem) string {
	return "| " + strings.ReplaceAll(c.Item, "|", "\\|") + " | " + c.Status + " | " + strings.Join(c.Tests, ", ") + " |"
}

// TestConformanceTableIsWrittenAndHeld: the package doc and the docs page
// list every item of Conformance as it is, and every test an item names
// exists (the part before '/' is a Test function of this package; a
// subtest name is one of its cases).
func TestConformanceTableIsWrittenAndHeld(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../../docs/batsim.md")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(string(doc), "//", "")), " ")
	for _, c := range Conformance() {
		if !strings.Contains(flat, docLine(c)) {
			t.Errorf("doc.go lacks the line %q", docLine(c))
		}
		if !strings.Contains(string(page), tableRow(c)) {
			t.Errorf("docs/batsim.md lacks the row %q", tableRow(c))
		}
		for _, name := range c.Tests {
			fn, sub, _ := strings.Cut(name, "/")
			if !regexp.MustCompile(`func ` + fn + `\(t \*testing\.T\)`).MatchString(src.String()) {
				t.Errorf("%s: no test %s", c.Item, fn)
			}
			if sub != "" && !strings.Contains(src.String(), `"`+strings.ReplaceAll(sub, "_", " ")+`"`) && !strings.Contains(src.String(), "batsimtest."+strings.ToUpper(sub[:1])+sub[1:]) {
				t.Errorf("%s: no case %q in %s", c.Item, sub, fn)
			}
		}
	}
}
