"""Mastodon.py federated search scenario: v2 search with `resolve` finds, on a second fedblog
server, an account by its handle and a status by its URL, fetching them over ActivityPub; the
status fetched is then in the searcher's library once she favourites it, and full-text search
finds it by its words.

    python federated_search.py --base-url http://127.0.0.1:P --token CAROL \\
        --remote-base-url http://127.0.0.1:Q --remote-token FARAWAY

CAROL is a token of an account on the first server, FARAWAY one of an account on the second;
both servers federate and may reach each other on loopback.
"""

from __future__ import annotations

import argparse
import warnings
from typing import Callable
from urllib.parse import urlparse

from mastodon import Mastodon

from common import Steps, check


class FederatedSearch(Steps):
    label = "federated search"
    users = ("carol",)

    def __init__(self, base: str, tokens: dict[str, str], remote: Mastodon) -> None:
        super().__init__(base, tokens)
        self.remote = remote
        self.remote_me = remote.account_verify_credentials()
        host = urlparse(remote.api_base_url).netloc
        self.handle = f"{self.remote_me['username']}@{host}"
        self.word = f"faraway{self.remote_me['id'][-6:]}"
        self.post = remote.status_post(f"{self.word} greetings from the other server")

    def steps(self) -> list[tuple[str, Callable[[], None]]]:
        return [
            ("account_by_handle", self.account_by_handle),
            ("status_by_url", self.status_by_url),
            ("full_text_after_favourite", self.full_text_after_favourite),
        ]

    def account_by_handle(self) -> None:
        carol = self.c["carol"]
        found = carol.search_v2(self.handle, resolve=True, result_type="accounts")["accounts"]
        check([a["acct"] for a in found][:1] == [self.handle], f"{self.handle} not resolved: {found}")
        check(found[0]["username"] == self.remote_me["username"], f"the account resolved: {found[0]}")

    def status_by_url(self) -> None:
        carol = self.c["carol"]
        url = self.post["url"]
        unknown = carol.search_v2(url, resolve=False, result_type="statuses")["statuses"]
        check(unknown == [], f"a status never fetched is found without resolve: {unknown}")
        found = carol.search_v2(url, resolve=True, result_type="statuses")["statuses"]
        check(len(found) == 1, f"the status at {url} was not resolved: {found}")
        check(found[0]["uri"] == self.post["uri"], f"another status resolved: {found[0]['uri']}")
        check(self.word in found[0]["content"], f"its content: {found[0]['content']}")
        self.local_id = found[0]["id"]

    def full_text_after_favourite(self) -> None:
        carol = self.c["carol"]
        # The remote author did not opt in (indexable): only carol's library makes it findable.
        before = carol.search_v2(self.word, resolve=False, result_type="statuses")["statuses"]
        check(before == [], f"found before carol interacted with it: {before}")
        carol.status_favourite(self.local_id)
        after = carol.search_v2(self.word, resolve=False, result_type="statuses")["statuses"]
        check([s["id"] for s in after] == [self.local_id], f"not found after favouriting: {after}")


def main() -> int:
    ap = argparse.ArgumentParser(description="Mastodon.py federated search scenario (two fedblog servers).")
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--token", required=True, help="a token of the searcher on the first server")
    ap.add_argument("--remote-base-url", required=True)
    ap.add_argument("--remote-token", required=True)
    args = ap.parse_args()
    warnings.filterwarnings("error", module=r"mastodon(\.|$)")
    tokens = {"carol": args.token}
    remote = Mastodon(access_token=args.remote_token, api_base_url=args.remote_base_url.rstrip("/"), request_timeout=30)
    FederatedSearch(args.base_url.rstrip("/"), tokens, remote).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
