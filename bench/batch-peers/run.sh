#!/bin/sh
# Side by side on the full KTH SP2 trace (27,992 jobs, 100 processors):
# schedlab's batch simulator (EASY and conservative backfilling) against
# pyss and CQSim, when they are installed. The peers are fetched and built
# outside this repository (never committed); tell the script how to run
# them with environment variables (see README.md):
#
#   PYSS_CMD   shell command running pyss on $SWF with $PROCS processors
#              under $POLICY (easy | conservative), output under $OUT
#   CQSIM_CMD  the same for CQSim
#   PYSS_DIR, CQSIM_DIR   where they live (for use inside the commands)
#   POLICIES   default "easy conservative"; REPEAT default 3
#
# A peer without its command is reported as absent and skipped; with no
# peer at all the script still measures schedlab and exits 0.
#
#   sh bench/batch-peers/run.sh
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
trace=solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz
POLICIES=${POLICIES:-"easy conservative"}
REPEAT=${REPEAT:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# The peers read plain SWF.
gunzip -c "$trace" >"$work/KTH-SP2-1996-2.1-cln.swf"
SWF=$work/KTH-SP2-1996-2.1-cln.swf
PROCS=100
export SWF PROCS

echo "machine: $(nproc) cores; load: $(uptime | sed 's/.*load average: //')"
echo "trace: $trace ($PROCS processors)"
go build -o "$work/schedlab" ./cmd/schedlab

# measure NAME CMD...: wall seconds, user+system CPU seconds and peak RSS
# of one run, its output kept in $work/NAME.log.
measure() {
	name=$1
	shift
	if [ -x /usr/bin/time ]; then
		if /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/$name.log" 2>&1; then
			awk -v n="$name" '{ printf "%-28s wall %6.2f s  cpu %6.2f s  max RSS %7.1f MB\n", n, $1, $2 + $3, $4 / 1024 }' "$work/time"
		else
			echo "$name: failed (exit $?); last lines of its output:"
			tail -5 "$work/$name.log"
		fi
	else
		t0=$(date +%s.%N)
		if "$@" >"$work/$name.log" 2>&1; then
			t1=$(date +%s.%N)
			echo "$name wall $(echo "$t1 - $t0" | bc) s"
		else
			echo "$name: failed; last lines of its output:"
			tail -5 "$work/$name.log"
		fi
	fi
}

echo
echo "== schedlab: the whole CLI process (read the trace, simulate, write the report)"
for POLICY in $POLICIES; do
	export POLICY
	for i in $(seq "$REPEAT"); do
		measure "schedlab-$POLICY-$i" "$work/schedlab" run --strategy cyclic --variant batch \
			--workload "$trace" --param "policy=$POLICY" --out "$work/schedlab-$POLICY.json"
	done
done

echo
echo "== schedlab: the simulation alone (go test -bench, one core)"
go test ./solvers/batch -run XXX -bench 'BenchmarkEASYFullKTH|BenchmarkConservativeKTH' -cpu 1 -count "$REPEAT" | grep '^Benchmark' || true

peer() {
	name=$1 cmd=$2
	echo
	if [ -z "$cmd" ]; then
		echo "== $name: not installed here (set ${name}_CMD, see bench/batch-peers/README.md); skipped"
		return 0
	fi
	echo "== $name: $cmd"
	for POLICY in $POLICIES; do
		OUT=$work/$name-$POLICY
		mkdir -p "$OUT"
		export POLICY OUT
		for i in $(seq "$REPEAT"); do
			measure "$name-$POLICY-$i" sh -c "$cmd"
		done
	done
}

export PYSS_DIR="${PYSS_DIR:-}" CQSIM_DIR="${CQSIM_DIR:-}"
peer PYSS "${PYSS_CMD:-}"
peer CQSIM "${CQSIM_CMD:-}"
exit 0
