package gossip

import (
	"schedlab/solvers"
	"schedlab/solvers/claims"
)

// Config is a run's parameters in their public units, as the forms, the
// API and the CLI show them. DefaultConfig gives the defaults and their
// reasons; Declare binds each field to its public name. simConfig turns it
// into the simulator's SimConfig (seconds, bytes, the combined seed).
type Config struct {
	RescaleNodes int     // run on this many nodes instead of the workload's (0 = the workload's)
	PeriodS      float64 // gossip period and central collection period, s
	Fanout       int     // exchanges a node opens per period (gossip), contacts per round (rumor)
	K            int     // rumor: "already known" answers before a sender stops
	TTLS         float64 // record time-to-live, s
	Schedulers   int     // gossip scheduling nodes
	Mode         string  // rumor: ModePush or ModePushPull
	MaxRounds    int     // rumor: rounds at most
	RecordCostMS float64 // central: processing of one collected record, ms
	MatchCostUS  float64 // per record scanned by one match, µs (a match scans n records)
	CentralInfo  string  // central: "periodic" snapshots or the "exact" oracle
	Collect      string  // central: how the collector gets the nodes' records
	Ads          string  // central push: ads at every state change too, or only periodically
	UpdateS      float64 // central push: a node's periodic ad, s
	NegotiatorS  float64 // central: negotiation cycle interval, s
	Refresh      string  // gossip: when a state change enters a node's own record
	SchedSplit   string  // gossip: which nodes each scheduler matches
	GossipK      int     // gossip: "already known" notices after which a node stops sending a table entry (0: never, full anti-entropy)
	ChurnPerH    float64 // leaves per node per hour (Poisson)
	DowntimeS    float64 // how long a leaving node stays away, s
	WarmupH      float64 // utilization is averaged after this, h
	RecordBytes  int     // bytes of one resource record in a message
	GanttNodes   int     // Gantt lanes 0..GanttNodes-1, or the size of the random sample
	GanttLanes   string  // Gantt lanes chosen by the user ("" = GanttNodes)
	MemoryMB     int     // budget for the tables and records, MiB
	SimSeed      int     // seed of the simulator's own random choices
}

// Central information modes (central_info).
const (
	CentralPeriodic = "periodic"
	CentralExact    = "exact"
)

// DefaultConfig is the seed's protocol (Umeda et al. 2006, §5.2) with our
// assumptions for what it does not print.
func DefaultConfig() Config {
	return Config{
		RescaleNodes: 0,               // the workload's own grid
		PeriodS:      60,              // the seed's "1 分に 1 回"
		Fanout:       1,               // the seed's
		K:            1,               // the seed's Fig. 6
		TTLS:         1800,            // 30 periods: about twice the push-pull spreading time at 10,000 nodes
		Schedulers:   1,               // the seed's Figs. 8–9 (Table 1 varies it 1, 2, 4, 8)
		Mode:         ModePush,        // the seed's rumor
		MaxRounds:    1000,            // far beyond log₂ n + ln n at any allowed n
		RecordCostMS: 5,               // about 200 ads/s for a collector (an assumption)
		MatchCostUS:  50,              // one ClassAd evaluation (an assumption)
		CentralInfo:  CentralPeriodic, // one-hop collection, the seed's baseline
		Collect:      CollectPush,     // HTCondor: each startd sends its ad to the collector (one host)
		Ads:          AdsOnChange,     // HTCondor: at every state change and every UPDATE_INTERVAL
		UpdateS:      300,             // HTCondor's UPDATE_INTERVAL default
		NegotiatorS:  60,              // HTCondor's NEGOTIATOR_INTERVAL default
		Refresh:      RefreshPeriodic, // the seed's §4.5: nodes refresh their records periodically
		SchedSplit:   SplitShared,     // the seed's §4.3: a scheduler matches against the whole table it fetched
		GossipK:      0,               // full anti-entropy: the counter (§4.5 step 3) moves utilization by ≤ 0.006 and costs 7× per exchange, 4× the CPU (bench/README.md); the seed gives k only for its rumor
		ChurnPerH:    0,               // the seed's runs have no churn
		DowntimeS:    1800,            // half an hour away
		WarmupH:      2,               // the grid fills in about one job length (≤ 1 h)
		RecordBytes:  256,             // a small ClassAd
		GanttNodes:   50,              // a readable Gantt
		GanttLanes:   "",              // nodes 0..GanttNodes-1
		MemoryMB:     2048,            // capped by the server's --memory-mb
		SimSeed:      1,               // any: runs of one workload differ only by it
	}
}

