#!/usr/bin/env python3
"""Small Batsim decision processes that exercise the protocol (tests only).

    python3 protocol.py MODE tcp://127.0.0.1:PORT

Every mode is FCFS (the queue head while it fits, lowest free ids) plus:

think    takes THINK=2 s of simulated time per message that brings events
         (pybatsim's consume_time): its decisions are timestamped and its
         reply's now is the message's now + 2.
requeue  dynamic jobs on (acknowledged): at t=0 asks to be called at 3; at
         the call kills the first running job and, on its JOB_KILLED,
         registers it again as ID#1 with the same profile (pybatsim's
         resubmit_job naming) and metadata "requeued from ID"; after
         no_more_static_job_to_submit and no requeue pending, NOTIFY
         registration_finished. Also registers a delay profile "d7" and a
         job "dyn!x" of it (7 s, 1 resource) at t=0.
energy   power model on: at t=0 puts the hosts FCFS does not use to sleep;
         wakes them when the queue head needs them; after the second
         completion QUERYs consumed_energy, and writes the answer into the
         metadata of the next job it starts.
Needs only python3-zmq.
"""

import json
import sys

import zmq

THINK = 2.0


def intervals(ids):
    return " ".join(str(c) for c in sorted(ids))


def parse(s):
    out = []
    for part in s.split():
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


class Sched:
    def __init__(self, mode):
        self.mode = mode
        self.free = []
        self.queue = []
        self.running = {}
        self.jobs = {}
        self.asleep = set()
        self.waking = set()
        self.no_more = False
        self.requeues = 0
        self.done = 0
        self.energy = None
        self.reg_finished = False

    def on(self, now, ev, out):
        t, d = ev["type"], ev.get("data", {})
        if t == "SIMULATION_BEGINS":
            self.free = list(range(d["nb_compute_resources"]))
            if self.mode == "requeue":
                assert d["config"]["dynamic-jobs-enabled"] and d["config"]["dynamic-jobs-acknowledged"]
                out.append(("CALL_ME_LATER", {"timestamp": 3}))
                out.append(("REGISTER_PROFILE", {"workload_name": "dyn", "profile_name": "d7",
                                                 "profile": {"type": "delay", "delay": 7}}))
                out.append(("REGISTER_JOB", {"job_id": "dyn!x", "job": {"id": "dyn!x", "res": 1,
                                                                        "walltime": -1, "profile": "d7"}}))
        elif t == "JOB_SUBMITTED":
            j = d["job"]
            self.jobs[d["job_id"]] = j
            self.queue.append(d["job_id"])
        elif t == "JOB_COMPLETED":
            procs = self.running.pop(d["job_id"])
            self.free.extend(procs)
            self.done += 1
            if self.mode == "energy" and self.done == 2:
                out.append(("QUERY", {"requests": {"consumed_energy": {}}}))
        elif t == "JOB_KILLED":
            for jid in d["job_ids"]:
                if jid in d["job_progress"]:
                    j = self.jobs[jid]
                    new = jid + "#1"
                    out.append(("REGISTER_JOB", {"job_id": new, "job": {"id": new, "res": j["res"],
                                                                         "walltime": j["walltime"], "profile": j["profile"]}}))
                    out.append(("SET_JOB_METADATA", {"job_id": new, "metadata": "requeued from " + jid}))
                    self.requeues -= 1
        elif t == "REQUESTED_CALL":
            if self.mode == "requeue" and self.running:
                victim = sorted(self.running)[0]
                self.requeues += 1
                out.append(("KILL_JOB", {"job_ids": [victim]}))
        elif t == "RESOURCE_STATE_CHANGED":
            for c in parse(d["resources"]):
                if d["state"] == "0":
                    self.waking.discard(c)
                    self.free.append(c)
        elif t == "ANSWER":
            self.energy = d["consumed_energy"]
        elif t == "NOTIFY":
            if d["type"] == "no_more_static_job_to_submit":
                self.no_more = True
        elif t == "SIMULATION_ENDS":
            pass
        else:
            raise SystemExit("unexpected event " + t)

    def schedule(self, now, out):
        self.free.sort()
        while self.queue:
            jid = self.queue[0]
            res = self.jobs[jid]["res"]
            if len(self.free) < res:
                if self.mode == "energy" and len(self.free) + len(self.asleep) >= res and self.asleep:
                    out.append(("SET_RESOURCE_STATE", {"resources": intervals(self.asleep), "state": "0"}))
                    self.waking |= self.asleep
                    self.asleep = set()
                break
            self.queue.pop(0)
            procs, self.free = self.free[:res], self.free[res:]
            self.running[jid] = procs
            out.append(("EXECUTE_JOB", {"job_id": jid, "alloc": intervals(procs)}))
            if self.mode == "energy" and self.energy is not None:
                out.append(("SET_JOB_METADATA", {"job_id": jid, "metadata": "energy %g" % self.energy}))
                self.energy = None
        if self.mode == "energy" and now == 0 and self.running and not self.asleep and not self.waking:
            idle = [c for c in self.free]
            if idle:
                out.append(("SET_RESOURCE_STATE", {"resources": intervals(idle), "state": "1"}))
                self.asleep = set(idle)
                self.free = []
        if self.mode == "requeue" and self.no_more and self.requeues == 0 and not self.reg_finished:
            out.append(("NOTIFY", {"type": "registration_finished"}))
            self.reg_finished = True


def main():
    mode, endpoint = sys.argv[1], sys.argv[2]
    sock = zmq.Context().socket(zmq.REP)
    sock.bind(endpoint)
    s = Sched(mode)
    while True:
        msg = json.loads(sock.recv())
        now = msg["now"]
        out = []
        ends = False
        for ev in msg["events"]:
            s.on(now, ev, out)
            ends = ends or ev["type"] == "SIMULATION_ENDS"
        if not ends:
            s.schedule(now, out)
        t = now
        if mode == "think" and msg["events"] and not ends:
            t = now + THINK
        sock.send_string(json.dumps({"now": t, "events": [
            {"timestamp": t, "type": typ, "data": data} for typ, data in out]}))
        if ends:
            return


if __name__ == "__main__":
    main()
