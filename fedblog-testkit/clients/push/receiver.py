"""A stand-in push service for the Web Push scenario: an HTTP server on 127.0.0.1 that plays the
part a browser vendor's push service plays, built only on independent libraries.

Each subscription the scenario makes (`PushReceiver.subscribe`) gets its own path on the
receiver, a P-256 key pair and a 16-byte auth secret generated here with `cryptography`, as a
browser makes them. Every POST to a path is recorded (headers and body) and checked at once:

- the VAPID `Authorization` header is verified with `py_vapid` (`Vapid02.verify` for
  `vapid t=...,k=...` of the `aes128gcm` encoding, `Vapid01.verify` against the `p256ecdsa=` key
  of `Crypto-Key` for `WebPush <JWT>` of the older `aesgcm` encoding), the key is the server's
  published VAPID key, and the JWT's claims hold `aud` = this receiver's origin, an `exp` in the
  future and at most 24 hours on, and a `sub` that is a `mailto:` or `https:` URL;
- the body is decrypted with `http_ece` (`aes128gcm`, or `aesgcm` with the salt of `Encryption`
  and the `dh` key of `Crypto-Key`) using the subscription's private key and auth secret, and
  parsed as JSON.

What went wrong is kept on the message (`problems`) for the scenario to assert. A path can be
told to answer 410 Gone (`answer_gone`), as a push service answers for an expired subscription;
otherwise the receiver answers 201 Created.
"""

from __future__ import annotations

import base64
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid01, Vapid02

MAX_BODY = 64 * 1024  # more than any push message; a larger POST is refused unread


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    text = text.strip().replace("+", "-").replace("/", "_").rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Message:
    """One POST the receiver got on a subscription's path."""

    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes
    status: int  # what the receiver answered
    received_at: float
    encoding: str = ""
    claims: dict[str, Any] = field(default_factory=dict)
    plaintext: bytes | None = None
    payload: Any = None
    problems: list[str] = field(default_factory=list)


@dataclass
class Subscription:
    """A subscription as a browser holds it: endpoint, keys, and what arrived for it."""

    name: str
    path: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        return b64url(point)

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)


