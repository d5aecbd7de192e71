#!/bin/sh
# Runs the whole test suite RUNS times (default 5) while two busy loops keep both cores of the
# machine busy, the condition under which descriptor leaks between parallel tests and waits
# that assume an idle machine show up. Prints each run's result line and, at the end, the
# slowest tests of all runs. Exits non-zero if any run failed.
#
#   scripts/test-under-load.sh [RUNS] [swift test arguments…]
#   e.g. scripts/test-under-load.sh 3 --filter EndToEnd
#
# Full logs go to .build/test-under-load/run-N.log.
set -u
runs="${1:-5}"
[ $# -gt 0 ] && shift
logs=.build/test-under-load
mkdir -p "$logs"
rm -f "$logs"/run-*.log

# Build first, unloaded and outside the count, so every run measures the tests alone.
swift build --build-tests >"$logs/build.log" 2>&1 || { echo "build failed: see $logs/build.log"; exit 1; }

busy=""
stop_busy() {
    for pid in $busy; do kill "$pid" 2>/dev/null; done
    for pid in $busy; do wait "$pid" 2>/dev/null; done  # reap them: this container's init does not
    busy=""
}
trap stop_busy EXIT
trap 'stop_busy; exit 130' INT
trap 'stop_busy; exit 143' TERM
for _ in 1 2; do
    sh -c 'while :; do :; done' &
    busy="$busy $!"
done

failed=0
run=1
while [ "$run" -le "$runs" ]; do
    log="$logs/run-$run.log"
    swift test "$@" >"$log" 2>&1
    status=$?
    result=$(grep 'Test run with' "$log" | tail -n 1)
    [ -n "$result" ] || result="(no Swift Testing result line; see $log)"
    echo "run $run: exit $status: $result"
    [ "$status" -eq 0 ] || failed=$((failed + 1))
    run=$((run + 1))
done
stop_busy

echo "slowest tests over all runs (seconds, run):"
for log in "$logs"/run-*.log; do
    sed -n 's/.*Test \(.*\) passed after \([0-9.]*\) seconds\..*/\2 \1/p; s/.*Test \(.*\) failed after \([0-9.]*\) seconds.*/\2 \1 (FAILED)/p' \
        "$log" | grep -v '^[0-9.]* run with' | sed "s|\$| [$(basename "$log" .log)]|"
done | sort -rn | head -n 10
echo "$failed of $runs runs failed"
[ "$failed" -eq 0 ]
