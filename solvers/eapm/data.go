package eapm

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"schedlab/solvers/formats"
)

// The embedded data (see data/SOURCES.md): Tarplee's matrices and bag, the
// seed's 1,000 instances and the authors' raw and printed results.
//
//go:embed data
var dataFS embed.FS

// openData opens an embedded file, gunzipping a .gz as it is read.
func openData(name string) io.Reader {
	b, err := dataFS.ReadFile("data/" + name)
	if err != nil {
		panic("eapm: embedded file missing: " + name) // a build error, not input
	}
	if !strings.HasSuffix(name, ".gz") {
		return bytes.NewReader(b)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		panic("eapm: embedded file " + name + ": " + err.Error())
	}
	return zr
}

func readData(name string) []byte {
	b, err := io.ReadAll(openData(name))
	if err != nil {
		panic("eapm: embedded file " + name + ": " + err.Error())
	}
	return b
}

// mustRecords reads an embedded CSV with a header into records keyed by
// column name.
func mustRecords(name string) []map[string]string {
	recs, err := formats.ReadRecords(name, readData(name), formats.Limits{})
	if err != nil {
		panic("eapm: embedded file " + name + ": " + err.Error())
	}
	head := recs[0].Fields
	out := make([]map[string]string, 0, len(recs)-1)
	for _, r := range recs[1:] {
		m := make(map[string]string, len(head))
		for k, h := range head {
			m[h] = r.Fields[k]
		}
		out = append(out, m)
	}
	return out
}

func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		panic("eapm: embedded data: " + err.Error())
	}
	return v
}

func atof(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("eapm: embedded data: " + err.Error())
	}
	return v
}

func mustMatrix(name string) [][]float64 {
	m, err := formats.ReadMatrix(name, readData(name), formats.Limits{})
	if err != nil {
		panic("eapm: embedded file " + name + ": " + err.Error())
	}
	return m.Values
}

// tarplee is Tarplee's data set: 30 task types × 9 machine types, 40
// machines per type, an 11,000-task bag (tasks per type).
type tarpleeData struct {
	machineNames, taskNames []string
	etc, apc                [][]float64
	mpt, tpt                []int
}

var tarpleeOnce = sync.OnceValue(func() *tarpleeData {
	d := &tarpleeData{
		etc: mustMatrix("tarplee_profit1/ETC.csv"),
		apc: mustMatrix("tarplee_profit1/EPC.csv"),
	}
	for _, r := range mustMatrix("tarplee_profit1/MPT.csv") {
		d.mpt = append(d.mpt, int(r[0]))
	}
	for _, r := range mustMatrix("tarplee_profit1/TPT.csv") {
		d.tpt = append(d.tpt, int(r[0]))
	}
	for _, r := range mustRecords("machines.csv") {
		d.machineNames = append(d.machineNames, r["name"])
	}
	for _, r := range mustRecords("task_types.csv") {
		d.taskNames = append(d.taskNames, r["name"])
	}
	return d
})

// tarpleeMatrices returns a fresh instance skeleton with Tarplee's matrices
// and names (no users, one machine per type).
func tarpleeMatrices() *Instance {
	d := tarpleeOnce()
	clone := func(a [][]float64) [][]float64 {
		out := make([][]float64, len(a))
		for i := range a {
			out[i] = slices.Clone(a[i])
		}
		return out
	}
	return &Instance{MachineNames: slices.Clone(d.machineNames), TaskNames: slices.Clone(d.taskNames),
		ETC: clone(d.etc), APC: clone(d.apc), Gamma: 1.2, C: 1}
}

// seedInstances holds the seed's instances: case 1 [instance], case 2
// [n][instance], case 3 [order][instance], each a user stream.
type seedInstances struct {
	case1 [][]User
	case2 map[int][][]User
	case3 map[string][][]User
}

// Case 2's sizes and case 3's arrival orders, as in the paper.
var (
	case2N      = []int{30, 100, 500, 1000, 2000}
	case3Orders = []string{"BaS", "SaB", "Rand", "Equal"}
)

// seedCount is the number of instances per setting of every case.
const seedCount = 100

// Each case is loaded on first use, on its own: a case-1 preset reads the
// 36 kB case-1 file only, not the 1.9 MB gzip of case 2 (363,000 rows).
var (
	seedCase1 = sync.OnceValue(loadCase1)
	seedCase2 = sync.OnceValue(loadCase2)
	seedCase3 = sync.OnceValue(loadCase3)
)

func loadCase1() [][]User {
	out := make([][]User, seedCount)
	readSeedCSV("seed_instances/case1_gamma_n30.csv", []string{"instance", "arrival", "type", "a"}, func(f [][]byte) {
		addSeedUser(out, f[0:4])
	})
	return out
}

func loadCase2() map[int][][]User {
	return loadSettings("seed_instances/case2_variable_n.csv.gz", "n", case2N, seedInt)
}

func loadCase3() map[string][][]User {
	return loadSettings("seed_instances/case3_bigsmall.csv", "order", case3Orders, func(b []byte) string { return string(b) })
}

// loadSettings reads a seed file of several settings (case 2's n, case 3's
// order): column col names the setting, one of settings, then come instance,
// arrival, type and a.
func loadSettings[K comparable](name, col string, settings []K, key func([]byte) K) map[K][][]User {
	out := map[K][][]User{}
	for _, k := range settings {
		out[k] = make([][]User, seedCount)
	}
	readSeedCSV(name, []string{col, "instance", "arrival", "type", "a"}, func(f [][]byte) {
		dst, ok := out[key(f[0])]
		if !ok {
			panic(fmt.Sprintf("eapm: embedded file %s: unknown %s %s", name, col, f[0]))
		}
		addSeedUser(dst, f[1:5])
	})
	return out
}

