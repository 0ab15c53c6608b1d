"""Account factory for fedblog-conformance against mastodon_mock: signs an account up through
the API (an app, its client_credentials token, POST /api/v1/accounts) and prints its token.
With --admin instead of a username it makes an administrator through the mock's own
development endpoint (the mock has no admin CLI) and prints that account's token.

    python3 mock_factory.py BASE_URL USERNAME
    python3 mock_factory.py BASE_URL --admin
"""

import json
import sys
import urllib.parse
import urllib.request


def post(url, fields, token=None, as_json=False):
    if as_json:
        data = json.dumps(fields).encode()
    else:
        data = urllib.parse.urlencode(fields).encode()
    req = urllib.request.Request(url, data=data, method="POST")
    if as_json:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def main():
    base, username = sys.argv[1].rstrip("/"), sys.argv[2]
    if username == "--admin":
        admin = post(f"{base}/api/v1/_mock/dev_user", {"admin": True}, as_json=True)
        print(admin["access_token"])
        return
    scopes = "read write follow push"
    app = post(
        f"{base}/api/v1/apps",
        {"client_name": "fedblog-conformance", "redirect_uris": "urn:ietf:wg:oauth:2.0:oob", "scopes": scopes},
    )
    app_token = post(
        f"{base}/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": app["client_id"],
            "client_secret": app["client_secret"],
            "scope": scopes,
        },
    )["access_token"]
    account = post(
        f"{base}/api/v1/accounts",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password": "correct horse battery",
            "agreement": "true",
            "locale": "en",
        },
        token=app_token,
    )
    print(account["access_token"])


if __name__ == "__main__":
    main()
