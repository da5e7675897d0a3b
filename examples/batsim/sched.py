#!/usr/bin/env python3
"""FCFS and EASY backfilling as a Batsim decision process.

schedlab (or Batsim) connects to ENDPOINT as the ZeroMQ REQ side and sends
messages {"now", "events"}; this process answers each with its decisions.
Needs only Debian's python3-zmq:

    python3 sched.py --policy easy tcp://127.0.0.1:28000

The rules are those of schedlab's built-in fcfs and easy policies (package
solvers/batch), so the schedules are the same job by job:

- the queue is in submission order (the order of the JOB_SUBMITTED events);
- a job holds its processors until it completes; the scheduler plans with
  its walltime (requested time), never its real runtime;
- fcfs starts the queue head while it fits, and nothing overtakes it;
- easy then gives the head a reservation at its shadow time (the earliest
  time it fits, judged by the walltimes of the running jobs) and starts a
  later job now if it fits now and does not delay the head: it ends by the
  shadow time (by its walltime) or uses only the processors the head leaves
  spare at the shadow time;
- a started job gets the lowest free processor ids.
"""

import argparse
import heapq
import json
import sys
from collections import deque

import zmq


class Scheduler:
    def __init__(self, policy):
        self.policy = policy
        self.p = 0
        self.free = []          # heap of free processor ids
        self.queue = deque()    # waiting jobs: (id, res, walltime)
        self.running = {}       # id -> (estimated end, res, procs)

    def begin(self, data):
        self.p = data["nb_compute_resources"]
        self.free = list(range(self.p))  # sorted: a valid heap

    def start(self, now, job, out):
        jid, res, wall = job
        procs = [heapq.heappop(self.free) for _ in range(res)]
        self.running[jid] = (now + wall, res, procs)
        out.append({"timestamp": now, "type": "EXECUTE_JOB",
                    "data": {"job_id": jid, "alloc": intervals(procs)}})

    def complete(self, jid):
        _, _, procs = self.running.pop(jid)
        for c in procs:
            heapq.heappush(self.free, c)

    def schedule(self, now, out):
        q = self.queue
        while q and len(self.free) >= q[0][1]:
            self.start(now, q.popleft(), out)
        if self.policy == "fcfs" or not q:
            return
        # EASY: the head's shadow time and the processors it leaves spare.
        head = q[0]
        ends = sorted((end, res) for end, res, _ in self.running.values())
        avail = len(self.free)
        shadow = None
        for end, res in ends:
            avail += res
            if avail >= head[1]:
                shadow = end
                break
        # Free at the shadow time: the jobs still running then (estimated end
        # after it) hold their processors; the head takes its own.
        extra = self.p - sum(res for end, res, _ in self.running.values() if end > shadow) - head[1]
        kept = deque([head])
        for job in list(q)[1:]:
            jid, res, wall = job
            if len(self.free) >= res:
                if now + wall <= shadow:
                    self.start(now, job, out)
                    continue
                if extra >= res:
                    extra -= res
                    self.start(now, job, out)
                    continue
            kept.append(job)
        self.queue = kept

    def handle(self, msg):
        now = msg["now"]
        out = []
        ends = False
        for ev in msg["events"]:
            typ, data = ev["type"], ev.get("data", {})
            if typ == "SIMULATION_BEGINS":
                self.begin(data)
            elif typ == "JOB_SUBMITTED":
                job = data["job"]
                self.queue.append((data["job_id"], job["res"], job["walltime"]))
            elif typ == "JOB_COMPLETED":
                self.complete(data["job_id"])
            elif typ == "SIMULATION_ENDS":
                ends = True
            elif typ in ("NOTIFY", "REQUESTED_CALL"):
                pass
            else:
                raise ValueError("unexpected event " + typ)
        if not ends:
            self.schedule(now, out)
        return {"now": now, "events": out}, ends


def intervals(ids):
    """Ascending ids as Batsim's interval set: [0,1,2,3,7] -> "0-3 7"."""
    parts = []
    i = 0
    while i < len(ids):
        k = i
        while k + 1 < len(ids) and ids[k + 1] == ids[k] + 1:
            k += 1
        parts.append(str(ids[i]) if k == i else "%d-%d" % (ids[i], ids[k]))
        i = k + 1
    return " ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--policy", choices=["fcfs", "easy"], default="easy")
    ap.add_argument("endpoint", nargs="?", default="tcp://*:28000",
                    help="where to listen (default tcp://*:28000, as Batsim)")
    args = ap.parse_args()
    sock = zmq.Context().socket(zmq.REP)
    sock.bind(args.endpoint)
    sched = Scheduler(args.policy)
    while True:
        reply, ends = sched.handle(json.loads(sock.recv()))
        sock.send(json.dumps(reply).encode())
        if ends:
            break
    sock.close(linger=1000)


if __name__ == "__main__":
    sys.exit(main())