class PushReceiver:
    """The push service: start() it, subscribe() per subscription, read messages(path)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._subs: dict[str, Subscription] = {}
        self._messages: dict[str, list[Message]] = {}
        self._gone: set[str] = set()
        self._stray: list[str] = []  # requests to paths no subscription owns, or not POST
        self.server_key: bytes | None = None  # the server's VAPID public key, once known
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                receiver._handle_post(self)

            def do_GET(self) -> None:  # noqa: N802
                receiver._note_stray(f"GET {self.path}")
                self.send_response(405)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # --- life cycle ---------------------------------------------------------------------------

    def start(self) -> "PushReceiver":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    # --- what the scenario asks ---------------------------------------------------------------

    def subscribe(self, name: str) -> Subscription:
        """A new subscription with its own path, key pair and auth secret."""
        path = f"/push/{name}/{b64url(os.urandom(9))}"
        sub = Subscription(
            name=name,
            path=path,
            endpoint=self.origin + path,
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth_secret=os.urandom(16),
        )
        with self._lock:
            self._subs[path] = sub
            self._messages[path] = []
        return sub

    def answer_gone(self, sub: Subscription) -> None:
        """From now on, POSTs to this subscription's path get 410 Gone."""
        with self._lock:
            self._gone.add(sub.path)

    def messages(self, sub: Subscription) -> list[Message]:
        with self._lock:
            return list(self._messages[sub.path])

    def stray(self) -> list[str]:
        with self._lock:
            return list(self._stray)

    def wait_for(self, sub: Subscription, count: int, timeout: float) -> list[Message]:
        """Waits until the subscription has at least `count` messages, or the time is up."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self._messages[sub.path]) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            return list(self._messages[sub.path])

    # --- the push service's side ----------------------------------------------------------------

    def _note_stray(self, what: str) -> None:
        with self._lock:
            self._stray.append(what)

    def _handle_post(self, req: BaseHTTPRequestHandler) -> None:
        path = req.path
        length = int(req.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._note_stray(f"POST {path}: {length} bytes")
            req.send_response(413)
            req.send_header("Content-Length", "0")
            req.end_headers()
            return
        body = req.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in req.headers.items()}
        with self._lock:
            sub = self._subs.get(path)
            status = 410 if path in self._gone else 201
        if sub is None:
            self._note_stray(f"POST {path}")
            status = 404
        req.send_response(status)
        req.send_header("Content-Length", "0")
        if status == 201:
            req.send_header("Location", f"{self.origin}/message/{b64url(os.urandom(6))}")
        req.end_headers()
        if sub is None:
            return
        msg = Message(path, headers, body, status, time.time())
        self._check(sub, msg)
        with self._lock:
            self._messages[path].append(msg)
            self._lock.notify_all()

    def _check(self, sub: Subscription, msg: Message) -> None:
        """Verifies the VAPID header and decrypts the body, noting every problem on `msg`."""
        h = msg.headers
        problems = msg.problems
        msg.encoding = h.get("content-encoding", "").strip().lower()
        if h.get("content-type", "").split(";")[0].strip() != "application/octet-stream":
            problems.append(f"Content-Type is {h.get('content-type')!r}")
        ttl = h.get("ttl")
        if ttl is None or not ttl.strip().isdigit():
            problems.append(f"TTL is {ttl!r}, not a number of seconds")
        urgency = h.get("urgency")
        if urgency is not None and urgency not in ("very-low", "low", "normal", "high"):
            problems.append(f"Urgency is {urgency!r}")
        auth = h.get("authorization", "")
        try:
            if msg.encoding == "aes128gcm":
                jwt, key = self._check_vapid_standard(auth)
                msg.plaintext = http_ece.decrypt(
                    msg.body,
                    private_key=sub.private_key,
                    auth_secret=sub.auth_secret,
                    version="aes128gcm",
                )
            elif msg.encoding == "aesgcm":
                jwt, key, salt, dh = self._check_vapid_legacy(auth, h)
                msg.plaintext = http_ece.decrypt(
                    msg.body,
                    salt=salt,
                    dh=dh,
                    private_key=sub.private_key,
                    auth_secret=sub.auth_secret,
                    version="aesgcm",
                )
            else:
                problems.append(f"Content-Encoding is {msg.encoding!r}")
                return
        except Exception as err:  # noqa: BLE001 - every failure is a finding
            problems.append(f"{type(err).__name__}: {err}")
            return
        if self.server_key is not None and key != self.server_key:
            problems.append("the VAPID key is not the server's published vapid public_key")
        msg.claims = self._check_claims(jwt, problems)
        try:
            msg.payload = json.loads(msg.plaintext.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as err:
            problems.append(f"the payload is not JSON: {err}: {msg.plaintext[:200]!r}")

    @staticmethod
    def _check_vapid_standard(auth: str) -> tuple[str, bytes]:
        """`vapid t=<JWT>,k=<key>` (RFC 8292), verified by py_vapid."""
        scheme, _, rest = auth.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"Authorization scheme {scheme!r}, not vapid")
        if not Vapid02.verify(auth):
            raise ValueError("py_vapid: the VAPID signature does not verify")
        params = dict(p.strip().split("=", 1) for p in rest.split(","))
        return params["t"], unb64url(params["k"])

    @staticmethod
    def _check_vapid_legacy(auth: str, h: dict[str, str]) -> tuple[str, bytes, bytes, bytes]:
        """`WebPush <JWT>` with `Crypto-Key: dh=...;p256ecdsa=...` and `Encryption: salt=...`."""
        scheme, _, jwt = auth.partition(" ")
        if scheme.lower() != "webpush":
            raise ValueError(f"Authorization scheme {scheme!r}, not WebPush")
        crypto_key = dict(
            p.strip().split("=", 1) for p in re.split(r"[;,]", h.get("crypto-key", "")) if p.strip()
        )
        encryption = dict(
            p.strip().split("=", 1) for p in re.split(r"[;,]", h.get("encryption", "")) if p.strip()
        )
        for name, params, key in (
            ("Crypto-Key", crypto_key, "dh"),
            ("Crypto-Key", crypto_key, "p256ecdsa"),
            ("Encryption", encryption, "salt"),
        ):
            if key not in params:
                raise ValueError(f"{name} has no {key}=: {h.get(name.lower())!r}")
        if not Vapid01.verify(crypto_key["p256ecdsa"], auth):
            raise ValueError("py_vapid: the VAPID signature does not verify")
        return (
            jwt.strip(),
            unb64url(crypto_key["p256ecdsa"]),
            unb64url(encryption["salt"]),
            unb64url(crypto_key["dh"]),
        )

    def _check_claims(self, jwt: str, problems: list[str]) -> dict[str, Any]:
        try:
            head_b64, claims_b64, _sig = jwt.split(".")
            head = json.loads(unb64url(head_b64))
            claims = json.loads(unb64url(claims_b64))
        except ValueError as err:
            problems.append(f"the JWT does not parse: {err}")
            return {}
        if head.get("alg") != "ES256" or head.get("typ", "JWT") != "JWT":
            problems.append(f"JWT header {head}")
        if claims.get("aud") != self.origin:
            problems.append(f"JWT aud {claims.get('aud')!r}, expected {self.origin!r}")
        exp = claims.get("exp")
        now = time.time()
        if not isinstance(exp, int) or exp <= now or exp > now + 24 * 3600 + 60:
            problems.append(f"JWT exp {exp!r} is not in the next 24 hours (now {int(now)})")
        sub = claims.get("sub")
        if not isinstance(sub, str) or not (sub.startswith("mailto:") or sub.startswith("https:")):
            problems.append(f"JWT sub {sub!r} is not a mailto: or https: URL")
        return claims
