#!/usr/bin/env python3
"""Real-client scenario for quote posts (Mastodon 4.5), driven through Mastodon.py 2.x's own
quote methods: `status_post(quoted_status_id=..., quote_approval_policy=...)`, `status_quotes`,
`status_quote_revoke`, `status_update_quote_approval_policy` and `status_update(...,
quote_approval_policy=...)`, and `notifications(types=["quote"])`. No call goes around the
library.

bob quotes a public status of alice's (accepted, with the quoted status embedded), alice is told
of it by a `quote` notification carrying bob's quoting status, alice lists
the quotes of her status, a status whose policy is `nobody` and a followers-only status cannot be
quoted by others (404, which Mastodon.py raises as MastodonNotFoundError), alice narrows a
policy to followers and widens it again by editing, and finally revokes bob's quote.

Usage:
    python quotes.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario uses `alice`, `bob` and `carol`. The last
line is `quotes: N steps passed`.
"""

from __future__ import annotations

from mastodon import MastodonAPIError

from common import ScenarioError, Steps, check, expect_404, main_with_tokens


class Quotes(Steps):
    label = "quotes"
    users = ("alice", "bob", "carol")

    def __init__(self, base, tokens):
        super().__init__(base, tokens)
        self.original = None
        self.quote = None

    def steps(self):
        return [
            ("quote_a_public_status", self.quote_public),
            ("quote_notification", self.quote_notification),
            ("quoted_status_counts_and_policy", self.quoted_status),
            ("list_quotes_of_own_status", self.list_quotes),
            ("policy_nobody_refuses_others", self.policy_nobody),
            ("followers_only_status_refused", self.followers_only),
            ("update_policy_then_edit_it_back", self.update_policy),
            ("revoke_a_quote", self.revoke),
        ]

    def quote_public(self) -> None:
        alice, bob = self.c["alice"], self.c["bob"]
        self.original = alice.status_post("a post worth quoting", visibility="public")
        check(self.original.quote is None, f"a plain status has quote {self.original.quote}")
        self.quote = bob.status_post("look at this", quoted_status_id=self.original)
        q = self.quote.quote
        check(q is not None and q.state == "accepted", f"the quote is {q}")
        check(
            q.quoted_status is not None and q.quoted_status.id == self.original.id,
            f"the quoted status is {q.quoted_status}",
        )

    def quote_notification(self) -> None:
        alice, bob = self.c["alice"], self.c["bob"]
        told = alice.notifications(types=["quote"])
        check(all(n.type == "quote" for n in told), f"types=['quote'] answered {told}")
        ours = [n for n in told if n.status is not None and n.status.id == self.quote.id]
        check(len(ours) == 1, f"alice's quote notifications are {told}")
        n = ours[0]
        check(n.account.id == bob.me().id, f"the quote notification comes from {n.account.acct}")
        check(
            n.status.quote is not None and n.status.quote.quoted_status.id == self.original.id,
            f"the notification's status quotes {n.status.quote}",
        )
        others = alice.notifications(exclude_types=["quote"])
        check(all(n.type != "quote" for n in others), f"exclude_types=['quote'] answered {others}")

    def quoted_status(self) -> None:
        seen = self.c["bob"].status(self.original)
        check(seen.quotes_count == 1, f"quotes_count is {seen.quotes_count}")
        approval = seen.quote_approval
        check(
            approval is not None
            and list(approval.automatic) == ["public"]
            and approval.current_user == "automatic",
            f"quote_approval is {approval}",
        )

    def list_quotes(self) -> None:
        page = self.c["alice"].status_quotes(self.original)
        check([s.id for s in page] == [self.quote.id], f"status_quotes answered {page}")
        expect_404(
            lambda: self.c["bob"].status_quotes("999999999999999990"),
            "listing the quotes of an unknown status",
        )
        try:
            got = self.c["bob"].status_quotes(self.original)
        except MastodonAPIError as e:
            check(e.args[1] == 403, f"bob listing alice's quotes: {e.args}")
        else:
            raise ScenarioError(f"bob listed the quotes of alice's status: {got}")

    def policy_nobody(self) -> None:
        alice, bob = self.c["alice"], self.c["bob"]
        mine = alice.status_post("mine alone", quote_approval_policy="nobody")
        check(
            list(mine.quote_approval.automatic) == [],
            f"a nobody status has quote_approval {mine.quote_approval}",
        )
        check(
            bob.status(mine).quote_approval.current_user == "denied",
            "bob is not told he is denied",
        )
        expect_404(
            lambda: bob.status_post("nope", quoted_status_id=mine), "quoting a nobody status"
        )
        own = alice.status_post("quoting myself", quoted_status_id=mine)
        check(own.quote.state == "accepted", f"the author's own quote is {own.quote}")

    def followers_only(self) -> None:
        private = self.c["alice"].status_post("followers only", visibility="private")
        expect_404(
            lambda: self.c["carol"].status_post("nope", quoted_status_id=private),
            "quoting a followers-only status of someone else",
        )

    def update_policy(self) -> None:
        alice, carol = self.c["alice"], self.c["carol"]
        s = alice.status_post("who may quote this", visibility="public")
        changed = alice.status_update_quote_approval_policy(s, "nobody")
        check(
            list(changed.quote_approval.automatic) == [],
            f"after nobody: {changed.quote_approval}",
        )
        expect_404(
            lambda: carol.status_post("nope", quoted_status_id=s), "quoting after nobody"
        )
        edited = alice.status_update(s, "who may quote this (edited)", quote_approval_policy="public")
        check(
            list(edited.quote_approval.automatic) == ["public"],
            f"after editing with public: {edited.quote_approval}",
        )
        ok = carol.status_post("now I may", quoted_status_id=s)
        check(ok.quote.state == "accepted", f"quoting after public: {ok.quote}")

    def revoke(self) -> None:
        alice, bob = self.c["alice"], self.c["bob"]
        revoked = alice.status_quote_revoke(self.original, self.quote)
        check(
            revoked.id == self.quote.id
            and revoked.quote.state == "revoked"
            and revoked.quote.quoted_status is None,
            f"revoking answered {revoked.id} with quote {revoked.quote}",
        )
        check(bob.status(self.quote).quote.state == "revoked", "bob's quote is not revoked")
        check(list(alice.status_quotes(self.original)) == [], "a revoked quote is still listed")
        check(alice.status(self.original).quotes_count == 0, "a revoked quote still counts")


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Quotes, __doc__))
