"""Schemathesis hooks for fedblog-testkit/clients/fuzz/run.sh (loaded through SCHEMATHESIS_HOOKS=this file).

Two jobs, both independent of schemathesis's own report format:

1. Network guard. Every connection this process opens must go to 127.0.0.1 (the fuzzed server).
   `socket.getaddrinfo` and `socket.socket.connect` are wrapped: any other host is refused before
   a packet leaves, recorded in the journal as a "guard" entry, and run.sh then fails the step.
2. Journal. Every request schemathesis sends (after_call) or fails to complete (after_network_error:
   timeouts, refused or reset connections) is appended as one JSON line to $FUZZ_JOURNAL: method,
   URL, operation, status, elapsed time, body and a curl command that replays it exactly.
   report.py reads it to count cases and to print the failing ones.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import sys
import threading
import time

import schemathesis

JOURNAL = os.environ.get("FUZZ_JOURNAL")
ALLOWED_HOSTS = {"127.0.0.1"}
# Request headers left out of the curl reproduction: curl sets its own or they are noise.
SKIP_HEADERS = {"user-agent", "accept-encoding", "connection", "content-length", "x-schemathesis-testcaseid"}
BODY_LIMIT = 4000

_lock = threading.Lock()


def _write(record: dict) -> None:
    if not JOURNAL:
        return
    line = json.dumps(record, ensure_ascii=False)
    with _lock, open(JOURNAL, "a", encoding="utf-8") as f:
        f.write(line + "\n")


# --- 1. network guard ---------------------------------------------------------------------------

def _allowed(host) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    return host in ALLOWED_HOSTS


def _refuse(what: str, host) -> None:
    _write({"kind": "guard", "time": time.time(), "what": what, "host": str(host)})
    print(f"fuzz guard: refused a connection to non-loopback host {host!r} ({what})", file=sys.stderr)
    raise ConnectionRefusedError(f"fuzz guard: only 127.0.0.1 may be contacted, not {host!r}")


_real_getaddrinfo = socket.getaddrinfo


def _guarded_getaddrinfo(host, *args, **kwargs):
    if host is not None and not _allowed(host):
        _refuse("getaddrinfo", host)
    return _real_getaddrinfo(host, *args, **kwargs)


def _guard_address(address) -> None:
    # AF_INET / AF_INET6 addresses are tuples whose first item is the host; AF_UNIX paths are local.
    if isinstance(address, tuple) and address and not _allowed(address[0]):
        _refuse("connect", address[0])


class _GuardedSocket(socket.socket):
    def connect(self, address):  # noqa: D401
        _guard_address(address)
        return super().connect(address)

    def connect_ex(self, address):
        _guard_address(address)
        return super().connect_ex(address)


socket.getaddrinfo = _guarded_getaddrinfo
socket.socket = _GuardedSocket  # urllib3 creates its sockets through socket.socket


# --- 2. journal ---------------------------------------------------------------------------------

def _body_text(body) -> tuple[str | None, bool]:
    """The body as text and whether it was cut; non-UTF-8 bytes are written as \\xNN escapes."""
    if body is None:
        return None, False
    if isinstance(body, str):
        raw = body
    else:
        try:
            raw = bytes(body).decode("utf-8")
        except UnicodeDecodeError:
            raw = bytes(body).decode("utf-8", "backslashreplace")
    return raw[:BODY_LIMIT], len(raw) > BODY_LIMIT


def _curl(request) -> str:
    parts = ["curl", "-sS", "-i", "-X", request.method]
    for name, value in request.headers.items():
        if name.lower() in SKIP_HEADERS:
            continue
        parts += ["-H", f"{name}: {value}"]
    body = request.body
    if body is not None:
        data = body if isinstance(body, bytes) else str(body).encode("utf-8")
        try:
            parts += ["--data-binary", data.decode("utf-8")]
        except UnicodeDecodeError:
            # Not text: replay it through printf, which turns the \xNN escapes back into bytes.
            escaped = "".join(f"\\x{b:02x}" for b in data)
            return f"printf '%b' {shlex.quote(escaped)} | " + shlex.join(parts + ["--data-binary", "@-", request.url])
    parts.append(request.url)
    return shlex.join(parts)


def _record(kind: str, case, request, **extra) -> None:
    body, cut = _body_text(getattr(request, "body", None))
    phase = None
    meta = getattr(case, "meta", None)
    if meta is not None:
        try:
            phase = meta.phase.name.value
        except AttributeError:
            phase = None
    _write(
        {
            "kind": kind,
            "time": time.time(),
            "operation": f"{case.operation.method.upper()} {case.operation.path}",
            "phase": phase,
            "method": request.method,
            "url": request.url,
            "body": body,
            "body_cut": cut,
            "curl": _curl(request),
            **extra,
        }
    )


@schemathesis.hook
def after_call(context, case, response):
    request = response.request
    _record(
        "response",
        case,
        request,
        status=response.status_code,
        elapsed=round(response.elapsed, 3),
        response_body=(response.text or "")[:1000],
    )


@schemathesis.hook
def after_network_error(context, case, request):
    # Called inside schemathesis's `except` block, so the error is the one being handled.
    exc = sys.exc_info()[1]
    _record("network_error", case, request, error=f"{type(exc).__name__}: {exc}" if exc else "unknown")
