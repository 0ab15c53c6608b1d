"""The e-mail scenario: fedblog sends its mails through a real SMTP exchange (aiosmtpd, see
sink.py) and every link in them works.

Sign-up through the API (confirmation mail, resend, the link, check_confirmation), the
password reset pages (mail, link, form, new password signs in, old one does not, sessions
signed out), the change of address (link to the new address), and a notification mail for a
mention. Prints `smtp: N checks passed`.

    python scenario.py --base-url http://127.0.0.1:PORT --mail-dir FOLDER --title TITLE
"""

import argparse
import email
import email.policy
import glob
import html
import os
import re
import sys
import time
import urllib.parse

import requests

OOB = "urn:ietf:wg:oauth:2.0:oob"
PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new password"


class Scenario:
    def __init__(self, base, mail_dir, title):
        self.base = base.rstrip("/")
        self.mail_dir = mail_dir
        self.title = title
        self.checks = 0
        self.seen = set()
        self.http = requests.Session()

    def check(self, ok, what):
        if not ok:
            raise AssertionError(what)
        self.checks += 1

    # --- HTTP ---------------------------------------------------------------------------------
    def url(self, path):
        return path if path.startswith("http") else self.base + path

    def get(self, path, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.get(self.url(path), headers=headers, allow_redirects=False, timeout=10)

    def post(self, path, data, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.post(
            self.url(path), data=data, headers=headers, allow_redirects=False, timeout=10
        )

    # --- mail ---------------------------------------------------------------------------------
    def next_mail(self, to, timeout=20):
        """The next message not seen yet whose envelope recipient is `to`: (subject, text, html)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            for path in sorted(glob.glob(os.path.join(self.mail_dir, "*.eml"))):
                if path in self.seen:
                    continue
                with open(path, "rb") as f:
                    msg = email.message_from_bytes(f.read(), policy=email.policy.default)
                if to not in msg.get_all("X-Envelope-To", []):
                    continue
                self.seen.add(path)
                text = msg.get_body(preferencelist=("plain",))
                body = msg.get_body(preferencelist=("html",))
                return (
                    str(msg["Subject"]),
                    text.get_content() if text else "",
                    body.get_content() if body else "",
                )
            time.sleep(0.1)
        raise AssertionError(f"no mail to {to} within {timeout} s")

    def no_mail(self, to, wait=2.0):
        """Checks that no message to `to` arrives within `wait` seconds."""
        try:
            self.next_mail(to, timeout=wait)
        except AssertionError:
            return True
        return False

    @staticmethod
    def link(text, path):
        for word in text.split():
            if word.startswith("http") and path in word:
                return word
        raise AssertionError(f"no link to {path} in: {text}")

    # --- OAuth --------------------------------------------------------------------------------
    def make_app(self):
        r = self.post(
            "/api/v1/apps",
            {"client_name": "smtp scenario", "redirect_uris": OOB, "scopes": "read write follow"},
        )
        self.check(r.status_code == 200, f"app registered: {r.status_code} {r.text}")
        app = r.json()
        r = self.post(
            "/oauth/token",
            {
                "grant_type": "client_credentials",
                "client_id": app["client_id"],
                "client_secret": app["client_secret"],
                "scope": "read write follow",
            },
        )
        self.check(r.status_code == 200, f"app token: {r.status_code} {r.text}")
        return app, r.json()["access_token"]

    def sign_in(self, app, login, password):
        """Signs in through the authorization form; the token, or None with the status."""
        r = self.post(
            "/oauth/authorize",
            {
                "response_type": "code",
                "client_id": app["client_id"],
                "redirect_uri": OOB,
                "scope": "read write follow",
                "username": login,
                "password": password,
                "decision": "approve",
            },
        )
        if r.status_code != 200:
            return None, r.status_code
        codes = re.findall(r"<code[^>]*>([A-Za-z0-9_\-]{20,})</code>", r.text)
        self.check(len(codes) >= 1, f"the page shows the code: {r.text}")
        r = self.post(
            "/oauth/token",
            {
                "grant_type": "authorization_code",
                "code": codes[0],
                "client_id": app["client_id"],
                "client_secret": app["client_secret"],
                "redirect_uri": OOB,
            },
        )
        self.check(r.status_code == 200, f"code exchanged: {r.status_code} {r.text}")
        return r.json()["access_token"], 200

    def sign_up(self, app_token, username, address):
        r = self.post(
            "/api/v1/accounts",
            {
                "username": username,
                "email": address,
                "password": PASSWORD,
                "agreement": "true",
                "locale": "en",
            },
            app_token,
        )
        self.check(r.status_code == 200, f"{username} signed up: {r.status_code} {r.text}")
        return r.json()["access_token"]

    def confirmed(self, token):
        r = self.get("/api/v1/emails/check_confirmation", token)
        self.check(r.status_code == 200, f"check_confirmation: {r.status_code} {r.text}")
        return r.json()

    # --- the steps ----------------------------------------------------------------------------
    def run(self):
        app, app_token = self.make_app()

        # Sign-up: a confirmation mail through SMTP, a resend, the newest link works.
        alice = self.sign_up(app_token, "alice", "alice@example.com")
        self.check(self.confirmed(alice) is False, "a new account is not confirmed")
        subject, text, body = self.next_mail("alice@example.com")
        self.check(self.title in subject, f"the subject names the instance: {subject}")
        self.check(self.title in text, "the text names the instance")
        self.check("<a href=" in body, "the mail has an HTML body with the link")
        first = self.link(text, "/auth/confirmation")
        r = self.post("/api/v1/emails/confirmations", {}, alice)
        self.check(r.status_code == 200, f"resend: {r.status_code} {r.text}")
        _, text, _ = self.next_mail("alice@example.com")
        second = self.link(text, "/auth/confirmation")
        self.check(second != first, "the resent mail has a new link")
        self.check(self.get(first).status_code == 404, "the first link stopped working")
        r = self.get(second)
        self.check(r.status_code == 200 and "@alice" in r.text, f"the link confirms: {r.text}")
        self.check(self.confirmed(alice) is True, "check_confirmation says true")
        r = self.post("/api/v1/emails/confirmations", {}, alice)
        self.check(r.status_code == 403, f"resend after confirmation: {r.status_code}")
        r = self.get("/api/v1/accounts/verify_credentials", alice)
        self.check(r.status_code == 200, f"the confirmed account works: {r.status_code}")

        # Password reset through the HTML forms.
        r = self.get("/auth/password/new")
        self.check(r.status_code == 200 and "<form" in r.text, "the forgot-password form")
        answers = []
        for address in ("nobody@example.com", "alice@example.com"):
            r = self.post("/auth/password", {"email": address})
            answers.append((r.status_code, r.text.replace(html.escape(address), "X")))
        self.check(answers[0] == answers[1], "the answer tells nothing about the address")
        self.check(answers[1][0] == 200, f"reset asked: {answers[1][0]}")
        subject, text, _ = self.next_mail("alice@example.com")
        self.check("password" in subject.lower(), f"a reset mail: {subject}")
        reset = self.link(text, "/auth/password/edit")
        r = self.get(reset)
        self.check(r.status_code == 200 and 'name="password"' in r.text, "the link opens the form")
        token = urllib.parse.parse_qs(urllib.parse.urlparse(reset).query)["reset_password_token"][0]
        r = self.post(
            "/auth/password/edit",
            {
                "reset_password_token": token,
                "password": NEW_PASSWORD,
                "password_confirmation": NEW_PASSWORD + "!",
            },
        )
        self.check(r.status_code == 422, f"a confirmation that differs: {r.status_code}")
        r = self.post(
            "/auth/password/edit",
            {
                "reset_password_token": token,
                "password": NEW_PASSWORD,
                "password_confirmation": NEW_PASSWORD,
            },
        )
        self.check(r.status_code == 200, f"the password changed: {r.status_code} {r.text}")
        r = self.post(
            "/auth/password/edit",
            {
                "reset_password_token": token,
                "password": "yet another password",
                "password_confirmation": "yet another password",
            },
        )
        self.check(r.status_code == 404, f"the link works once: {r.status_code}")
        r = self.get("/api/v1/accounts/verify_credentials", alice)
        self.check(r.status_code == 401, f"the reset signed the app out: {r.status_code}")
        _, status = self.sign_in(app, "alice", PASSWORD)
        self.check(status == 401, f"the old password does not sign in: {status}")
        alice, status = self.sign_in(app, "alice", NEW_PASSWORD)
        self.check(alice is not None, f"the new password signs in: {status}")
        r = self.get("/api/v1/accounts/verify_credentials", alice)
        self.check(r.status_code == 200, f"with a working token: {r.status_code}")
        self.check(self.no_mail("nobody@example.com", wait=0.5), "no mail to an unknown address")

        # Change of address: the link goes to the new address, which then signs in.
        r = self.post(
            "/auth/email/edit",
            {"username": "alice", "password": NEW_PASSWORD, "email": "alice@new.example"},
        )
        self.check(r.status_code == 200, f"change asked: {r.status_code} {r.text}")
        subject, text, _ = self.next_mail("alice@new.example")
        change = self.link(text, "/auth/email/confirmation")
        _, status = self.sign_in(app, "alice@new.example", NEW_PASSWORD)
        self.check(status == 401, f"the new address is not the login's yet: {status}")
        r = self.get(change)
        self.check(r.status_code == 200, f"the link confirms the change: {r.status_code}")
        token, status = self.sign_in(app, "alice@new.example", NEW_PASSWORD)
        self.check(token is not None, f"the new address signs in: {status}")
        self.check(self.get(change).status_code == 404, "the change link works once")

        # A mention by e-mail (mentions are mailed by default), to the new address.
        bob = self.sign_up(app_token, "bob", "bob@example.com")
        _, text, _ = self.next_mail("bob@example.com")
        self.check(self.get(self.link(text, "/auth/confirmation")).status_code == 200, "bob confirmed")
        r = self.post("/api/v1/statuses", {"status": "Hello @alice, mail me!"}, bob)
        self.check(r.status_code == 200, f"bob posts: {r.status_code} {r.text}")
        subject, text, body = self.next_mail("alice@new.example")
        self.check("mentioned" in subject and "@bob" in subject, f"a mention mail: {subject}")
        self.check("Hello @alice, mail me!" in text, f"the mail quotes the post: {text}")
        self.check("/auth/notification_emails" in text, "the mail links to the e-mail settings")
        self.check("<blockquote>" in body, "the HTML quotes the post")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--base-url", required=True)
    p.add_argument("--mail-dir", required=True)
    p.add_argument("--title", required=True)
    a = p.parse_args()
    s = Scenario(a.base_url, a.mail_dir, a.title)
    try:
        s.run()
    except AssertionError as e:
        print(f"smtp: check {s.checks + 1} failed: {e}", file=sys.stderr)
        print(f"smtp: {s.checks} passed, 1 failed")
        return 1
    print(f"smtp: {s.checks} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