// Declare implements solvers.Declarer: the run parameters, their names,
// units, limits and docs (a public contract).
func (c *Config) Declare(ps *solvers.ParamSet) {
	ps.Int(&c.RescaleNodes, "rescale_nodes", "nodes", 0, MaxNodes, "Run on this many nodes instead of the workload's: the grid is rebuilt with this count and the submit times are multiplied by workload nodes / nodes, so the offered load stays the same (this is how an SWF trace is replayed on a chosen size). 0 = the workload's.")
	ps.Float(&c.PeriodS, "period_s", "s", 0.1, 86400, "Gossip period (each node refreshes its record and opens fanout exchanges) and the period of central_collect=serial and snapshot. Default 60 s, the seed's (\"once a minute\", §5.2).").For(simulated...)
	ps.Int(&c.Fanout, "fanout", "nodes", 1, 64, "Nodes contacted per period (gossip) or per round (rumor). Default 1, the seed's.").For(VariantGossip, VariantRumor)
	ps.Int(&c.K, "k", "answers", 1, 2000000000, "rumor: \"already known\" answers after which a sender stops. Default 1, the seed's Fig. 6. Give a huge k (e.g. 1000000000) for the infinite-k epidemic.").For(VariantRumor)
	ps.Float(&c.TTLS, "ttl_s", "s", 1, 1e9, "Record time-to-live: a record older than this is dropped and never matched. Default 1800 s (30 periods): about twice the push-pull spreading time at 10,000 nodes, so live records arrive before they expire.").For(VariantGossip)
	ps.Int(&c.Schedulers, "schedulers", "nodes", 1, 1024, "Gossip scheduling nodes (jobs are dealt round-robin). Default 1, as in the seed's Figs. 8–9; Table 1 uses 1, 2, 4, 8. Central has one manager.").For(VariantGossip)
	ps.Choice(&c.Mode, "mode", []string{ModePush, ModePushPull}, "rumor: push (the seed's: informed nodes send) or push-pull (every node opens exchanges; the rumor crosses either way).").For(VariantRumor)
	ps.Int(&c.MaxRounds, "max_rounds", "rounds", 1, 1000000, "rumor: stop after this many rounds even if senders are left.").For(VariantRumor)
	ps.Float(&c.RecordCostMS, "record_cost_ms", "ms", 0, 10000, "central: processing of one collected record (a collection costs n × this). Default 5 ms: about 200 ads/s for a collector, an assumption — the seed measured its own Java costs and does not print them.").For(VariantCentral)
	ps.Float(&c.MatchCostUS, "match_cost_us", "µs", 0, 1e6, "gossip and central: cost per record scanned by one match; a match scans the whole table, so it costs n × this (linear in nodes, the seed's §6.1). Default 50 µs (a ClassAd evaluation), an assumption.").For(simulated...)
	ps.Choice(&c.CentralInfo, "central_info", []string{CentralPeriodic, CentralExact}, "central: periodic (the collector's ads, as central_collect gathers them) or exact (an oracle that sees every change at once; with zero costs it reaches the ideal utilization).").For(VariantCentral)
	ps.Choice(&c.Collect, "central_collect", []string{CollectPush, CollectSerial, CollectSnapshot}, "central: how the collector gets the nodes' records. push (default, HTCondor's: each node sends its ad, see central_ads and update_interval_s; the one collector processes ads one at a time, record_cost_ms each); serial (the manager fetches every node's record in turn every period_s, one round trip + record_cost_ms each: one-hop collection serialized at one host); snapshot (every record taken at once at each period_s, processed in n × record_cost_ms: the earlier model).").For(VariantCentral)
	// §2.1.1: «定期的に送信» (sent periodically). Help texts quote the seed in
	// English: a user's browser may have no CJK font (missing-glyph boxes).
	ps.Choice(&c.Ads, "central_ads", []string{AdsOnChange, AdsPeriodic}, "central push: on-change (default, HTCondor's startd: an ad at every state change and every update_interval_s) or periodic (every update_interval_s only, the seed's §2.1.1 wording \"sent periodically\").").For(VariantCentral)
	ps.Float(&c.UpdateS, "update_interval_s", "s", 1, 86400, "central push: a node's periodic ad. Default 300 s, HTCondor's UPDATE_INTERVAL.").For(VariantCentral)
	ps.Float(&c.NegotiatorS, "negotiator_interval_s", "s", 0, 86400, "central: the negotiator matches the queued jobs against the collector's ads in a cycle every this many seconds (the next cycle at once if one takes longer); a cycle costs (matches + 1) × n × match_cost_us. Default 60 s, HTCondor's NEGOTIATOR_INTERVAL. 0 = match whenever the ads or the queue change (the earlier model).").For(VariantCentral)
	ps.Choice(&c.Refresh, "gossip_refresh", []string{RefreshPeriodic, RefreshOnChange}, "gossip: periodic (default, the seed's §4.5: a node writes its state into its record at its period tick, so a job's start or end is visible from the next tick) or on-change (a new record at every state change: the earlier model).").For(VariantGossip)
	// Table 1: «マッチングの負荷が分散された» (the matching load is distributed).
	ps.Choice(&c.SchedSplit, "sched_split", []string{SplitShared, SplitPartition}, "gossip: shared (default: every scheduling node matches over the whole grid, as the seed's §4.3 describes; jobs are dealt round-robin) or partition (scheduling node k matches only nodes i with i mod schedulers = k, and a match scans only that share: a reading of Table 1's \"the matching load is distributed\", §6).").For(VariantGossip)
	ps.Int(&c.GossipK, "gossip_k", "notices", 0, GossipKMax, "gossip: the feedback counter of the table exchange (the seed's §4.5 step 3 with §2.3.1's counter): the receiver tells the sender which entries it already knew, and a node stops sending an entry after gossip_k such notices, until a newer version of it arrives. 0 (default) = never stops: full anti-entropy, every entry in every exchange. The seed gives k only for its rumor (1, Fig. 6).").For(VariantGossip)
	ps.Float(&c.ChurnPerH, "churn_per_h", "1/h", 0, 100, "Leaves per node per hour (Poisson); a leaving node gossips a leave record and rejoins after downtime_s. Default 0 (the seed's runs have no churn).").For(simulated...)
	ps.Float(&c.DowntimeS, "downtime_s", "s", 0, 1e9, "How long a leaving node stays away before it joins again.").For(simulated...)
	ps.Float(&c.WarmupH, "warmup_h", "h", 0, 1e6, "Utilization is averaged after this (capped at half the duration). Default 2 h: the grid fills in about one job length (≤ 1 h).").For(simulated...)
	ps.Int(&c.RecordBytes, "record_bytes", "B", 1, 1<<20, "Size of one resource record in a message (a small ClassAd).")
	ps.Int(&c.GanttNodes, "gantt_nodes", "lanes", 0, 1000, "Lanes of the Gantt: nodes 0..gantt_nodes-1 (node ids are in random sites, so this is already a uniform sample of the grid), or the size of the gantt_lanes=random sample. Default 50.").For(simulated...)
	ps.String(&c.GanttLanes, "gantt_lanes", "nodes", "The Gantt's lanes for a large grid: a comma list of node ids and ranges (\"0-19,500,9990-9999\"), at most 1000 lanes, shown in that order; \"random\" draws gantt_nodes nodes uniformly (seeded by sim_seed); empty = nodes 0..gantt_nodes-1.").
		WithCheck(checkGanttLanes).For(simulated...)
	ps.Int(&c.MemoryMB, "memory_mb", "MiB", 1, 1<<20, "Budget for the tables (4·n² bytes for gossip) and records; over it the run fails before allocating. At most the server's own --memory-mb, which also caps the default.").
		WithLimit(solvers.LimitMemoryMiB).For(simulated...)
	ps.Int(&c.SimSeed, "sim_seed", "", 0, 1<<31-1, "Seed of the simulator's own random choices (partners, phases, scan offsets), combined with the grid's seed.")
}

