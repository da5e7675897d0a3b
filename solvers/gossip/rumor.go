package gossip

import (
	"context"
	"fmt"
	"math"
	"math/rand"

	"schedlab/solvers"
)

// Rumor modes (a public contract).
const (
	ModePush     = "push"
	ModePushPull = "push-pull"
)

// RumorConfig is the seed's §2.3.1 protocol (Figs. 6–7), in synchronous
// rounds; a sender draws among all nodes and does not know who is behind
// NAT (§5.1.2: refused, counted). push: informed nodes make Fanout
// attempts, stopping after K "known" answers; push-pull: the exchange
// carries the target's table (§4.5 step 1), so K stops pushing, not
// answering. Theory is the mean-field curve with k = ∞ (Pittel; Karp et
// al.).
type RumorConfig struct {
	Mode        string
	Fanout      int // contacts per node per round
	K           int // "known" answers before a sender stops
	MaxRounds   int
	RecordBytes int
	Seed        int64
	log         bool
}

// RumorResult is the spreading of one message.
type RumorResult struct {
	Informed         []float64 // fraction informed after round r (index 0: the origin alone)
	RoundsToConverge int       // round in which the last node ever informed got the rumor
	Final            float64   // informed fraction at the end
	Rounds           int       // rounds run
	Messages         float64
	Failed           int // connection attempts to NAT nodes (refused)
	Bytes            float64
	Log              []LogEntry // contacts (tests)
}

// rumor is the state of one spreading.
type rumor struct {
	cfg      RumorConfig
	nt       *net
	n        int
	rng      *rand.Rand
	informed []bool
	round    []int32 // round informed in
	active   []bool  // still sending
	cnt      []int32 // "known" answers received
	numInf   int
	res      *RumorResult
}

// Rumor spreads one message from a random origin over the grid nt.
func Rumor(ctx context.Context, nt *net, cfg RumorConfig, progress solvers.Progress) (*RumorResult, error) {
	if progress == nil {
		progress = solvers.NoProgress
	}
	n := nt.n
	rm := &rumor{cfg: cfg, nt: nt, n: n, rng: rand.New(rand.NewSource(cfg.Seed)),
		informed: make([]bool, n), round: make([]int32, n), active: make([]bool, n), cnt: make([]int32, n),
		numInf: 1, res: &RumorResult{Informed: []float64{1 / float64(n)}}}
	origin := rm.rng.Intn(n)
	rm.informed[origin], rm.active[origin] = true, true
	for r := 1; r <= cfg.MaxRounds; r++ {
		if r&15 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(r, cfg.MaxRounds, fmt.Sprintf("round %d, %d of %d informed", r, rm.numInf, n))
		}
		if !rm.step(r) {
			break
		}
	}
	rm.res.Final = float64(rm.numInf) / float64(n)
	return rm.res, nil
}

// step runs round r; it reports whether the spreading goes on (some node
// is uninformed and some sender is left).
func (rm *rumor) step(r int) bool {
	for i := 0; i < rm.n; i++ {
		if rm.cfg.Mode == ModePush && !rm.hot(i, r) {
			continue
		}
		for f := 0; f < rm.cfg.Fanout; f++ {
			t := rm.pick(i)
			if t < 0 {
				break
			}
			rm.contact(i, t, r)
			if rm.cfg.Mode == ModePush && !rm.active[i] {
				break
			}
		}
	}
	rm.res.Rounds = r
	rm.res.Informed = append(rm.res.Informed, float64(rm.numInf)/float64(rm.n))
	if rm.numInf == rm.n {
		return false
	}
	for i := 0; i < rm.n; i++ {
		if rm.informed[i] && rm.active[i] {
			return true
		}
	}
	return false
}

// pick draws a uniformly random other node: a sender knows the members'
// addresses but not which of them are behind NAT, so an attempt to a NAT
// node fails (the seed's §5.1.2 setting).
func (rm *rumor) pick(i int) int {
	if rm.n < 2 {
		return -1
	}
	t := rm.rng.Intn(rm.n - 1)
	if t >= i {
		t++
	}
	return t
}

// contact is i's attempt to reach t in round r.
func (rm *rumor) contact(i, t, r int) {
	res := rm.res
	if rm.nt.nat[t] {
		// the connection attempt fails: one header, no answer
		res.Messages++
		res.Bytes += headerBytes
		res.Failed++
		return
	}
	res.Messages += 2
	res.Bytes += float64(2*headerBytes + rm.cfg.RecordBytes)
	if rm.cfg.log {
		res.Log = append(res.Log, LogEntry{T: float64(r), Kind: "contact", From: i, To: t, Job: -1})
	}
	hi, ht := rm.hot(i, r), rm.hot(t, r)
	switch {
	case hi && !rm.informed[t]:
		rm.inform(t, r)
	case rm.cfg.Mode == ModePushPull && rm.informed[t] && int(rm.round[t]) < r && !rm.informed[i]:
		rm.inform(i, r)
	case rm.informed[i] && rm.informed[t]:
		if hi {
			rm.known(i)
		}
		if ht && rm.cfg.Mode == ModePushPull {
			rm.known(t)
		}
	}
}

func (rm *rumor) inform(t, r int) {
	rm.informed[t], rm.active[t], rm.round[t] = true, true, int32(r)
	rm.numInf++
	rm.res.RoundsToConverge = r
}

// hot reports whether i sends in round r: informed before r and active.
func (rm *rumor) hot(i, r int) bool {
	return rm.informed[i] && rm.active[i] && int(rm.round[i]) < r
}

// known counts a "known" answer to i; the k-th stops it.
func (rm *rumor) known(i int) {
	rm.cnt[i]++
	if int(rm.cnt[i]) >= rm.cfg.K {
		rm.active[i] = false
	}
}

// Theory is the mean-field epidemic with infinite k: the informed fraction
// after each round for n nodes and fanout f, until it is within 1/(2n) of 1
// or rounds rounds have passed.
//
//	push:      x' = x + (1−x)(1 − e^{−f x})
//	push-pull: x' = 1 − (1−x)·e^{−f x}·(1−x)^f
func Theory(mode string, n, f, rounds int) []float64 {
	x := 1 / float64(n)
	out := []float64{x}
	ff := float64(f)
	for r := 1; r <= rounds && x < 1-0.5/float64(n); r++ {
		if mode == ModePushPull {
			x = 1 - (1-x)*math.Exp(-ff*x)*math.Pow(1-x, ff)
		} else {
			x = x + (1-x)*(1-math.Exp(-ff*x))
		}
		out = append(out, x)
	}
	return out
}

// PushRounds is Pittel's log₂ n + ln n; PushPullRounds Karp et al.'s log₃ n + ln ln n.
func PushRounds(n int) float64 { return math.Log2(float64(n)) + math.Log(float64(n)) }

// PushPullRounds is log₃ n + ln ln n.
func PushPullRounds(n int) float64 {
	return math.Log(float64(n))/math.Log(3) + math.Log(math.Log(float64(n)))
}
