// Package gossip is a deterministic discrete-event simulator of the seed
// paper's decentralized job scheduler (Umeda, Nakada, Matsuoka, IPSJ HPC
// 2006, seed 001_a47f93fcc10dd41f.txt): compute nodes share their resource
// records by gossip, scheduling nodes match jobs against the (possibly
// stale) records they hold, and a Condor-like central manager is the
// baseline.
//
// # Units
//
// Time is in seconds (float64), latencies in milliseconds in the workload
// and seconds inside the simulator. Utilization is m/n (m nodes running a
// job out of n, the seed's definition §5.2), time-weighted. Load is the
// offered work per second divided by the capacity n (1.0 = 100 %).
//
// # Workload (native JSON)
//
//	{"grid": {"nodes": 1000, "sites": 20, "nat_fraction": 0, "seed": 1,
//	          "intra_ms": 0.5, "access_ms": [0.2, 2], "inter_ms": [5, 195]},
//	 "duration_s": 86400, "load": 1,
//	 "jobs": [{"submit": 12.5, "run": 2400}, ...],
//	 "trace": {...}}          // only for SWF-driven job streams
//
// The grid is stored as its generator's parameters (nodes, sites, NAT
// fraction, seed and the latency ranges): Build turns it into per-node
// arrays deterministically, so a 10,000-node grid costs a few bytes of JSON
// and no n×n matrix is ever stored. Jobs are single-node (the seed: "any
// node can run any job"), sorted by submit time on reading.
//
// # Latency model (in the spirit of GridG, Lu & Dinda SC 2003)
//
// GridG builds a two-level hierarchy: a WAN of sites and LANs of hosts
// below each site's router. We keep that shape: `sites` sites are placed
// uniformly at random in the unit square; node i belongs to site i for
// i < sites (no empty site) and to a uniformly drawn site otherwise; each
// node has an access latency a_i uniform in access_ms. The one-way latency
// between nodes i and j is
//
//	same site:      a_i + a_j + intra_ms
//	other sites:    a_i + a_j + inter_lo + (inter_hi − inter_lo)·d(s_i, s_j)/√2
//
// with d the Euclidean distance of the sites. Defaults: access 0.2–2 ms,
// intra 0.5 ms, inter 5–195 ms, so the largest latency is ≈ 200 ms, the
// seed's "ノード間遅延が最大 200ms 程度". It is O(1) per pair from per-node
// arrays. NAT: a seeded random round(nat_fraction·n) of the nodes cannot
// accept inbound connections.
//
// # Preset umeda2006 and where each parameter lives
//
// The generator (preset) parameters describe the grid and the job stream:
// nodes, sites, nat_fraction, load, job_min_s, job_max_s, duration_h. Jobs
// arrive as a Poisson stream of rate load·n/mean(job) ("時間当たりの計算量が
// 総処理能力の和に等しくなる": 100 % = the capacity), run times uniform in
// job_min_s..job_max_s (seed: 30–60 min). The protocol knobs are run
// parameters, because the seed varies them on one grid and job stream:
// period_s, fanout, k, ttl_s, schedulers (and mode, costs, churn...). The
// CLI sends a --param to the generator when the preset names it and to the
// run otherwise, so every issue name works on `schedlab run --preset`.
// The run parameter rescale_nodes (default 0 = the workload's) rescales a
// workload to another node count (see SWF below); that is how an SWF trace
// is replayed on a chosen number of nodes. (It was called nodes until the
// typed configs: a run parameter may not share its name with the preset's
// nodes, which the CLI's --param nodes=… always reaches.)
//
// # Parameters
//
// The run parameters are one typed struct, Config, whose defaults
// constructor DefaultConfig carries each default's reason and unit in a
// comment (memberlist's DefaultLANConfig style); Config.Declare binds each
// field to its public name, unit, limits and doc, and names the variants
// that read it (.For: period_s, churn_per_h, downtime_s, warmup_h,
// match_cost_us, gantt_nodes, gantt_lanes and memory_mb are gossip and
// central; ttl_s, schedulers, sched_split and gossip_k gossip; record_cost_ms and central_info
// central; k, mode and max_rounds rumor; fanout gossip and rumor;
// rescale_nodes, record_bytes and sim_seed all). The umeda2006 preset's
// generator is Umeda2006Config (DefaultUmeda2006Config), the seed
// experiment's ReproConfig (DefaultReproConfig). Config.simConfig and
// Config.rumorConfig turn a run's Config into the simulator's SimConfig
// (seconds, bytes, the combined seed) and the rumor's RumorConfig.
// solvers.Def wraps these parts into the solvers.Strategy that New returns.
//
// # Variants
//
// rumor: the seed's §2.3.1 single-message spreading in synchronous rounds
// (the seed's Fig. 6 counts iterations). A node knows every member's
// address but not which members are behind NAT (decision, the seed's
// §5.1.2 setting): each contact goes to a uniformly drawn other node, and
// an attempt to a NAT node is refused (one header counted, no answer, no
// "known"). mode push (the seed's): every active informed node makes
// fanout attempts per round; an uninformed target becomes informed (and a sender from the next round); an
// informed target answers "known" and the sender stops after k such
// answers. mode push-pull: every node opens fanout exchanges per round;
// the rumor is pushed to the target when the initiator is an active
// sender, and pulled by an uninformed initiator whenever the target knows
// it, active or not (decision: the exchange carries the target's whole
// table, as in the seed's §4.5 step 1, so the counter k stops a node from
// pushing, not from answering; this is also how a NAT node is informed
// over a connection it opened, §5.1.2); both active sides count a "known"
// answer when both knew. Within a round contacts are processed in node order and a node
// informed in the round counts as knowing for later contacts of the same
// round, but only sends from the next round. The run ends when every node
// is informed, no active sender is left, or after max_rounds.
// rounds_to_converge is the round in which the last node ever informed got
// the rumor; final_informed the informed fraction at the end. The theory
// curve beside it is the mean-field epidemic with infinite k:
// push x' = x + (1−x)(1−e^{−f x}); push-pull x' = 1 − (1−x)e^{−f x}(1−x)^f,
// x₀ = 1/n (Pittel: push needs log₂ n + ln n rounds; Karp et al.: push-pull
// log₃ n + O(ln ln n)).
//
// gossip: event-driven. Every node has a period tick at a random phase; at
// its tick it refreshes its own record (a new version) and opens fanout
// exchanges with uniformly drawn nodes that accept inbound connections
// (membership, including whether a node accepts inbound connections, is
// carried by the records and the join protocol, so gossip partners are
// drawn among reachable nodes — unlike the bare rumor above; a contact to
// a node that has left fails and is counted). An exchange is push-pull and is
// applied when the opening message arrives (one-way latency later): for
// every origin the newer version wins on both sides (the seed's Fig. 5
// steps 1–3). Each node's table is a version vector: one uint32 per origin
// in one flat n×n array (4n² bytes: 400 MB at 10,000 nodes), the record
// contents (creation time, state free/busy/left) are kept once per origin
// in an append-only history indexed by version. A record is expired when
// its creation time + ttl_s < now: expired versions are dropped at merges
// (checked against a global clock advanced every period) and matching
// checks the exact creation time, so an expired record is never used.
// Leave: a leaving node writes a "left" version of its own record, pushes
// it in one last exchange and goes down; a "left" version is a tombstone
// that wins like any newer version, so it removes the node from every
// table it reaches; the node is never matched from such a table. Join: the
// node writes a fresh "free" version and copies the table of a random
// reachable node of its own site (any reachable node if none). Churn is a
// Poisson process of leave events (run parameter churn_per_h, default 0);
// a job running on a leaving node is returned to its scheduler's queue.
//
// Scheduling (seed §4.3): job i goes to scheduling node i mod schedulers
// (schedulers are distinct reachable nodes that also compute). A scheduler
// keeps a FIFO queue; whenever its table changes, a job arrives or an
// answer comes back, it matches the queue head to a node whose record in
// its table is free, unexpired, not left, reachable, and newer than any
// version it already used for that node (a per-scheduler claimed vector),
// scanning from a random offset (identical nodes: any free node is a best
// match). It sends an allocation request; the node accepts when it is up
// and idle (reserving itself at once and writing a busy version), else
// rejects; on reject the job goes back to the queue head and is re-matched
// (rejects_per_job counts these). A job starts one round trip after the
// accept (the formal submission) and the node writes a free version when
// it ends. Nodes behind NAT cannot be sent a request; a free NAT node
// polls its home scheduler (node index mod schedulers) at each of its
// ticks over a connection it opens, and is handed the queue head on it.
// sched_split=shared (default, §4.3: a scheduler matches against the
// whole table it holds) scans all n records; sched_split=partition
// restricts scheduler k to nodes i with i mod schedulers = k (its NAT
// pollers are the same share) and a match scans and costs n/schedulers
// records: the other reading of §6's «マッチングの負荷が分散された», kept
// as a sensitivity setting (it removes Table 1's rise, see below).
//
// central: a Condor-like manager, a separate machine at a random site,
// modelled on HTCondor's collector and negotiator (issue 18; the seed:
// "Condor をモデルとした", §5.2; matchmaking: Raman, Livny, Solomon,
// "Matchmaking: distributed resource management for high throughput
// computing", HPDC 1998). The collector holds one ad per node. How the
// ads arrive is central_collect:
//
//   - push (default): each node sends its ad at every state change and
//     every update_interval_s (default 300 s). Source: the HTCondor wiki,
//     HowToMakeShortLivedStartdsDisappearFromCollector ("the condor_startd
//     will then send periodic updates to the collector every time the
//     condor_startd state changes … and at periodic intervals … controlled
//     by UPDATE_INTERVAL, which defaults to 300 seconds"). central_ads=
//     periodic drops the on-change ads (the seed's §2.1.1 wording
//     «定期的に送信» alone). The one collector processes ads one at a time,
//     record_cost_ms each (a FIFO queue at one host: the seed's
//     «情報収集の集中», §5.2.1).
//   - serial: the manager fetches every node's record in turn, one round
//     trip + record_cost_ms each, a new sweep every period_s (or at once if
//     a sweep took longer): the seed's «1 ホップで直接資源情報を回収»
//     serialized at one host, so a sweep grows linearly with n.
//   - snapshot: every record taken at once each period_s and processed in
//     n × record_cost_ms (the model before issue 18).
//
// The negotiator runs a cycle every negotiator_interval_s (default 60 s,
// HTCondor's NEGOTIATOR_INTERVAL: HTCondor manual, Configuration Macros,
// condor_negotiator entries, https://htcondor.readthedocs.io/en/lts/
// admin-manual/configuration-macros.html; the condor_reschedule man page
// adds that cycles come at most every 20 s, NEGOTIATOR_CYCLE_DELAY, which
// only matters for cycles started on demand, not modelled). A cycle takes
// the queued jobs in order; each costs one scan of the n ads (match_cost_us
// per ad: the cost grows with jobs × machines), and the cycle ends when the
// queue is empty or a scan finds no ad that says free and was created after
// the last job sent to that node (that scan costs too); the next cycle
// starts an interval after this one started, or at once if this one took
// longer. negotiator_interval_s=0 matches whenever the ads or the queue
// change (the model before issue 18). The same per-match scan cost applies
// to gossip schedulers, as in the seed ("両システムで共通").
// central_info=exact replaces all of this by the true state at every
// instant (an oracle): with zero costs it reaches the ideal min(load, 1).
//
// gossip_refresh: periodic (default; the seed's §4.5 step 0,
// «定期的に自らの状態を収集し、資源情報を更新する», and §6.2: frequent job
// starts and ends leave gossiped records out of date) writes a node's
// state into its record only at its period tick; on-change writes a new
// version at every state change (the model before issue 18).
//
// gossip_k: the table exchange's feedback counter. The seed's §4.5:
// «1 ランダムに選択したノードと情報を交換 … 互いに自らの持つ計算ノード群の
// 各資源情報を交換する。2 受信ノードは自らの保持する情報を更新 … 送られて
// きた情報のうち保持していないものを自らのテーブルに追加する。同じ情報源
// から生成された情報を持っている場合は、タイムスタンプを参照してより鮮度
// の高い情報を採用する。3 既知であった情報を送信元に通知 相手から送られて
// きた情報のうち、既知であったものを送信元に通知する。» Step 3 is the hook
// of §2.3.1's counter: «(2)(a) 既知であったときは、それを送信元に伝える …
// (3) 送信元は、一定回数以上既知の応答を受けるまで繰り返す。回数を超えたら
// 停止する。» With gossip_k = k > 0 every table entry carries a one-byte
// count of the notices it got; an exchange sends, from each side, only the
// entries held, unexpired and with fewer than k notices; the receiver takes
// the newer version (an adopted entry starts at 0 and is spread by its new
// holder, §2.3.1 (2)(b)) and notices the sender of every entry it held in
// that version or a newer one (decision: a newer version makes the sent
// one old news too). Both directions are built from the tables before the
// exchange (push-pull: each side is a sender and a receiver, as step 1's
// «互いに»). A node's own record restarts at 0 at every refresh. A retired
// entry is still held and matched; it just is not sent, so with k = 1 a
// table can miss a record for good (the residue, «全ノードに確実に情報を広報
// することは不可能»). Messages: the two tables (hot entries × record_bytes
// + header each) and, from each side that knew some, a notice (header +
// 4 bytes per entry). gossip_k = 0 (default) is full anti-entropy: every
// held entry in every exchange. Tested by hand on a 4-node exchange
// (model_test.go) and against anti-entropy when no counter can be reached.
// The default stays 0: the seed gives k only for its rumor, the counter
// moves the figures by little (measured below) and costs 4× the CPU
// (BenchmarkGossipCounted1000Nodes24h: 12.4 s against 3.1 s for
// BenchmarkGossip1000Nodes24h), which breaks the speed target.
//
// What the counter changes (`schedlab reproduce gossip` with the defaults
// against `--param gossip_k=1` and `--param gossip_k=3`, same seeds; 6 h,
// 1 seed per setting): Figs. 6 and 7 are rumor runs and come out
// identical. Fig 8 gossip utilization at 10/30/100/300/1000/3000 nodes
// 0.802/0.958/0.943/0.928/0.914/0.901 with full anti-entropy, 0.800/0.951/
// 0.937/0.925/0.910/0.897 with k = 1, 0.802/0.959/0.941/0.928/0.914/0.900
// with k = 3; ratio gossip/central 0.991/0.971/0.954/0.938/0.924/0.910 →
// 0.989/0.964/0.948/0.936/0.920/0.905 (k = 1). Fig 9: ratios at loads
// 10 % and 50 % unchanged, at 100 % and 200 % lower by 0.002–0.006 with
// k = 1. Table 1 (1/2/4/8 schedulers): 0.914/0.923/0.932/0.940 →
// 0.910/0.922/0.931/0.940 (k = 1), 0.914/0.923/0.932/0.940 (k = 3);
// messages per node per period 2.06 → 4.05 (the notices). The counter
// retires few entries: with records refreshed every period each entry is
// replaced by a newer version (and restarts) about once a period, so
// most entries are still being spread when the next version reaches
// them. It makes gossip slightly worse, never closer to the seed.
//
// # Why Fig. 8 comes out inverted (issue 18 measurements)
//
// Each mechanism the issue lists, measured with the committed seed
// experiments sens-* as they are (3 replicates, seeds 1–3; umeda2006,
// 100 % load, 6 h, 2 h warm-up, record_cost_ms 5, match_cost_us 50
// unless varied). Commands (issue 18, second pass): `go run
// ./cmd/schedlab sweep seed:gossip/NAME --out NAME-results.json --workers
// 2` (the same definitions as DIR/NAME.json files then) for NAME = sens-period, sens-ads,
// sens-negotiator, sens-match, sens-collect, sens-length. Numbers are the
// mean utilization over the 3 seeds; a ratio is gossip's mean over
// central's. (The first pass quoted ad-hoc sweeps with 2 seeds and a
// 100 ms cost the definitions do not have; these replace them.)
//
//   - When a state change reaches each scheduler (sens-period,
//     sens-ads). Gossip refresh periodic vs on-change at 10 / 100 / 1000
//     nodes: 0.862/0.928/0.914 vs 0.862/0.930/0.917: the refresh costs
//     gossip ≤ 0.003. Central ads on change vs only every 300 s: central
//     0.867/0.965/0.989 vs 0.849/0.924/0.938; ratio 0.994/0.962/0.924 vs
//     1.015/1.004/0.974 (every 60 s only: central 0.864/0.956/0.978).
//     On-change ads (HTCondor) keep central ahead at every size;
//     periodic-only ads make it lose at 10–100 nodes, the opposite of the
//     seed.
//   - Central per-cycle work (sens-negotiator, central utilization at
//     10/100/1000/3000 nodes): negotiator every 0 (on demand) / 20 / 60 /
//     300 s: 0.871/0.974/0.998/0.999, 0.870/0.971/0.996/0.996, 0.867/
//     0.965/0.989/0.991, 0.854/0.932/0.948/0.955. Matching cost
//     (sens-match, shared): at 100/1000/3000 nodes gossip 0.928/0.914/
//     0.901, central 0.965/0.989/0.991 at 50 µs; at 500 µs both saturate
//     at 3000 nodes (0.600 and 0.600), at 2000 µs both 0.150: it moves
//     both alike, never the ratio's shape.
//   - Collection serialized at one host (sens-collect; ratio at 10 / 30
//     / 100 / 300 / 1000 / 3000 nodes). push, per-ad cost 5 / 50 / 200
//     ms: central 0.989 at 1000 nodes for every cost, at 3000 nodes
//     0.991 / 0.991 / 0.199 (a saturation cliff: ads arrive at about
//     n × (1/300 + 2/2700) per second); ratio 0.994/0.980/0.962/0.941/
//     0.924/0.909 at 5 ms. serial sweep, record cost 5 / 50 / 200 ms:
//     central 0.950/0.962/0.917, 0.950/0.954/0.897, 0.953/0.929/0.831 at
//     100/1000/3000 nodes; the 200 ms serial sweep gives ratios 1.002 /
//     0.992 / 0.974 / 0.957 / 0.984 / 1.084: gossip ahead at 3000 nodes
//     and close at 1000, but central only 3–4 % ahead at 100–300 and
//     not at all at 10–30. snapshot, 200 ms: 1.002/0.993/0.979/0.990/
//     1.036/1.244 (central collapses past 1000 nodes). No setting gives
//     the seed's "central clearly ahead at 10–100": at 10 nodes no
//     setting separates the two (ratio 0.987–1.015 in every sweep): with
//     Poisson arrivals the queue is often empty and both wait for jobs.
//   - Throughput vs utilization: the seed plots «スループット» while it
//     defines 稼働率 = m/n. Jobs finished per hour after warm-up give ratios
//     within 0.011 of the utilization ratio from 100 nodes on (reproduce's
//     Fig 8 table, defaults: 0.965 vs 0.954 at 100, 0.924 vs 0.924 at
//     1000, 0.910 vs 0.910 at 3000).
//   - Run length and arrivals (sens-length): 6 h vs 24 h and Poisson vs
//     regular: ratio 0.953–0.962 at 100 nodes and 0.924 at 1000 nodes in
//     all four; at 10 nodes 0.987–0.994.
//
// The model changes kept (each with its test in model_test.go): central
// ads on change + every UPDATE_INTERVAL into one serial collector queue,
// negotiation cycles every NEGOTIATOR_INTERVAL, gossip records refreshed
// at the tick. With these documented defaults the seed's Fig. 8 does not
// hold: central's one-hop collection stays fresh at any size, while
// gossip's spreading delay grows like log n. The defaults are HTCondor's
// and the seed's, not chosen to hit the figure; central_collect=serial
// with a large per-record cost is the reading that reproduces the
// crossover, and it is a sensitivity setting, not the default.
//
// # Why Table 1 comes out low (issue 18 measurements)
//
// Ours (reproduce defaults, 6 h, seed 1) 0.914 / 0.923 / 0.932 / 0.940 at
// 1 / 2 / 4 / 8 schedulers against the seed's 0.939 / 0.941 / 0.967 /
// 0.970: the rise (+0.026) is close to the seed's (+0.031), the level is
// 0.018–0.035 low. Each plausible cause, measured with the seed
// experiments sens-table1 and sens-table1-run (1000 nodes, gossip; each
// run with `go run ./cmd/schedlab sweep seed:gossip/NAME --workers 2`;
// both as committed, 3
// seeds; utilization at 1 / 2 / 4 / 8 schedulers unless said):
//
//   - The exchange's feedback counter (gossip_k, 6 h, match 50 µs):
//     0.914/0.923/0.932/0.940 without, 0.910/0.922/0.931/0.940 with k = 1.
//     It lowers, never raises.
//   - How the schedulers split the grid (sched_split): shared (each
//     scheduler matches over its own table of the whole grid, the seed's
//     §4.3) gives the rise; partition (scheduler k matches only nodes
//     i mod S = k, a match scans n/S records) is flat: 0.914/0.914/0.914/
//     0.915. The rise comes from several tables, each a different sample
//     of the gossip («情報の取得を複数地点から行った», §6), not from
//     dividing the matching work: with shared schedulers rejects_per_job
//     grows 0 / 0.82 / 2.41 / 5.53 and utilization still rises.
//   - The matching cost (match_cost_us 0 / 50 / 500, shared, k = 0):
//     0.915/0.923/0.932/0.941, 0.914/0.923/0.932/0.940, 0.913/0.922/
//     0.930/0.939: ≤ 0.002 at 1000 nodes (a match of 1000 records at
//     500 µs takes 0.5 s against jobs of 30–60 min).
//   - The load definition (offered work / capacity, workload load 0.9 / 1
//     / 1.1; 1 and 8 schedulers; 6 h Poisson): 0.904/0.906, 0.914/0.940,
//     0.914/0.940. From 100 % on the utilization is capped by the
//     information, not by the job stream, so a different reading of
//     «処理能力の総和に対する計算量が 100 %» above 1 changes nothing; below
//     1 it lowers the value.
//   - Warm-up (warmup_h 1 / 2 / 3; load 1, 6 h, Poisson): 0.914/0.914/
//     0.914 (1 scheduler), 0.940/0.940/0.940 (8).
//   - Run length and arrivals (duration_h 6 / 24, poisson / regular;
//     load 1, warm-up 2 h): 1 scheduler 0.914 in all four (6 h or
//     24 h, Poisson or regular), 8 schedulers 0.940 in all four.
//   - The gossip period (sens-period as committed, 3 seeds, 1000 nodes,
//     1 scheduler = Table 1's first column, refresh periodic): 0.977 /
//     0.955 / 0.914 / 0.842 at 15 / 30 / 60 / 120 s; on-change refresh
//     0.978 / 0.957 / 0.917 / 0.846. The only knob found that moves Table 1's level; the seed
//     fixes it at 60 s («1 分に 1 回», §5.2), and 0.939 would need a
//     period between 30 and 60 s.
//
// None of the seed's fixed settings closes the gap; what is left is how
// fast a freed node's record reaches a scheduler's table (60 s ticks,
// log n hops), which the seed does not describe further. We report the
// difference and keep the seed's period.
//
// # Simulator structure
//
// The kernel (package des) is model-free: a clock and one queue ordered
// by (time, sequence of scheduling), Step and Run; events at one time run
// in the order they were scheduled, which with one seeded random source
// drawn in event order makes a run reproducible. The model registers one
// handler for its typed events (events.go: a kind and named fields — node,
// peer, scheduler, job, epoch — never generic slots). The shared model
// (sim.go, events.go: nodes, jobs, the schedulers' queues, matching,
// churn, accounting) reaches what differs between the two systems through
// two small interfaces declared in view.go: view (what a scheduler asks
// when it matches: latency, a candidate node, and what it learns from its
// sends and the answers) and protocol (how the information spreads:
// ticks, state changes, leave and join, the per-period sample, its own
// events). gossipInfo (gossipinfo.go: version tables and exchanges) and
// centralInfo (central.go: the manager's collections or the oracle)
// implement both. The central collection in progress keeps its start time
// in the model (one collection at a time), and the clock's round is
// counted by the model, so no event carries a float.
//
// # Metrics
//
// utilization is the mean of m/n over [warm-up, end) (warm-up = min(
// warmup_h, duration/2)); wait_mean and wait_p95 over jobs started (start −
// submit, s); rejects_per_job = rejects / jobs submitted;
// messages_per_node_per_period and bytes_per_node_per_period count every
// message (exchange: the table of each side, record_bytes per record held
// plus a 64-byte header; requests, answers, polls: 64 bytes; central: one
// record per node per cycle); rounds_to_converge and final_informed are the
// rumor's, for gossip the first period at which tables hold on average 99 %
// of the live nodes' records and the final mean coverage (central: 1 and 1);
// staleness_mean_s is the mean age of the records used for matching;
// wall_ms the simulator's own time.
//
// The rumor and the simulation share four names (rounds_to_converge,
// final_informed, messages_per_node_per_period, bytes_per_node_per_period)
// for different things: one message spread in rounds, against the tables
// or the manager's collections per period. Each report declares the
// variants its metric is meaningful for (solvers.Metric.Variants: rumor;
// gossip and central), so a compare never ranks one against the other.
// central's rounds_to_converge and final_informed (1 and 1 by construction)
// are declared gossip's alone and shown "n/a" for central; its messages,
// bytes and staleness are its collections' and are compared with gossip's.
//
// # SWF job streams
//
// An upload in field "swf" (.swf or .swf.gz) is read by formats.ReadSWF.
// Jobs with a run time ≤ 0 or a missing submit time are skipped (counted in
// a note). Each trace job becomes one single-node job with the trace's run
// time (parallel jobs are not split: the seed's jobs are sequential). The
// stream is scaled to the node count n, default min(the header's MaxProcs,
// 10,000), so that the offered load equals the trace's own:
// ρ = Σ run·alloc / (P · span) with P the machine's processors; the submit
// times are multiplied by c = Σ run / (n · ρ · span), keeping their order and
// relative gaps. A run with another rescale_nodes multiplies the submit times by
// n_workload / n_run, which keeps the offered load too.
//
// # Reproduce
//
// `schedlab reproduce gossip` runs the seed's §5 on umeda2006 grids (20
// sites, seeds seed+i). Its first table, Claims (fidelity.md), has one row
// per claim of Figs. 6–9, per printed value of Table 1 and per conclusion
// of §7.1, each judged by a rule of solvers/claims on the per-seed values
// of the runs (claims.go; the rules and their statistics are described
// there): Figs. 8 and 9 as directions of central against gossip paired by
// seed (the same workload and grid), "far inferior" with a margin of ours
// (0.03 of utilization), the trends over every point, parity at ≥ 1000
// nodes as the band 0.99 (ours) – 1.10 (the seed's) on the per-seed ratio,
// Table 1 as levels at the seed's printed precision (3 decimals), §7.1 as
// combinations of the Fig 8 rows, and Fig 6 as unverifiable (the seed
// prints no value), ours beside Demers et al.'s k = 1 residue
// (RumorResidue). With the default reps 1 the scheduling rows measure no
// spread (each interval is the value itself); reps 5 gives real
// intervals. Fig 6 (push rumor, fanout 1, k 1, n = 100, 1000, 10000,
// with the k = ∞ theory curves dashed), Fig 7 (n = 1000, NAT 0–90 %,
// push-pull exchange and pure push: rounds to converge and final
// informed, both judged in Claims), Fig 8 (utilization of gossip and
// central at 10 … 3000 nodes, 100 % load, and the ratio on its own plot
// "Fig 8 ratio" with the seed's claims as shaded regions; jobs finished per hour
// beside), Fig 9 (the ratio by node count, one line per load 10/50/100/
// 200 %, and "Fig 9 utilization"), Table 1 (1/2/4/8 schedulers at 1000 nodes, 100 % load,
// beside the seed's 0.939/0.941/0.967/0.970) and "Seed setting" (the other
// numbers of §5). The seed prints no values for Figs. 6–9, so their tables
// quote its claims (paper_claim) and Claims judges them. The same figures,
// and sensitivity sweeps over the unknowns (sens-collect, sens-ads,
// sens-negotiator, sens-period, sens-match, sens-length; for Table 1
// sens-table1 and sens-table1-run), are seed
// experiments (seedexp.go) a user can open and re-run. Runs go through solvers.ForEach (deterministic at any
// parallelism). Defaults (6 simulated hours, one seed per scheduling
// setting, five per rumor setting) take about 10 s on 2 cores; the full
// setting is duration_h=24 reps=5 (a few minutes), max_nodes up to 10000.
//
// # Deviations and decisions the seed leaves open
//
//   - Arrivals are Poisson (the seed says only "投入間隔に従うジョブ列").
//   - The exchange is applied at once on both sides after one one-way
//     latency rather than two message legs.
//   - NAT nodes get jobs by polling (the seed uses NAT only for Fig. 7).
//   - Rumor (Figs. 6, 7): senders draw among all nodes and do not know who
//     is behind NAT (refused attempts are counted); in push-pull a node
//     that stopped pushing still answers pulls. With these two readings of
//     §4.5/§5.1.2 the rounds rise with the NAT fraction and the final
//     fraction does not drop at all; the alternative (stopped nodes
//     silent, NAT known) made the rounds fall and the final drop to 0.36
//     at 90 % NAT, against the seed's text. Judged in Claims (rounds
//     rise, the final falls, the drop stays within 0.20 of NAT 0, ours;
//     5 seeds per NAT fraction) with `go run ./cmd/schedlab reproduce
//     gossip`: push-pull 9.8 → 87.8 rounds (8 of 9 steps significant),
//     final 1.000 at every fraction (no drop at all); push (as Fig 6)
//     17.8 → 116.0 rounds (5 of 9 steps), final 0.799 → 0.080 (falls at
//     every step, far beyond "a little"). Neither reading gives "drops a
//     little".
//   - Fig 8: with the documented defaults central stays ahead up to
//     3000 nodes (see "Why Fig. 8 comes out inverted"). We keep the
//     defaults rather than tune them.
//   - Arrivals are Poisson by default; the preset's arrivals=regular gives
//     equal gaps («投入間隔に従うジョブ列» admits both).
//   - The table exchange's feedback counter of §4.5 step 3 is gossip_k,
//     off by default (full anti-entropy; see gossip_k above for why).
//   - The generator clamps sites to nodes (so experiments can sweep nodes
//     from 10 with the default 20 sites).
//   - The matching and collection costs are parameters (defaults
//     record_cost_ms 5, match_cost_us 50) instead of the seed's measured
//     Java matchmaking times, which it does not print.
//   - Jobs still running at the end are cut there; utilization counts them
//     while they run.
//   - The Gantt shows nodes 0..gantt_nodes-1 (default 50): ids are spread
//     over random sites, so that is a uniform sample. For large grids the
//     user chooses the lanes with gantt_lanes: a list of ids and ranges
//     ("0-19,500,9990-9999", at most 1000 lanes) or "random" (gantt_nodes
//     nodes drawn with the run's seed).
//
// # Memory budget
//
// A run's tables and records (4·n² bytes of version tables for gossip,
// schedulers × n, the history and the jobs: estimateBytes, in saturating
// arithmetic) are checked before sim.init against the lower of memory_mb and
// the server's budget (solvers.ReserveWithin on "nodes"); memory_mb is a
// budget knob, refused at submit above --memory-mb (a rescaled run's
// budget error names rescale_nodes). A rescale (rescale_nodes) reserves
// its job list, Generate its expected job stream (load · nodes ·
// duration / mean job, on "duration_h"), Reproduce its largest scheduling
// run once per core that may run one at the same time (on "fig9_nodes" or
// "max_nodes"), and an SWF upload is read streaming with at most MaxJobs
// records (formats.ReadSWFLimited). gantt_lanes and fig9_nodes are checked
// by their parsers at Resolve.
package gossip
