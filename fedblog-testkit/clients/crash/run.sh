#!/usr/bin/env bash
# Crash test: SIGKILL and SIGTERM a fedblog server while clients write, on SQLite and on
# PostgreSQL, and check that nothing acknowledged is lost and every job gets done.
#
#   bash fedblog-testkit/clients/crash/run.sh /path/to/fedblog-server-binary
#
# SQLite runs in a temp data dir. PostgreSQL must run on 127.0.0.1:5432 with user postgres and
# trust authentication (PGHOST/PGPORT/PGUSER override): the test creates a throwaway database
# fedblog_crash_<pid> and drops it at the end. If PostgreSQL is not there, the test fails.
# Needs python3 (3.11, standard library only) and psql. Everything stays on the loopback
# interface and ends within CRASH_TIMEOUT seconds (default 230). Extra arguments after the
# binary go to crash.py (e.g. --rounds 2 --engines sqlite --seed 42).
# Prints figures per engine and a last line "N passed, M failed"; exits non-zero on any loss.
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: bash $0 /path/to/fedblog-server-binary [crash.py options]" >&2
    exit 2
fi

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
source "$HERE/../lib.sh"
server_binary "$1"
shift

PYTHON="${PYTHON:-python3}"
PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
DB="fedblog_crash_$$"
PG_ADMIN="postgres://$PGUSER@$PGHOST:$PGPORT/postgres"
PG_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$DB"
CREATED=""

cleanup() {
    local rc=$?
    if [[ -n "$CREATED" ]]; then
        psql "$PG_ADMIN" -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 ||
            echo "run.sh: could not drop the database $DB" >&2
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

PG_ARGS=(--pg-url "$PG_URL")
if ! command -v psql >/dev/null; then
    echo "run.sh: psql is missing: the PostgreSQL half of the crash test fails (it does not skip)" >&2
    PG_ARGS=()
elif ! psql "$PG_ADMIN" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $DB" >/dev/null; then
    echo "run.sh: PostgreSQL at $PGHOST:$PGPORT (user $PGUSER) is not usable: the PostgreSQL half of the crash test fails (it does not skip)" >&2
    PG_ARGS=()
else
    CREATED=1
fi

set +e
timeout --kill-after=10 "${CRASH_TIMEOUT:-230}" "$PYTHON" "$HERE/crash.py" --bin "$BIN" "${PG_ARGS[@]}" "$@"
rc=$?
set -e
if [[ $rc == 124 || $rc == 137 ]]; then
    echo "run.sh: the crash test did not finish within ${CRASH_TIMEOUT:-230} s" >&2
    echo "0 passed, 1 failed"
fi
exit "$rc"
