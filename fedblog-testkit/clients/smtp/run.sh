#!/usr/bin/env bash
# Run the SMTP scenario against a freshly started fedblog server.
#
#   bash fedblog-testkit/clients/smtp/run.sh /path/to/fedblog-server-binary
#
# Creates/reuses fedblog-testkit/clients/smtp/.venv, starts a mail sink (aiosmtpd, sink.py) on a
# free loopback port, starts the server with a throwaway data dir (a fresh SQLite database) and
# FEDBLOG_SMTP_* pointing at the sink (no TLS), runs scenario.py (sign-up confirmation, resend,
# password reset, change of address, a mention by e-mail), stops both. Exits with the scenario's
# exit code. Set KEEP_TMP=1 to keep the data dir, the mails and the server log.
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
TITLE="SMTP Scenario"

ensure_venv "$VENV" "$HERE/requirements.txt"
server_run_dirs smtp
MAIL_DIR="$LOG_DIR/mail"
SINK_LOG="$LOG_DIR/sink.log"

# --- the mail sink ------------------------------------------------------------------------------
SMTP_PORT="$(free_port)"
"$VENV/bin/python" "$HERE/sink.py" --port "$SMTP_PORT" --dir "$MAIL_DIR" >"$SINK_LOG" 2>&1 &
EXTRA_PIDS="$!"
for _ in $(seq 1 100); do
    "$PYTHON" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' "$SMTP_PORT" 2>/dev/null && break
    kill -0 "$EXTRA_PIDS" 2>/dev/null || { echo "run.sh: the mail sink exited:" >&2; cat "$SINK_LOG" >&2; exit 1; }
    sleep 0.1
done
echo "run.sh: mail sink on 127.0.0.1:$SMTP_PORT"

# --- the server, sending through the sink ---------------------------------------------------------
PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"
export FEDBLOG_LISTEN="127.0.0.1:$PORT"
export FEDBLOG_DOMAIN="127.0.0.1:$PORT"
export FEDBLOG_DATA_DIR="$DATA_DIR"
export FEDBLOG_RATE_LIMITS="$TEST_RATE_LIMITS"
export FEDBLOG_TITLE="$TITLE"
export FEDBLOG_WORKER_POLL_MS=100
export FEDBLOG_SMTP_SERVER=127.0.0.1
export FEDBLOG_SMTP_PORT="$SMTP_PORT"
export FEDBLOG_SMTP_TLS=none
export FEDBLOG_SMTP_FROM="SMTP Scenario <notifications@example.com>"

echo "run.sh: starting $BIN serve on $BASE (data dir $DATA_DIR)"
"$BIN" serve >"$LOG" 2>&1 &
SERVER_PID=$!
wait_ready "$BASE/api/v1/instance" "$SERVER_PID" "$LOG" 30 || exit 1
if ! grep -q "e-mail is sent through SMTP" "$LOG"; then
    echo "run.sh: the server did not say it sends e-mail through SMTP" >&2
    print_log_tail
    exit 1
fi
echo "run.sh: server ready"

set +e
"$VENV/bin/python" "$HERE/scenario.py" --base-url "$BASE" --mail-dir "$MAIL_DIR" --title "$TITLE"
rc=$?
set -e
if [[ "$rc" != 0 ]]; then
    echo "run.sh: scenario failed with exit code $rc" >&2
    echo "----- mail sink log -----" >&2
    cat "$SINK_LOG" >&2 || true
    print_log_tail
    exit "$rc"
fi

# --- nothing secret in the log: the passwords and the links' tokens the mails carried ----------
mapfile -t SECRETS < <(grep -rhoE '(confirmation_token|reset_password_token|token)=[A-Za-z0-9_-]{20,}' "$MAIL_DIR" | cut -d= -f2 | sort -u)
no_secrets_in "$LOG" "correct horse battery" "a brand new password" "${SECRETS[@]}"
exit 0
