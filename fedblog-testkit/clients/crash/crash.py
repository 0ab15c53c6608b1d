#!/usr/bin/env python3
"""Crash test of a fedblog server binary: nothing acknowledged is lost, no job is dropped.

For each engine (SQLite in a temp data dir; PostgreSQL on a throwaway database named by
--pg-url), several rounds of:

  start the server; client threads write as fast as it acknowledges (statuses, favourites,
  follows and unfollows, media uploads, scheduled statuses); SIGKILL it at a random moment;
  restart it on the same database; check that every acknowledged (2xx) write is there and that
  the jobs queued or running at the kill get done (each upload gets its preview; each scheduled
  status is published, exactly once) within a bounded wait.

Then one SIGTERM round: a slow multi-MB upload is in flight and the worker holds a batch of
claimed jobs when SIGTERM arrives; the upload must be answered 2xx, the process must exit 0,
no job may stay leased, and after a restart with a 300 s lease the jobs run at once.

Scheduled statuses need a 5-minute lead (as in Mastodon), so while the server is down the test
moves the publication jobs it queued to their creation time (a jump of the clock) and checks
after the restart that they are published.

Python 3.11 standard library only; loopback traffic only. Prints figures and a last line
"N passed, M failed"; exits 1 on any loss.
"""

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zlib

PASSWORD = "correct horse battery"
USERS = 5
SCHEDULE_LEAD_S = 5 * 60 + 120  # beyond the 5-minute minimum
MAX_SCHEDULED_PER_THREAD = 2  # per round (Mastodon allows 25 a day)


def log(msg):
    print(msg, flush=True)


# --- images -------------------------------------------------------------------------------


def _chunk(kind, data):
    body = kind + data
    return len(data).to_bytes(4, "big") + body + (zlib.crc32(body) & 0xFFFFFFFF).to_bytes(4, "big")


def png(width, height, rows, level=6):
    """An RGB PNG of `height` rows (each `width * 3` bytes, given by `rows(y)`)."""
    raw = b"".join(b"\x00" + rows(y) for y in range(height))
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(raw, level))
        + _chunk(b"IEND", b"")
    )


def small_png(seed):
    r = random.Random(seed)
    px = bytes(r.randrange(256) for _ in range(3))
    return png(24, 16, lambda y: px * 24)


def big_png(width, seed):
    """A large image that compresses well (a cheap upload, a costly preview)."""
    row = bytes((x * 7 + seed) % 256 for x in range(width * 3))
    return png(width, width, lambda y: row, level=1)


def noisy_png(width):
    """An image that does not compress: `width * width * 3` bytes and more on the wire."""
    return png(width, width, lambda y: os.urandom(width * 3), level=0)


def multipart(fields, file_field, file_name, file_bytes, content_type="image/png"):
    boundary = "crash%016x" % random.getrandbits(64)
    parts = []
    for k, v in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        )
    parts.append(
        (
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"{file_field}\"; "
            f'filename="{file_name}"\r\nContent-Type: {content_type}\r\n\r\n'
        ).encode()
        + file_bytes
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


# --- HTTP ---------------------------------------------------------------------------------


class Conn:
    """One keep-alive connection; any failure closes it (the next request reconnects)."""

    def __init__(self, port, timeout=15):
        self.port = port
        self.timeout = timeout
        self.c = None

    def request(self, method, path, token=None, body=None, ctype=None, timeout=None):
        headers = {}
        if token:
            headers["Authorization"] = "Bearer " + token
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            ctype = "application/json"
        if ctype:
            headers["Content-Type"] = ctype
        try:
            if self.c is None:
                self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout or self.timeout)
            self.c.request(method, path, body=body, headers=headers)
            r = self.c.getresponse()
            data = r.read()
        except Exception:
            self.close()
            raise
        try:
            obj = json.loads(data) if data else None
        except ValueError:
            obj = None
        return r.status, obj

    def get(self, path, token=None, tries=3):
        """A GET, retried on connection failures (it changes nothing)."""
        for n in range(tries):
            try:
                return self.request("GET", path, token)
            except (OSError, http.client.HTTPException):
                if n == tries - 1:
                    raise
                time.sleep(0.2)

    def close(self):
        if self.c is not None:
            try:
                self.c.close()
            except Exception:
                pass
            self.c = None


def ids_query(name, ids):
    return "&".join(f"{name}[]={i}" for i in ids)


