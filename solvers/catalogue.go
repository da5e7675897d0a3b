package solvers

// Family describes one of the five strategy families of the seed papers.
type Family struct {
	Info
	Spec string `json:"spec"` // the specification file in the design documents
}

// Families returns the catalogue: the five families of the seed papers, in
// the design's order, by name and specification (a fresh slice each call).
// Each family describes itself (its package's Def.Info); CatalogueWith
// fills that in.
func Families() []Family { return append([]Family(nil), families...) }

var families = []Family{
	{Info{Name: "dcop"}, "spec/dcop.md"},
	{Info{Name: "gossip"}, "spec/gossip.md"},
	{Info{Name: "critical"}, "spec/critical.md"},
	{Info{Name: "cyclic"}, "spec/cyclic.md"},
	{Info{Name: "eapm"}, "spec/eapm.md"},
}

// Description is one family as /api/strategies and `schedlab strategies
// --json` show it: the catalogue's entry and what a run, a preset and the
// seed experiment take. Built is false only for a catalogue entry no
// strategy in the registry implements (none today).
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

// CatalogueWith is the catalogue, each family described by its strategy
// when there is one, followed by the families of strategies it
// does not list (a family added since): a new family needs no line here.
func CatalogueWith(strategies []Strategy) []Family {
	out := Families()
	byName := map[string]Strategy{}
	for _, st := range strategies {
		byName[st.Info().Name] = st
	}
	for i, f := range out {
		if st, ok := byName[f.Name]; ok {
			out[i].Info = st.Info()
			delete(byName, f.Name)
		}
	}
	for _, st := range strategies {
		if _, extra := byName[st.Info().Name]; extra {
			out = append(out, Family{Info: st.Info()})
		}
	}
	return out
}

// Describe describes every family of the catalogue and any strategy's
// family the catalogue does not list.
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