// simConfig is the simulator's configuration of c for variant on a grid
// of seed gridSeed: every quantity in seconds and bytes.
func (c Config) simConfig(variant string, gridSeed int64) SimConfig {
	return SimConfig{Variant: variant, PeriodS: c.PeriodS, Fanout: c.Fanout, TTLS: c.TTLS,
		Schedulers: c.Schedulers, RecordCostS: c.RecordCostMS / 1000, MatchCostS: c.MatchCostUS / 1e6,
		Exact: c.CentralInfo == CentralExact, Collect: c.Collect, Ads: c.Ads, UpdateIntervalS: c.UpdateS,
		NegotiatorS: c.NegotiatorS, GossipRefresh: c.Refresh, GossipK: c.GossipK, SchedSplit: c.SchedSplit, ChurnPerH: c.ChurnPerH, DowntimeS: c.DowntimeS,
		WarmupS: c.WarmupH * 3600, RecordBytes: c.RecordBytes, GanttNodes: c.GanttNodes,
		MemoryBytes: int64(c.MemoryMB) << 20, Seed: gridSeed*1000003 + int64(c.SimSeed)}
}

// GossipKMax is the largest gossip_k: the counters are one byte per table
// entry (k notices for one version take k exchanges touching it, far more
// than the ttl_s / period_s = 30 periods a version lives by default).
const GossipKMax = 254

