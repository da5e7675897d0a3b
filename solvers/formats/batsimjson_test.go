package formats

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/errs"
)

func readBatsimFile(t *testing.T, name string, speed float64) (*BatsimWorkload, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/batsim", name))
	if err != nil {
		t.Fatal(err)
	}
	return ReadBatsimWorkload(context.Background(), name, data, speed, BatsimLimits{})
}

// TestReadBatsimWorkloadRuntimes: each profile type's runtime, worked by
// hand (four_jobs.json): delay 10; parallel_homogeneous 2e10 flops at
// 1 Gflop/s, 20 s; composed 2 × (delay 1 + 4e9 flops over 1 host at 1
// Gflop/s) = 10 s; walltimes kept, a missing one -1.
func TestReadBatsimWorkloadRuntimes(t *testing.T) {
	w, err := readBatsimFile(t, "four_jobs.json", 1e9)
	if err != nil {
		t.Fatal(err)
	}
	want := []BatsimJob{
		{ID: "1", Num: 1, Subtime: 0, Res: 2, Walltime: 100, Profile: "d10", Runtime: 10},
		{ID: "2", Num: 2, Subtime: 1, Res: 4, Walltime: 50, Profile: "homogeneous20s", Runtime: 20},
		{ID: "3", Num: 3, Subtime: 2, Res: 2, Walltime: 5, Profile: "d10", Runtime: 10},
		{ID: "4", Num: 4, Subtime: 3, Res: 1, Walltime: -1, Profile: "twice", Runtime: 10},
	}
	if w.NbRes != 4 || w.Renumbered || len(w.Jobs) != len(want) {
		t.Fatalf("%+v", w)
	}
	for i := range want {
		if w.Jobs[i] != want[i] {
			t.Errorf("job %d: %+v, want %+v", i, w.Jobs[i], want[i])
		}
	}
	if got := w.ProfileTypes(); got != "composed 1, delay 2, parallel_homogeneous 1" {
		t.Errorf("types %q", got)
	}
	// Without a speed, the flops cannot be timed: the error names the job
	// and the profile and says what to give.
	_, err = readBatsimFile(t, "four_jobs.json", 0)
	if err == nil || !strings.Contains(err.Error(), `jobs[1] (id "2")`) || !strings.Contains(err.Error(), "homogeneous20s") || !strings.Contains(err.Error(), "platform") {
		t.Errorf("no speed: %v", err)
	}
}

func TestReadBatsimWorkloadRenumbers(t *testing.T) {
	w, err := readBatsimFile(t, "delays_string_ids.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Renumbered || w.Jobs[0].Num != 1 || w.Jobs[1].Num != 2 || w.Jobs[1].ID != "7" || w.Jobs[1].Walltime != -1 || w.Jobs[1].Runtime != 12.25 || w.Jobs[1].Subtime != 5.5 {
		t.Errorf("%+v", w.Jobs)
	}
}

