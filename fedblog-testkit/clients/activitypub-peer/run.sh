#!/usr/bin/env bash
# Run the ActivityPub federation scenario: an independent Fedify peer against a freshly started
# fedblog server, both on loopback.
#
#   bash fedblog-testkit/clients/activitypub-peer/run.sh /path/to/fedblog-server-binary
#
# Installs the pinned npm packages (package-lock.json; `npm ci`, skipped while node_modules
# matches the lock), starts the server on a free loopback port with a throwaway data dir and
# FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true (so it may reach the peer on 127.0.0.1), creates a
# confirmed+approved account (alice) with a token from the CLI, and runs peer.mjs: it serves the
# peer on another free port and checks WebFinger, follows both ways, delivery of a post, a reply,
# a like and its undo, a three-level thread both ways, images both ways and edits both ways
# (with history), polls both ways (votes and totals), pins and featured hashtags both ways
# (Add/Remove, the featured and featuredTags collections), followers synchronisation (FEP-8fcf:
# a second local account, bea, made through this binary's CLI, follows the peer, which then
# forgets her and sends followers-only posts with Fedify's Collection-Synchronization header;
# fedblog fetches the peer's partial followers collection, signed, and bea's follow ends), a
# remote custom emoji (an Emoji tag, shown in the status's `emojis`) and moves both ways (the
# peer's Move to a second actor; alice's aliases and Move through the CLI) and moderation (an
# account the peer follows suspended and unsuspended by an admin the CLI made, each an Update of
# its actor; a report forwarded to the peer as a Flag; the peer's Flag filed as a report) and
# quote posts both ways (FEP-044f: interactionPolicy, QuoteRequest, Accept/Reject, the
# QuoteAuthorization fetched signed, its revocation, a changed policy), all with signed
# requests (279 checks; see README.md). peer.mjs runs the CLI mid-way as FEDBLOG_CLI, with the
# FEDBLOG_* settings below. Stops the server, prints the server log's tail if the scenario
# failed, checks that no token or password of alice's reached the log, and exits with the
# scenario's exit code. Set KEEP_TMP=1 to keep the data dir and server log; PEER_LOG=info (or
# debug) shows more of Fedify's log.
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

# --- npm packages (Fedify, pinned by package-lock.json) --------------------------------------
npm_ci "$HERE" @fedify/fedify

# --- temp data dir, ports, server ---------------------------------------------------------
server_run_dirs activitypub-peer
# The peer runs in the background too: stop it (then the server, as lib.sh does) at exit.
PEER_PID=""
_peer_run_cleanup() {
    local rc=$?
    if [[ -n "$PEER_PID" ]]; then stop_process "$PEER_PID"; fi
    # _server_run_cleanup reads the exit code from $? (and exits with it): set it back, with
    # errexit off so that a failing code does not end the trap here.
    set +e
    (exit "$rc")
    _server_run_cleanup
}
trap _peer_run_cleanup EXIT

PORT="$(free_port)"
PEER_PORT="$(free_port)"
while [[ "$PEER_PORT" == "$PORT" ]]; do PEER_PORT="$(free_port)"; done
BASE="http://127.0.0.1:$PORT"

export FEDBLOG_LISTEN="127.0.0.1:$PORT"
export FEDBLOG_DOMAIN="127.0.0.1:$PORT"
export FEDBLOG_DATA_DIR="$DATA_DIR"
export FEDBLOG_RATE_LIMITS="$TEST_RATE_LIMITS"
export FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true
export FEDBLOG_FEDERATION=true

echo "run.sh: starting $BIN serve on $BASE (data dir $DATA_DIR)"
"$BIN" serve >"$LOG" 2>&1 &
SERVER_PID=$!

# --- wait for GET /api/v1/instance -> 200 (max 30 s) --------------------------------------
wait_ready "$BASE/api/v1/instance" "$SERVER_PID" "$LOG" 30 || exit 1
echo "run.sh: server ready"

# --- alice, with a token from the CLI (the token is its last line) --------------------------
account_with_token "$USERNAME" "$PASSWORD"
echo "run.sh: $USERNAME with a token ready; the peer will be http://127.0.0.1:$PEER_PORT"

# --- scenario (the peer runs inside it and stops with it) -----------------------------------
# FEDBLOG_CLI lets the scenario run the CLI mid-way (the account bea and her token; alice's
# aliases and move), with the FEDBLOG_* settings exported above.
PEER_PORT="$PEER_PORT" FEDBLOG_BASE="$BASE" FEDBLOG_USER="$USERNAME" FEDBLOG_TOKEN="$TOKEN" \
    FEDBLOG_CLI="$BIN" "$NODE" "$HERE/peer.mjs" &
PEER_PID=$!
set +e
wait "$PEER_PID"
rc=$?
set -e
PEER_PID=""
if [[ "$rc" != 0 ]]; then
    echo "run.sh: activitypub-peer scenario failed with exit code $rc" >&2
    print_log_tail
    exit "$rc"
fi

# --- nothing secret in the log ----------------------------------------------------------------
no_secrets_in "$LOG" "$PASSWORD" "$TOKEN"
exit 0
