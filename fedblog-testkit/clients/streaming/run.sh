#!/usr/bin/env bash
# Run the streaming real-client scenario against a freshly started fedblog server.
#
#   bash fedblog-testkit/clients/streaming/run.sh /path/to/fedblog-server-binary
#
# Creates/reuses fedblog-testkit/clients/streaming/.venv (Mastodon.py and websockets, pinned in
# requirements.txt), starts the server on a free loopback port with a throwaway data dir, creates
# three confirmed+approved accounts (alice, bob, carol) each with a token from the CLI, runs
# scenario.py (Mastodon.py's server-sent-events streams, the `websockets` library on
# /api/v1/streaming, the health check), stops the server, and checks that no token or password
# reached the server log (the WebSocket step sends one as ?access_token=).
# Exits with the scenario's exit code. Set KEEP_TMP=1 to keep the data dir and server log.
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
PASSWORD="correct horse battery"

# --- virtualenv ---------------------------------------------------------------------------
ensure_venv "$VENV" "$HERE/requirements.txt"

# --- temp data dir, port, server ----------------------------------------------------------
server_run_dirs streaming

PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"

export FEDBLOG_LISTEN="127.0.0.1:$PORT"
export FEDBLOG_DOMAIN="127.0.0.1:$PORT"
export FEDBLOG_DATA_DIR="$DATA_DIR"
export FEDBLOG_RATE_LIMITS="$TEST_RATE_LIMITS"

echo "run.sh: starting $BIN serve on $BASE (data dir $DATA_DIR)"
"$BIN" serve >"$LOG" 2>&1 &
SERVER_PID=$!

# --- wait for GET /api/v1/instance -> 200 (max 30 s) --------------------------------------
wait_ready "$BASE/api/v1/instance" "$SERVER_PID" "$LOG" 30 || exit 1
echo "run.sh: server ready"

# --- accounts, each with a token from the CLI (the token is its last line) ------------------
TOKENS="$LOG_DIR/tokens.json"
{
    echo "{"
    sep=""
    for name in alice bob carol; do
        "$BIN" accounts create "$name" --email "$name@example.com" --password "$PASSWORD" \
            --confirmed --approved >>"$ACCOUNTS_LOG" 2>&1 || {
            echo "run.sh: creating $name failed:" >&2
            cat "$ACCOUNTS_LOG" >&2
            exit 1
        }
        token="$("$BIN" tokens create "$name" 2>>"$ACCOUNTS_LOG" | tail -n 1)"
        printf '%s  "%s": "%s"\n' "$sep" "$name" "$token"
        sep=","
    done
    echo "}"
} >"$TOKENS"
echo "run.sh: 3 accounts with tokens ready"

# --- scenario -----------------------------------------------------------------------------
set +e
"$VENV/bin/python" "$HERE/scenario.py" --base-url "$BASE" --tokens "$TOKENS"
rc=$?
set -e
if [[ "$rc" != 0 ]]; then
    echo "run.sh: streaming scenario failed with exit code $rc" >&2
    print_log_tail
    exit "$rc"
fi

# --- nothing secret in the log: the password and every token the scenario used ---------------
mapfile -t SECRETS < <("$VENV/bin/python" -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1])).values()))' "$TOKENS")
no_secrets_in "$LOG" "$PASSWORD" "${SECRETS[@]}"
exit 0
