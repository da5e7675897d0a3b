package claims

import "fmt"

// Occurs judges an existence claim, "this situation occurs" (a paper
// reports from testing that a case happens and prints no count): over n
// runs it occurred in k. It holds when k ≥ 1, does not hold when it never
// occurred in n > 0 runs, and is not measured without runs. Ours is "k of
// n runs"; the rule judges existence only, never a rate.
func Occurs(k, n int, what string) Result {
	r := Result{Ours: fmt.Sprintf("%s in %d of %d runs", what, k, n),
		Rule: "occurs: holds when it occurred in at least one run; it judges existence, not a rate"}
	switch {
	case n == 0:
		r.Verdict = NotMeasured
	case k > 0:
		r.Verdict = Holds
	default:
		r.Verdict = DoesNotHold
	}
	return r
}
