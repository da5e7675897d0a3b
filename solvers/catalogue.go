package solvers

// Family describes one of the five strategy families, built or not, so the
// home page can list all five without broken links.
type Family struct {
	Info
	Spec string `json:"spec"` // the specification file in the design documents
}

// Families returns the catalogue of the five families from the seed
// papers, in the order the design lists them (a fresh slice each call).
func Families() []Family { return append([]Family(nil), families...) }

var families = []Family{
	{Info{Name: "dcop", Title: "DCOP co-allocation",
		Summary: "Jobs that need several clusters at once on a time grid: DPOP on a pseudo-tree with back-edge deletion and problem splitting.",
		Paper:   "Namekata, Matsui et al., co-allocation scheduling using distributed constraint optimization (2008)", Seed: "000_bc3ba4e6fc26b50c.txt"}, "spec/dcop.md"},
	{Info{Name: "gossip", Title: "Gossip scheduling vs central matchmaker",
		Summary: "A stream of jobs onto thousands of nodes: gossip-spread resource tables against a Condor-like manager.",
		Paper:   "Umeda, Nakada, Matsuoka, distributed job scheduling with large-scale information sharing (2006)", Seed: "001_a47f93fcc10dd41f.txt"}, "spec/gossip.md"},
	{Info{Name: "critical", Title: "Critical works method",
		Summary: "One parallel program (a task graph) onto processors along its critical works, with HEFT as a baseline.",
		Paper:   "Toporkov, Tselishchev, Bobchenkov, Rychkova, metascheduler: a generator of distributed computing strategies (2007)", Seed: "002_33e7efcc416cd938.txt"}, "spec/critical.md"},
	{Info{Name: "cyclic", Title: "Cyclic scheduling, fair-share, backfilling",
		Summary: "Batches of parallel jobs onto priced, non-dedicated slots: alternatives, DP choice, shift, backfilling.",
		Paper:   "Toporkov, Bobchenkov, Emelyanov, Tselishchev, scheduling methods and heuristics with non-dedicated resources (2014)", Seed: "003_1e1f6712bcbc01cc.txt"}, "spec/cyclic.md"},
	{Info{Name: "eapm", Title: "EAPM: energy-aware profit maximization",
		Summary: "Bags of tasks onto heterogeneous machine types, online, for profit per unit time.",
		Paper:   "Zhang, Li, Zhang, online EAPM for bags of tasks (2022); Tarplee et al. (CCGrid 2014)", Seed: "004_55fd890ca32d5ad5.txt"}, "spec/eapm.md"},
}

// FamilyInfo returns the catalogue's Info of the family called name, for a
// Strategy's Info method; a name not in the catalogue gets only its name.
func FamilyInfo(name string) Info {
	for _, f := range families {
		if f.Name == name {
			return f.Info
		}
	}
	return Info{Name: name}
}

// Description is one family as /api/strategies and `schedlab strategies
// --json` show it: the catalogue's entry, and for a built family what a
// run, a preset and the seed experiment take.
type Description struct {
	Info
	Built           bool           `json:"built"`
	Variants        []Variant      `json:"variants,omitempty"`
	Params          []ParamSpec    `json:"params,omitempty"`
	Presets         []Preset       `json:"presets,omitempty"`
	ReproduceParams []ParamSpec    `json:"reproduce_params,omitempty"`
	Uploads         []Upload       `json:"uploads,omitempty"`
	Exports         []ExportFormat `json:"exports,omitempty"`
}

// CatalogueWith is the catalogue followed by the families of strategies it
// does not list (a family added since): a new family needs no line here.
func CatalogueWith(strategies []Strategy) []Family {
	out := Families()
	for _, st := range strategies {
		known := false
		for _, f := range families {
			known = known || f.Name == st.Info().Name
		}
		if !known {
			out = append(out, Family{Info: st.Info()})
		}
	}
	return out
}

// Describe describes every family of the catalogue, built (in strategies)
// or not, and any built family the catalogue does not list.
func Describe(strategies []Strategy) []Description {
	var out []Description
	for _, f := range CatalogueWith(strategies) {
		d := Description{Info: f.Info}
		for _, st := range strategies {
			if st.Info().Name != f.Name {
				continue
			}
			d = Description{Info: st.Info(), Built: true, Variants: st.Variants(), Params: st.Params(),
				Presets: st.Presets(), ReproduceParams: st.ReproduceParams()}
			if u, ok := st.(Uploader); ok {
				d.Uploads = u.Uploads()
			}
			if x, ok := st.(Exporter); ok {
				d.Exports = x.Exports()
			}
		}
		out = append(out, d)
	}
	return out
}
