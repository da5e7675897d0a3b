package cyclic

import (
	_ "embed"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Job laws (GenConfig.JobLaw, preset parameter job_law): how a generated
// job's width (nodes) and volume are drawn. A public contract.
const (
	// JobLawKTH draws (requested processors, requested time) jointly from
	// the KTH SP2 log of the Parallel Workloads Archive (data/kth_jobs.csv,
	// provenance in data/SOURCES.md), records wider than nodes_max left out.
	JobLawKTH = "kth"
	// JobLawUniform draws nodes ~ U{nodes_min..nodes_max} and volume ~
	// U[volume_min, volume_max] (the package's first, unsourced choice).
	JobLawUniform = "uniform"
)

// Price laws (GenConfig.PriceLaw, preset parameter price_law): a node's
// price per time unit from its performance p, before the owner's
// discount/markup (1 + ε). All three give the average node (p = kthRefPerf)
// the same price, UnitPrice × kthRefPerf. A public contract.
const (
	PriceLinear = "linear" // UnitPrice × p: the price of a unit of work is the same on every node
	PriceSqrt   = "sqrt"   // UnitPrice × 6 × √(p/6): fast nodes sell work cheaper
	PriceSquare = "square" // UnitPrice × 6 × (p/6)²: fast nodes sell work dearer
)

// PriceLaws lists the price laws, the default first.
func PriceLaws() []string { return []string{PriceLinear, PriceSqrt, PriceSquare} }

// JobLaws lists the job laws, the default first.
func JobLaws() []string { return []string{JobLawKTH, JobLawUniform} }

// basePrice is the price per time unit of a node of performance p under
// the law, before the discount/markup.
func (g *GenConfig) basePrice(p float64) float64 {
	switch g.PriceLaw {
	case PriceSqrt:
		return g.UnitPrice * kthRefPerf * math.Sqrt(p/kthRefPerf)
	case PriceSquare:
		return g.UnitPrice * kthRefPerf * (p / kthRefPerf) * (p / kthRefPerf)
	default:
		return g.UnitPrice * p
	}
}

// The KTH job law's mapping of the trace onto the slot model.
const (
	// kthMaxRequest is the log's longest requested time (s), 60 h.
	kthMaxRequest = 216_000
	// kthRefPerf is the seed's "average" node (§2.1: the fastest nodes,
	// p = 10, run jobs about twice as fast as the average ones, p = 6);
	// every price law gives it the same price.
	kthRefPerf = 6.0
)

//go:embed data/kth_jobs.csv
var kthJobsCSV string

// kthRecord is one distinct (requested processors, requested time) pair
// of the KTH log and how many jobs had it.
type kthRecord struct{ procs, reqS, jobs int }

var (
	kthOnce    sync.Once
	kthRecords []kthRecord
	kthMu      sync.Mutex
	kthCum     = map[int][]int{} // widest procs → cumulative job counts over kthRecords (0 past the cap)
)

func kthTable() []kthRecord {
	kthOnce.Do(func() {
		lines := strings.Split(strings.TrimSpace(kthJobsCSV), "\n")
		for i, l := range lines[1:] {
			f := strings.Split(l, ",")
			var v [3]int
			for k := range v {
				n, err := strconv.Atoi(strings.TrimSpace(f[k]))
				if err != nil || len(f) != 3 {
					panic(fmt.Sprintf("cyclic: data/kth_jobs.csv line %d: %q", i+2, l)) // our embedded file
				}
				v[k] = n
			}
			kthRecords = append(kthRecords, kthRecord{v[0], v[1], v[2]})
		}
	})
	return kthRecords
}

// kthCumulative is the cumulative job count over the records at most
// widest processors wide (records wider count 0).
func kthCumulative(widest int) []int {
	kthMu.Lock()
	defer kthMu.Unlock()
	if c, ok := kthCum[widest]; ok {
		return c
	}
	recs := kthTable()
	c := make([]int, len(recs))
	s := 0
	for i, r := range recs {
		if r.procs <= widest {
			s += r.jobs
		}
		c[i] = s
	}
	kthCum[widest] = c
	return c
}

// kthJob draws one job's width and volume from the KTH log (records at
// most widest wide, widest ≥ 1). The time unit is the least that fits the
// log's longest request into one interval on the slowest node (slowest =
// the domain's lowest performance), the package's rule for a trace
// (Trace.Cycles) on a heterogeneous domain: the volume is the requested
// time in those units × slowest, so every job fits the interval on every
// node.
func kthJob(rng *rand.Rand, widest, interval int, slowest float64) (int, float64) {
	cum := kthCumulative(widest)
	u := rng.Intn(cum[len(cum)-1])
	r := kthTable()[sort.SearchInts(cum, u+1)]
	units := float64(r.reqS) * float64(interval) / kthMaxRequest
	return r.procs, units * slowest
}
