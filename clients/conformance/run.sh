#!/usr/bin/env bash
# Run the HTTP conformance suite by URL, as an implementer would:
#   1. against a freshly started fedblog server (SQLite default), compared with the committed
#      baseline (crates/fedblog-testkit/baselines/fedblog.jsonl): any regression fails;
#   2. against mastodon_mock, a second, independent implementation of the Mastodon API (PyPI
#      package `mastodon_mock`): its pass rate is reported, not required, but the run must end
#      with an outcome for every check.
#
#   bash clients/conformance/run.sh /path/to/fedblog-server /path/to/fedblog-conformance
#
# Run from a checkout that sits next to `shared/` (the CLI finds the OpenAPI schema upwards).
# Set KEEP_TMP=1 to keep the data dir, logs and reports.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 /path/to/fedblog-server /path/to/fedblog-conformance" >&2
    exit 2
fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
# shellcheck source=../lib.sh
source "$HERE/../lib.sh"
for arg in "$1" "$2"; do
    [[ -x "$(abs_path "$arg")" ]] || { echo "run.sh: '$arg' is not an executable" >&2; exit 2; }
done
BIN="$(abs_path "$1")"
CONF="$(abs_path "$2")"
BASELINE="$ROOT/crates/fedblog-testkit/baselines/fedblog.jsonl"
PASSWORD="correct horse battery"
PYTHON="${PYTHON:-python3}"
VENV="$HERE/.venv"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/fedblog-conformance.XXXXXX")"
PIDS=()

cleanup() {
    local rc=$?
    for pid in "${PIDS[@]}"; do
        stop_process "$pid"
    done
    if [[ "${KEEP_TMP:-0}" == "1" ]]; then
        echo "run.sh: kept $WORK"
    else
        rm -rf "$WORK"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cd "$ROOT"

# --- 1. fedblog-server, compared with the baseline -------------------------------------------
PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"
mkdir -p "$WORK/fedblog-data"
export FEDBLOG_LISTEN="127.0.0.1:$PORT" FEDBLOG_DOMAIN="127.0.0.1:$PORT" FEDBLOG_DATA_DIR="$WORK/fedblog-data"
export FEDBLOG_RATE_LIMITS="$TEST_RATE_LIMITS"
echo "run.sh: starting fedblog-server on $BASE"
"$BIN" serve >"$WORK/fedblog.log" 2>&1 &
PIDS+=($!)
wait_ready "$BASE/api/v1/instance" "${PIDS[-1]}" "$WORK/fedblog.log"
"$BIN" accounts create conformance_admin --email conformance_admin@example.com --password "$PASSWORD" \
    --role admin --confirmed --approved >"$WORK/admin.log" 2>&1
ADMIN_TOKEN="$("$BIN" tokens create conformance_admin --scopes "read write follow push admin:read admin:write" 2>>"$WORK/admin.log" | tail -n 1)"
FACTORY="'$BIN' accounts create {username} --email {username}@example.com --password '$PASSWORD' --confirmed --approved >/dev/null && '$BIN' tokens create {username}"

echo "== fedblog-conformance against fedblog-server ($BASE), expecting $BASELINE"
set +e
"$CONF" --base-url "$BASE" --account-factory "$FACTORY" --factory-password "$PASSWORD" \
    --admin-token "$ADMIN_TOKEN" --expect "$BASELINE" --report "$WORK/fedblog-report.jsonl" 2>"$WORK/fedblog-progress.log"
fedblog_rc=$?
set -e
if [[ "$fedblog_rc" != 0 ]]; then
    echo "run.sh: the run against fedblog-server differs from the baseline (exit $fedblog_rc); progress and server log:" >&2
    grep -vE '^\[ *[0-9]+/[0-9]+\] pass ' "$WORK/fedblog-progress.log" >&2 || true
    tail -n 100 "$WORK/fedblog.log" >&2
    exit "$fedblog_rc"
fi
unset FEDBLOG_LISTEN FEDBLOG_DOMAIN FEDBLOG_DATA_DIR FEDBLOG_RATE_LIMITS

# --- 2. mastodon_mock, reported ---------------------------------------------------------------
ensure_venv "$VENV" "$HERE/requirements.txt"
MPORT="$(free_port)"
MBASE="http://127.0.0.1:$MPORT"
echo "run.sh: starting mastodon_mock on $MBASE"
"$VENV/bin/mastodon_mock" serve --in-memory --host 127.0.0.1 --port "$MPORT" >"$WORK/mock.log" 2>&1 &
PIDS+=($!)
wait_ready "$MBASE/api/v1/instance" "${PIDS[-1]}" "$WORK/mock.log"

echo "== fedblog-conformance against mastodon_mock ($MBASE): reported, not required"
"$CONF" --base-url "$MBASE" \
    --account-factory "'$VENV/bin/python' '$HERE/mock_factory.py' '$MBASE' {username}" \
    --factory-password "$PASSWORD" --no-fail --report "$WORK/mock-report.jsonl" 2>"$WORK/mock-progress.log"

# The run must have ended every check with an outcome, each failure and not-run with a reason.
"$PYTHON" - "$WORK/mock-report.jsonl" "$("$CONF" --list | wc -l)" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
want = int(sys.argv[2])
bad = [r["id"] for r in rows if r["outcome"] not in ("pass", "fail", "not-run")
       or (r["outcome"] != "pass" and not r["detail"].strip())]
if len(rows) != want or bad:
    sys.exit(f"run.sh: the mock report has {len(rows)} of {want} checks; without an outcome or reason: {bad}")
passed = sum(r["outcome"] == "pass" for r in rows)
print(f"mastodon_mock: {passed} of {want} checks pass ({100 * passed / want:.1f}%)")
PY
