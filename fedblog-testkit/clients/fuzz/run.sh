#!/usr/bin/env bash
# Schema-driven fuzzing of a freshly started fedblog server with schemathesis.
#
#   bash fedblog-testkit/clients/fuzz/run.sh /path/to/fedblog-server-binary
#
# Creates/reuses fedblog-testkit/clients/fuzz/.venv (requirements.txt), starts the server on a free loopback port
# with a throwaway data dir, creates confirmed+approved accounts with bearer tokens with the CLI
# (fuzzer, and fuzzfriend and fuzzstranger for the seed data), seeds a little of everything through
# the API (fuzz.py seed: statuses, polls, lists, filters, media, notifications, ...), and runs
# schemathesis over the operations of the Mastodon OpenAPI schema
# (shared/reference/mastodon-openapi.json, or $FEDBLOG_OPENAPI) with fuzzer's token, feeding it the
# seeded ids so that many requests reach existing resources rather than a 404.
#
# It fails only on server errors: any 5xx answer, the server process dying, or a request that
# gets no answer within FUZZ_REQUEST_TIMEOUT seconds (a hang), plus a last GET /api/v1/instance
# that must still answer 200. 4xx answers and answers that do not match the schema are not
# failures here (fedblog answers 404 for endpoints it does not serve yet and 422 for bad input).
# Ends with `N passed, M failed` (N: cases without a server error; M: 5xx answers, crashes, hangs)
# and, on failure, every failing case with a curl reproduction and the tail of the server log.
#
# Network: every request goes to 127.0.0.1. The schema copy the fuzzer loads has its `servers`
# replaced by the loopback URL (and no remote $ref, which fuzz.py checks), the URL is passed
# explicitly, and hooks.py refuses any connection of the fuzzer's process to another host. The
# server is started without a translation service, its only outbound HTTP client.
#
# Knobs (environment): FUZZ_MAX_TIME (s, default 240: schemathesis's budget; fuzzing repeats until
# it is spent), FUZZ_MAX_EXAMPLES (per operation and pass, default 25), FUZZ_REQUEST_TIMEOUT
# (s, default 10), FUZZ_WORKERS (default 2), FUZZ_SEED (default: random; printed), FUZZ_ARGS (more
# schemathesis options, split on spaces, e.g. FUZZ_ARGS='--include-path-regex ^/api/v1/statuses'
# to fuzz a few operations), KEEP_TMP=1 keeps the data dir, logs, journal and reports.
#
# To check that the step does catch what it should, run it on fake_server.py (a stand-in that
# answers 500, hangs or crashes on purpose; see its docstring): FAKE_MODE=5xx, hang and crash must
# fail, FAKE_MODE=ok must pass.
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: bash $0 /path/to/fedblog-server-binary" >&2
    exit 2
fi

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
source "$HERE/../lib.sh"
server_binary "$1"

PYTHON="${PYTHON:-python3}"
VENV="$HERE/.venv"
USERNAME="fuzzer"
PASSWORD="correct horse battery staple"
MAX_TIME="${FUZZ_MAX_TIME:-240}"
MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-25}"
REQUEST_TIMEOUT="${FUZZ_REQUEST_TIMEOUT:-10}"
WORKERS="${FUZZ_WORKERS:-2}"
SEED="${FUZZ_SEED:-$((RANDOM * 32768 + RANDOM))}"

# --- the schema: $FEDBLOG_OPENAPI, else shared/reference/ found upwards (as the Rust tests do) ---
SCHEMA="${FEDBLOG_OPENAPI:-}"
if [[ -z "$SCHEMA" ]]; then
    dir="$HERE"
    while [[ -n "$dir" ]]; do
        for candidate in "$dir/shared/reference/mastodon-openapi.json" "$dir/../shared/reference/mastodon-openapi.json"; do
            if [[ -f "$candidate" ]]; then SCHEMA="$candidate"; break 2; fi
        done
        [[ "$dir" == "/" ]] && break
        dir="$(dirname "$dir")"
    done
fi
if [[ -z "$SCHEMA" || ! -f "$SCHEMA" ]]; then
    echo "run.sh: mastodon-openapi.json not found (set FEDBLOG_OPENAPI or put shared/reference/ beside the repository)" >&2
    exit 2