# --- the server -----------------------------------------------------------------------------


class Server:
    def __init__(self, bin_path, env, log_path):
        self.bin = bin_path
        self.env = env
        self.log_path = log_path
        self.proc = None
        self.port = int(env["FEDBLOG_LISTEN"].rsplit(":", 1)[1])

    def cli(self, *args):
        r = subprocess.run(
            [self.bin, *args], env=self.env, capture_output=True, text=True, timeout=120
        )
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed ({r.returncode}): {r.stderr[-2000:]}")
        return r.stdout

    def start(self, extra_env=None, ready_timeout=60):
        env = dict(self.env)
        env.update(extra_env or {})
        self.logf = open(self.log_path, "ab")
        self.logf.write(f"\n===== start {time.strftime('%H:%M:%S')} {extra_env or ''}\n".encode())
        self.logf.flush()
        self.proc = subprocess.Popen([self.bin, "serve"], env=env, stdout=self.logf, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode} before answering; see {self.log_path}")
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/api/v1/instance")
                ok = c.getresponse().status == 200
                c.close()
                if ok:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the server did not answer within {ready_timeout} s; see {self.log_path}")

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.logf.close()

    def terminate(self, timeout=30):
        """SIGTERM; returns the exit code (None if it did not exit in time; then killed)."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rc = None
        self.logf.close()
        return rc

    def running(self):
        return self.proc is not None and self.proc.poll() is None


# --- the database, read (and the clock moved) while the server is down ---------------------


class Db:
    def __init__(self, engine, sqlite_path=None, pg_url=None):
        self.engine = engine
        self.sqlite_path = sqlite_path
        self.pg_url = pg_url

    def query(self, sql):
        if self.engine == "sqlite":
            con = sqlite3.connect(self.sqlite_path, timeout=10)
            try:
                rows = con.execute(sql).fetchall()
                con.commit()
                return [tuple(str(v) for v in r) for r in rows]
            finally:
                con.close()
        r = subprocess.run(
            ["psql", self.pg_url, "-v", "ON_ERROR_STOP=1", "-AtF", "\t", "-c", sql],
            capture_output=True, text=True, timeout=30,
        )
        if r.returncode != 0:
            raise RuntimeError(f"psql failed: {r.stderr}")
        return [tuple(line.split("\t")) for line in r.stdout.splitlines() if line]

    def job_counts(self):
        """{(kind, state): n}"""
        return {
            (k, s): int(n)
            for k, s, n in self.query("SELECT kind, state, COUNT(*) FROM jobs GROUP BY kind, state")
        }

    def make_scheduled_due(self):
        """The jump of the clock: queued publications are due from their creation time."""
        self.query(
            "UPDATE jobs SET run_at = created_at "
            "WHERE kind = 'publish_scheduled_status' AND state = 'queued'"
        )


def fmt_counts(counts, state):
    return sum(n for (k, s), n in counts.items() if s == state)


# --- one engine ------------------------------------------------------------------------------


class Engine:
    def __init__(self, name, args, db_url=None):
        self.name = name
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix=f"fedblog-crash-{name}-")
        self.port = free_port()
        env = dict(os.environ)
        for k in list(env):
            if k.startswith("FEDBLOG_"):
                del env[k]
        env.update(
            FEDBLOG_LISTEN=f"127.0.0.1:{self.port}",
            FEDBLOG_DOMAIN=f"127.0.0.1:{self.port}",
            FEDBLOG_DATA_DIR=os.path.join(self.tmp, "data"),
            FEDBLOG_RATE_LIMITS="off",
            FEDBLOG_JOB_LEASE_SECS=str(args.lease),
            FEDBLOG_WORKER_POLL_MS="200",
            FEDBLOG_LOG="info,sqlx=warn,sea_orm=warn",
        )
        if db_url:
            env["FEDBLOG_DATABASE_URL"] = db_url
            self.db = Db("postgres", pg_url=db_url)
        else:
            self.db = Db("sqlite", sqlite_path=os.path.join(self.tmp, "data", "fedblog.sqlite"))
        self.log_path = os.path.join(self.tmp, "server.log")
        self.server = Server(args.bin, env, self.log_path)
        self.users = []  # dicts: name, token, id
        self.following = {}  # (u, v) -> True / False / None (unknown: a write was in flight)
        self.all_statuses = []  # (author index, id) of every acknowledged status, all rounds
        self.results = []  # (label, ok, detail)
        self.totals = dict(acked=0, verified=0, jobs=0)

    def fail(self, label, detail):
        self.results.append((label, False, detail))
        log(f"FAIL crash[{self.name}] {label}: {detail}")

    def ok(self, label, detail):
        self.results.append((label, True, detail))
        log(f"ok   crash[{self.name}] {label}: {detail}")

    # -- set-up

    def setup(self):
        if self.db.engine == "postgres":
            self.server.cli("migrate")
        self.server.start()
        for i in range(USERS):
            name = f"crasher{i}"
            self.server.cli(
                "accounts", "create", name, "--email", f"{name}@example.test",
                "--password", PASSWORD, "--confirmed", "--approved",
            )
            token = self.server.cli("tokens", "create", name).strip().splitlines()[-1].strip()
            self.users.append(dict(name=name, token=token))
        c = Conn(self.port)
        for u in self.users:
            st, me = c.get("/api/v1/accounts/verify_credentials", u["token"])
            if st != 200:
                raise RuntimeError(f"verify_credentials for {u['name']}: {st} {me}")
            u["id"] = me["id"]
        c.close()

    # -- writing

    def writer(self, ui, rnd, stop, acked, pool, pool_lock, seq):
        u = self.users[ui]
        tok = u["token"]
        c = Conn(self.port, timeout=10)
        rng = random.Random(self.args.seed * 1000 + rnd * 10 + ui)
        faved = set()
        scheduled = 0
        n = 0
        while not stop.is_set():
            n += 1
            op = rng.choices(["status", "fav", "follow", "media", "sched"], [35, 25, 20, 17, 3])[0]
            if n == 1 and ui < 2:
                op = "sched"  # every round has publications to check
            try:
                if op == "status":
                    text = f"crash {self.name} r{rnd} u{ui} n{n} {next(seq)}"
                    st, obj = c.request("POST", "/api/v1/statuses", tok, {"status": text})
                    if 200 <= st < 300:
                        acked.append(("status", ui, obj["id"]))
                        with pool_lock:
                            pool.append((ui, obj["id"]))
                elif op == "fav":
                    with pool_lock:
                        cands = [sid for (a, sid) in pool[-200:] if sid not in faved]
                    if not cands:
                        continue
                    sid = rng.choice(cands)
                    faved.add(sid)
                    st, obj = c.request("POST", f"/api/v1/statuses/{sid}/favourite", tok)
                    if 200 <= st < 300:
                        acked.append(("fav", ui, sid))
                elif op == "follow":
                    vi = rng.choice([i for i in range(USERS) if i != ui])
                    key = (ui, vi)
                    want = not self.following.get(key)
                    self.following[key] = None  # in flight
                    path = f"/api/v1/accounts/{self.users[vi]['id']}/{'follow' if want else 'unfollow'}"
                    st, obj = c.request("POST", path, tok)
                    if 200 <= st < 300:
                        self.following[key] = want
                        acked.append(("follow", ui, vi))
                elif op == "media":
                    # Mostly small images; now and then a large one, whose preview takes a while,
                    # so that the kill often finds a worker in the middle of a batch.
                    image = big_png(1200, n) if rng.random() < 0.15 else small_png(n * 31 + ui)
                    body, ctype = multipart({"description": f"crash r{rnd} u{ui} n{n}"}, "file", "c.png", image)
                    st, obj = c.request("POST", "/api/v2/media", tok, body, ctype)
                    if 200 <= st < 300:
                        acked.append(("media", ui, obj["id"]))
                elif op == "sched":
                    if scheduled >= MAX_SCHEDULED_PER_THREAD:
                        continue
                    scheduled += 1
                    text = f"crash scheduled {self.name} r{rnd} u{ui} n{n} {next(seq)}"
                    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + SCHEDULE_LEAD_S))
                    st, obj = c.request("POST", "/api/v1/statuses", tok, {"status": text, "scheduled_at": at})
                    if 200 <= st < 300:
                        acked.append(("sched", ui, (obj["id"], text)))
                if not (200 <= st < 300) and not stop.is_set():
                    acked.append(("error", ui, f"{op}: HTTP {st} {obj}"))
            except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError) as e:
                # Once the kill is under way the server dies under us: the write is not
                # acknowledged. Before that, a failure is worth reporting.
                if not stop.is_set():
                    acked.append(("error", ui, f"{op}: {type(e).__name__}: {e}"))
                time.sleep(0.02)
        c.close()

    # -- checks

    def verify_writes(self, acked, label):
        """Returns (verified count, [losses])."""
        c = Conn(self.port)
        losses = []
        verified = 0
        statuses = [(ui, sid) for (k, ui, sid) in acked if k == "status"]
        for i in range(0, len(statuses), 40):
            chunk = statuses[i : i + 40]
            st, got = c.get("/api/v1/statuses?" + ids_query("id", [s for _, s in chunk]), self.users[0]["token"])
            have = {s["id"] for s in got} if st == 200 else set()
            for ui, sid in chunk:
                if sid in have:
                    verified += 1
                else:
                    losses.append(f"status {sid} of {self.users[ui]['name']} is missing (HTTP {st})")
        favs = {}
        for k, ui, sid in acked:
            if k == "fav":
                favs.setdefault(ui, []).append(sid)
        for ui, sids in favs.items():
            for i in range(0, len(sids), 40):
                chunk = sids[i : i + 40]
                st, got = c.get("/api/v1/statuses?" + ids_query("id", chunk), self.users[ui]["token"])
                by_id = {s["id"]: s for s in got} if st == 200 else {}
                for sid in chunk:
                    s = by_id.get(sid)
                    if s is not None and s.get("favourited") is True:
                        verified += 1
                    else:
                        losses.append(f"favourite of {sid} by {self.users[ui]['name']} is missing ({'no status' if s is None else 'favourited: ' + str(s.get('favourited'))})")
        follow_acks = {}
        for k, ui, vi in acked:
            if k == "follow":
                follow_acks[(ui, vi)] = follow_acks.get((ui, vi), 0) + 1
        in_flight = 0
        for ui in range(USERS):
            others = [vi for vi in range(USERS) if vi != ui]
            st, rels = c.get(
                "/api/v1/accounts/relationships?" + ids_query("id", [self.users[v]["id"] for v in others]),
                self.users[ui]["token"],
            )
            by_id = {r["id"]: r for r in rels} if st == 200 else {}
            for vi in others:
                want = self.following.get((ui, vi), False)  # nobody follows anybody at first
                r = by_id.get(self.users[vi]["id"])
                n = follow_acks.get((ui, vi), 0)
                if want is None:
                    # A follow or unfollow was in flight at the kill: either state is right.
                    if r is not None:
                        self.following[(ui, vi)] = bool(r["following"])
                    in_flight += 1
                    verified += n
                elif r is not None and bool(r["following"]) == want:
                    verified += n
                else:
                    losses.append(
                        f"{self.users[ui]['name']} -> {self.users[vi]['name']}: following should be {want}, "
                        f"is {None if r is None else r['following']}"
                    )
        media = [(ui, mid) for (k, ui, mid) in acked if k == "media"]
        for ui, mid in media:
            st, m = c.get(f"/api/v1/media/{mid}", self.users[ui]["token"])
            if st in (200, 206):
                verified += 1
            else:
                losses.append(f"media {mid} of {self.users[ui]['name']} is missing (HTTP {st})")
        # Scheduled statuses are checked by `wait_jobs`: published exactly once.
        c.close()
        return verified, losses, in_flight

    def wait_jobs(self, acked, deadline_s):
        """Waits until every acknowledged upload has its preview and every acknowledged
        scheduled status is published exactly once. Returns (jobs done, [losses], seconds)."""
        c = Conn(self.port)
        start = time.monotonic()
        media = {mid: ui for (k, ui, mid) in acked if k == "media"}
        sched = {sid: (ui, text) for (k, ui, x) in acked if k == "sched" for (sid, text) in [x]}
        pending_media = dict(media)
        pending_sched = dict(sched)
        dupes = []
        while time.monotonic() - start < deadline_s and (pending_media or pending_sched):
            for mid, ui in list(pending_media.items()):
                st, m = c.get(f"/api/v1/media/{mid}", self.users[ui]["token"])
                if st == 200 and isinstance(m, dict) and "small" in (m.get("meta") or {}) and m.get("blurhash"):
                    del pending_media[mid]
            if pending_sched:
                published = self.published_texts(c, {ui for (ui, _t) in pending_sched.values()})
                for sid, (ui, text) in list(pending_sched.items()):
                    st, _ = c.get(f"/api/v1/scheduled_statuses/{sid}", self.users[ui]["token"])
                    n = published.get(text, 0)
                    if st == 404 and n >= 1:
                        if n > 1:
                            dupes.append(f"scheduled status {sid} was published {n} times")
                        del pending_sched[sid]
            if pending_media or pending_sched:
                time.sleep(0.2)
        took = time.monotonic() - start
        c.close()
        losses = list(dupes)
        losses += [f"upload {mid} got no preview within {deadline_s} s" for mid in pending_media]
        losses += [f"scheduled status {sid} was not published within {deadline_s} s" for sid in pending_sched]
        done = len(media) - len(pending_media) + len(sched) - len(pending_sched)
        return done, losses, took

    def published_texts(self, c, authors, pages=5):
        """text -> how many of the newest statuses of these authors have it (after a restart,
        the publications are the authors' newest statuses)."""
        counts = {}
        for ui in authors:
            uid = self.users[ui]["id"]
            max_id = None
            for _ in range(pages):
                q = "?limit=40" + (f"&max_id={max_id}" if max_id else "")
                st, got = c.get(f"/api/v1/accounts/{uid}/statuses{q}", self.users[ui]["token"])
                if st != 200 or not got:
                    break
                for s in got:
                    text = re.sub(r"<[^>]+>", "", s.get("content") or "")
                    counts[text] = counts.get(text, 0) + 1
                max_id = got[-1]["id"]
        return counts

    # -- rounds

    def kill_round(self, rnd):
        label = f"round {rnd}"
        if not self.server.running():
            self.server.start()
        stop = threading.Event()
        acked, pool, pool_lock = [], list(self.all_statuses[-100:]), threading.Lock()
        seq = iter(range(10**9))
        threads = [
            threading.Thread(target=self.writer, args=(ui, rnd, stop, acked, pool, pool_lock, seq), daemon=True)
            for ui in range(USERS)
        ]
        for t in threads:
            t.start()
        after = random.uniform(0.5, 3.0)
        time.sleep(after)
        stop.set()  # from now on, failures are the kill's
        self.server.kill()
        for t in threads:
            t.join(timeout=15)
        errors = [x for (k, _u, x) in acked if k == "error"]
        acked = [a for a in acked if a[0] != "error"]
        counts = self.db.job_counts()
        previews_running = counts.get(("process_media", "running"), 0)
        previews_queued = counts.get(("process_media", "queued"), 0)
        publications = counts.get(("publish_scheduled_status", "queued"), 0)
        self.db.make_scheduled_due()
        by_kind = {k: sum(1 for a in acked if a[0] == k) for k in ("status", "fav", "follow", "media", "sched")}
        t0 = time.monotonic()
        self.server.start()
        verified, losses, in_flight = self.verify_writes(acked, label)
        jobs_done, job_losses, took = self.wait_jobs(acked, self.args.job_wait)
        verified += by_kind["sched"] - sum(1 for x in job_losses if x.startswith("scheduled status") and "not published" in x)
        losses += job_losses
        self.all_statuses += [(ui, sid) for (k, ui, sid) in acked if k == "status"]
        self.totals["acked"] += len(acked)
        self.totals["verified"] += verified
        self.totals["jobs"] += jobs_done
        detail = (
            f"killed after {after:.2f} s; acknowledged {len(acked)} writes "
            f"(statuses {by_kind['status']}, favourites {by_kind['fav']}, follows/unfollows {by_kind['follow']}, "
            f"media {by_kind['media']}, scheduled {by_kind['sched']}); jobs at the kill: previews {previews_running} "
            f"running (leased) + {previews_queued} queued, publications {publications} queued (made due); verified {verified} writes ({in_flight} follow pairs in flight, either state accepted); "
            f"jobs verified {jobs_done} of {by_kind['media'] + by_kind['sched']} (previews and publications) "
            f"{took:.1f} s after the restart ({time.monotonic() - t0:.1f} s in all)"
        )
        if errors:
            losses += [f"a write was refused while the server ran: {e}" for e in errors[:5]]
        if len(acked) == 0:
            losses.append("no write was acknowledged before the kill")
        if losses:
            self.fail(label, detail + "; LOST: " + "; ".join(losses[:20]) + (f" (and {len(losses) - 20} more)" if len(losses) > 20 else ""))
        else:
            self.ok(label, detail)

    def sigterm_round(self, width, label="sigterm round"):
        """Returns how many claimed jobs the stopping worker handed back."""
        losses = []
        if self.server.running():
            rc = self.server.terminate()
            if rc != 0:
                losses.append(f"a plain SIGTERM ended the server with exit code {rc}")
        long_lease = {"FEDBLOG_JOB_LEASE_SECS": "300", "FEDBLOG_WORKER_POLL_MS": "1000"}
        self.server.start(long_lease)
        u = self.users[0]
        # The slow request: a multi-MB upload, all but its last bytes sent slowly.
        slow_png = noisy_png(1000)
        body, ctype = multipart({"description": "slow"}, "file", "slow.png", slow_png)
        termed = threading.Event()
        slow = {}

        def slow_upload():
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=60)
                head = (
                    f"POST /api/v2/media HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                    f"Authorization: Bearer {u['token']}\r\nContent-Type: {ctype}\r\n"
                    f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
                ).encode()
                s.sendall(head)
                step = 64 * 1024
                last = len(body) - step
                pos = 0
                while pos < last:
                    s.sendall(body[pos : min(pos + step, last)])
                    pos = min(pos + step, last)
                    time.sleep(0.02)
                slow["sent_before_term"] = pos
                # Keep the request alive (a byte at a time, within the server's read timeout)
                # until SIGTERM has been sent, and half a second more.
                end_by = time.monotonic() + 60
                while time.monotonic() < end_by:
                    if termed.is_set() and end_by - time.monotonic() > 0.5:
                        end_by = time.monotonic() + 0.5
                    if pos < len(body) - 1024:
                        s.sendall(body[pos : pos + 1])
                        pos += 1
                    time.sleep(0.05)
                s.sendall(body[pos:])
                resp = b""
                while True:
                    d = s.recv(65536)
                    if not d:
                        break
                    resp += d
                s.close()
                status_line, _, rest = resp.partition(b"\r\n")
                slow["status"] = int(status_line.split()[1])
                payload = rest.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in rest else b""
                try:
                    slow["id"] = json.loads(payload)["id"]
                except Exception:
                    slow["body"] = payload[:300]
            except Exception as e:  # noqa: BLE001
                slow["error"] = repr(e)

        t = threading.Thread(target=slow_upload, daemon=True)
        t.start()
        # Jobs that take a while: big images, each preview costs a decode.
        c = Conn(self.port)
        media = []
        for n in range(self.args.big_images):
            b, ct = multipart({}, "file", "big.png", big_png(width, n))
            st, m = c.request("POST", "/api/v2/media", u["token"], b, ct)
            if 200 <= st < 300:
                media.append(m["id"])
            else:
                losses.append(f"big upload {n}: HTTP {st} {m}")
        c.close()
        # SIGTERM while the worker holds a claimed batch it has not finished.
        held = 0
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            held = sum(n for (k, s), n in self.db.job_counts().items() if s == "running" and k == "process_media")
            if held >= 2:
                break
            time.sleep(0.02)
        while "sent_before_term" not in slow and "error" not in slow and t.is_alive():
            time.sleep(0.05)
        t_term = time.monotonic()
        self.server.proc.send_signal(signal.SIGTERM)
        termed.set()
        t.join(timeout=60)
        try:
            rc = self.server.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.server.proc.kill()
            self.server.proc.wait()
            rc = "did not exit within 60 s"
        self.server.logf.close()
        stop_s = time.monotonic() - t_term
        if slow.get("status") is None or not (200 <= slow["status"] < 300):
            losses.append(f"the upload in flight at SIGTERM was not answered 2xx: {slow}")
        elif "id" in slow:
            media.append(slow["id"])
        if rc != 0:
            losses.append(f"exit code after SIGTERM: {rc}")
        counts = self.db.job_counts()
        still_held = fmt_counts(counts, "running")
        if still_held:
            losses.append(f"{still_held} jobs stay leased after the graceful stop: {counts}")
        with open(self.log_path, "rb") as f:
            text = re.sub(r"\x1b\[[0-9;]*m", "", f.read().decode("utf-8", "replace"))
        text = text[text.rfind("===== start") :]
        handed = sum(int(m) for m in re.findall(r"handed back claimed jobs not started.*?released=(\d+)", text))
        queued_media = counts.get(("process_media", "queued"), 0)
        # Restart with the same long lease: the jobs must run at once, not in 300 s.
        self.server.start(long_lease)
        acked = [("media", 0, m) for m in media]
        done, job_losses, took = self.wait_jobs(acked, self.args.job_wait)
        losses += job_losses
        rc2 = self.server.terminate()
        if rc2 != 0:
            losses.append(f"exit code of the final SIGTERM: {rc2}")
        self.totals["acked"] += len(acked)
        self.totals["verified"] += len(acked) - len([x for x in job_losses if "upload" in x])
        self.totals["jobs"] += done
        detail = (
            f"upload of {len(body) / 1e6:.1f} MB in flight at SIGTERM answered {slow.get('status')}; "
            f"exit code {rc} {stop_s:.1f} s after SIGTERM; claimed jobs at SIGTERM {held}, handed back {handed}, "
            f"left leased {still_held}, previews still to make {queued_media}; after a restart (lease 300 s) "
            f"{done} of {len(acked)} uploads have their preview in {took:.1f} s"
        )
        if handed == 0:
            detail += " (NOTE: the worker held no unstarted job at the stop; the hand-back was not exercised)"
        if losses:
            self.fail(label, detail + "; LOST: " + "; ".join(losses))
        else:
            self.ok(label, detail)
        return handed

    def recheck_all_statuses(self):
        c = Conn(self.port)
        missing = []
        for i in range(0, len(self.all_statuses), 40):
            chunk = self.all_statuses[i : i + 40]
            st, got = c.get("/api/v1/statuses?" + ids_query("id", [s for _, s in chunk]), self.users[0]["token"])
            have = {s["id"] for s in got} if st == 200 else set()
            missing += [sid for _, sid in chunk if sid not in have]
        c.close()
        if missing:
            self.fail("all rounds", f"{len(missing)} of {len(self.all_statuses)} statuses of earlier rounds are gone: {missing[:10]}")
        else:
            self.ok("all rounds", f"the {len(self.all_statuses)} statuses of every round are all there")

    def run(self):
        start = time.monotonic()
        try:
            self.setup()
            for rnd in range(1, self.args.rounds + 1):
                self.kill_round(rnd)
            self.recheck_all_statuses()
            if self.sigterm_round(self.args.big_width) == 0:
                # The worker got through its batch before it stopped (a fast build): once more
                # with images four times as large.
                self.sigterm_round(self.args.big_width * 2, "sigterm round, larger images")
        except Exception as e:  # noqa: BLE001
            import traceback

            traceback.print_exc()
            self.fail("run", f"{type(e).__name__}: {e} (server log: {self.log_path})")
        finally:
            if self.server.running():
                self.server.proc.kill()
                self.server.proc.wait()
        took = time.monotonic() - start
        failed = [r for r in self.results if not r[1]]
        log(
            f"crash[{self.name}]: {self.args.rounds} kill rounds + 1 SIGTERM round; "
            f"writes acknowledged {self.totals['acked']}, writes verified {self.totals['verified']}, "
            f"jobs verified {self.totals['jobs']}; {took:.1f} s"
        )
        if not failed and os.environ.get("KEEP_TMP") != "1":
            shutil.rmtree(self.tmp, ignore_errors=True)
        if failed:
            log(f"crash[{self.name}]: data and server log kept in {self.tmp}")
            with open(self.log_path, "rb") as f:
                tail = f.read().decode("utf-8", "replace").splitlines()[-60:]
            log("----- last lines of the server log -----\n" + "\n".join(tail) + "\n-----")
        return self.results


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--pg-url", help="a throwaway PostgreSQL database (postgres://...)")
    ap.add_argument("--engines", default="sqlite,postgres")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--lease", type=int, default=3, help="FEDBLOG_JOB_LEASE_SECS of the kill rounds")
    ap.add_argument("--job-wait", type=float, default=30.0, help="seconds the jobs of a round may take after a restart")
    ap.add_argument("--big-images", type=int, default=12)
    ap.add_argument("--big-width", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    args = ap.parse_args()
    random.seed(args.seed)
    log(f"crash: seed {args.seed} (--seed {args.seed} repeats the choices), {args.rounds} rounds per engine")
    results = []
    for engine in args.engines.split(","):
        if engine == "sqlite":
            results += [("sqlite " + l, ok, d) for (l, ok, d) in Engine("sqlite", args).run()]
        elif engine == "postgres":
            if not args.pg_url:
                results.append(("postgres", False, "no --pg-url"))
                log("FAIL crash[postgres]: no database")
                continue
            results += [("postgres " + l, ok, d) for (l, ok, d) in Engine("postgres", args, args.pg_url).run()]
    passed = sum(1 for r in results if r[1])
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
