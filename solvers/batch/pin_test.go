package batch

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// updatePins rewrites testdata/pin-*.txt.gz from the current code:
//
//	go test ./solvers/batch -run TestSchedulesMatchPinnedTraces -update-pins
//
// Only do so on purpose: the pins are the schedules the code produced
// before the conservative profile was rewritten (issue 23), job by job.
var updatePins = flag.Bool("update-pins", false, "rewrite the pinned schedules in testdata/ from the current code")

// pinnedTraces are the three real traces whose schedules are pinned.
var pinnedTraces = []struct{ name, file string }{
	{"kth", "KTH-SP2-1996-2.1-cln.swf.gz"},
	{"nasa", "NASA-iPSC-1993-3.1-cln.swf.gz"},
	{"hpc2n", "hpc2n.swf"},
}

// pinDigest hashes everything of a result but the start times the pin
// file lists: each placement's end and processor ids, every reservation
// (job, made, start) in order, the pass and capped counts.
func pinDigest(r *Result) string {
	h := sha256.New()
	var b [8]byte
	f := func(x float64) {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
	i := func(x int) {
		binary.LittleEndian.PutUint64(b[:], uint64(int64(x)))
		h.Write(b[:])
	}
	for _, pl := range r.Placements {
		f(pl.End)
		i(len(pl.Procs))
		for _, c := range pl.Procs {
			i(c)
		}
	}
	i(len(r.Reservations))
	for _, rv := range r.Reservations {
		i(rv.Job)
		f(rv.Made)
		f(rv.Start)
	}
	i(r.Passes)
	i(r.Capped)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// pinFile is one trace's pinned schedules: per policy the digest, the
// reservation count, and per job its wait (start − submit), written so
// that submit + wait gives the start back exactly ("@start" otherwise).
type pinFile struct {
	digest map[Policy]string
	resv   map[Policy]int
	ids    []int
	starts map[Policy][]float64
}

func pinPath(name string) string { return "testdata/pin-" + name + ".txt.gz" }

func writePin(path string, jobs []Job, res map[Policy]*Result) error {
	var raw bytes.Buffer
	fmt.Fprintf(&raw, "# schedlab batch schedules pinned before issue 23's profile rewrite: job id, then the wait (start - submit, or @start) under %s\n", strings.Join(pols(), ", "))
	for _, pol := range Policies() {
		fmt.Fprintf(&raw, "# %s digest %s reservations %d\n", pol, pinDigest(res[pol]), len(res[pol].Reservations))
	}
	for i, j := range jobs {
		raw.WriteString(strconv.Itoa(j.ID))
		for _, pol := range Policies() {
			s := res[pol].Placements[i].Start
			w := s - j.Submit
			if j.Submit+w == s {
				raw.WriteString(" " + strconv.FormatFloat(w, 'g', -1, 64))
			} else {
				raw.WriteString(" @" + strconv.FormatFloat(s, 'g', -1, 64))
			}
		}
		raw.WriteByte('\n')
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(raw.Bytes())
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, z.Bytes(), 0o644)
}

func pols() []string {
	var s []string
	for _, p := range Policies() {
		s = append(s, string(p))
	}
	return s
}

func readPin(path string, jobs []Job) (*pinFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	p := &pinFile{digest: map[Policy]string{}, resv: map[Policy]int{}, starts: map[Policy][]float64{}}
	sc := bufio.NewScanner(zr)
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if strings.HasPrefix(t, "#") {
			var pol, d string
			var n int
			if k, _ := fmt.Sscanf(t, "# %s digest %s reservations %d", &pol, &d, &n); k == 3 {
				p.digest[Policy(pol)], p.resv[Policy(pol)] = d, n
			}
			continue
		}
		f := strings.Fields(t)
		k := len(p.ids)
		if len(f) != 1+len(Policies()) || k >= len(jobs) {
			return nil, fmt.Errorf("%s line %d: %q: want a job id and %d waits for %d jobs", path, line, t, len(Policies()), len(jobs))
		}
		id, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %v", path, line, err)
		}
		p.ids = append(p.ids, id)
		for c, pol := range Policies() {
			var s float64
			if v, ok := strings.CutPrefix(f[1+c], "@"); ok {
				s, err = strconv.ParseFloat(v, 64)
			} else {
				s, err = strconv.ParseFloat(v, 64)
				s += jobs[k].Submit
			}
			if err != nil {
				return nil, fmt.Errorf("%s line %d: %v", path, line, err)
			}
			p.starts[pol] = append(p.starts[pol], s)
		}
	}
	return p, sc.Err()
}

// TestSchedulesMatchPinnedTraces: FCFS, EASY and conservative give every
// job of the KTH, NASA and HPC2N traces the start time the code gave it
// when the pins were written, and the same ends, processors, reservations
// and pass counts (by digest); each schedule also replays clean.
func TestSchedulesMatchPinnedTraces(t *testing.T) {
	for _, tr := range pinnedTraces {
		j, err := FromSWF(readTrace(t, tr.file), SWFOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res := map[Policy]*Result{}
		for _, pol := range Policies() {
			r, err := Simulate(context.Background(), j.Jobs, j.Procs, pol, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", tr.name, pol, err)
			}
			verify(t, tr.name+" "+string(pol), j.Jobs, r)
			res[pol] = r
		}
		if *updatePins {
			if err := writePin(pinPath(tr.name), j.Jobs, res); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", pinPath(tr.name))
			continue
		}
		pin, err := readPin(pinPath(tr.name), j.Jobs)
		if err != nil {
			t.Fatal(err)
		}
		if len(pin.ids) != len(j.Jobs) {
			t.Fatalf("%s: %d pinned jobs, the trace gives %d", tr.name, len(pin.ids), len(j.Jobs))
		}
		for _, pol := range Policies() {
			r := res[pol]
			bad := 0
			for i, job := range j.Jobs {
				if pin.ids[i] != job.ID {
					t.Fatalf("%s: pinned job %d is id %d, the trace's is %d", tr.name, i, pin.ids[i], job.ID)
				}
				if got, want := r.Placements[i].Start, pin.starts[pol][i]; got != want {
					if bad == 0 {
						t.Errorf("%s %s: first differing job is #%d (id %d, submit %v, size %d, estimate %v): starts at %v, pinned %v",
							tr.name, pol, i, job.ID, job.Submit, job.Size, job.Estimate, got, want)
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%s %s: %d of %d jobs start elsewhere than pinned", tr.name, pol, bad, len(j.Jobs))
				continue
			}
			if n := len(r.Reservations); n != pin.resv[pol] {
				t.Errorf("%s %s: starts as pinned, but %d reservations recorded, pinned %d", tr.name, pol, n, pin.resv[pol])
			}
			if d := pinDigest(r); d != pin.digest[pol] {
				t.Errorf("%s %s: starts as pinned, but ends, processors, reservations or passes differ: digest %s, pinned %s", tr.name, pol, d, pin.digest[pol])
			}
		}
	}
}
