"""Account factory for fedblog-conformance against mastodon_mock: signs an account up through
the API (an app, its client_credentials token, POST /api/v1/accounts) and prints its token.

    python3 mock_factory.py BASE_URL USERNAME
"""

import json
import sys
import urllib.parse
import urllib.request


def post(url, fields, token=None):
    data = urllib.parse.urlencode(fields).encode()
    req = urllib.request.Request(url, data=data, method="POST")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def main():
    base, username = sys.argv[1].rstrip("/"), sys.argv[2]
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
