// Package claims is the one rule set that turns our numbers into the
// verdicts of a reproduce report's Claims table (../shared/fidelity.md).
// Every family builds its table here; no family keeps a verdict function
// of its own, so one claim kind is judged the same way everywhere.
//
// # Verdicts
//
//   - holds: the claim holds at every point the paper reports it;
//   - partly: it holds at some points, not at all; or everywhere but only
//     by a threshold that is ours, not the paper's (the row names it);
//   - does not hold: at no point;
//   - not measured: we have no number for it;
//   - unverifiable: the paper prints no number and its words fix no
//     threshold, so we show ours beside the theory or the text and judge
//     nothing (Unmeasurable).
//
// # Data and statistics
//
// A point is one place where the paper reports the claim (a size, a load,
// a γ): the values of one method there, one per instance or seed, with NaN
// for an instance the method failed on (no schedule, width not reached).
// Every row about a method therefore knows "k of n solved" and says it. A
// point where the method solved no more than half of its instances does
// not hold, whatever the others say: a mean over the solved instances
// alone is never evidence. Paired rules (Pair) take two methods' values on
// the same instances and seeds, index by index. 95 % intervals of a mean: Student-t, mean ± t(0.975, n−1)·s/√n (MeanCI;
// PairedCI for the mean paired difference over the instances both solved);
// a difference of two points with different instances (a trend over
// sizes) uses Welch's interval (WelchCI). One value is its own interval,
// so a deterministic number is judged as it is. A correlation's interval
// is Fisher's z-transform of Pearson's r (Pearson, n ≥ 4).
//
// # Rules
//
// Each rule judges every point and then combines them: holds if every
// point holds, partly if some do, does not hold if none does. A point
// holds when:
//
//   - Level: the paper's value ± tol meets our interval (our numbers are
//     consistent with the published one at its precision); tol is the
//     paper's printed precision (Printed) or ours, named.
//   - AtLeast, AtMost: the interval lies on the claimed side of the bound.
//   - Direction ("A better than B" by a margin, 0 unless the paper fixes
//     one): the paired difference's interval, oriented so that positive
//     favours A, lies above the margin.
//   - TrendOf (Rises, Falls, Flat, FallsLittle), Correlated (Pearson's r
//     over unbinned pairs), Crossing: whole-sequence rules, each doc says
//     when it holds and when it is partly.
//   - Share ("on every instance"): holds at k = n, partly when k > n/2.
//   - Occurs ("this situation happens", no count printed): holds when it
//     happened in at least one of n runs; existence, never a rate.
//
// A threshold or tolerance that is ours (Tol.Ours) caps the verdict at
// partly and the row names it. Combine joins the verdicts of a conclusion
// made of several claims. Each rule returns a Result: the verdict, our
// numbers as the row shows them (means with their interval and "k of n
// solved"), and the rule in words, which Table.Add writes into the
// evidence cell beside the verdict.
package claims
