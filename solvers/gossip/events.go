package gossip

// evKind says what an event is; an event's fields are named for what they
// hold, and each kind uses the ones its comment lists.
type evKind uint8

const (
	evArrive    evKind = iota // job arrives at its scheduler
	evTick                    // node's period: refresh (gossip) or poll (NAT)
	evExchange                // gossip: node's exchange with peer arrives
	evRequest                 // scheduler sched's request for job arrives at node
	evHand                    // scheduler sched hands job to node on its poll
	evAccept                  // node's accept arrives at scheduler sched
	evReject                  // node's reject of job arrives at scheduler sched
	evStart                   // job starts on node (void if node's epoch changed)
	evFinish                  // job ends on node (void if node's epoch changed)
	evWake                    // scheduler sched is done with its last match
	evCycle                   // central: a collection period starts
	evReady                   // central: the collection in progress is processed
	evClock                   // expiry and series, once per period
	evLeave                   // churn: some node leaves
	evJoin                    // node comes back
	evPoll                    // NAT node's poll arrives at scheduler sched
	evAdTick                  // central push: node's periodic ad leaves
	evAdArrive                // central push: node's ad (state) reaches the collector
	evCollect                 // central: the collector is done with its current ad (push) or fetch (serial)
	evNegotiate               // central: a negotiation cycle starts or takes its next job
)

// event is one scheduled happening of the model.
type event struct {
	kind  evKind
	node  int32 // the node concerned
	peer  int32 // evExchange: the node contacted
	sched int32 // the scheduler concerned
	job   int32 // the job concerned
	epoch int32 // evStart, evFinish: the node's epoch when scheduled
	state uint8 // evAdArrive: the node's state the ad carries
}

func (s *sim) handle(e event) {
	switch e.kind {
	case evArrive:
		s.arrive(int(e.job))
	case evTick:
		s.tick(int(e.node))
	case evRequest, evHand:
		s.request(int(e.sched), int(e.node), int(e.job), e.kind == evHand)
	case evAccept:
		// records the node wrote before it reserved itself are stale
		s.view.answered(int(e.sched), int(e.node))
	case evReject:
		k := int(e.sched)
		s.view.answered(k, int(e.node))
		s.acct.rejects++
		s.pushFront(k, int(e.job))
		s.tryMatch(k)
	case evStart:
		s.start(int(e.node), int(e.job), e.epoch)
	case evFinish:
		s.finish(int(e.node), int(e.job), e.epoch)
	case evWake:
		k := int(e.sched)
		s.wake[k] = false
		s.tryMatch(k)
	case evClock:
		s.at(s.now()+s.cfg.PeriodS, event{kind: evClock})
		s.info.sample()
	case evLeave:
		s.churnLeave()
	case evJoin:
		s.join(int(e.node))
	case evPoll:
		s.poll(int(e.node), int(e.sched))
	default:
		s.info.handle(e)
	}
}

// arrive queues job j at its scheduler (round-robin) and schedules the
// next arrival.
func (s *sim) arrive(j int) {
	k := j % s.S
	s.queue[k] = append(s.queue[k], int32(j))
	if s.jobs.next < len(s.in.Jobs) {
		s.at(s.in.Jobs[s.jobs.next].Submit, event{kind: evArrive, job: int32(s.jobs.next)})
		s.jobs.next++
	}
	s.tryMatch(k)
}

// tick is node i's period: a free NAT node polls its home scheduler, and
// the protocol refreshes the node's record.
func (s *sim) tick(i int) {
	s.at(s.now()+s.cfg.PeriodS, event{kind: evTick, node: int32(i)})
	if !s.up[i] {
		return
	}
	if s.nt.nat[i] && !s.busy[i] {
		k := s.homeSched(i)
		s.count(1, headerBytes)
		s.logf(LogEntry{Kind: "contact", From: i, To: int(s.schedNode[k]), Job: -1})
		s.at(s.now()+s.view.latency(k, i), event{kind: evPoll, node: int32(i), sched: int32(k)})
	}
	s.info.tick(i)
}

// poll is NAT node i's poll at scheduler k: it is handed the queue head.
func (s *sim) poll(i, k int) {
	if len(s.queue[k]) > s.qh[k] && s.up[i] && !s.busy[i] {
		j := s.popFront(k)
		s.acct.matches++
		s.view.sent(k, i)
		s.count(1, headerBytes)
		s.at(s.now()+s.view.latency(k, i), event{kind: evHand, node: int32(i), sched: int32(k), job: int32(j)})
	}
}

// tryMatch matches scheduler k's queue head to a node it believes free,
// until the queue is empty, no node is left or the scheduler is busy.
// The seed's §4.3: job i goes to scheduler i mod schedulers, FIFO; a match
// takes a free, unexpired record newer than any used, from a random
// offset; the node accepts if idle, else the job is re-matched; it starts
// one round trip after the accept; NAT nodes poll their scheduler.
// sched_split=shared (default: §4.3) or partition (the other reading of
// §6's «マッチングの負荷が分散された», a sensitivity setting).
func (s *sim) tryMatch(k int) {
	for len(s.queue[k]) > s.qh[k] {
		now := s.now()
		if now < s.busyUntil[k] {
			if !s.wake[k] {
				s.wake[k] = true
				s.at(s.busyUntil[k], event{kind: evWake, sched: int32(k)})
			}
			return
		}
		c := s.view.candidate(k, s.rng.Intn(s.n))
		if c.node < 0 {
			return
		}
		s.dispatch(k, c)
	}
}

