package gossip

// newSim builds a simulator without running it (tests inspect its tables).
func newSim(in *Instance, cfg SimConfig) *sim { return build(in, in.Grid.Build(), cfg) }
