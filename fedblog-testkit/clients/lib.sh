# Helpers shared by the client scripts (fedblog-testkit/clients/*/run.sh). Source it; it runs nothing itself.
# Uses $PYTHON (default python3) for the small network probes.

# The rate limits of the servers these scripts start (FEDBLOG_RATE_LIMITS), as the Rust test
# servers have them (fedblog-server/tests/common): posting and following keep Mastodon's
# limits, the rest are raised, since a whole suite runs from one address with a few accounts.
# The servers these scenarios start reach no other server: a client may name any address
# (`POST /api/v1/follows uri=x@host`, a mention of @x@host), and tests send traffic only to
# loopback. The ActivityPub scenario turns federation back on for its loopback peer.
export FEDBLOG_FEDERATION=false

TEST_RATE_LIMITS='*=100000/1m,statuses=300/3h,follows=400/1d'

# abs_path PATH_OR_COMMAND: an absolute path (a bare name is looked up on PATH); empty if none.
abs_path() {
    if [[ "$1" != */* ]]; then
        command -v -- "$1" || true
    elif [[ -e "$1" ]]; then
        echo "$(cd "$(dirname -- "$1")" && pwd)/$(basename -- "$1")"
    fi
}

# ensure_venv VENV REQUIREMENTS: creates the virtualenv if it is missing and installs the pinned
# requirements into it.
ensure_venv() {
    # A virtualenv that was moved (its scripts name the old folder) is made anew.
    if [[ -x "$1/bin/python" ]] && ! head -n 1 "$1/bin/pip" 2>/dev/null | grep -qF "$(cd "$1" && pwd)/bin/"; then
        echo "run.sh: $1 was made in another folder; making it anew"
        rm -rf "$1"
    fi
    if [[ ! -x "$1/bin/python" ]]; then
        echo "run.sh: creating virtualenv $1"
        "${PYTHON:-python3}" -m venv "$1"
    fi
    "$1/bin/python" -m pip install --quiet --disable-pip-version-check -r "$2"
}

# server_binary PATH_OR_COMMAND: sets BIN to the server binary's absolute path, or exits 2 saying
# it is missing.
server_binary() {
    BIN="$(abs_path "$1")"
    if [[ -z "$BIN" || ! -x "$BIN" ]]; then
        echo "run.sh: server binary '$1' not found or not executable" >&2
        exit 2
    fi
}

# free_port: prints a free TCP port on the loopback interface.
free_port() {
    "${PYTHON:-python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# wait_ready URL PID LOG [SECONDS]: waits (default 60 s) until URL answers 200. Returns 1, with
# the tail of LOG on stderr, if the process PID exits first or the time runs out.
wait_ready() {
    local deadline=$((SECONDS + ${4:-60}))
    while ((SECONDS < deadline)); do
        if ! kill -0 "$2" 2>/dev/null; then
            echo "run.sh: the server exited before answering; the last lines of $3:" >&2
            tail -n 100 "$3" >&2
            return 1
        fi
        if "${PYTHON:-python3}" -c 'import sys, urllib.request; sys.exit(0 if urllib.request.urlopen(sys.argv[1], timeout=2).status == 200 else 1)' "$1" 2>/dev/null; then
            return 0
        fi
        sleep 0.25
    done
    echo "run.sh: $1 did not answer 200 within ${4:-60} s; the last lines of $3:" >&2
    tail -n 100 "$3" >&2
    return 1
}

# stop_process PID: asks the process to stop, waits up to 5 s, then kills it.
stop_process() {
    kill -0 "$1" 2>/dev/null || return 0
    kill "$1" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$1" 2>/dev/null; then kill -9 "$1" 2>/dev/null || true; fi
    wait "$1" 2>/dev/null || true
}

# no_secrets_in LOG SECRET...: fails, naming none of them, if the log holds any of the secrets
# (tokens, passwords) the run used.
no_secrets_in() {
    local log="$1" found=0 secret
    shift
    for secret in "$@"; do
        [[ -z "$secret" ]] && continue
        if grep -qF -- "$secret" "$log"; then found=$((found + 1)); fi
    done
    if ((found > 0)); then
        echo "run.sh: $found of the $# secrets this run used appear in $log" >&2
        return 1
    fi
    echo "run.sh: none of the $# secrets this run used appears in the server log"
}

# server_run_dirs NAME: makes the temp dirs of a run against one server: DATA_DIR (its data),
# LOG_DIR (logs), LOG (the server's log) and ACCOUNTS_LOG (the CLI's), and installs traps that
# stop $SERVER_PID (and the processes of $EXTRA_PIDS) and remove both dirs at exit (KEEP_TMP=1
# keeps them).
server_run_dirs() {
    DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/fedblog-$1-data.XXXXXX")"
    LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/fedblog-$1-logs.XXXXXX")"
    LOG="$LOG_DIR/server.log"
    ACCOUNTS_LOG="$LOG_DIR/accounts-create.log"
    SERVER_PID=""
    trap _server_run_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

_server_run_cleanup() {
    local rc=$?
    if [[ -n "$SERVER_PID" ]]; then stop_process "$SERVER_PID"; fi
    local pid
    for pid in ${EXTRA_PIDS:-}; do stop_process "$pid"; done
    if [[ "${KEEP_TMP:-0}" == "1" ]]; then
        echo "run.sh: kept data dir $DATA_DIR and logs in $LOG_DIR"
    else
        rm -rf "$DATA_DIR" "$LOG_DIR"
    fi
    exit "$rc"
}

# print_log_tail: the last 200 lines of $LOG, on standard error.
print_log_tail() {
    echo "----- server log (last 200 lines of $LOG) -----" >&2
    tail -n 200 "$LOG" >&2 || true
    echo "----- end of server log -----" >&2
}

# npm_ci DIR PACKAGE: checks for Node 20 or later and npm (exits 2 without them), then installs
# the packages pinned by DIR/package-lock.json with `npm ci`. A stamp in node_modules names the
# lock it was installed from; while it matches and node_modules/PACKAGE is there, nothing is
# installed.
npm_ci() {
    local node="${NODE:-node}" npm="${NPM:-npm}"
    if ! command -v "$node" >/dev/null || ! command -v "$npm" >/dev/null; then
        echo "run.sh: node and npm are needed (Node 20 or later)" >&2
        exit 2
    fi
    local major
    major="$("$node" -p 'process.versions.node.split(".")[0]')"
    if ((major < 20)); then
        echo "run.sh: Node 20 or later is needed, not $("$node" --version)" >&2
        exit 2
    fi
    local stamp="$1/node_modules/.fedblog-lock.sha256" sum
    sum="$(sha256sum "$1/package-lock.json" | cut -d' ' -f1)"
    if [[ -d "$1/node_modules/$2" && -f "$stamp" && "$(cat "$stamp")" == "$sum" ]]; then
        echo "run.sh: node_modules matches package-lock.json; not installing"
    else
        echo "run.sh: npm ci in $1"
        (cd "$1" && "$npm" ci --no-audit --no-fund --loglevel=error)
        echo "$sum" >"$stamp"
    fi
}

# account_with_token NAME PASSWORD: creates the confirmed and approved account NAME with the CLI
# ($BIN) and sets TOKEN to a token of it; exits 1, with the CLI's log, if either fails.
account_with_token() {
    "$BIN" accounts create "$1" --email "$1@example.com" --password "$2" \
        --confirmed --approved >>"$ACCOUNTS_LOG" 2>&1 || {
        echo "run.sh: creating $1 failed:" >&2
        cat "$ACCOUNTS_LOG" >&2
        exit 1
    }
    TOKEN="$("$BIN" tokens create "$1" 2>>"$ACCOUNTS_LOG" | tail -n 1)"
    if [[ -z "$TOKEN" ]]; then
        echo "run.sh: no token for $1:" >&2
        cat "$ACCOUNTS_LOG" >&2
        exit 1
    fi
}
