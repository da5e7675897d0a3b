package solvers

// Description is one family as /api/strategies and `schedlab strategies
// --json` show it: what a run, a preset and the seed experiment take.
// Built is always true (every family listed is built); it stays in the
// JSON its readers know.
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

// Describe describes every family of strategies, in their order.
func Describe(strategies []*Strategy) []Description {
	out := make([]Description, len(strategies))
	for i, st := range strategies {
		out[i] = Description{Info: st.Info, Built: true, Variants: st.Variants, Params: st.Params,
			Presets: st.Presets, ReproduceParams: st.ReproduceParams, Uploads: st.Uploads, Exports: st.Exports}
	}
	return out
}
