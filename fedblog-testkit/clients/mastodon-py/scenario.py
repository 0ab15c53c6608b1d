#!/usr/bin/env python3
"""Real-client scenario: drive a fedblog server with Mastodon.py, the way a normal bot/client would.

Usage:
    python scenario.py --base-url http://127.0.0.1:PORT --username alice --password 'pw'

The account must already exist (confirmed and approved). Every step prints
`step: <name> ... ok`; any mismatch prints the failing step and a reason on
stderr and exits non-zero. The final line is `scenario: N steps passed`.

Written against Mastodon.py 2.3.3 (pinned in requirements.txt). That version has no
PKCE support (auth_request_url/log_in take no code_challenge/code_verifier), so the
authorization-code flow below is the plain confidential-client one (client_secret).
"""

from __future__ import annotations

import argparse
import secrets
import sys
import traceback
import warnings
from html.parser import HTMLParser
from urllib.parse import parse_qs, urljoin, urlsplit

import requests
from mastodon import Mastodon, MastodonNotFoundError

from common import ScenarioError, check

APP_NAME = "fedblog-scenario"
SCOPES = ["read", "write", "follow", "push"]
REDIRECT_URI = "http://127.0.0.1:9/callback"
POST_COUNT = 30
DEFAULT_PAGE_SIZE = 20  # Mastodon's default `limit` for timelines
MAX_PAGES = 50  # guard against a server whose Link header never ends
HTTP_TIMEOUT = 30

# Hidden fields the authorize form must carry (values may be empty).
FORM_HIDDEN_FIELDS = (
    "response_type",
    "client_id",
    "redirect_uri",
    "scope",
    "state",
    "code_challenge",
    "code_challenge_method",
)


# --------------------------------------------------------------------------- HTML helpers


class FormCollector(HTMLParser):
    """Collects every <form> with its <input>/<button> controls (name, value, type, attrs)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._current: dict | None = None
        self._button: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = {k.lower(): (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._current = {"attrs": a, "controls": []}
            self.forms.append(self._current)
        elif self._current is not None and tag == "input":
            self._current["controls"].append(
                {
                    "tag": "input",
                    "name": a.get("name"),
                    "value": a.get("value", ""),
                    "type": a.get("type", "text").lower(),
                    "attrs": a,
                }
            )
        elif self._current is not None and tag == "button":
            self._button = {
                "tag": "button",
                "name": a.get("name"),
                "value": a.get("value", ""),
                "type": a.get("type", "submit").lower(),
                "attrs": a,
            }
            self._current["controls"].append(self._button)

    def handle_endtag(self, tag):
        if tag == "form":
            self._current = None
        elif tag == "button":
            self._button = None


class TextCollector(HTMLParser):
    """Strips tags from status `content` HTML, keeping the text (entities decoded)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "p"):
            self.parts.append(" ")

    def handle_data(self, data):
        self.parts.append(data)


def html_to_text(content: str) -> str:
    p = TextCollector()
    p.feed(content or "")
    p.close()
    return " ".join("".join(p.parts).split())


def find_authorize_form(page: str, page_url: str) -> tuple[dict, str]:
    """Return (form, absolute action URL) for the single POST form targeting /oauth/authorize."""
    parser = FormCollector()
    parser.feed(page)
    parser.close()
    matches = []
    for form in parser.forms:
        method = form["attrs"].get("method", "get").lower()
        action = form["attrs"].get("action", "")
        if method == "post" and urlsplit(urljoin(page_url, action)).path == "/oauth/authorize":
            matches.append(form)
    check(
        len(matches) == 1,
        f"expected exactly ONE <form method=post action=/oauth/authorize> on the authorize page, "
        f"found {len(matches)} (forms on page: {[f['attrs'] for f in parser.forms]})",
    )
    form = matches[0]
    return form, urljoin(page_url, form["attrs"].get("action", ""))


def form_fields(form: dict) -> list[tuple[str, str]]:
    """Successful controls as a browser would submit them, minus submit buttons."""
    out = []
    for c in form["controls"]:
        if not c["name"]:
            continue
        if c["type"] in ("submit", "button", "image", "reset"):
            continue
        if c["type"] in ("checkbox", "radio") and "checked" not in c["attrs"]:
            continue
        out.append((c["name"], c["value"]))
    return out


def set_field(fields: list[tuple[str, str]], name: str, value: str) -> list[tuple[str, str]]:
    out = [(k, v) for k, v in fields if k != name]
    out.append((name, value))
    return out


def location_query(resp: requests.Response) -> tuple[str, dict[str, list[str]]]:
    loc = resp.headers.get("Location", "")
    return loc, parse_qs(urlsplit(loc).query, keep_blank_values=True)


def short(text: str, n: int = 300) -> str:
    text = text or ""
    return text if len(text) <= n else text[:n] + "...(truncated)"


