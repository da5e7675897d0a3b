package critical

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"schedlab/errs"
	"schedlab/solvers/formats"
)

// Limits on an instance, checked before anything of that size is built.
const (
	MaxTasks      = 20_000
	MaxEdges      = 400_000
	MaxProcessors = 256
)

// Task is one vertex of the task graph.
type Task struct {
	ID     string
	Volume float64 // computational volume (work units); time on p = Volume / Performance(p)
}

// Edge is a precedence u → v with its data transfer: the time it takes
// when u and v run on different processors is Transfer + Bytes / bandwidth
// (0 on the same processor).
type Edge struct {
	From, To int
	Transfer float64 // time units
	Bytes    float64 // data size in bytes, converted at the run's bandwidth
}

// Processor is one processor with its performance (work units per time
// unit) and price (cost per time unit busy).
type Processor struct {
	ID          string
	Performance float64
	Price       float64
}

// Graph is a task graph with its processors. Times, when not nil, is the
// explicit time matrix Times[task][processor] that replaces Volume /
// Performance (the heterogeneous costs of Topcuoglu et al.).
type Graph struct {
	Name       string
	Tasks      []Task
	Edges      []Edge
	Processors []Processor
	Times      [][]float64
	Source     string // "json", "wfformat", "preset"
}

type taskJSON struct {
	ID     string   `json:"id"`
	Volume *float64 `json:"volume,omitempty"`
}

type edgeJSON struct {
	From     string   `json:"from"`
	To       string   `json:"to"`
	Transfer *float64 `json:"transfer,omitempty"`
	Bytes    *float64 `json:"bytes,omitempty"`
}

type procJSON struct {
	ID          string   `json:"id"`
	Performance *float64 `json:"performance,omitempty"`
	Price       *float64 `json:"price,omitempty"`
}

type graphJSON struct {
	Name       string      `json:"name,omitempty"`
	Source     string      `json:"source,omitempty"`
	Tasks      []taskJSON  `json:"tasks"`
	Edges      []edgeJSON  `json:"edges"`
	Processors []procJSON  `json:"processors"`
	Times      [][]float64 `json:"times,omitempty"`
}

func fptr(v float64) *float64 { return &v }

// MarshalJSON writes the canonical native JSON.
func (g *Graph) MarshalJSON() ([]byte, error) {
	raw := graphJSON{Name: g.Name, Source: g.Source, Tasks: make([]taskJSON, len(g.Tasks)), Edges: make([]edgeJSON, len(g.Edges)),
		Processors: make([]procJSON, len(g.Processors)), Times: g.Times}
	for i, t := range g.Tasks {
		raw.Tasks[i] = taskJSON{ID: t.ID}
		if g.Times == nil {
			raw.Tasks[i].Volume = fptr(t.Volume)
		}
	}
	for i, e := range g.Edges {
		raw.Edges[i] = edgeJSON{From: g.Tasks[e.From].ID, To: g.Tasks[e.To].ID}
		if e.Transfer != 0 || e.Bytes == 0 {
			raw.Edges[i].Transfer = fptr(e.Transfer)
		}
		if e.Bytes != 0 {
			raw.Edges[i].Bytes = fptr(e.Bytes)
		}
	}
	for i, p := range g.Processors {
		raw.Processors[i] = procJSON{ID: p.ID}
		if g.Times == nil {
			raw.Processors[i].Performance = fptr(p.Performance)
		}
		if p.Price != 1 {
			raw.Processors[i].Price = fptr(p.Price)
		}
	}
	return json.Marshal(raw)
}

