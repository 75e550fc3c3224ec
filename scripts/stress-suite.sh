#!/usr/bin/env bash
# Issue 14's proof that the suite does not flake: the whole suite RUNS times in a row (default 5)
# with a busy loop on the other core. Prints one line per run and exits non-zero if any failed.
# A load run, not a test: some 5-8 minutes a run on 2 cores.   RUNS=5 scripts/stress-suite.sh
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
swift build --build-tests >/dev/null || exit 1
( while :; do :; done ) &
busy=$!
trap 'kill $busy 2>/dev/null' EXIT
failed=0
for i in $(seq "$RUNS"); do
    log=$(mktemp /tmp/podcli-suite-run.XXXXXX)
    CI=true swift test --skip-build >"$log" 2>&1 || failed=$((failed + 1))
    echo "run $i: $(tail -n 1 "$log")"
    grep -E '✘ Test .* recorded an issue' "$log" | head -n 5
    rm -f "$log"
done
echo "$failed of $RUNS whole-suite runs failed under a busy loop"
[ "$failed" -eq 0 ]