# --------------------------------------------------------------------------- scenario


class Scenario:
    def __init__(self, base: str, username: str, password: str, debug: bool) -> None:
        self.base = base.rstrip("/")
        self.username = username
        self.password = password
        self.debug = debug
        self.passed = 0
        # Plain HTTP session for the "browser" part of the OAuth flow (keeps cookies, e.g. CSRF).
        self.browser = requests.Session()
        self.browser.headers["User-Agent"] = "fedblog-scenario-browser"
        self.client_id = ""
        self.client_secret = ""
        self.api: Mastodon | None = None
        self.state = secrets.token_urlsafe(16)
        self.auth_url = ""
        self.code = ""
        self.post_ids: list[str] = []
        self.post_texts: dict[str, str] = {}
        self.deleted_id = ""

    # -- runner ------------------------------------------------------------
    def step(self, name: str, fn) -> None:
        try:
            fn()
        except ScenarioError as e:
            print(f"step: {name} ... FAILED", flush=True)
            print(f"scenario: FAILED at step {name}: {e}", file=sys.stderr, flush=True)
            sys.exit(1)
        except Exception as e:  # library/network errors are failures too, with a traceback
            print(f"step: {name} ... FAILED", flush=True)
            traceback.print_exc()
            print(
                f"scenario: FAILED at step {name}: {type(e).__name__}: {e}",
                file=sys.stderr,
                flush=True,
            )
            sys.exit(1)
        self.passed += 1
        print(f"step: {name} ... ok", flush=True)

    def info(self, msg: str) -> None:
        print(f"  info: {msg}", flush=True)

    def run(self) -> None:
        self.step("create_app", self.create_app)
        self.step("client_version_check", self.client_version_check)
        self.step("authorize_url", self.authorize_url)
        self.step("authorize_form", self.authorize_form)
        self.step("authorize_wrong_password", self.authorize_wrong_password)
        self.step("authorize_deny", self.authorize_deny)
        self.step("authorize_approve", self.authorize_approve)
        self.step("token_exchange", self.token_exchange)
        self.step("verify_credentials", self.verify_credentials)
        self.step("post_statuses", self.post_statuses)
        self.step("home_timeline_pagination", self.home_timeline_pagination)
        self.step("public_timeline", self.public_timeline)
        self.step("local_timeline", self.local_timeline)
        self.step("status_delete", self.status_delete)
        self.step("deleted_status_404", self.deleted_status_404)
        print(f"scenario: {self.passed} steps passed", flush=True)

    # -- a. app registration ----------------------------------------------
    def create_app(self) -> None:
        client_id, client_secret = Mastodon.create_app(
            APP_NAME,
            scopes=SCOPES,
            redirect_uris=REDIRECT_URI,
            api_base_url=self.base,
            request_timeout=HTTP_TIMEOUT,
        )
        check(isinstance(client_id, str) and client_id != "", f"bad client_id {client_id!r}")
        check(isinstance(client_secret, str) and client_secret != "", "empty client_secret")
        self.client_id, self.client_secret = client_id, client_secret

    # -- client construction with version checking ----------------------------
    def client_version_check(self) -> None:
        # "created": refuse to call endpoints newer than the server's reported version.
        # The constructor fetches GET /api/v1/instance/ and /api/v2/instance/ (trailing slash!).
        self.api = Mastodon(
            client_id=self.client_id,
            client_secret=self.client_secret,
            api_base_url=self.base,
            version_check_mode="created",
            ratelimit_method="throw",  # fail loudly instead of sleeping on a 429
            request_timeout=HTTP_TIMEOUT,
            debug_requests=self.debug,
        )
        # fail_hard: raise instead of silently assuming 1.0.0 if /api/v1/instance/ is unusable.
        version = self.api.retrieve_mastodon_version(fail_hard=True)
        api = self.api
        self.info(
            f"server version parsed as {version} "
            f"({api.mastodon_major}.{api.mastodon_minor}.{api.mastodon_patch}), "
            f"api_versions.mastodon={api.mastodon_api_version}"
        )
        check(
            (api.mastodon_major, api.mastodon_minor) >= (4, 0),
            f"Mastodon.py parsed the server version as {version}; expected >= 4.0.0",
        )
        check(
            api.mastodon_api_version >= 1,
            "Mastodon.py found no api_versions.mastodon in /api/v2/instance/",
        )

    # -- b. authorization code flow ---------------------------------------
    def authorize_url(self) -> None:
        assert self.api is not None
        # auth_request_url also reads /.well-known/oauth-authorization-server; allow_http
        # lets it accept http:// endpoints advertised there (this test server is plain HTTP).
        self.auth_url = self.api.auth_request_url(
            redirect_uris=REDIRECT_URI,
            scopes=SCOPES,
            state=self.state,
            allow_http=True,
        )
        self.info(f"authorize URL: {self.auth_url}")
        check(
            self.auth_url.startswith(self.base + "/oauth/authorize?"),
            f"authorize URL {self.auth_url!r} is not under {self.base}/oauth/authorize "
            "(check authorization_endpoint in /.well-known/oauth-authorization-server)",
        )

    def _get_form(self) -> tuple[list[tuple[str, str]], str, dict]:
        resp = self.browser.get(self.auth_url, allow_redirects=False, timeout=HTTP_TIMEOUT)
        check(
            resp.status_code == 200,
            f"GET authorize page: expected 200, got {resp.status_code} "
            f"(Location={resp.headers.get('Location')!r}) body={short(resp.text)!r}",
        )
        ctype = resp.headers.get("Content-Type", "")
        check("text/html" in ctype, f"authorize page Content-Type is {ctype!r}, expected text/html")
        form, action = find_authorize_form(resp.text, resp.url)
        return form_fields(form), action, form

    def authorize_form(self) -> None:
        fields, action, form = self._get_form()
        names = {k for k, _ in fields}
        values = dict(fields)
        for n in FORM_HIDDEN_FIELDS:
            check(n in names, f"authorize form lacks hidden input {n!r}; has {sorted(names)}")
        for n in ("username", "password"):
            check(n in names, f"authorize form lacks input {n!r}; has {sorted(names)}")
        pw_types = [c["type"] for c in form["controls"] if c["name"] == "password"]
        check(pw_types == ["password"], f"password input should be type=password, got {pw_types}")
        expected = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": REDIRECT_URI,
            "scope": " ".join(SCOPES),
            "state": self.state,
        }
        for k, v in expected.items():
            check(values.get(k) == v, f"authorize form hidden {k}={values.get(k)!r}, expected {v!r}")
        decisions = sorted(
            c["value"]
            for c in form["controls"]
            if c["name"] == "decision" and c["type"] == "submit"
        )
        check(
            decisions == ["approve", "deny"],
            f"expected two submit buttons name=decision (approve, deny), found values {decisions}",
        )
        self.info(f"form action {action}; fields {[k for k, _ in fields]}")

    def _submit(self, password: str, decision: str) -> requests.Response:
        fields, action, _ = self._get_form()
        fields = set_field(fields, "username", self.username)
        fields = set_field(fields, "password", password)
        fields = set_field(fields, "decision", decision)
        return self.browser.post(action, data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)

    def authorize_wrong_password(self) -> None:
        resp = self._submit(self.password + "-wrong", "approve")
        loc, q = location_query(resp)
        self.info(f"wrong password -> HTTP {resp.status_code} Location={loc!r}")
        check("code" not in q and "code=" not in loc, f"wrong password still issued a code: {loc!r}")
        check(
            resp.status_code in (200, 400, 401, 403, 422),
            f"wrong password: expected 200 (form re-rendered) or 400/401/403/422, got "
            f"{resp.status_code} Location={loc!r}",
        )

    def authorize_deny(self) -> None:
        resp = self._submit(self.password, "deny")
        loc, q = location_query(resp)
        self.info(f"deny -> HTTP {resp.status_code} Location={loc!r}")
        check("code" not in q and "code=" not in loc, f"decision=deny still issued a code: {loc!r}")
        check(resp.status_code < 500, f"decision=deny: server error {resp.status_code}")

    def authorize_approve(self) -> None:
        resp = self._submit(self.password, "approve")
        loc, q = location_query(resp)
        check(
            resp.status_code in (302, 303),
            f"approve: expected 302/303, got {resp.status_code} Location={loc!r} body={short(resp.text)!r}",
        )
        check(loc.startswith(REDIRECT_URI), f"approve: Location {loc!r} does not start with {REDIRECT_URI}")
        codes = q.get("code", [])
        check(len(codes) == 1 and codes[0] != "", f"approve: Location {loc!r} carries no single code=")
        check(q.get("state") == [self.state], f"approve: state in Location {q.get('state')} != sent {self.state!r}")
        self.code = codes[0]

    def token_exchange(self) -> None:
        assert self.api is not None
        # POST /oauth/token (form): code, redirect_uri, grant_type=authorization_code,
        # client_id, client_secret, scope. Mastodon.py then checks the granted `scope`.
        token = self.api.log_in(
            code=self.code,
            redirect_uri=REDIRECT_URI,
            scopes=SCOPES,
            allow_http=True,
        )
        check(isinstance(token, str) and token != "", f"bad access token {token!r}")

    # -- c. ----------------------------------------------------------------
    def verify_credentials(self) -> None:
        assert self.api is not None
        me = self.api.account_verify_credentials()
        check(me.get("username") == self.username, f"verify_credentials username {me.get('username')!r} != {self.username!r}")
        check(me.get("acct") == self.username, f"verify_credentials acct {me.get('acct')!r} != {self.username!r} (local account)")
        check(bool(me.get("id")), "verify_credentials: account has no id")

    # -- d. ----------------------------------------------------------------
    def post_statuses(self) -> None:
        assert self.api is not None
        for i in range(POST_COUNT):
            text = f"scenario post {i} #fedblog"
            st = self.api.status_post(text)
            sid = st.get("id")
            check(isinstance(sid, str) and sid != "", f"post {i}: status id {sid!r} is not a non-empty string")
            check(sid not in self.post_texts, f"post {i}: duplicate status id {sid}")
            content = st.get("content") or ""
            plain = html_to_text(content)
            check(
                plain == text,
                f"post {i}: content text {plain!r} != posted {text!r} (content={content!r})",
            )
            check(st.get("visibility") == "public", f"post {i}: visibility {st.get('visibility')!r} != 'public'")
            acct = (st.get("account") or {}).get("username")
            check(acct == self.username, f"post {i}: status account.username {acct!r} != {self.username!r}")
            self.post_ids.append(sid)
            self.post_texts[sid] = text

    # -- e. ----------------------------------------------------------------
    def home_timeline_pagination(self) -> None:
        assert self.api is not None
        page = self.api.timeline_home()
        check(
            len(page) == DEFAULT_PAGE_SIZE,
            f"first home page has {len(page)} items, expected {DEFAULT_PAGE_SIZE} (default limit)",
        )
        seen: list[str] = []
        pages = 0
        while page:
            pages += 1
            check(pages <= MAX_PAGES, f"home timeline still paginating after {MAX_PAGES} pages (Link loop?)")
            ids = [s["id"] for s in page]
            dup = set(ids) & set(seen)
            check(not dup, f"page {pages} repeats ids already seen: {sorted(dup)}")
            check(len(set(ids)) == len(ids), f"page {pages} has duplicate ids: {ids}")
            seen.extend(ids)
            page = self.api.fetch_next(page)
        self.info(f"home timeline: {len(seen)} statuses over {pages} page(s)")
        for sid in self.post_ids:
            check(seen.count(sid) == 1, f"post {sid} appears {seen.count(sid)} times in the home timeline")
        ours = [s for s in seen if s in self.post_texts]
        check(
            ours == list(reversed(self.post_ids)),
            "home timeline is not newest-first for our posts: "
            f"got {ours}, expected {list(reversed(self.post_ids))}",
        )

    # -- f. ----------------------------------------------------------------
    def public_timeline(self) -> None:
        assert self.api is not None
        newest = self.post_ids[-1]
        ids = [s["id"] for s in self.api.timeline_public()]
        check(newest in ids, f"newest post {newest} missing from public timeline {ids}")

    def local_timeline(self) -> None:
        assert self.api is not None
        newest = self.post_ids[-1]
        ids = [s["id"] for s in self.api.timeline_local()]
        check(newest in ids, f"newest post {newest} missing from local timeline {ids}")

    # -- g. ----------------------------------------------------------------
    def status_delete(self) -> None:
        assert self.api is not None
        self.deleted_id = self.post_ids[POST_COUNT // 2]
        deleted = self.api.status_delete(self.deleted_id)
        check(deleted.get("id") == self.deleted_id, f"status_delete returned id {deleted.get('id')!r} != {self.deleted_id}")
        want = self.post_texts[self.deleted_id]
        check(
            deleted.get("text") == want,
            f"status_delete `text` {deleted.get('text')!r} != posted source {want!r}",
        )

    def deleted_status_404(self) -> None:
        assert self.api is not None
        try:
            got = self.api.status(self.deleted_id)
        except MastodonNotFoundError:
            return
        raise ScenarioError(f"GET deleted status {self.deleted_id} did not 404; got {short(str(got))}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Mastodon.py real-client scenario against a fedblog server.")
    ap.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8080")
    ap.add_argument("--username", required=True, help="existing, confirmed, approved local account")
    ap.add_argument("--password", required=True)
    ap.add_argument("--debug", action="store_true", help="let Mastodon.py print every request/response")
    args = ap.parse_args(argv)

    # Any warning Mastodon.py emits (deprecation header, timeline unavailable, ">= 4.3.0 but
    # no API version") signals a compatibility problem: make it fatal.
    warnings.filterwarnings("error", module=r"mastodon(\.|$)")

    base = args.base_url.rstrip("/")
    check_base = urlsplit(base)
    if check_base.scheme not in ("http", "https") or not check_base.netloc:
        ap.error(f"--base-url must be an absolute http(s) URL, got {args.base_url!r}")
    Scenario(base, args.username, args.password, args.debug).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
