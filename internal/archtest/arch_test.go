package archtest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layer is one row of docs/architecture.md's layer table: its name and
// its package patterns. A pattern ending in "/..." is the package and
// everything under it; the first layer a package matches is its own, so
// specific packages come before a wider pattern above them.
type layer struct {
	name string
	pkgs []string
}

// layers are docs/architecture.md's, bottom to top (readLayers): a package
// imports packages of its own layer or lower.
var layers = mustReadLayers("../../docs/architecture.md")

// readLayers reads the layer table of the architecture page: the rows
// "| # | layer | packages | may import |" in order, each layer's packages
// the backquoted names of its packages cell outside parentheses.
func readLayers(page []byte) ([]layer, error) {
	var out []layer
	for n, line := range strings.Split(string(page), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || strings.TrimSpace(cells[0]) != "" {
			continue
		}
		num := strings.TrimSpace(cells[1])
		if num == "#" || strings.HasPrefix(num, "-") {
			continue
		}
		if num != strconv.Itoa(len(out)) {
			return nil, fmt.Errorf("line %d: layer %q out of order (want %d)", n+1, num, len(out))
		}
		l := layer{name: strings.TrimSpace(cells[2])}
		depth := 0
		for i, part := range strings.Split(cells[3], "`") {
			if i%2 == 1 && depth == 0 {
				l.pkgs = append(l.pkgs, part)
				continue
			}
			if i%2 == 0 {
				depth += strings.Count(part, "(") - strings.Count(part, ")")
			}
		}
		if l.name == "" || len(l.pkgs) == 0 {
			return nil, fmt.Errorf("line %d: layer %s has no name or no packages", n+1, num)
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no layer table")
	}
	return out, nil
}

func mustReadLayers(path string) []layer {
	page, err := os.ReadFile(path)
	if err == nil {
		var ls []layer
		if ls, err = readLayers(page); err == nil {
			return ls
		}
	}
	panic(fmt.Sprintf("archtest: %s: %v", path, err))
}

// only lists, for some packages, every package of ours they may import
// (with what is under it); a list that names a third-party module limits
// those too (the store's driver). The standard library is always allowed.
var only = map[string][]string{
	"errs":          nil,
	"buildinfo":     nil,
	"stats":         nil,
	"static":        nil,
	"cache":         {"flight"},
	"flight":        nil,
	"solvers/sweep": nil,
	"runtypes":      nil,
	"report":        {"errs"},
	"solvers":       {"errs", "flight", "report", "solvers/sweep", "golang.org/x/sync"},
	"execute":       {"errs", "flight", "report", "runtypes", "solvers"},
	// the worker side of the queue: no store, no runner
	"queue/wire":   {"buildinfo", "runtypes"},
	"queue/worker": {"errs", "buildinfo", "cache", "report", "runtypes", "solvers", "execute", "queue/wire"},
	"store":        {"errs", "report", "runtypes", "modernc.org/sqlite", "golang.org/x/crypto/bcrypt"},
	// pure: no store, no runs, nothing of the web
	"compare":     {"errs", "buildinfo", "report", "stats", "solvers"},
	"experiments": {"errs", "buildinfo", "report", "stats", "runtypes", "solvers"},
	"solvers/des": nil,
}

// noSQLite are worker binaries and the commands they run (schedlab
// worker and run): they must not link the SQLite driver.
var noSQLite = []string{"cmd/schedlab-worker", "cmd/internal/runcmd"}

// allowed are the known violations, each with its reason: the list only
// shrinks. An entry is "importer -> imported" (packages of the module
// without the "schedlab/" prefix); the test fails on one that no longer
// occurs, so a fix removes it here.
var allowed = map[string]string{}

const module = "schedlab"

// pkg is one package of the module as go list gives it.
type pkg struct {
	path    string // without the module prefix
	imports []string
}

// list runs go list over the module: each package with its imports
// (its own code's, not its tests').
func list(t *testing.T, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var ps []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		ps = append(ps, pkg{path: short(f[0]), imports: f[1:]})
	}
	return ps
}

// short strips the module prefix; other paths stay as they are.
func short(p string) string {
	if p == module {
		return "."
	}
	return strings.TrimPrefix(p, module+"/")
}

// ours says whether import path p is a package of the module.
func ours(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }

// std says whether p is in the standard library (no dot in its first
// element; the module's own path has none either, so check ours first).
func std(p string) bool { return !ours(p) && !strings.Contains(strings.Split(p, "/")[0], ".") }

