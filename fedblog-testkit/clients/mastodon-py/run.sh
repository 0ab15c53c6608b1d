#!/usr/bin/env bash
# Run the Mastodon.py real-client scenario against a freshly started fedblog server.
#
#   bash fedblog-testkit/clients/mastodon-py/run.sh /path/to/fedblog-server-binary
#
# Creates/reuses fedblog-testkit/clients/mastodon-py/.venv, starts the server on a free loopback port with a
# throwaway data dir, creates a confirmed+approved account, runs scenario.py, stops the server.
# Then creates more accounts with tokens and runs the token-based scenarios (social.py,
# statuses.py, reading.py, filters.py, conversations.py, notification_requests.py, admin.py; see
# the loop at the end), and finally starts two federating servers for the federated search scenario.
# Exits with the first failing script's exit code. Set KEEP_TMP=1 to keep the data dir and server log.
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
USERNAME="alice"
EMAIL="alice@example.com"
PASSWORD="correct horse battery"
FANS=25  # followers created for the pagination steps of social.py

# --- virtualenv ---------------------------------------------------------------------------
ensure_venv "$VENV" "$HERE/requirements.txt"

# --- temp data dir, port, server ----------------------------------------------------------
server_run_dirs mastodon-py

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

# --- account ------------------------------------------------------------------------------
if ! "$BIN" accounts create "$USERNAME" --email "$EMAIL" --password "$PASSWORD" --confirmed --approved >"$ACCOUNTS_LOG" 2>&1; then
    echo "run.sh: '$BIN accounts create $USERNAME' failed:" >&2
    cat "$ACCOUNTS_LOG" >&2 || true
    print_log_tail
    exit 1
fi
echo "run.sh: account $USERNAME created"

# --- scenario -----------------------------------------------------------------------------
set +e
"$VENV/bin/python" "$HERE/scenario.py" --base-url "$BASE" --username "$USERNAME" --password "$PASSWORD"
rc=$?
set -e
if [[ "$rc" != 0 ]]; then
    echo "run.sh: scenario failed with exit code $rc" >&2
    print_log_tail
    exit "$rc"
fi

# --- social-graph scenario: more accounts, each with a token from the CLI -------------------
TOKENS="$LOG_DIR/tokens.json"
{
    echo "{"
    sep=""
    for name in alice bob carol dave erin $(seq -f 'fan%02g' 1 "$FANS"); do
        if [[ "$name" != alice ]]; then
            "$BIN" accounts create "$name" --email "$name@example.com" --password "$PASSWORD" \
                --confirmed --approved >>"$ACCOUNTS_LOG" 2>&1 || {
                echo "run.sh: creating $name failed:" >&2
                cat "$ACCOUNTS_LOG" >&2
                exit 1
            }
        fi
        token="$("$BIN" tokens create "$name" 2>>"$ACCOUNTS_LOG" | tail -n 1)"
        printf '%s  "%s": "%s"\n' "$sep" "$name" "$token"
        sep=","
    done
    # Staff for admin.py: an administrator and a moderator with admin scopes, and erin's token
    # with admin scopes (a normal user: refused).
    for staff in boss:admin mod:moderator; do
        name="${staff%%:*}"
        "$BIN" accounts create "$name" --email "$name@example.com" --password "$PASSWORD" \
            --role "${staff##*:}" --confirmed --approved >>"$ACCOUNTS_LOG" 2>&1 || {
            echo "run.sh: creating $name failed:" >&2
            cat "$ACCOUNTS_LOG" >&2
            exit 1
        }
        token="$("$BIN" tokens create "$name" --scopes "read write follow push admin:read admin:write" 2>>"$ACCOUNTS_LOG" | tail -n 1)"
        printf ',  "%s": "%s"\n' "$name" "$token"
    done
    token="$("$BIN" tokens create erin --scopes "read write admin:read admin:write" 2>>"$ACCOUNTS_LOG" | tail -n 1)"
    printf ',  "erin_admin": "%s"\n' "$token"
    echo "}"
} >"$TOKENS"
echo "run.sh: $((FANS + 5)) accounts with tokens ready"

