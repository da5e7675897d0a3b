package claims

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// No family keeps a verdict rule of its own: every Claims verdict comes
// from this package (fidelity.md). A function named verdict… in a family's
// non-test code is the sign of a private rule.
func TestNoFamilyKeepsItsOwnVerdictRules(t *testing.T) {
	dirs, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "claims" {
			continue
		}
		pkgs, err := parser.ParseDir(token.NewFileSet(), filepath.Join("..", d.Name()), func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			for name, f := range p.Files {
				checked++
				for _, decl := range f.Decls {
					if fn, ok := decl.(*ast.FuncDecl); ok && strings.HasPrefix(strings.ToLower(fn.Name.Name), "verdict") {
						t.Errorf("%s: func %s: a verdict rule outside solvers/claims", name, fn.Name.Name)
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("read only %d files under solvers/: the walk is wrong", checked)
	}
}
