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
PASSWORD="correct horse battery"
USERNAME="alice"

# --- npm packages (megalodon, pinned by package-lock.json) -----------------------------------
npm_ci "$HERE" megalodon

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

account_with_token "$USERNAME" "$PASSWORD"

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