# --- token-based scenarios, in order: each uses the accounts and follows the earlier ones left ---
# social.py (the social graph), statuses.py (threads, interactions, edits, scheduling, deletion),
# reading.py (notifications, markers, home, list and hashtag paging, v2 search), filters.py (filters),
# conversations.py (direct messages and the link timeline), notification_requests.py, admin.py
# (reports, the admin API, suspension and server-wide blocks).
for scenario in social statuses reading filters conversations notification_requests admin trends custom_emojis quotes announcements; do
    set +e
    "$VENV/bin/python" "$HERE/$scenario.py" --base-url "$BASE" --tokens "$TOKENS"
    rc=$?
    set -e
    if [[ "$rc" != 0 ]]; then
        echo "run.sh: $scenario scenario failed with exit code $rc" >&2
        print_log_tail
        exit "$rc"
    fi
done

# --- federated search: two more servers on loopback, federating (the ones above do not, since
# their scenarios name addresses anywhere); carol on the first resolves faraway's account and
# status on the second ---
FED_LOG="$LOG_DIR/federated-servers.log"
EXTRA_PIDS=""
for side in near far; do
    port="$(free_port)"
    mkdir -p "$DATA_DIR/$side"
    env_of=(env FEDBLOG_DATA_DIR="$DATA_DIR/$side" FEDBLOG_DOMAIN="127.0.0.1:$port"
        FEDBLOG_LISTEN="127.0.0.1:$port" FEDBLOG_FEDERATION=true FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true)
    "${env_of[@]}" "$BIN" serve >>"$FED_LOG" 2>&1 &
    EXTRA_PIDS="$EXTRA_PIDS $!"
    wait_ready "http://127.0.0.1:$port/api/v1/instance" "$!" "$FED_LOG" 30 || exit 1
    user="$([[ $side == near ]] && echo carol || echo faraway)"
    "${env_of[@]}" "$BIN" accounts create "$user" --email "$user@example.com" --password "$PASSWORD" \
        --confirmed --approved >>"$ACCOUNTS_LOG" 2>&1 || {
        echo "run.sh: creating $user on the $side server failed:" >&2
        tail -n 40 "$ACCOUNTS_LOG" >&2
        exit 1
    }
    # Not a pipeline under `set -e`: a failing CLI would end the script without a word.
    token_out="$("${env_of[@]}" "$BIN" tokens create "$user" 2>>"$ACCOUNTS_LOG")" || token_out=""
    token="$(printf '%s\n' "$token_out" | tail -n 1)"
    if [[ -z "$token" ]]; then
        echo "run.sh: no token for $user on the $side server:" >&2
        tail -n 40 "$ACCOUNTS_LOG" >&2
        exit 1
    fi
    if [[ $side == near ]]; then NEAR_BASE="http://127.0.0.1:$port"; NEAR_TOKEN="$token"
    else FAR_BASE="http://127.0.0.1:$port"; FAR_TOKEN="$token"; fi
done
set +e
"$VENV/bin/python" "$HERE/federated_search.py" --base-url "$NEAR_BASE" --token "$NEAR_TOKEN" \
    --remote-base-url "$FAR_BASE" --remote-token "$FAR_TOKEN"
rc=$?
set -e
if [[ "$rc" != 0 ]]; then
    echo "run.sh: federated search scenario failed with exit code $rc" >&2
    echo "----- the federating servers' log (last 100 lines) -----" >&2
    tail -n 100 "$FED_LOG" >&2 || true
    exit "$rc"
fi

# --- nothing secret in the log: the password and every token the scenarios used ---------------
mapfile -t SECRETS < <("$VENV/bin/python" -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1])).values()))' "$TOKENS")
no_secrets_in "$LOG" "$PASSWORD" "${SECRETS[@]}"
no_secrets_in "$FED_LOG" "$PASSWORD" "$NEAR_TOKEN" "$FAR_TOKEN"
exit 0
