"""A mail sink for the SMTP scenario: aiosmtpd on 127.0.0.1:PORT keeping every message it is
given as a file in a folder (NNNN.eml, written whole then renamed), until it is stopped.

    python sink.py --port PORT --dir FOLDER
"""

import argparse
import itertools
import os
import signal
import threading

from aiosmtpd.controller import Controller


class Keep:
    """Writes each message, with its envelope recipients as an X-Envelope-To header."""

    def __init__(self, folder):
        self.folder = folder
        self.numbers = itertools.count(1)
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            n = next(self.numbers)
        head = "".join(f"X-Envelope-To: {r}\r\n" for r in envelope.rcpt_tos).encode()
        tmp = os.path.join(self.folder, f".{n:04}.tmp")
        with open(tmp, "wb") as f:
            f.write(head + envelope.original_content)
        os.rename(tmp, os.path.join(self.folder, f"{n:04}.eml"))
        return "250 Message accepted"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--dir", required=True)
    a = p.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    controller = Controller(Keep(a.dir), hostname="127.0.0.1", port=a.port)
    controller.start()
    print(f"sink: listening on 127.0.0.1:{a.port}, keeping mail in {a.dir}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
