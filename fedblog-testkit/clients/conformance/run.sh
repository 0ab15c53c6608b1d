#!/usr/bin/env bash
# Run the HTTP conformance suite by URL, as an implementer would:
#   1. against a freshly started fedblog server (SQLite default), compared with the committed
#      baseline (fedblog-testkit/baselines/fedblog.jsonl): any regression fails;
#   2. against mastodon_mock, a second, independent implementation of the Mastodon API (PyPI
#      package `mastodon_mock`), compared with its own committed baseline
#      (fedblog-testkit/baselines/mastodon_mock.jsonl): a check it passed that no longer
#      passes fails the run, every check must end with an outcome and a reason, and no check may
#      fail on a set-up step (set-up that cannot proceed is a not-run, never a failure).
#
#   bash fedblog-testkit/clients/conformance/run.sh /path/to/fedblog-server /path/to/fedblog-conformance
#
# Run from a checkout that sits next to `shared/` (the CLI finds the OpenAPI schema upwards).
# Set KEEP_TMP=1 to keep the data dir, logs and reports.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 /path/to/fedblog-server /path/to/fedblog-conformance" >&2
    exit 2
fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
# shellcheck source=../lib.sh
source "$HERE/../lib.sh"
for arg in "$1" "$2"; do
    [[ -x "$(abs_path "$arg")" ]] || { echo "run.sh: '$arg' is not an executable" >&2; exit 2; }
done
BIN="$(abs_path "$1")"
CONF="$(abs_path "$2")"
BASELINE="$ROOT/fedblog-testkit/baselines/fedblog.jsonl"
MOCK_BASELINE="$ROOT/fedblog-testkit/baselines/mastodon_mock.jsonl"
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
# The `federation` checks play a remote server on a loopback port: federation on, and private
# addresses allowed so that the server may reach it. Every other check names only special-use
# domains (`.example`), which the server refuses without asking DNS.
export FEDBLOG_FEDERATION=true FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true
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
    --admin-token="$ADMIN_TOKEN" --expect "$BASELINE" --report "$WORK/fedblog-report.jsonl" \
    --markdown "$WORK/fedblog-summary.md" 2>"$WORK/fedblog-progress.log"
fedblog_rc=$?
set -e
if [[ "$fedblog_rc" != 0 ]]; then
    echo "run.sh: the run against fedblog-server differs from the baseline (exit $fedblog_rc); progress and server log:" >&2
    grep -vE '^\[ *[0-9]+/[0-9]+\] pass ' "$WORK/fedblog-progress.log" >&2 || true
    tail -n 100 "$WORK/fedblog.log" >&2
    exit "$fedblog_rc"
fi
unset FEDBLOG_LISTEN FEDBLOG_DOMAIN FEDBLOG_DATA_DIR FEDBLOG_RATE_LIMITS FEDBLOG_ALLOW_PRIVATE_ADDRESSES
export FEDBLOG_FEDERATION=false

# --- 2. mastodon_mock, compared with its baseline ----------------------------------------------
ensure_venv "$VENV" "$HERE/requirements.txt"
MPORT="$(free_port)"
MBASE="http://127.0.0.1:$MPORT"
echo "run.sh: starting mastodon_mock on $MBASE"
"$VENV/bin/mastodon_mock" serve --in-memory --host 127.0.0.1 --port "$MPORT" >"$WORK/mock.log" 2>&1 &
PIDS+=($!)
wait_ready "$MBASE/api/v1/instance" "${PIDS[-1]}" "$WORK/mock.log"
MOCK_FACTORY="'$VENV/bin/python' '$HERE/mock_factory.py' '$MBASE'"
MOCK_ADMIN="$("$VENV/bin/python" "$HERE/mock_factory.py" "$MBASE" --admin)"

echo "== fedblog-conformance against mastodon_mock ($MBASE), expecting $MOCK_BASELINE"
set +e
"$CONF" --base-url "$MBASE" --account-factory "$MOCK_FACTORY {username}" \
    --factory-password "$PASSWORD" --admin-token="$MOCK_ADMIN" --expect "$MOCK_BASELINE" \
    --report "$WORK/mock-report.jsonl" --markdown "$WORK/mock-summary.md" 2>"$WORK/mock-progress.log"
mock_rc=$?
set -e

# Every check ends with an outcome, each failure and not-run with a reason, and no failure is a
# set-up step's (those are not-runs by construction; this holds the suite to it).
"$PYTHON" - "$WORK/mock-report.jsonl" "$("$CONF" --list | wc -l)" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
want = int(sys.argv[2])
bad = [r["id"] for r in rows if r["outcome"] not in ("pass", "fail", "not-run")
       or (r["outcome"] != "pass" and not r["detail"].strip())]
if len(rows) != want or bad:
    sys.exit(f"run.sh: the mock report has {len(rows)} of {want} checks; without an outcome or reason: {bad}")
setup = [r["id"] for r in rows if r["outcome"] == "fail" and "set-up failed" in r["detail"]]
if setup:
    sys.exit(f"run.sh: these checks failed on a set-up step: {setup}")
counts = {o: sum(r["outcome"] == o for r in rows) for o in ("pass", "fail", "not-run")}
print(f"mastodon_mock: {counts['pass']} of {want} checks pass, {counts['fail']} fail, {counts['not-run']} not run")
PY
if [[ "$mock_rc" != 0 ]]; then
    echo "run.sh: the run against mastodon_mock differs from its baseline (exit $mock_rc):" >&2
    sed -n '1,40p' "$WORK/mock-summary.md" >&2
    tail -n 50 "$WORK/mock.log" >&2
    exit "$mock_rc"
fi
