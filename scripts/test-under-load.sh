#!/bin/sh
# Runs the whole test suite RUNS times (default 5) while two busy loops keep both cores of the
# machine busy, the condition under which descriptor leaks between parallel tests and waits
# that assume an idle machine show up. Prints each run's result line and, at the end, the
# slowest test cases of all runs. Exits non-zero if any run failed.
#
#   scripts/test-under-load.sh [RUNS] [swift test arguments…]
#   e.g. scripts/test-under-load.sh 3 --filter EndToEnd
#
# Full logs go to .build/test-under-load/run-N.log, Swift Testing's event stream to run-N.jsonl.
set -u
runs="${1:-5}"
[ $# -gt 0 ] && shift
logs=.build/test-under-load

# Build first, unloaded and outside the count, so every run measures the tests alone. (A first
# build in a fresh clone recreates .build, so the log folder is made after it.)
build_log=$(mktemp)
swift build --build-tests >"$build_log" 2>&1 || { echo "build failed: see $build_log"; exit 1; }
rm -f "$build_log"
mkdir -p "$logs"
rm -f "$logs"/run-*.log "$logs"/run-*.jsonl

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
    swift test --experimental-event-stream-output "$logs/run-$run.jsonl" --experimental-event-stream-version 0 \
        "$@" >"$log" 2>&1
    status=$?
    result=$(grep 'Test run with' "$log" | tail -n 1)
    [ -n "$result" ] || result="(no Swift Testing result line; see $log)"
    echo "run $run: exit $status: $result"
    [ "$status" -eq 0 ] || failed=$((failed + 1))
    run=$((run + 1))
done
stop_busy

# Swift Testing's case events bracket the body exactly; a plain test's started/ended events do
# not (they wait for a free thread of the 2-thread pool that blocking tests hold), so only the
# cases of parameterized tests are listed. Time a plain test by running it alone (--filter).
echo "slowest test cases over all runs (seconds, test, arguments, run):"
awk '
function field(line, regex, skip) {
    if (!match(line, regex)) return ""
    return substr(line, RSTART + skip, RLENGTH - skip - 1)
}
function name(id, parts) {
    split(id, parts, /\\\//)
    sub(/^[^.]*\./, "", parts[1])
    return parts[1] "/" parts[2]
}
/"kind":"testCase(Started|Ended)"/ {
    at = field($0, "\"absolute\":[0-9.]+,", 11)
    id = field($0, "\"testID\":\"([^\"\\\\]|\\\\.)*\"", 10)
    label = field($0, "\"displayName\":\"([^\"\\\\]|\\\\.)*\"", 15)
    caseID = field($0, "\"_testCase\":\\{\"displayName\":\"([^\"\\\\]|\\\\.)*\",\"id\":\"([^\"\\\\]|\\\\.)*\"", 0)
    key = FILENAME SUBSEP id SUBSEP caseID
    if (index($0, "\"testCaseStarted\"")) { started[key] = at; test[key] = id; args[key] = label; file[key] = FILENAME }
    else ended[key] = at
}
END {
    for (key in ended) if (key in started) {
        run = file[key]; sub(/.*\//, "", run); sub(/\.jsonl$/, "", run)
        printf "%.3f %s [%s] %s\n", ended[key] - started[key], name(test[key]), args[key], run
    }
}' "$logs"/run-*.jsonl | sort -rn | head -n 10
echo "$failed of $runs runs failed"
[ "$failed" -eq 0 ]