// rumorConfig is the rumor protocol of c on a grid of seed gridSeed.
func (c Config) rumorConfig(gridSeed int64) RumorConfig {
	return RumorConfig{Mode: c.Mode, Fanout: c.Fanout, K: c.K, MaxRounds: c.MaxRounds,
		RecordBytes: c.RecordBytes, Seed: gridSeed*1000003 + int64(c.SimSeed)}
}

// Umeda2006Config is the umeda2006 preset's generator: the grid and the job
// stream (the protocol knobs are run parameters, Config).
type Umeda2006Config struct {
	Nodes       int     // compute nodes
	Sites       int     // sites of the GridG-like network
	NATFraction float64 // fraction of nodes behind NAT
	Load        float64 // offered load: submitted work per hour / capacity per hour
	JobMinS     float64 // shortest job, s
	JobMaxS     float64 // longest job, s
	DurationH   float64 // simulated time, h
	Arrivals    string  // job arrival process
}

// DefaultUmeda2006Config is the seed's setting (§5.2).
func DefaultUmeda2006Config() Umeda2006Config {
	return Umeda2006Config{
		Nodes:       1000,            // the seed's Table 1 and Fig. 7
		Sites:       20,              // GridG-like network of 20 sites
		NATFraction: 0,               // the seed's Fig. 7 varies it 0–0.9
		Load:        1,               // 100 %: the work per hour equals the capacity
		JobMinS:     1800,            // 30 min, the seed's
		JobMaxS:     3600,            // 60 min, the seed's
		DurationH:   24,              // one simulated day
		Arrivals:    ArrivalsPoisson, // the seed says only «投入間隔に従うジョブ列»
	}
}

// Declare implements solvers.Declarer.
func (c *Umeda2006Config) Declare(ps *solvers.ParamSet) {
	ps.Int(&c.Nodes, "nodes", "nodes", 1, MaxNodes, "Compute nodes. Default 1000: the seed's Table 1 and Fig. 7.")
	ps.Int(&c.Sites, "sites", "sites", 1, MaxNodes, "Sites of the GridG-like network (nodes are spread over them).")
	ps.Float(&c.NATFraction, "nat_fraction", "", 0, 0.99, "Fraction of nodes behind NAT (no inbound connections). Default 0; the seed's Fig. 7 varies it 0–0.9.")
	ps.Float(&c.Load, "load", "", 0, 100, "Offered load: submitted work per hour / capacity per hour. The seed: 0.1, 0.5, 1, 2.")
	ps.Float(&c.JobMinS, "job_min_s", "s", 1, 1e7, "Shortest job (uniform in job_min_s..job_max_s). Default 30 min, the seed's.")
	ps.Float(&c.JobMaxS, "job_max_s", "s", 1, 1e7, "Longest job. Default 60 min, the seed's.")
	ps.Float(&c.DurationH, "duration_h", "h", 0.01, 10000, "Simulated time; jobs arrive throughout.")
	ps.Choice(&c.Arrivals, "arrivals", []string{ArrivalsPoisson, ArrivalsRegular}, "Job arrival process at rate load × nodes / mean job: poisson (default: exponential gaps) or regular (equal gaps). The seed says only \"a stream of jobs following an arrival interval\".")
}