fi

# --- virtualenv ---------------------------------------------------------------------------
ensure_venv "$VENV" "$HERE/requirements.txt"

# --- temp data dir, port, server ----------------------------------------------------------
server_run_dirs fuzz
JOURNAL="$LOG_DIR/journal.jsonl"

PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"

export FEDBLOG_LISTEN="127.0.0.1:$PORT"
export FEDBLOG_DOMAIN="127.0.0.1:$PORT"
export FEDBLOG_DATA_DIR="$DATA_DIR"
# Limits on but far out of reach, so the counting code is fuzzed too and no case is throttled.
export FEDBLOG_RATE_LIMITS="*=1000000/1m"
# Nothing from the caller's environment may point the server elsewhere: its own SQLite database in
# the temp dir, no config file, no Redis, and no translation service (its only outbound HTTP client).
unset FEDBLOG_DATABASE_URL FEDBLOG_MEDIA_DIR FEDBLOG_CONFIG FEDBLOG_REDIS_URL FEDBLOG_TRANSLATION_URL FEDBLOG_TRANSLATION_API_KEY

echo "run.sh: starting $BIN serve on $BASE (data dir $DATA_DIR)"
"$BIN" serve >"$LOG" 2>&1 &
SERVER_PID=$!

wait_ready "$BASE/api/v1/instance" "$SERVER_PID" "$LOG" 30 || exit 1
echo "run.sh: server ready"

# --- accounts and tokens: the fuzzer's own, a friend's and a stranger's (used by the seed step) ---
make_account() {  # make_account NAME: prints the new account's bearer token
    if ! "$BIN" accounts create "$1" --email "$1@example.com" --password "$PASSWORD" --confirmed --approved >>"$ACCOUNTS_LOG" 2>&1; then
        echo "run.sh: '$BIN accounts create $1' failed:" >&2
        cat "$ACCOUNTS_LOG" >&2 || true
        return 1
    fi
    local token
    token="$("$BIN" tokens create "$1" 2>>"$ACCOUNTS_LOG" | tail -n 1)"
    if [[ -z "$token" ]]; then
        echo "run.sh: '$BIN tokens create $1' printed no token:" >&2
        cat "$ACCOUNTS_LOG" >&2 || true
        return 1
    fi
    echo "$token"
}
TOKEN="$(make_account "$USERNAME")" || { print_log_tail; exit 1; }
FRIEND_TOKEN="$(make_account fuzzfriend)" || { print_log_tail; exit 1; }
STRANGER_TOKEN="$(make_account fuzzstranger)" || { print_log_tail; exit 1; }
echo "run.sh: accounts $USERNAME (fuzzed with), fuzzfriend and fuzzstranger ready"

# --- schema copy pointing at the loopback server only ----------------------------------------
"$VENV/bin/python" "$HERE/fuzz.py" prepare "$SCHEMA" "$LOG_DIR/openapi.json" "$BASE"

# --- seed data, and a schemathesis config that feeds its ids to the fuzzer ---------------------
# (so requests reach existing statuses, lists, filters, ... rather than a 404 for a random id)
# `--` ends the options: a token is random text and may begin with `-`.
"$VENV/bin/python" "$HERE/fuzz.py" seed --journal "$JOURNAL" -- "$BASE" "$TOKEN" "$FRIEND_TOKEN" \
    "$STRANGER_TOKEN" "$LOG_DIR/schemathesis.toml"

# --- schemathesis -------------------------------------------------------------------------
# Operations left out, by operationId:
#  - postOauthRevoke (POST /oauth/revoke): revokes the token given in the body with the caller's
#    credentials; one lucky case would revoke the fuzzer's own token and turn the rest of the run
#    into 401s.
#  - the streaming endpoints (GET /api/v1/streaming/* except /health): long-lived event streams by
#    design; every request would run to the request timeout and count as a hang. (Streaming needs
#    a test of its own.)
# The schema has no operation that deletes, suspends or disables the calling account (no admin
# API, no account deletion); PATCH update_credentials cannot change the password or e-mail, and
# POST /api/v1/emails/confirmations is refused for a confirmed account, so those stay in.
EXCLUDE_OPERATION_IDS='^(postOauthRevoke|getStreaming(?!Health$).*)$'