// TestReadBatsimWorkloadErrors: each bad input is refused with an error
// naming the file, the job or profile and the field.
func TestReadBatsimWorkloadErrors(t *testing.T) {
	const profiles = `"profiles":{"d":{"type":"delay","delay":5}}`
	for _, c := range []struct{ in, want string }{
		{`{`, "w.json: json"},
		{`{"jobs":[],"profiles":{}}`, "nb_res: missing"},
		{`{"nb_res":2.5,"jobs":[],"profiles":{}}`, "nb_res: must be a whole number"},
		{`{"nb_res":2,"profiles":{}}`, "jobs: missing"},
		{`{"nb_res":2,"jobs":[],` + profiles + `}`, "no jobs"},
		{`{"nb_res":2,"jobs":[{"id":1,"subtime":0,"res":1,"profile":"d"}]}`, "profiles: missing"},
		{`{"nb_res":2,"jobs":[{"subtime":0,"res":1,"profile":"d"}],` + profiles + `}`, "jobs[0].id: missing"},
		{`{"nb_res":2,"jobs":[{"id":true,"subtime":0,"res":1,"profile":"d"}],` + profiles + `}`, "jobs[0].id: must be a string or a number"},
		{`{"nb_res":2,"jobs":[{"id":"a","res":1,"profile":"d"}],` + profiles + `}`, `jobs[0] (id "a").subtime: missing`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":-1,"res":1,"profile":"d"}],` + profiles + `}`, `subtime: must be ≥ 0`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":"0","res":1,"profile":"d"}],` + profiles + `}`, `jobs[0]: json: cannot unmarshal string`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":0,"profile":"d"}],` + profiles + `}`, `res: must be a whole number ≥ 1`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1}],` + profiles + `}`, `profile: missing`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1,"walltime":0,"profile":"d"}],` + profiles + `}`, `walltime: must be > 0 s, or -1`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1,"profile":"x"}],` + profiles + `}`, `no profile "x"`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1,"profile":"d"},{"id":"a","subtime":0,"res":1,"profile":"d"}],` + profiles + `}`, `jobs[1] (id "a").id: the id of jobs[0] too`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1,"profile":"s"}],"profiles":{"s":{"type":"smpi","trace":"x"}}}`, `profile type "smpi" is not supported`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":2,"profile":"h"}],"profiles":{"h":{"type":"parallel_homogeneous","cpu":1e9,"com":1e6}}}`, `com is 1e+06 bytes`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":2,"profile":"p"}],"profiles":{"p":{"type":"parallel","cpu":[1e9],"com":[0,0,0,0]}}}`, `cpu: 1 values, want 2 for a job on 2 hosts`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1,"profile":"c"}],"profiles":{"c":{"type":"composed","seq":["c"]}}}`, `composed of itself`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1,"profile":"c"}],"profiles":{"c":{"type":"composed","repeat":0,"seq":["c"]}}}`, `repeat: must be a whole number ≥ 1`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1,"profile":"d"}],"profiles":{"d":{"type":"delay"}}}`, `delay: missing`},
		{`{"nb_res":2,"jobs":[{"id":"a","subtime":0,"res":1,"profile":"d"}],"profiles":{"d":{"type":"delay","delay":1,"ret":1}}}`, `ret 1`},
	} {
		_, err := ReadBatsimWorkload(context.Background(), "w.json", []byte(c.in), 1e9, BatsimLimits{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "w.json") || errs.KindOf(err) != errs.Invalid {
			t.Errorf("%s:\n got %v\nwant %q", c.in, err, c.want)
		}
	}
	_, err := ReadBatsimWorkload(context.Background(), "w.json", []byte(`{"nb_res":1,"jobs":[{"id":1,"subtime":0,"res":1,"profile":"d"},{"id":2,"subtime":0,"res":1,"profile":"d"}],"profiles":{"d":{"type":"delay","delay":1}}}`), 0, BatsimLimits{MaxJobs: 1})
	if errs.KindOf(err) != errs.TooLarge {
		t.Errorf("over the job limit: %v", err)
	}
}

func TestLooksLikeBatsimWorkload(t *testing.T) {
	data, _ := os.ReadFile("testdata/batsim/four_jobs.json")
	if !LooksLikeBatsimWorkload(data) || LooksLikeBatsimWorkload([]byte(`{"nodes":[],"jobs":[]}`)) || LooksLikeBatsimWorkload([]byte(`[1`)) {
		t.Error("LooksLikeBatsimWorkload")
	}
}

