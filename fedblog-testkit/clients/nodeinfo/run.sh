#!/usr/bin/env bash
# Client detection through NodeInfo: megalodon's `detector` (npm, pinned by package-lock.json)
# against a freshly started fedblog server on loopback.
#
#   bash fedblog-testkit/clients/nodeinfo/run.sh /path/to/fedblog-server-binary
#
# Installs the pinned packages (`npm ci`, skipped while node_modules matches the lock), starts
# the server on a free loopback port with a throwaway data dir, creates a confirmed and approved
# account (alice) with a token from the CLI, and runs detect.mjs: fedblog's NodeInfo keeps its
# own name and names Mastodon as its upstream, megalodon detects Mastodon from it and the client
# it picks reads the instance and verify_credentials, and the same NodeInfo without
# `metadata.upstream` is refused as an unknown server. Stops the server, prints its log's tail
# if a check failed, checks that no token or password reached the log, and exits with the
# checks' exit code. KEEP_TMP=1 keeps the data dir and server log.
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: bash $0 /path/to/fedblog-server-binary" >&2
    exit 2
fi

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
source "$HERE/../lib.sh"
server_binary "$1"

NODE="${NODE:-node}"
NPM="${NPM:-npm}"
PASSWORD="correct horse battery"
USERNAME="alice"

# --- npm packages (megalodon, pinned by package-lock.json) -----------------------------------
if ! command -v "$NODE" >/dev/null || ! command -v "$NPM" >/dev/null; then
    echo "run.sh: node and npm are needed (Node 20 or later)" >&2
    exit 2
fi
NODE_MAJOR="$("$NODE" -p 'process.versions.node.split(".")[0]')"
if ((NODE_MAJOR < 20)); then
    echo "run.sh: Node 20 or later is needed, not $("$NODE" --version)" >&2
    exit 2
fi
LOCK_STAMP="$HERE/node_modules/.fedblog-lock.sha256"
LOCK_SUM="$(sha256sum "$HERE/package-lock.json" | cut -d' ' -f1)"
if [[ -d "$HERE/node_modules/megalodon" && -f "$LOCK_STAMP" && "$(cat "$LOCK_STAMP")" == "$LOCK_SUM" ]]; then
    echo "run.sh: node_modules matches package-lock.json; not installing"
else
    echo "run.sh: npm ci in $HERE"
    (cd "$HERE" && "$NPM" ci --no-audit --no-fund --loglevel=error)
    echo "$LOCK_SUM" >"$LOCK_STAMP"
fi

# --- temp data dir, port, server ------------------------------------------------------------
server_run_dirs nodeinfo
PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"
export FEDBLOG_LISTEN="127.0.0.1:$PORT"
export FEDBLOG_DOMAIN="127.0.0.1:$PORT"
export FEDBLOG_DATA_DIR="$DATA_DIR"
export FEDBLOG_RATE_LIMITS="$TEST_RATE_LIMITS"

echo "run.sh: starting $BIN serve on $BASE (data dir $DATA_DIR)"
"$BIN" serve >"$LOG" 2>&1 &
SERVER_PID=$!
wait_ready "$BASE/api/v1/instance" "$SERVER_PID" "$LOG" 30 || exit 1
echo "run.sh: server ready"

"$BIN" accounts create "$USERNAME" --email "$USERNAME@example.com" --password "$PASSWORD" \
    --confirmed --approved >>"$ACCOUNTS_LOG" 2>&1 || {
    echo "run.sh: creating $USERNAME failed:" >&2
    cat "$ACCOUNTS_LOG" >&2
    exit 1
}
TOKEN="$("$BIN" tokens create "$USERNAME" 2>>"$ACCOUNTS_LOG" | tail -n 1)"
if [[ -z "$TOKEN" ]]; then
    echo "run.sh: no token for $USERNAME:" >&2
    cat "$ACCOUNTS_LOG" >&2
    exit 1
fi

# --- the checks -----------------------------------------------------------------------------
set +e
FEDBLOG_BASE="$BASE" FEDBLOG_TOKEN="$TOKEN" FEDBLOG_USER="$USERNAME" "$NODE" "$HERE/detect.mjs"
rc=$?
set -e
if [[ "$rc" != 0 ]]; then
    echo "run.sh: NodeInfo detection failed with exit code $rc" >&2
    print_log_tail
    exit "$rc"
fi

no_secrets_in "$LOG" "$PASSWORD" "$TOKEN"
exit 0
