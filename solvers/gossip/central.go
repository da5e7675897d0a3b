package gossip

import "math"

// centralInfo is the Condor-like manager: one machine at a random site
// that collects every node's record each period and matches from that
// snapshot, or (Exact) an oracle that sees the true state at once.
type centralInfo struct {
	s          *sim
	mlat       []float64 // one-way latency manager ↔ node, s
	maxMlat    float64
	snapFree   []bool    // the snapshot in use: free nodes
	snapNext   []bool    // the snapshot being processed
	snapT      float64   // when the snapshot in use was taken
	collectT   float64   // when the snapshot being processed was taken
	lastMatch  []float64 // per node: the last time a job was sent to it
	collecting bool
	stale, cov [][2]float64
}

var (
	_ view     = (*centralInfo)(nil)
	_ protocol = (*centralInfo)(nil)
)

func (c *centralInfo) start([]int) {
	s := c.s
	n := s.n
	s.schedNode[0] = -1
	// the manager: a machine at a random site, 1 ms access
	ms := s.rng.Intn(len(s.nt.sx))
	c.mlat = make([]float64, n)
	for j := 0; j < n; j++ {
		l := s.nt.access[j] + 0.001
		if a := s.nt.site[j]; int(a) == ms {
			l += s.nt.intra
		} else {
			dx, dy := s.nt.sx[a]-s.nt.sx[ms], s.nt.sy[a]-s.nt.sy[ms]
			l += s.nt.interLo + s.nt.interSpan*math.Sqrt(dx*dx+dy*dy)/math.Sqrt2
		}
		c.mlat[j] = l
		c.maxMlat = max(c.maxMlat, l)
	}
	c.snapFree, c.snapNext = make([]bool, n), make([]bool, n)
	c.lastMatch = make([]float64, n)
	for j := range c.lastMatch {
		c.lastMatch[j] = math.Inf(-1)
	}
	if !s.cfg.Exact {
		s.at(0, event{kind: evCycle})
	}
}

func (c *centralInfo) ticksAll() bool { return false }

func (c *centralInfo) latency(_, j int) float64 { return c.mlat[j] }

func (c *centralInfo) candidate(_, start int) candidate {
	s := c.s
	n := s.n
	for d := 0; d < n; d++ {
		o := start + d
		if o >= n {
			o -= n
		}
		if s.nt.nat[o] {
			continue
		}
		if s.cfg.Exact {
			if s.up[o] && !s.busy[o] && !s.pend[o] {
				return candidate{node: o, recT: s.now()}
			}
		} else if c.snapFree[o] {
			return candidate{node: o, recT: c.snapT}
		}
	}
	return candidate{node: -1}
}

func (c *centralInfo) sent(_, o int) {
	c.snapFree[o] = false
	c.lastMatch[o] = c.s.now()
}

func (c *centralInfo) answered(int, int) {}

func (c *centralInfo) tick(int) {}

// changed: the oracle rematches as soon as a node is free.
func (c *centralInfo) changed(_ int, st uint8) {
	if st == stFree && c.s.cfg.Exact {
		c.s.tryMatch(0)
	}
}

func (c *centralInfo) left(int) {}

func (c *centralInfo) joined(int) {
	if c.s.cfg.Exact {
		c.s.tryMatch(0)
	}
}

func (c *centralInfo) handle(e event) {
	switch e.kind {
	case evCycle:
		c.cycle()
	case evReady:
		c.ready()
	}
}

// cycle is one central collection: every node's record, one hop.
func (c *centralInfo) cycle() {
	s := c.s
	now := s.now()
	s.at(now+s.cfg.PeriodS, event{kind: evCycle})
	if c.collecting {
		return // the previous collection is still being processed
	}
	up := 0
	for j := range c.snapNext {
		c.snapNext[j] = s.up[j] && !s.busy[j]
		if s.up[j] {
			up++
		}
	}
	s.count(float64(up), float64(up*(headerBytes+s.cfg.RecordBytes)))
	start := max(now+c.maxMlat, s.busyUntil[0])
	ready := start + float64(up)*s.cfg.RecordCostS
	s.busyUntil[0] = ready
	c.collecting, c.collectT = true, now
	s.at(ready, event{kind: evReady})
}

// ready puts the processed collection in use: nodes matched since it was
// taken are not free in it.
func (c *centralInfo) ready() {
	T := c.collectT
	c.collecting = false
	for j := range c.snapFree {
		c.snapFree[j] = c.snapNext[j] && c.lastMatch[j] < T
	}
	c.snapT = T
	c.s.tryMatch(0)
}

func (c *centralInfo) sample() {
	now := c.s.now()
	h := now / 3600
	if c.s.cfg.Exact {
		c.stale = append(c.stale, [2]float64{h, 0})
	} else {
		c.stale = append(c.stale, [2]float64{h, now - c.snapT})
	}
	c.cov = append(c.cov, [2]float64{h, 1})
}

func (c *centralInfo) summarize(r *Result) {
	r.Rounds, r.FinalInformed = 1, 1
	r.StaleSeries, r.CoverageSeries = c.stale, c.cov
}