func TestReadSimGridPlatform(t *testing.T) {
	for _, c := range []struct {
		file  string
		hosts int
		speed float64
	}{{"platform_4x1Gf.xml", 4, 1e9}, {"platform_hosts.xml", 3, 1e9}} {
		data, err := os.ReadFile(filepath.Join("testdata/batsim", c.file))
		if err != nil {
			t.Fatal(err)
		}
		p, err := ReadSimGridPlatform(c.file, data)
		if err != nil || p.Hosts != c.hosts || p.Speed != c.speed {
			t.Errorf("%s: %+v %v, want %d hosts at %g", c.file, p, err, c.hosts, c.speed)
		}
	}
	p, err := ReadSimGridPlatform("h.xml", []byte(`<platform version="4.1"><zone id="z" routing="Full"><host id="a" speed="1Gf"/><host id="b" speed="2Gf"/></zone></platform>`))
	if err != nil || p.Hosts != 2 || p.Speed != 0 || p.MinSpeed != 1e9 || p.MaxSpeed != 2e9 {
		t.Errorf("heterogeneous: %+v %v", p, err)
	}
	for _, c := range []struct{ in, want string }{
		{`<zone/>`, "no <platform> element"},
		{`<platform><zone id="z"><host id="master_host" speed="1Gf"/></zone></platform>`, "no compute host"},
		{`<platform><zone id="z">` + "\n" + `<host id="a" speed="1Xf"/></zone></platform>`, `p.xml line 2: host "a": speed: "1Xf": unknown unit`},
		{`<platform><zone id="z"><host id="a"/></zone></platform>`, `speed: missing`},
		{`<platform><zone id="z"><host id="a" speed="1f, 2f" pstate="2"/></zone></platform>`, `pstate "2"`},
		{`<platform><zone id="z"><cluster id="c" prefix="n" suffix="" radical="3-1" speed="1f"/></zone></platform>`, `cluster "c": radical`},
		{`<platform><zone id="z"><host id="a" speed="1f"><prop id="role" value="gpu"/></host></zone></platform>`, `unknown role "gpu"`},
		{`<platform><zone id="z"><cabinet id="c" prefix="n" suffix="" radical="0-1" speed="1f" bw="1Bps" lat="0s"/></zone></platform>`, `<cabinet> is not read`},
		{`<platform><zone id="z"><host id="a" speed="1f"></zone></platform>`, `not a SimGrid platform`},
	} {
		_, err := ReadSimGridPlatform("p.xml", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "p.xml") {
			t.Errorf("%s:\n got %v\nwant %q", c.in, err, c.want)
		}
	}
}

// FuzzReadBatsimWorkload: any input is read or refused with an
// errs.Invalid or errs.TooLarge error, never a panic; what is read has
// finite, non-negative times and at least one processor per job.
func FuzzReadBatsimWorkload(f *testing.F) {
	for _, name := range []string{"four_jobs.json", "delays_string_ids.json"} {
		data, err := os.ReadFile(filepath.Join("testdata/batsim", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 1e9)
	}
	f.Fuzz(func(t *testing.T, data []byte, speed float64) {
		w, err := ReadBatsimWorkload(context.Background(), "f.json", data, speed, BatsimLimits{MaxJobs: 1000})
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", k, err)
			}
			return
		}
		for _, j := range w.Jobs {
			if !(j.Subtime >= 0) || !(j.Runtime >= 0) || j.Runtime > 1e15 || j.Res < 1 || !(j.Walltime == -1 || j.Walltime > 0) {
				t.Fatalf("job %+v", j)
			}
		}
	})
}

// FuzzReadSimGridPlatform: any input is read or refused, never a panic;
// what is read has compute hosts of positive speed.
func FuzzReadSimGridPlatform(f *testing.F) {
	for _, name := range []string{"platform_4x1Gf.xml", "platform_hosts.xml"} {
		data, err := os.ReadFile(filepath.Join("testdata/batsim", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadSimGridPlatform("f.xml", data)
		if err != nil {
			return
		}
		if p.Hosts < 1 || !(p.MinSpeed > 0) || p.MaxSpeed < p.MinSpeed || p.Speed != 0 && p.Speed != p.MinSpeed {
			t.Fatalf("%+v", p)
		}
	})
}