// scanned is the records one match scans: the n records, or a
// scheduler's share of them with sched_split=partition.
func (s *sim) scanned() int {
	if _, gossip := s.info.(*gossipInfo); gossip && s.cfg.SchedSplit == SplitPartition {
		return (s.n + s.S - 1) / s.S
	}
	return s.n
}

// dispatch matches scheduler k's queue head to candidate c: the match
// costs one scan of the n records (match_cost per record), after which
// the allocation request leaves.
func (s *sim) dispatch(k int, c candidate) {
	now := s.now()
	o := c.node
	j := s.popFront(k)
	send := now + s.cfg.MatchCostS*float64(s.scanned())
	s.busyUntil[k] = send
	s.view.sent(k, o)
	s.pend[o] = true
	s.acct.matches++
	s.acct.staleSum += now - c.recT
	s.logf(LogEntry{Kind: "match", From: int(s.schedNode[k]), To: o, Job: j, Ver: c.ver, RecT: c.recT})
	s.logf(LogEntry{Kind: "contact", From: int(s.schedNode[k]), To: o, Job: j})
	s.count(1, headerBytes)
	s.at(send+s.view.latency(k, o), event{kind: evRequest, node: int32(o), sched: int32(k), job: int32(j)})
}

// request is an allocation request (or a job handed on a poll) at node i.
func (s *sim) request(k, i, j int, hand bool) {
	now := s.now()
	s.pend[i] = false
	l := s.view.latency(k, i)
	if !s.up[i] || s.busy[i] {
		s.count(1, headerBytes)
		s.at(now+l, event{kind: evReject, node: int32(i), sched: int32(k), job: int32(j)})
		return
	}
	s.busy[i] = true
	s.info.changed(i, stBusy)
	s.jobs.node[j], s.jobs.res[j] = int32(i), now
	start := now + 2*l // accept back, job sent
	if hand {
		start = now
	} else {
		s.count(2, 2*headerBytes)
		s.at(now+l, event{kind: evAccept, node: int32(i), sched: int32(k), job: int32(j)})
	}
	s.at(start, event{kind: evStart, node: int32(i), job: int32(j), epoch: s.epoch[i]})
}

// start runs job j on node i, unless i left since (epoch).
func (s *sim) start(i, j int, epoch int32) {
	if epoch != s.epoch[i] {
		return
	}
	s.account()
	s.acct.running++
	s.jobs.start[j] = s.now()
	s.logf(LogEntry{Kind: "start", From: -1, To: i, Job: j})
	s.at(s.now()+s.in.Jobs[j].Run, event{kind: evFinish, node: int32(i), job: int32(j), epoch: s.epoch[i]})
}

// finish ends job j on node i, unless i left since (epoch).
func (s *sim) finish(i, j int, epoch int32) {
	if epoch != s.epoch[i] {
		return
	}
	s.account()
	s.acct.running--
	s.busy[i] = false
	s.jobs.end[j] = s.now()
	s.logf(LogEntry{Kind: "finish", From: -1, To: i, Job: j})
	s.info.changed(i, stFree)
}

// churnLeave draws a leaving node (never a scheduler) and the next leave.
func (s *sim) churnLeave() {
	s.at(s.now()+s.rng.ExpFloat64()/(s.cfg.ChurnPerH*float64(s.n)/3600), event{kind: evLeave})
	i := s.rng.Intn(s.n)
	if !s.up[i] || s.isSched(i) {
		return
	}
	s.Leave(i)
}

// Leave takes node i out: its job back to its scheduler, its lives epoch
// over, the protocol told (gossip: a left version and one last push).
func (s *sim) Leave(i int) {
	s.acct.leaves++
	s.logf(LogEntry{Kind: "leave", From: i, To: i, Job: -1})
	if s.busy[i] {
		s.abortJobsOn(i)
		s.busy[i] = false
	}
	s.epoch[i]++
	s.up[i] = false
	s.info.left(i)
	s.at(s.now()+s.cfg.DowntimeS, event{kind: evJoin, node: int32(i)})
}

// abortJobsOn returns the jobs reserved on or running on node i to their
// schedulers' queue heads.
func (s *sim) abortJobsOn(i int) {
	jb := &s.jobs
	for j := range jb.node {
		if int(jb.node[j]) == i && jb.end[j] == 0 && jb.res[j] >= 0 {
			s.account()
			if jb.start[j] >= 0 {
				s.acct.running--
			}
			s.logf(LogEntry{Kind: "abort", From: i, To: i, Job: j})
			jb.node[j], jb.start[j], jb.res[j] = -1, -1, -1
			s.pushFront(j%s.S, j)
			s.at(s.now(), event{kind: evWake, sched: int32(j % s.S)})
			s.wake[j%s.S] = true
		}
	}
}

func (s *sim) join(i int) {
	s.up[i] = true
	s.logf(LogEntry{Kind: "join", From: i, To: i, Job: -1})
	s.info.joined(i)
}
