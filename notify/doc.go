// Package notify tells the outside world that an experiment has ended: a
// long sweep on a cluster should not need a browser tab watched for hours.
//
// An experiment ends when none of its runs is queued, running or
// interrupted (an interrupted run is queued again at the next start, so a
// shutdown never ends an experiment). Watcher looks for such experiments
// every Interval (2 s) and within 50 ms of a Kick (the server kicks it
// each time it has stored a group of runs' ends, so a sweep is marked
// done at once), marks each done in the store
// (store.MarkExperimentEnded: one statement, so of several servers over
// one database exactly one announces it) and POSTs to its URL, the
// definition's notify_url or else the server's default (schedlab serve
// --notify-url), the JSON Body:
//
//	{"id": "…", "name": "…", "strategy": "eapm", "status": "done",
//	 "runs_done": 12, "runs_failed": 0, "runs_total": 12,
//	 "url": "http://host:8080/experiments/…"}
//
// status is "done" when every run is done and "failed" when any run
// failed, was canceled or interrupted (the counts say how many). A
// canceled experiment is not announced: the user who canceled it knows.
//
// Delivery is at most once per experiment, bounded: each attempt has a
// Timeout (10 s), a failed attempt (no answer, a timeout, a 5xx or 429)
// is tried again after Backoff (1 s, doubled each time) up to Attempts
// (3) in all; a 2xx ends it, any other status gives up at once (the URL
// is wrong, a retry would not help). A delivery that fails is logged;
// the experiment stays done. Only http and https URLs are accepted
// (experiments.CheckNotifyURL), checked when the definition is; the
// redirects a client follows must stay http or https too.
package notify