SCHEMATHESIS_ARGS=(
    --config-file "$LOG_DIR/schemathesis.toml"
    run "$LOG_DIR/openapi.json"
    --url "$BASE"
    -H "Authorization: Bearer $TOKEN"
    # Only server errors fail a case. schemathesis reports refused or reset connections and
    # timeouts as errors of their own; hooks.py records them, and fuzz.py counts them as failures.
    --checks not_a_server_error
    --exclude-operation-id-regex "$EXCLUDE_OPERATION_IDS"
    --phases examples,coverage,fuzzing,stateful
    --max-examples "$MAX_EXAMPLES"
    --max-time "$MAX_TIME"
    --request-timeout "$REQUEST_TIMEOUT"
    --request-retries 0
    --max-redirects 0
    --workers "$WORKERS"
    --seed "$SEED"
    # Every failing input is wanted, not only the first of each operation.
    --continue-on-failure
    --max-failures 1000
    --suppress-health-check all
    --generation-database none
    --report junit,ndjson
    --report-dir "$LOG_DIR/reports"
    --no-color
)
if [[ -n "${FUZZ_ARGS:-}" ]]; then
    read -r -a EXTRA_ARGS <<<"$FUZZ_ARGS"  # split on spaces, no glob expansion
    SCHEMATHESIS_ARGS+=("${EXTRA_ARGS[@]}")
fi
echo "run.sh: schemathesis on $BASE: max $MAX_EXAMPLES examples per operation and pass, budget $MAX_TIME s, request timeout $REQUEST_TIMEOUT s, $WORKERS workers, seed $SEED"
echo "run.sh: excluded operationIds matching $EXCLUDE_OPERATION_IDS"
START=$SECONDS
set +e
# The hard limit is a safety net for a fuzzer that overruns its own budget.
(cd "$LOG_DIR" && FUZZ_JOURNAL="$JOURNAL" SCHEMATHESIS_HOOKS="$HERE/hooks.py" \
    timeout --kill-after=10 $((MAX_TIME + 120)) "$VENV/bin/schemathesis" "${SCHEMATHESIS_ARGS[@]}")
ST_RC=$?
set -e
ELAPSED=$((SECONDS - START))
echo "run.sh: schemathesis exited with $ST_RC after $ELAPSED s"
if [[ "$ST_RC" == 124 || "$ST_RC" == 137 ]]; then
    echo "run.sh: schemathesis overran its budget and was stopped" >&2
fi

# --- is the server still alive and answering? ------------------------------------------------
ALIVE=yes
kill -0 "$SERVER_PID" 2>/dev/null || ALIVE=no
FINAL="ok"
if [[ "$ALIVE" == yes ]]; then
    FINAL="$("$PYTHON" - "$BASE/api/v1/instance" "$REQUEST_TIMEOUT" <<'EOF'
import sys, urllib.request
try:
    status = urllib.request.urlopen(sys.argv[1], timeout=float(sys.argv[2])).status
    print("ok" if status == 200 else f"status {status}")
except Exception as exc:
    print(f"{type(exc).__name__}: {exc}")
EOF
)"
else
    FINAL="the server process is gone"
    wait "$SERVER_PID" 2>/dev/null && SERVER_RC=0 || SERVER_RC=$?
    echo "run.sh: the server exited with status $SERVER_RC" >&2
    SERVER_PID=""
fi
echo "run.sh: server alive: $ALIVE; final GET /api/v1/instance: $FINAL"

REPORT_ARGS=(--log "$LOG" --alive "$ALIVE" --final-check "$FINAL" --seconds "$ELAPSED" --schemathesis-rc "$ST_RC")
if [[ "$ST_RC" == 124 || "$ST_RC" == 137 ]]; then REPORT_ARGS+=(--overran); fi
set +e
"$VENV/bin/python" "$HERE/fuzz.py" report "$JOURNAL" "${REPORT_ARGS[@]}"
rc=$?
set -e
exit "$rc"
