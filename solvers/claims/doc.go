// Package claims is the one rule set that turns our numbers into the
// verdicts of a reproduce report's Claims table (../shared/fidelity.md).
// Every family builds its table here; no family keeps a verdict function
// of its own, so one claim kind is judged the same way everywhere.
//
// # Verdicts
//
//   - holds: the claim holds at every point the paper reports it;
//   - partly: it holds at some points, not at all; or it holds everywhere
//     but only by a threshold that is ours, not the paper's (the row names
//     that threshold);
//   - does not hold: at no point;
//   - not measured: we have no number for it;
//   - unverifiable: the paper prints no number and its words fix no
//     threshold, so we show ours beside the theory or the text and judge
//     nothing.
//
// # Data
//
// A point is one place where the paper reports the claim (a size, a load,
// a γ): the values of one method there, one per instance or seed, with NaN
// for an instance the method failed on (no schedule, width not reached).
// Every row about a method therefore knows "k of n solved" and says it. A
// point where the method solved no more than half of its instances does
// not hold, whatever the others say: a mean over the solved instances
// alone is never evidence. Paired rules take two methods' values on the
// same instances and seeds, index by index.
//
// # Statistics
//
// Intervals are 95 % Student-t intervals of a mean: mean ± t(0.975, n−1)
// · s/√n, with s the sample standard deviation; for a paired comparison,
// of the mean paired difference over the instances both methods solved.
// A difference of two points with different instances (a trend over
// sizes) uses Welch's interval (Welch–Satterthwaite degrees of freedom).
// One value has no spread: its interval is the value itself, so a
// deterministic number is judged as it is. A correlation's interval is
// Fisher's z-transform of Pearson's r (needs n ≥ 4).
//
// # Rules
//
// Each rule judges every point and then combines them: holds if every
// point holds, partly if some do, does not hold if none does. A point
// holds when:
//
//   - Level (ours against a published number, tolerance tol): the paper's
//     value ± tol meets our interval, i.e. our numbers are consistent with
//     the published one at its precision. tol is the paper's own printed
//     precision (half a unit of its last digit, Printed) or ours, named.
//   - Bound (ours at least / at most a published number): the interval
//     lies on the claimed side of it (lo ≥ x, or hi ≤ x).
//   - Direction ("A better than B" by at least a margin, 0 unless the
//     paper fixes one): the interval of the paired difference, oriented
//     so that positive favours A, lies above the margin.
//   - Trend: rises (falls) when every step to the next point rises (falls)
//     with the step's interval excluding zero; it holds only when every
//     step does, is partly when some step does and none goes the other
//     way significantly, and does not hold otherwise. Flat: every point's
//     difference from the first lies within ±tol, interval included.
//     FallsLittle: no point's interval of its difference from the first
//     reaches below −tol. Over unbinned pairs (x, y): Pearson's r with its
//     interval on the claimed side of zero.
//   - Crossing (A ahead at the low points, B at the high points): every
//     point is significant one way or the other, except at most one point
//     at the crossing, and the signs change once, from A to B: holds;
//     some significant point each way, every A point before every B
//     point: partly; otherwise does not hold. Never judged on the two end
//     points alone.
//   - Share ("on every instance"): k of n: holds at k = n, partly when
//     k > n/2, does not hold otherwise.
//   - Occurs ("this situation happens", a paper reporting a case from its
//     testing with no count): holds when it happened in at least one of
//     n runs; it judges existence, never a rate.
//
// A threshold or tolerance that is ours (Tol.Ours) caps the verdict at
// partly and the row names it. Combine joins the verdicts of a conclusion
// made of several claims: holds only if all hold, does not hold if all do
// not, not measured if none was measured, partly otherwise; unverifiable
// parts are left out of the join.
//
// Each rule returns a Result: the verdict, our numbers as the row shows
// them (means with their interval and "k of n solved"), and the rule in
// words; Table.Add writes the rule into the evidence cell, so a reader
// sees the rule beside the verdict.
package claims
