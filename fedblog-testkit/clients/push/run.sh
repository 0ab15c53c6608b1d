#!/usr/bin/env bash
# Run the Web Push scenario against a freshly started fedblog server.
#
#   bash fedblog-testkit/clients/push/run.sh /path/to/fedblog-server-binary
#
# Creates/reuses fedblog-testkit/clients/push/.venv (http_ece, py_vapid, cryptography and
# requests, pinned in requirements.txt), generates a VAPID private key with `cryptography` (so the
# scenario can check the key the instance publishes), starts the server on a free loopback port
# with a throwaway data dir and FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true (the push service, a
# receiver in scenario.py's process, is on 127.0.0.1), creates alice (five tokens, one per push
# subscription) and bob, runs scenario.py, stops the server, and checks that no token or the
# VAPID private key reached the server log.
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

# --- temp data dir, port, VAPID key, server -------------------------------------------------
server_run_dirs push

PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"

export FEDBLOG_LISTEN="127.0.0.1:$PORT"
export FEDBLOG_DOMAIN="127.0.0.1:$PORT"
export FEDBLOG_DATA_DIR="$DATA_DIR"
export FEDBLOG_RATE_LIMITS="$TEST_RATE_LIMITS"
# Pushes go to the receiver on loopback.
export FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true
# The VAPID JWT's `sub`.
export FEDBLOG_CONTACT_EMAIL="admin@example.com"
# The 32-byte scalar in padded base64url, as Mastodon's VAPID_PRIVATE_KEY holds it.
FEDBLOG_VAPID_PRIVATE_KEY="$("$VENV/bin/python" -c '
import base64
from cryptography.hazmat.primitives.asymmetric import ec
key = ec.generate_private_key(ec.SECP256R1())
print(base64.urlsafe_b64encode(key.private_numbers().private_value.to_bytes(32, "big")).decode())
')"
export FEDBLOG_VAPID_PRIVATE_KEY

echo "run.sh: starting $BIN serve on $BASE (data dir $DATA_DIR)"
"$BIN" serve >"$LOG" 2>&1 &
SERVER_PID=$!

# --- wait for GET /api/v1/instance -> 200 (max 30 s) --------------------------------------
wait_ready "$BASE/api/v1/instance" "$SERVER_PID" "$LOG" 30 || exit 1
echo "run.sh: server ready"

# --- accounts and tokens (the token is the CLI's last line) ----------------------------------
TOKENS="$LOG_DIR/tokens.json"
for name in alice bob; do
    "$BIN" accounts create "$name" --email "$name@example.com" --password "$PASSWORD" \
        --confirmed --approved >>"$ACCOUNTS_LOG" 2>&1 || {
        echo "run.sh: creating $name failed:" >&2
        cat "$ACCOUNTS_LOG" >&2
        exit 1
    }
done
{
    echo "{"
    sep=""
    for key in alice_all alice_none alice_followed alice_legacy alice_gone bob; do
        token="$("$BIN" tokens create "${key%%_*}" 2>>"$ACCOUNTS_LOG" | tail -n 1)"
        printf '%s  "%s": "%s"\n' "$sep" "$key" "$token"
        sep=","
    done
    echo "}"
} >"$TOKENS"
echo "run.sh: alice (5 tokens) and bob ready"

# --- scenario -----------------------------------------------------------------------------
set +e
"$VENV/bin/python" "$HERE/scenario.py" --base-url "$BASE" --tokens "$TOKENS"
rc=$?
set -e
if [[ "$rc" != 0 ]]; then
    echo "run.sh: push scenario failed with exit code $rc" >&2
    print_log_tail
    exit "$rc"
fi

# --- nothing secret in the log ---------------------------------------------------------------
mapfile -t SECRETS < <("$VENV/bin/python" -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1])).values()))' "$TOKENS")
no_secrets_in "$LOG" "$PASSWORD" "$FEDBLOG_VAPID_PRIVATE_KEY" "${FEDBLOG_VAPID_PRIVATE_KEY%%=*}" "${SECRETS[@]}"
exit 0