// ReproConfig is the seed experiment's parameters.
type ReproConfig struct {
	DurationH    float64 // simulated hours of each scheduling run
	WarmupH      float64 // warm-up excluded from utilization, h
	Reps         int     // seeds per scheduling setting
	RumorReps    int     // seeds per rumor setting
	MaxNodes     int     // largest node count of Fig. 8
	Fig9Nodes    string  // node counts of Fig. 9, a comma list
	RecordCostMS float64 // central: processing per collected record, ms
	MatchCostUS  float64 // per record scanned per match, µs
	Collect      string  // central: how the collector gets the records
	GossipK      int     // gossip: the exchange's feedback counter (0: off)
	Seed         int     // base seed: run i of a setting uses Seed + i
}

// DefaultReproConfig is the default reproduce: claims.MinSeeds (5) seeds
// per scheduling setting, so every interval rests on five values (issue
// 40: one seed per point made each value its own interval), a few
// minutes on 2 cores; the full setting is DurationH 24. Tests run
// smaller versions (reps 2, short runs).
func DefaultReproConfig() ReproConfig {
	return ReproConfig{
		DurationH:    6,               // near a minute on 2 cores; the seed does not give its duration
		WarmupH:      2,               // as the run's
		Reps:         claims.MinSeeds, // a random claim on at least 5 seeds (fidelity.md)
		RumorReps:    5,               // rumor runs are cheap
		MaxNodes:     3000,            // Fig. 8 up to 3000 nodes
		Fig9Nodes:    "10,100,1000",   // the seed plots several and does not list them
		RecordCostMS: 5,               // as the run's
		MatchCostUS:  50,              // as the run's
		Collect:      CollectPush,     // as the run's
		GossipK:      0,               // as the run's
		Seed:         1,               //
	}
}

// Declare implements solvers.Declarer.
func (c *ReproConfig) Declare(ps *solvers.ParamSet) {
	ps.Float(&c.DurationH, "duration_h", "h", 0.5, 1000, "Simulated hours of each scheduling run (Figs. 8, 9, Table 1). Default 6 h keeps the default reproduce near a minute on 2 cores; the full setting is 24 (the seed does not give its duration).")
	ps.Float(&c.WarmupH, "warmup_h", "h", 0, 1000, "Warm-up excluded from utilization.")
	ps.Int(&c.Reps, "reps", "runs", 1, 100, "Seeds per scheduling setting. Default 5: a random claim is judged on at least 5 seeds; with 1, no row has an interval and those verdicts are inconclusive.")
	ps.Int(&c.RumorReps, "rumor_reps", "runs", 1, 1000, "Seeds per rumor setting (Figs. 6, 7; averaged).")
	ps.Int(&c.MaxNodes, "max_nodes", "nodes", 10, 100000, "Largest node count of Fig. 8 (10, 30, 100, 300, 1000, 3000 up to this).")
	ps.String(&c.Fig9Nodes, "fig9_nodes", "nodes", "Node counts of Fig. 9, a comma list (the seed plots several; it does not list them).").
		WithCheck(func(v string) error { _, err := parseNodeList(v); return err })
	ps.Float(&c.RecordCostMS, "record_cost_ms", "ms", 0, 10000, "central: processing per collected record (see the run parameter).")
	ps.Float(&c.MatchCostUS, "match_cost_us", "µs", 0, 1e6, "Per record scanned per match, both systems (see the run parameter).")
	ps.Choice(&c.Collect, "central_collect", []string{CollectPush, CollectSerial, CollectSnapshot}, "central: how the collector gets the records (see the run parameter). Default push, HTCondor's.")
	ps.Int(&c.GossipK, "gossip_k", "notices", 0, GossipKMax, "gossip: the table exchange's feedback counter (see the run parameter). Default 0, off.")
	ps.Int(&c.Seed, "seed", "", 0, 1<<31-1, "Base seed: run i of a setting uses seed + i.")
}
