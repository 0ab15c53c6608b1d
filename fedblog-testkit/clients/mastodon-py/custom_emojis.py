#!/usr/bin/env python3
"""Real-client scenario for custom emojis: the administrator adds an emoji through fedblog's
own admin endpoint (Mastodon has no admin API for emojis, so this step uses `requests`, with a
multipart upload as a browser would send it); then `custom_emojis()` lists it to alice, a
status alice posts with `:shortcode:` carries it in `emojis`, and once the administrator
disables it the list hides it (the specification: administrators enable and disable emojis).
It is enabled again and removed at the end.

Usage:
    python custom_emojis.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario uses `alice` and `boss` (an
administrator with `admin:read admin:write`). The last line is `custom_emojis: N steps passed`.
"""

from __future__ import annotations

import struct
import time
import zlib

import requests
from mastodon import Mastodon

from common import Steps, check, main_with_tokens

#: fedblog's admin endpoint for custom emojis.
ADMIN_EMOJIS = "/api/v1/admin/custom_emojis"


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A PNG of one colour (8-bit RGB)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    row = b"\x00" + bytes(rgb) * width
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


class CustomEmojis(Steps):
    label = "custom_emojis"
    users = ("alice", "boss")

    def __init__(self, base, tokens):
        super().__init__(base, tokens)
        self.boss_token = tokens["boss"]
        self.shortcode = f"blob_{int(time.time())}"
        self.emoji_id = None

    def steps(self):
        return [
            ("boss_uploads_an_emoji", self.upload),
            ("alice_sees_it_listed", self.listed),
            ("anonymous_sees_it_listed", self.listed_anonymously),
            ("status_with_shortcode_fills_emojis", self.status_emojis),
            ("boss_disables_it_and_the_list_hides_it", self.disable),
            ("boss_enables_it_again_and_removes_it", self.enable_and_remove),
        ]

    def admin(self, method: str, path: str, **kwargs) -> requests.Response:
        return requests.request(
            method,
            self.base + path,
            headers={"Authorization": f"Bearer {self.boss_token}"},
            timeout=30,
            **kwargs,
        )

    def shortcodes(self, api: Mastodon) -> list[str]:
        emojis = api.custom_emojis()
        check(isinstance(emojis, list), f"custom_emojis: {emojis}")
        return [e["shortcode"] for e in emojis]

    def upload(self) -> None:
        r = self.admin(
            "POST",
            ADMIN_EMOJIS,
            data={"shortcode": self.shortcode, "category": "Blobs"},
            files={"image": ("blob.png", png(16, 16, (250, 180, 20)), "image/png")},
        )
        check(r.status_code == 200, f"POST {ADMIN_EMOJIS}: {r.status_code} {r.text}")
        body = r.json()
        check(body["shortcode"] == self.shortcode and body["domain"] is None, f"created: {body}")
        self.emoji_id = body["id"]
        # Invalid input is refused with a Mastodon-style error, not stored.
        bad = self.admin(
            "POST",
            ADMIN_EMOJIS,
            data={"shortcode": "no-dashes"},
            files={"image": ("blob.png", png(2, 2, (0, 0, 0)), "image/png")},
        )
        check(bad.status_code == 422 and "error" in bad.json(), f"bad shortcode: {bad.text}")
        # alice has no admin rights.
        refused = requests.get(
            self.base + ADMIN_EMOJIS,
            headers={"Authorization": f"Bearer {self.c['alice'].access_token}"},
            timeout=30,
        )
        check(refused.status_code == 403, f"alice listed staff's emojis: {refused.status_code}")

    def listed(self) -> None:
        emojis = {e["shortcode"]: e for e in self.c["alice"].custom_emojis()}
        e = emojis.get(self.shortcode)
        check(e is not None, f":{self.shortcode}: is not listed: {list(emojis)}")
        check(e["url"].startswith("http") and e["static_url"].startswith("http"), f"urls: {e}")
        check(e["visible_in_picker"] is True and e.get("category") == "Blobs", f"emoji: {e}")
        image = requests.get(e["url"], timeout=30)
        check(image.status_code == 200 and image.content.startswith(b"\x89PNG"), "image served")

    def listed_anonymously(self) -> None:
        anonymous = Mastodon(api_base_url=self.base, request_timeout=30)
        check(self.shortcode in self.shortcodes(anonymous), "not listed without a token")

    def status_emojis(self) -> None:
        status = self.c["alice"].status_post(
            f"look :{self.shortcode}: :{self.shortcode}: :not_an_emoji_here:",
            visibility="public",
        )
        codes = [e["shortcode"] for e in status["emojis"]]
        check(codes == [self.shortcode], f"status emojis: {status['emojis']}")
        again = self.c["alice"].status(status["id"])
        check([e["shortcode"] for e in again["emojis"]] == codes, f"read back: {again['emojis']}")

    def disable(self) -> None:
        r = self.admin("POST", f"{ADMIN_EMOJIS}/{self.emoji_id}/disable")
        check(r.status_code == 200 and r.json()["disabled"] is True, f"disable: {r.text}")
        check(self.shortcode not in self.shortcodes(self.c["alice"]), "a disabled emoji is listed")
        status = self.c["alice"].status_post(f"gone :{self.shortcode}:", visibility="public")
        check(status["emojis"] == [], f"a disabled emoji is shown: {status['emojis']}")

    def enable_and_remove(self) -> None:
        r = self.admin("POST", f"{ADMIN_EMOJIS}/{self.emoji_id}/enable")
        check(r.status_code == 200 and r.json()["disabled"] is False, f"enable: {r.text}")
        check(self.shortcode in self.shortcodes(self.c["alice"]), "enabled again, not listed")
        r = self.admin("DELETE", f"{ADMIN_EMOJIS}/{self.emoji_id}")
        check(r.status_code == 200, f"delete: {r.status_code} {r.text}")
        check(self.shortcode not in self.shortcodes(self.c["alice"]), "a removed emoji is listed")


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(CustomEmojis, __doc__))
