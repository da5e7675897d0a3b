package solvers

import (
	"testing"

	"schedlab/errs"
)

type testConfig struct {
	Gamma  float64
	Jobs   int
	Big    int64
	Shift  bool
	Mode   string
	Lanes  string
	Hidden bool
}

func defaultTestConfig() testConfig {
	return testConfig{Gamma: 1.2, Jobs: 20, Big: 1 << 40, Mode: "push"}
}

func (c *testConfig) Declare(ps *ParamSet) {
	ps.Float(&c.Gamma, "gamma", "×", 0, 100, "markup")
	ps.Int(&c.Jobs, "jobs", "jobs", 1, 1000, "how many")
	ps.Int64(&c.Big, "big", "B", 0, 1<<50, "large")
	ps.Bool(&c.Shift, "shift", "shift or not").For("css", "fair")
	ps.Choice(&c.Mode, "mode", []string{"push", "pull"}, "exchange").For("rumor")
	ps.String(&c.Lanes, "lanes", "nodes", "list").WithCheck(func(v string) error {
		if v == "bad" {
			return errs.Invalidf("", "bad lanes")
		}
		return nil
	})
}

func TestSpecsOfReadsTheDefaultsFromTheConfig(t *testing.T) {
	cfg := defaultTestConfig()
	specs := specsOf(&cfg)
	want := map[string]string{"gamma": "1.2", "jobs": "20", "big": "1099511627776", "shift": "false", "mode": "push", "lanes": ""}
	if len(specs) != len(want) {
		t.Fatalf("%d specs, want %d", len(specs), len(want))
	}
	for _, s := range specs {
		if s.Default != want[s.Name] {
			t.Errorf("%s default %q, want %q", s.Name, s.Default, want[s.Name])
		}
	}
	if specs[3].Kind != ParamBool || !specs[3].AppliesTo("css") || specs[3].AppliesTo("rumor") || !specs[0].AppliesTo("anything") {
		t.Errorf("shift: kind %s variants %v", specs[3].Kind, specs[3].Variants)
	}
}

func TestResolveConfigDecodesEveryKind(t *testing.T) {
	cfg := defaultTestConfig()
	r, err := ResolveConfig(&cfg, Params{"gamma": "1.5", "jobs": "1000", "shift": "on", "mode": "pull", "big": "1125899906842624"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Gamma != 1.5 || cfg.Jobs != 1000 || !cfg.Shift || cfg.Mode != "pull" || cfg.Big != 1<<50 || cfg.Lanes != "" {
		t.Errorf("decoded %+v", cfg)
	}
	if r["shift"] != "true" {
		t.Errorf("an older spelling is stored as %q, want true", r["shift"])
	}
	for _, v := range []string{"off", "no", "FALSE", "0"} {
		c := defaultTestConfig()
		c.Shift = true
		if r, err := ResolveConfig(&c, Params{"shift": v}); err != nil || c.Shift || r["shift"] != "false" {
			t.Errorf("shift=%s: %v %v %q", v, err, c.Shift, r["shift"])
		}
	}
}

func TestResolveReportsEveryProblemAtOnce(t *testing.T) {
	cfg := defaultTestConfig()
	_, err := ResolveConfig(&cfg, Params{"gamma": "x", "jobs": "0", "shift": "maybe", "lanes": "bad", "nosuch": "1"})
	got := map[string]bool{}
	for _, e := range errs.All(err) {
		got[errs.FieldOf(e)] = true
		if errs.KindOf(e) != errs.Invalid {
			t.Errorf("%v is %v, want invalid", e, errs.KindOf(e))
		}
	}
	for _, f := range []string{"gamma", "jobs", "shift", "lanes", "nosuch"} {
		if !got[f] {
			t.Errorf("no error about %s in %v", f, err)
		}
	}
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) == "" {
		t.Errorf("the list's kind %v field %q", errs.KindOf(err), errs.FieldOf(err))
	}
	if cfg != defaultTestConfig() {
		t.Errorf("a refused config was changed: %+v", cfg)
	}
}

type twiceConfig struct{ A, B int }

func (c *twiceConfig) Declare(ps *ParamSet) {
	ps.Int(&c.A, "a", "", 0, 1, "")
	ps.Int(&c.B, "a", "", 0, 1, "")
}

func TestADuplicateParameterNamePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic on a name declared twice")
		}
	}()
	specsOf(&twiceConfig{})
}
