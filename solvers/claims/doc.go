// Package claims is the one rule set that turns our numbers into the
// verdicts of a reproduce report's Claims table (../shared/fidelity.md;
// issues 29, 40). No family keeps a verdict function of its own.
//
// # Verdicts
//
//   - holds: shown at every point the paper reports the claim;
//   - partly: shown at some points; or everywhere but by a threshold of
//     ours (the row names it);
//   - does not hold: shown at no point and the data exclude it at some
//     point (an interval wholly on the other side, a significant step the
//     other way, more than half of the instances failed);
//   - inconclusive: shown nowhere and excluded nowhere at this n (every
//     interval straddles the boundary, or one value gives no interval);
//     the rule text says how many points were undecided and, where the
//     spread allows, about how many values would decide them (tally.note);
//   - not measured: no number, or none at the sizes the sentence names;
//   - unverifiable: the paper prints no number and its words fix no
//     threshold, or the sentence only names a method's criterion or
//     mechanism (Unmeasurable): ours is shown, nothing is judged.
//
// # Data and statistics
//
// A point is one place where the paper reports a claim: one method's
// values, one per instance or seed, NaN where it failed; rows say "k of n
// solved", and a point where at most half were solved is excluded. Pair
// holds two methods' values on the same instances and seeds. Intervals:
// Student-t 95 % of a mean (MeanCI), of a paired difference (PairedCI),
// Welch's for different instances (WelchCI), Fisher's z for Pearson's r.
// An interval rests on at least MinValues = 2 values and every row says
// its n ("[lo, hi] (n = 5)"); one value is written as a value and leaves
// its point undecided. A random claim is judged on at least MinSeeds = 5
// seeds by default. A published mean over n instances is a sample
// (PaperMean): LevelMean compares it with ours by Welch's interval where
// its spread is known and says "taken as exact" where not.
//
// # Rules
//
// Each point is shown, excluded or undecided by a rule (Level, Range,
// LevelMean, AtLeast, AtMost, Direction, TrendOf, Correlated, Crossing,
// Share, Occurs, Check: each function says its test), then the points are
// combined. The rule is chosen from the sentence: a range is a Range, not a
// bound; a claim about a scope ("large graphs") is judged at the sizes it
// names or is Missing (InScope); a sentence naming a criterion is
// Unmeasurable, with the method's success rate as its own row. A tolerance
// of ours (Tol.Ours) caps at partly only in a rule that applies it (Rises
// and Falls apply none). Combine joins a conclusion's parts. Table.Add
// writes the rule into the evidence cell.
//
// # Rows as data
//
// A family writes its Claims table as a table of Rows, as it writes its
// variants (issue 44): each row the paper's sentence, what the paper
// printed, a judge (a rule of this package over the data the reproduce
// computed: DirectionOf, LevelOf, TrendOver, CombineOf, or a small func)
// and the evidence. One loop (Lines, Build) judges them in order; a row
// whose text depends on the data (one per size or γ) is an Expand, and
// "{name}" text is filled from the data by the caller. A conclusion
// calls the judges of the rows it joins (they are deterministic), or
// reads their results by Key.
package claims
