package report

// ResourceMetrics names the info metrics (Kind KindInfo) by which a Report
// states what the run had to work with, in the same words in every family:
//
//   - processors: processors of the machine or platform (a count)
//   - processors_used: processors the run had when they differ from the
//     platform's (a scale-out that adds copies; a count)
//   - nodes: nodes of a distributed system (a count)
//   - machines: machines or machine types (a count)
//   - deadline: the time frame a schedule must fit in, in the report's time
//     unit
//   - memory_budget_mb: the memory a method may use, in MB
//
// A family reports those that apply to its model: batch processors,
// gossip and cyclic nodes, EAPM machines, critical works processors,
// processors_used and deadline. DCOP's clusters are all in its workload,
// so runs on one workload share them. No family reports
// memory_budget_mb today: a budget decides only whether a run fails
// (a failed run is counted apart, never ranked), never the schedule of a
// run that ends. They are part of the
// result: package compare ranks a result only among runs that report equal
// values of them (and ran on the same workload), and names the resource
// that differs otherwise. The list is a fresh copy each call.
func ResourceMetrics() []string {
	return []string{"processors", "processors_used", "nodes", "machines", "deadline", "memory_budget_mb"}
}
