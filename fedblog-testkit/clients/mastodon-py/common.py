"""Shared scaffolding of the Mastodon.py scenarios: the failure type, small assertions, and the
runner of named steps that every token-based scenario (social.py, statuses.py, reading.py, ...)
uses. scenario.py signs in through OAuth itself and uses only the assertions.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
import warnings
from typing import Callable

from mastodon import Mastodon, MastodonNotFoundError


class ScenarioError(Exception):
    """A mismatch between what the server did and what a Mastodon client expects."""


def check(cond: bool, msg: str) -> None:
    if not cond:
        raise ScenarioError(msg)


def expect_404(fn: Callable[[], object], what: str) -> None:
    try:
        got = fn()
    except MastodonNotFoundError:
        return
    raise ScenarioError(f"{what}: expected 404, got {str(got)[:200]}")


class Steps:
    """Named steps run in order against clients signed in with tokens from run.sh.

    A subclass sets `label` (printed in the summary line `<label>: N steps passed`), `users` (the
    token names it signs in; empty: every token given) and `steps()`.
    """

    label = "scenario"
    users: tuple[str, ...] = ()
    required: tuple[str, ...] = ()  # tokens that must be given besides `users`

    def __init__(self, base: str, tokens: dict[str, str]) -> None:
        self.base = base
        names = self.users or tuple(tokens)
        self.c = {
            name: Mastodon(access_token=tokens[name], api_base_url=base, request_timeout=30)
            for name in names
        }
        self.me = {name: api.account_verify_credentials() for name, api in self.c.items()}
        self.passed = 0

    def id(self, name: str) -> str:
        return self.me[name]["id"]

    def steps(self) -> list[tuple[str, Callable[[], None]]]:
        raise NotImplementedError

    def step(self, name: str, fn: Callable[[], None]) -> None:
        print(f"step: {name} ...", end=" ", flush=True)
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - report any failure with its step
            print("FAILED")
            print(f"{self.label}: step {name} failed: {e}", file=sys.stderr)
            if not isinstance(e, ScenarioError):
                traceback.print_exc()
            sys.exit(1)
        print("ok")
        self.passed += 1

    def run(self) -> None:
        for name, fn in self.steps():
            self.step(name, fn)
        print(f"{self.label}: {self.passed} steps passed")


def main_with_tokens(cls: type[Steps], description: str, argv: list[str] | None = None) -> int:
    """The command line of a token-based scenario: `--base-url URL --tokens tokens.json`."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--tokens", required=True, help="JSON file: username -> bearer token")
    args = ap.parse_args(argv)
    warnings.filterwarnings("error", module=r"mastodon(\.|$)")
    with open(args.tokens, encoding="utf-8") as f:
        tokens = json.load(f)
    missing = [n for n in cls.users + cls.required if n not in tokens]
    if missing:
        print(f"{cls.label}: tokens for {missing} missing from {args.tokens}", file=sys.stderr)
        return 2
    cls(args.base_url.rstrip("/"), tokens).run()
    return 0
