// Package adversary searches for the instances that separate two
// strategies of one family: where does A lose to B? It maximises a
// separation score s(A, B) over instances, and keeps what it finds as
// ordinary workloads, so they can be compared, swept and cited.
//
// The score. For a metric whose declared direction is "lower is better"
// (makespan) the ratio score is A/B; for "higher is better" (profit) it
// is B/A: s > 1 means A does worse than B on that instance. The
// difference score (A − B, or B − A) is for metrics that can be zero or
// negative. A run that gives no result is a result: A failing where B
// succeeds scores +Inf (no instance separates more), A succeeding where
// B fails scores the worst value (0 for a ratio, −Inf for a difference),
// and both failing scores no separation (1, or 0). A ratio whose
// denominator is not positive is undefined; the evaluation says so in
// its note and scores no separation (use the difference score).
//
// Two ways to move, each from a named source:
//
//   - Anneal (simulated annealing over the instance itself, by the
//     family's own mutations, Def.Mutate): PISA (Coleman and
//     Krishnamachari, "Comparing Task Graph Scheduling Algorithms: An
//     Adversarial Approach", IPDPS 2025; arXiv 2403.07120), as its SAGA
//     library writes it (saga/pisa/simulated_annealing.py): energy is the
//     score; a neighbour with energy ratio r = s′/s > 1 is accepted, else
//     with probability exp(−r/T); T starts at MaxTemp and is multiplied by
//     Cooling after every step until it falls below MinTemp or MaxSteps
//     steps are taken; several restarts from independent initial
//     instances, the best over all kept. The defaults are the ones of
//     PISA's experiment script (scripts/experiments/pisa/run.py): 10
//     restarts, T from 10 to 0.1, cooling 0.99, at most 1000 steps (so
//     459 steps a restart, 4,590 evaluations in all). The restarts step
//     in lockstep, so one step's candidates are one batch that the
//     caller may evaluate in parallel (on workers, as a sweep does); a
//     restart's moves depend only on its own random stream, so the
//     result does not depend on how a batch is evaluated. Under the
//     difference score the ratio rule has no meaning; the classical
//     Metropolis rule (Kirkpatrick, Gelatt, Vecchi 1983) is used,
//     accepting a loss Δ < 0 with probability exp(Δ/(T·scale)), scale
//     the initial instance's |score| (ours: it makes T unitless).
//   - CMA-ES (over the family's generator parameters, for every family
//     with a preset): gonum's optimize.CmaEsChol, minimising −s. The
//     parameters searched (Vary) map linearly to [0, 1] (logarithmically
//     where the range spans two decades or more); a sample outside is
//     clipped to the box (boundary repair, Hansen's tutorial "The CMA
//     Evolution Strategy", 2016, B.3). The search starts at the preset's
//     defaults with step 0.25, a quarter of the box (Hansen's cma
//     documentation: sigma0 "about 1/4th of the search domain width").
//     The generator's own seed is fixed to the search's, so the score is a
//     function of the parameters alone. By default every numeric preset
//     parameter with a positive default is varied within [default/4,
//     4·default] clipped to its limits (ours: a neighbourhood of the
//     paper's setting, where its sizes keep runs short); Vary names others.
//
// Determinism and resumption: a search is a function of its Config and
// the scores of the instances it evaluates. Each evaluation is keyed by
// the sha256 of the instance's canonical data; Known (the evaluations a
// stored search already made) is consulted first, so a resumed search
// replays what it did without running anything twice and goes on from
// there, and an instance met twice within one search is run once. The
// budget counts candidates, replayed or not.
package adversary