// ParseJSON reads the native JSON (see doc.go). Unknown fields and
// trailing data are errors; every error is errs.Invalid naming the field
// (errs.TooLarge over the limits).
func ParseJSON(data []byte) (*Graph, error) {
	var raw graphJSON
	if err := formats.DecodeStrict(data, &raw, "a task-graph JSON"); err != nil {
		return nil, err
	}
	if err := checkLimits(len(raw.Tasks), len(raw.Edges), len(raw.Processors)); err != nil {
		return nil, err
	}
	g := &Graph{Name: raw.Name, Source: raw.Source, Times: raw.Times}
	if g.Source == "" {
		g.Source = "json"
	}
	index, err := g.readTasks(raw)
	if err != nil {
		return nil, err
	}
	if err := g.readEdges(raw, index); err != nil {
		return nil, err
	}
	if err := g.readProcessors(raw); err != nil {
		return nil, err
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// readTasks adds raw's tasks to g and returns their index by id.
func (g *Graph) readTasks(raw graphJSON) (map[string]int, error) {
	index := make(map[string]int, len(raw.Tasks))
	for i, t := range raw.Tasks {
		f := fmt.Sprintf("tasks[%d]", i)
		if t.ID == "" {
			return nil, errs.Invalidf(f+".id", "empty task id")
		}
		if j, dup := index[t.ID]; dup {
			return nil, errs.Invalidf(f+".id", "duplicate task id %q (also tasks[%d])", t.ID, j)
		}
		index[t.ID] = i
		task := Task{ID: t.ID}
		if t.Volume != nil {
			task.Volume = *t.Volume
		} else if raw.Times == nil {
			return nil, errs.Invalidf(f+".volume", "missing (give a volume per task or a times matrix)")
		}
		g.Tasks = append(g.Tasks, task)
	}
	return index, nil
}

// readEdges adds raw's edges to g, their ends looked up in index.
func (g *Graph) readEdges(raw graphJSON, index map[string]int) error {
	for i, e := range raw.Edges {
		f := fmt.Sprintf("edges[%d]", i)
		u, ok := index[e.From]
		if !ok {
			return errs.Invalidf(f+".from", "unknown task id %q", e.From)
		}
		v, ok := index[e.To]
		if !ok {
			return errs.Invalidf(f+".to", "unknown task id %q", e.To)
		}
		ed := Edge{From: u, To: v}
		if e.Transfer != nil {
			ed.Transfer = *e.Transfer
		}
		if e.Bytes != nil {
			ed.Bytes = *e.Bytes
		}
		g.Edges = append(g.Edges, ed)
	}
	return nil
}

// readProcessors adds raw's processors to g (performance and price 1
// unless given).
func (g *Graph) readProcessors(raw graphJSON) error {
	pindex := map[string]int{}
	for i, p := range raw.Processors {
		f := fmt.Sprintf("processors[%d]", i)
		if p.ID == "" {
			return errs.Invalidf(f+".id", "empty processor id")
		}
		if j, dup := pindex[p.ID]; dup {
			return errs.Invalidf(f+".id", "duplicate processor id %q (also processors[%d])", p.ID, j)
		}
		pindex[p.ID] = i
		pr := Processor{ID: p.ID, Performance: 1, Price: 1}
		if p.Performance != nil {
			pr.Performance = *p.Performance
		} else if raw.Times == nil {
			return errs.Invalidf(f+".performance", "missing (give a performance per processor or a times matrix)")
		}
		if p.Price != nil {
			pr.Price = *p.Price
		}
		g.Processors = append(g.Processors, pr)
	}
	return nil
}

// checkLimits is errs.TooLarge naming the first count over its limit.
func checkLimits(tasks, edges, processors int) error {
	for _, c := range []struct {
		field  string
		n, max int
	}{{"tasks", tasks, MaxTasks}, {"edges", edges, MaxEdges}, {"processors", processors, MaxProcessors}} {
		if c.n > c.max {
			return errs.New(errs.TooLarge, c.field, "%d %s, at most %d", c.n, c.field, c.max)
		}
	}
	return nil
}

func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1e15 }

// Validate checks a graph: at least one task and one processor, finite
// non-negative weights, positive performances, no self-loop, duplicate
// edge or cycle, a times matrix of the right shape. Errors are errs.Invalid
// naming the field.
func (g *Graph) Validate() error {
	if len(g.Tasks) == 0 {
		return errs.Invalidf("tasks", "no tasks")
	}
	if len(g.Processors) == 0 {
		return errs.Invalidf("processors", "no processors")
	}
	if err := checkLimits(len(g.Tasks), len(g.Edges), len(g.Processors)); err != nil {
		return err
	}
	for i, t := range g.Tasks {
		if bad(t.Volume) {
			return errs.Invalidf(fmt.Sprintf("tasks[%d].volume", i), "must be a finite number ≥ 0, got %v (task %q)", t.Volume, t.ID)
		}
	}
	for i, p := range g.Processors {
		if bad(p.Performance) || p.Performance <= 0 {
			return errs.Invalidf(fmt.Sprintf("processors[%d].performance", i), "must be a finite number > 0, got %v (processor %q)", p.Performance, p.ID)
		}
		if bad(p.Price) {
			return errs.Invalidf(fmt.Sprintf("processors[%d].price", i), "must be a finite number ≥ 0, got %v (processor %q)", p.Price, p.ID)
		}
	}
	if g.Times != nil {
		if len(g.Times) != len(g.Tasks) {
			return errs.Invalidf("times", "has %d rows for %d tasks", len(g.Times), len(g.Tasks))
		}
		for i, row := range g.Times {
			if len(row) != len(g.Processors) {
				return errs.Invalidf(fmt.Sprintf("times[%d]", i), "has %d values for %d processors", len(row), len(g.Processors))
			}
			for j, v := range row {
				if bad(v) {
					return errs.Invalidf(fmt.Sprintf("times[%d][%d]", i, j), "must be a finite time ≥ 0, got %v", v)
				}
			}
		}
	}
	seen := make(map[[2]int]int, len(g.Edges))
	for i, e := range g.Edges {
		f := fmt.Sprintf("edges[%d]", i)
		if e.From < 0 || e.From >= len(g.Tasks) || e.To < 0 || e.To >= len(g.Tasks) {
			return errs.Invalidf(f, "names a task that does not exist")
		}
		if e.From == e.To {
			return errs.Invalidf(f, "self-loop on task %q (a cycle)", g.Tasks[e.From].ID)
		}
		if bad(e.Transfer) {
			return errs.Invalidf(f+".transfer", "must be a finite time ≥ 0, got %v", e.Transfer)
		}
		if math.IsNaN(e.Bytes) || math.IsInf(e.Bytes, 0) || e.Bytes < 0 || e.Bytes > 1e18 {
			return errs.Invalidf(f+".bytes", "must be a finite size ≥ 0, got %v", e.Bytes)
		}
		k := [2]int{e.From, e.To}
		if j, dup := seen[k]; dup {
			return errs.Invalidf(f, "duplicate edge %s → %s (also edges[%d])", g.Tasks[e.From].ID, g.Tasks[e.To].ID, j)
		}
		seen[k] = i
	}
	if _, cyc := topoOrder(len(g.Tasks), g.Edges); cyc >= 0 {
		return errs.Invalidf("edges", "the graph has a cycle through task %q: a task graph must be acyclic", g.Tasks[cyc].ID)
	}
	return nil
}

// topoOrder returns a topological order (Kahn, lowest index first among
// ready tasks) or, for a cyclic graph, -1… and a task on a cycle.
func topoOrder(n int, edges []Edge) ([]int, int) {
	indeg := make([]int, n)
	succ := make([][]int, n)
	for _, e := range edges {
		indeg[e.To]++
		succ[e.From] = append(succ[e.From], e.To)
	}
	order := make([]int, 0, n)
	for i := range n {
		if indeg[i] == 0 {
			order = append(order, i)
		}
	}
	for h := 0; h < len(order); h++ {
		for _, s := range succ[order[h]] {
			indeg[s]--
			if indeg[s] == 0 {
				order = append(order, s)
			}
		}
	}
	if len(order) == n {
		return order, -1
	}
	// A task left with indegree > 0 whose predecessors chain back into a cycle.
	pred := make([][]int, n)
	for _, e := range edges {
		pred[e.To] = append(pred[e.To], e.From)
	}
	v := -1
	for i := range n {
		if indeg[i] > 0 {
			v = i
			break
		}
	}
	visited := map[int]bool{}
	for !visited[v] {
		visited[v] = true
		for _, p := range pred[v] {
			if indeg[p] > 0 {
				v = p
				break
			}
		}
	}
	return nil, v
}

// DAG is a Graph prepared for scheduling at one bandwidth: the time matrix,
// adjacency with communication times, a topological order.
type DAG struct {
	G     *Graph
	N, M  int
	T     [][]float64 // T[i][p]: time of task i on processor p
	Fast  []float64   // min_p T[i][p]
	Mean  []float64   // mean_p T[i][p]
	Succ  [][]Arc     // out-arcs, by edge order
	Pred  [][]Arc     // in-arcs
	Order []int       // topological order
	Level []int       // longest number of edges from a source
	Price []float64
	// EdgeIdx maps (u, v) to its edge index.
	EdgeIdx map[[2]int]int
}

// Arc is one end of an edge: the other task, the communication time when
// the two tasks run on different processors, the edge index.
type Arc struct {
	To   int
	Comm float64
	E    int
}

// Prepare builds the DAG at bandwidth MB/s (10^6 bytes per time unit) used
// to turn an edge's bytes into time.
func Prepare(g *Graph, bandwidth float64) *DAG {
	d := &DAG{G: g, N: len(g.Tasks), M: len(g.Processors), EdgeIdx: make(map[[2]int]int, len(g.Edges))}
	d.T = make([][]float64, d.N)
	d.Fast = make([]float64, d.N)
	d.Mean = make([]float64, d.N)
	for i := range d.N {
		row := make([]float64, d.M)
		for p := range d.M {
			if g.Times != nil {
				row[p] = g.Times[i][p]
			} else {
				row[p] = g.Tasks[i].Volume / g.Processors[p].Performance
			}
		}
		d.T[i] = row
		d.Fast[i] = slices.Min(row)
		s := 0.0
		for _, v := range row {
			s += v
		}
		d.Mean[i] = s / float64(d.M)
	}
	d.Succ = make([][]Arc, d.N)
	d.Pred = make([][]Arc, d.N)
	for k, e := range g.Edges {
		c := e.Transfer
		if e.Bytes > 0 && bandwidth > 0 {
			c += e.Bytes / (bandwidth * 1e6)
		}
		d.Succ[e.From] = append(d.Succ[e.From], Arc{To: e.To, Comm: c, E: k})
		d.Pred[e.To] = append(d.Pred[e.To], Arc{To: e.From, Comm: c, E: k})
		d.EdgeIdx[[2]int{e.From, e.To}] = k
	}
	d.Order, _ = topoOrder(d.N, g.Edges)
	d.Level = make([]int, d.N)
	for _, v := range d.Order {
		for _, a := range d.Succ[v] {
			d.Level[a.To] = max(d.Level[a.To], d.Level[v]+1)
		}
	}
	d.Price = make([]float64, d.M)
	for p := range d.M {
		d.Price[p] = g.Processors[p].Price
	}
	return d
}

// Comm returns the communication time of edge k (different processors).
func (d *DAG) Comm(k int) float64 {
	u := d.G.Edges[k].From
	for _, a := range d.Succ[u] {
		if a.E == k {
			return a.Comm
		}
	}
	return 0
}

// Bounds are the graph's reference lengths.
type Bounds struct {
	CriticalPath float64 // longest path: fastest task times + transfers (the paper's critical work length)
	CompPath     float64 // longest path of fastest task times alone (transfers vanish on one processor)
	WorkOverS    float64 // total work / total speed (Σ min time / m with a times matrix)
	Lower        float64 // max(CompPath, WorkOverS): no schedule is shorter
}

// ComputeBounds returns the critical-path length and the lower bound.
func (d *DAG) ComputeBounds() Bounds {
	all := make([]bool, d.M)
	for p := range all {
		all[p] = true
	}
	b := Bounds{CriticalPath: LongestPath(d, nil).Length}
	b.CompPath, b.WorkOverS = boundParts(d, all)
	b.Lower = max(b.CompPath, b.WorkOverS)
	return b
}

func (g *Graph) summary() string {
	var s strings.Builder
	fmt.Fprintf(&s, "%d tasks, %d edges, %d processors", len(g.Tasks), len(g.Edges), len(g.Processors))
	if g.Times != nil {
		s.WriteString(" (time matrix)")
	}
	return s.String()
}
