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

// RumorConfig is the seed's §2.3.1 protocol.
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

// Rumor spreads one message from a random origin over the grid nt.
func Rumor(ctx context.Context, nt *net, cfg RumorConfig, progress solvers.Progress) (*RumorResult, error) {
	if progress == nil {
		progress = solvers.NoProgress
	}
	n := nt.n
	rng := rand.New(rand.NewSource(cfg.Seed))
	informed := make([]bool, n)
	round := make([]int32, n) // round informed in
	active := make([]bool, n)
	cnt := make([]int32, n)
	origin := rng.Intn(n)
	informed[origin], active[origin] = true, true
	res := &RumorResult{Informed: []float64{1 / float64(n)}}
	numInf := 1
	// pick draws a uniformly random other node: a sender knows the
	// members' addresses but not which of them are behind NAT, so an
	// attempt to a NAT node fails (the seed's §5.1.2 setting).
	pick := func(i int) int {
		if n < 2 {
			return -1
		}
		t := rng.Intn(n - 1)
		if t >= i {
			t++
		}
		return t
	}
	inform := func(t, r int) {
		informed[t], active[t], round[t] = true, true, int32(r)
		numInf++
		res.RoundsToConverge = r
	}
	hot := func(i, r int) bool { return informed[i] && active[i] && int(round[i]) < r }
	known := func(i int) {
		cnt[i]++
		if int(cnt[i]) >= cfg.K {
			active[i] = false
		}
	}
	msg := float64(2*headerBytes + cfg.RecordBytes)
	for r := 1; r <= cfg.MaxRounds; r++ {
		if r&15 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(r, cfg.MaxRounds, fmt.Sprintf("round %d, %d of %d informed", r, numInf, n))
		}
		for i := 0; i < n; i++ {
			if cfg.Mode == ModePush && !hot(i, r) {
				continue
			}
			for f := 0; f < cfg.Fanout; f++ {
				t := pick(i)
				if t < 0 {
					break
				}
				if nt.nat[t] {
					// the connection attempt fails: one header, no answer
					res.Messages++
					res.Bytes += headerBytes
					res.Failed++
					continue
				}
				res.Messages += 2
				res.Bytes += msg
				if cfg.log {
					res.Log = append(res.Log, LogEntry{T: float64(r), Kind: "contact", From: i, To: t, Job: -1})
				}
				hi, ht := hot(i, r), hot(t, r)
				switch {
				case hi && !informed[t]:
					inform(t, r)
				case cfg.Mode == ModePushPull && informed[t] && int(round[t]) < r && !informed[i]:
					inform(i, r)
				case informed[i] && informed[t]:
					if hi {
						known(i)
					}
					if ht && cfg.Mode == ModePushPull {
						known(t)
					}
				}
				if cfg.Mode == ModePush && !active[i] {
					break
				}
			}
		}
		res.Rounds = r
		res.Informed = append(res.Informed, float64(numInf)/float64(n))
		if numInf == n {
			break
		}
		senders := 0
		for i := 0; i < n; i++ {
			if informed[i] && active[i] {
				senders++
				break
			}
		}
		if senders == 0 {
			break
		}
	}
	res.Final = float64(numInf) / float64(n)
	return res, nil
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