func matches(pattern, p string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

// layerOf is the index of p's layer, or −1.
func layerOf(p string) int {
	for i, l := range layers {
		for _, pat := range l.pkgs {
			if matches(pat, p) {
				return i
			}
		}
	}
	return -1
}

// isFamily: a solvers/* package other than the registry.
func isFamily(p string) bool {
	return layerOf(p) == layerOf("solvers/x") && p != "solvers/registry" && p != "solvers/adversary"
}

// violations checks the import graph ps against the rules and returns each
// violation as "importer -> imported: why".
func violations(ps []pkg) []string {
	var out []string
	add := func(from, to, why string) { out = append(out, from+" -> "+to+": "+why) }
	for _, p := range ps {
		lp := layerOf(p.path)
		if lp < 0 {
			add(p.path, "", "the package is in no layer: add it to the layer table of docs/architecture.md")
			continue
		}
		allow, restricted := only[p.path]
		thirdParty := slices.ContainsFunc(allow, func(a string) bool { return !std(a) })
		for _, imp := range p.imports {
			if std(imp) {
				continue
			}
			if restricted && (ours(imp) || thirdParty) && !slices.ContainsFunc(allow, func(a string) bool { return matches(a+"/...", short(imp)) }) {
				add(p.path, short(imp), fmt.Sprintf("%s may import only %v (and the standard library)", p.path, allow))
				continue
			}
			if !ours(imp) {
				continue
			}
			to := short(imp)
			li := layerOf(to)
			switch {
			case li > lp:
				add(p.path, to, fmt.Sprintf("layer %q imports layer %q above it", layers[lp].name, layers[li].name))
			case isFamily(to) && lp > layerOf("solvers/x") && lp < layerOf("cmd"):
				add(p.path, to, "above the families a family is reached through solvers/registry")
			}
		}
	}
	return out
}

// keyOf is a violation's "importer -> imported".
func keyOf(v string) string { k, _, _ := strings.Cut(v, ": "); return k }

func TestImportsFollowTheLayers(t *testing.T) {
	ps := list(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	if len(ps) < 20 {
		t.Fatalf("go list gave %d packages: the module was not read", len(ps))
	}
	got := violations(ps)
	for _, w := range noSQLite {
		for _, d := range list(t, "-deps", "-f", "{{.ImportPath}}", "./"+w) {
			if strings.HasPrefix(d.path, "modernc.org/sqlite") {
				got = append(got, w+" -> modernc.org/sqlite: a worker links the SQLite driver")
				break
			}
		}
	}
	seen := map[string]bool{}
	for _, v := range got {
		seen[keyOf(v)] = true
		if _, ok := allowed[keyOf(v)]; !ok {
			t.Errorf("%s (docs/architecture.md)", v)
		}
	}
	for k := range allowed {
		if !seen[k] {
			t.Errorf("allow-list entry %q no longer occurs: remove it (the list only shrinks)", k)
		}
	}
}

// TestLayersAreReadFromTheArchitecturePage: the table gives the nine
// layers in order with the packages the page names, parenthesised asides
// left out; a table out of order or a layer without packages is refused.
func TestLayersAreReadFromTheArchitecturePage(t *testing.T) {
	var names []string
	for _, l := range layers {
		names = append(names, l.name)
	}
	if want := []string{"leaves", "contract", "families", "execute", "store", "runs", "above the runs", "web", "commands"}; !slices.Equal(names, want) {
		t.Fatalf("layers %q, want %q", names, want)
	}
	if got := layers[0].pkgs; !slices.Equal(got, []string{"errs", "buildinfo", "stats", "static", "flight", "cache", "solvers/des", "solvers/sweep", "runtypes", "report"}) {
		t.Errorf("leaves %q", got)
	}
	if got := layers[6].pkgs; !slices.Equal(got, []string{"compare", "experiments", "service", "notify", "bundle", "adversaries"}) {
		t.Errorf("above the runs %q (the aside in parentheses is not a package)", got)
	}
	for _, bad := range []string{
		"| # | layer | packages | may import |\n|---|---|---|---|\n| 1 | x | `a` | y |\n",
		"| # | layer | packages | may import |\n|---|---|---|---|\n| 0 | x | (`a`) | y |\n",
		"no table here\n",
	} {
		if _, err := readLayers([]byte(bad)); err == nil {
			t.Errorf("table %q accepted", bad)
		}
	}
}

// TestRulesCatchViolations feeds the rules imports that break them.
func TestRulesCatchViolations(t *testing.T) {
	bad := []pkg{
		{"store", []string{"schedlab/errs", "modernc.org/sqlite", "database/sql", "schedlab/bundle"}},
		{"store", []string{"schedlab/solvers", "github.com/mattn/go-sqlite3"}},
		{"solvers", []string{"schedlab/stats"}},
		{"experiments", []string{"schedlab/store"}},
		{"runner", []string{"schedlab/handlers"}},
		{"views", []string{"schedlab/solvers/eapm"}},
		{"nowhere", nil},
	}
	want := []string{"store -> bundle", "store -> solvers", "store -> github.com/mattn/go-sqlite3", "solvers -> stats", "experiments -> store",
		"runner -> handlers", "views -> solvers/eapm", "nowhere -> "}
	var got []string
	for _, v := range violations(bad) {
		got = append(got, keyOf(v))
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations %q, want %q", got, want)
	}
	good := []pkg{
		{"store", []string{"schedlab/errs", "schedlab/runtypes", "modernc.org/sqlite/lib", "golang.org/x/crypto/bcrypt", "encoding/json"}},
		{"stats", []string{"gonum.org/v1/gonum/stat/distuv"}},
		{"bundle", []string{"schedlab/store", "schedlab/experiments", "schedlab/solvers"}},
		{"handlers", []string{"schedlab/solvers/registry", "schedlab/views", "github.com/labstack/echo/v4"}},
		{"cmd/schedlab", []string{"schedlab/solvers/batsim", "schedlab/handlers"}},
		{"solvers/cyclic", []string{"schedlab/solvers/batch", "schedlab/solvers/formats"}},
	}
	if v := violations(good); len(v) > 0 {
		t.Errorf("imports the layers allow were refused: %q", v)
	}
}
