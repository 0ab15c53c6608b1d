#!/usr/bin/env python3
"""A stand-in for fedblog-server that misbehaves on purpose, to check that run.sh catches it.

    FAKE_MODE=5xx   bash fedblog-testkit/clients/fuzz/run.sh fedblog-testkit/clients/fuzz/fake_server.py   # must fail: HTTP 500
    FAKE_MODE=hang  bash fedblog-testkit/clients/fuzz/run.sh fedblog-testkit/clients/fuzz/fake_server.py   # must fail: timeout
    FAKE_MODE=crash bash fedblog-testkit/clients/fuzz/run.sh fedblog-testkit/clients/fuzz/fake_server.py   # must fail: process dies
    FAKE_MODE=ok    bash fedblog-testkit/clients/fuzz/run.sh fedblog-testkit/clients/fuzz/fake_server.py   # must pass

(add FUZZ_MAX_TIME=20 FUZZ_REQUEST_TIMEOUT=3 to make it quick). It answers the CLI calls run.sh
makes (`accounts create`, `tokens create`) and serves HTTP on FEDBLOG_LISTEN: 200 for
GET /api/v1/instance, 405 for other methods and 404 elsewhere, except GET /api/v1/preferences
(500 in 5xx mode), GET /api/v1/markers (never answers in hang mode) and
GET /api/v1/custom_emojis (the process exits in crash mode).
"""

import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = os.environ.get("FAKE_MODE", "ok")


class Handler(BaseHTTPRequestHandler):
    def _answer(self):
        path = self.path.split("?")[0]
        length = int(self.headers.get("content-length") or 0)
        if length:
            self.rfile.read(length)
        get = self.command == "GET"
        if path == "/api/v1/instance":
            return self._send(200 if get else 405, b"{}")
        if get and path == "/api/v1/preferences" and MODE == "5xx":
            return self._send(500, b'{"error":"boom"}')
        if get and path == "/api/v1/markers" and MODE == "hang":
            time.sleep(3600)
        if get and path == "/api/v1/custom_emojis" and MODE == "crash":
            print("thread 'main' panicked at fake_server.py: crash mode", file=sys.stderr, flush=True)
            os._exit(101)
        return self._send(404, b'{"error":"Record not found"}')

    def _send(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_TRACE = do_QUERY = _answer

    def log_message(self, fmt, *args):
        print(f"request method={self.command} path={self.path}", file=sys.stderr, flush=True)


def main() -> int:
    command = sys.argv[1] if len(sys.argv) > 1 else "serve"
    if command == "accounts":
        return 0
    if command == "tokens":
        print(f"token for @{sys.argv[3] if len(sys.argv) > 3 else 'x'}:")
        print("fake-token")
        return 0
    if command != "serve":
        return 2
    host, port = os.environ["FEDBLOG_LISTEN"].rsplit(":", 1)
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer((host, int(port)), Handler).serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