// seedOnce returns all three cases (what Reproduce and the tests use).
func seedOnce() *seedInstances {
	return &seedInstances{case1: seedCase1(), case2: seedCase2(), case3: seedCase3()}
}

// readSeedCSV streams an embedded seed-instance CSV (gunzipping a .gz) line
// by line: the header must be exactly cols, and row gets each record's
// fields, valid until the next call. No record is kept, no map built.
func readSeedCSV(name string, cols []string, row func(f [][]byte)) {
	sc := bufio.NewScanner(openData(name))
	f := make([][]byte, len(cols))
	for line := 1; sc.Scan(); line++ {
		l := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		if len(l) == 0 {
			continue
		}
		k := 0
		for k < len(f) {
			c := bytes.IndexByte(l, ',')
			if c < 0 {
				f[k], l = l, nil
				k++
				break
			}
			f[k], l = l[:c], l[c+1:]
			k++
		}
		if k != len(f) || l != nil {
			panic(fmt.Sprintf("eapm: embedded file %s line %d: %d columns expected", name, line, len(cols)))
		}
		if line == 1 {
			for i, c := range cols {
				if string(f[i]) != c {
					panic(fmt.Sprintf("eapm: embedded file %s: column %d is %q, expected %q", name, i+1, f[i], c))
				}
			}
			continue
		}
		row(f)
	}
	if err := sc.Err(); err != nil {
		panic("eapm: embedded file " + name + ": " + err.Error())
	}
}

// addSeedUser appends the user of fields instance, arrival, type, a to its
// instance's stream, checking the arrivals come in order.
func addSeedUser(dst [][]User, f [][]byte) {
	k, arrival := seedInt(f[0]), seedInt(f[1])
	if k >= len(dst) {
		panic(fmt.Sprintf("eapm: seed instance %d out of range", k))
	}
	if arrival != len(dst[k]) {
		panic("eapm: seed instances out of arrival order")
	}
	dst[k] = append(dst[k], User{Type: seedInt(f[2]), Tasks: seedInt(f[3])})
}

// seedInt parses a non-negative decimal integer of the embedded data.
func seedInt(b []byte) int {
	if len(b) == 0 || len(b) > 9 {
		panic(fmt.Sprintf("eapm: embedded data: bad integer %q", b))
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			panic(fmt.Sprintf("eapm: embedded data: bad integer %q", b))
		}
		v = 10*v + int(c-'0')
	}
	return v
}

// rawResult is one row of the authors' raw means (authors_raw_obj_values.csv).
type rawResult struct {
	Case                    string
	Gamma                   float64
	Setting                 string // "n30", "BaS", ...
	TaskTypes               int    // 30: the block the paper plots; 5: a later run
	Online, Greedy, Average float64
}

type rawTime struct {
	Gamma                   float64
	N                       int
	Online, Greedy, Average float64 // ms per instance
}

type publishedRow struct{ Gamma, Online, Greedy, Average float64 }

type seedResults struct {
	raw       []rawResult
	times     []rawTime
	published []publishedRow
}

var resultsOnce = sync.OnceValue(func() *seedResults {
	s := &seedResults{}
	for _, r := range mustRecords("seed_results/authors_raw_obj_values.csv") {
		s.raw = append(s.raw, rawResult{Case: r["case"], Gamma: atof(r["gamma"]), Setting: r["setting"],
			TaskTypes: atoi(r["task_types"]), Online: atof(r["online"]), Greedy: atof(r["greedy"]), Average: atof(r["average"])})
	}
	for _, r := range mustRecords("seed_results/authors_raw_times_case2.csv") {
		s.times = append(s.times, rawTime{Gamma: atof(r["gamma"]), N: atoi(r["n"]),
			Online: atof(r["online_ms"]), Greedy: atof(r["greedy_ms"]), Average: atof(r["average_ms"])})
	}
	for _, r := range mustRecords("seed_results/published_table1.csv") {
		s.published = append(s.published, publishedRow{Gamma: atof(r["gamma"]), Online: atof(r["online"]),
			Greedy: atof(r["greedy"]), Average: atof(r["average"])})
	}
	return s
})

// raw finds the authors' raw means for a case, γ and setting (the 30-type
// block, the one the paper plots).
func (s *seedResults) rawFor(cas string, gamma float64, setting string) (rawResult, bool) {
	for _, r := range s.raw {
		if r.Case == cas && r.TaskTypes == 30 && r.Setting == setting && almostEqual(r.Gamma, gamma) {
			return r, true
		}
	}
	return rawResult{}, false
}

func almostEqual(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// seedInstance builds one of the seed's instances on Tarplee's matrices with
// one machine per type, as the authors' code does.
func seedInstance(users []User, gamma float64) *Instance {
	in := tarpleeMatrices()
	in.Users = users
	in.Gamma = gamma
	return in
}

func settingN(n int) string { return fmt.Sprintf("n%d", n) }

// rawTimeFor finds the authors' mean run times of case 2 at γ and n (zero
// where they have none).
func (s *seedResults) rawTimeFor(gamma float64, n int) rawTime {
	for _, x := range s.times {
		if x.N == n && almostEqual(x.Gamma, gamma) {
			return x
		}
	}
	return rawTime{}
}
