"""The claim window tells nothing to the seats that are not asked (issue 26, item 5): two human
clients at a table; for each discard, the discarder's frames are the same, by their content and
their timing, whether or not the other seat could claim it (and was asked)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")

from mahjong_core.server import ServerSettings

from .harness import FAST, Client, LiveServer, choose, stored

PAUSE = 0.15


def _shape(frame: dict[str, Any]) -> tuple[Any, ...]:
    """What a frame says besides the tiles (which differ from discard to discard): its events'
    types and seats (a flower and its replacement draw left out: they follow any draw), the
    phase, whose turn, the claim, who is to act, the deadline."""
    view = frame["state"]["view"]
    events = [(e["event"]["type"], e["event"].get("seat")) for e in frame["events"]]
    for k in range(len(events) - 1, 0, -1):
        if events[k - 1][0] == "flower" and events[k][0] == "draw":
            del events[k - 1:k + 1]
    return (tuple(events), view["phase"], view["turn"], view["claim"], view["to_act"], frame["state"]["deadline_s"])


def _play_on(frame: dict[str, Any]) -> bool:
    """The round goes on after the discard (no win on it, no last tile)."""
    return {e["event"]["type"] for e in frame["events"]} <= {"action", "discard", "draw", "flower"}


class Seat(Client):
    """A client that records, for each of its discards, the first frame after it and its delay,
    and whether it was itself asked to claim each of the other seat's discards."""

    def __init__(self, url: str, seat: dict[str, Any]) -> None:
        super().__init__(url, seat)
        self.after_discard: list[tuple[dict[str, Any], float]] = []
        self.asked_on: set[int] = set()        # the other seat's discards (0, 1, ...) this seat was asked on
        self.not_asked_claims: list[dict[str, Any]] = []

    def their_discards(self) -> int:
        me = self.seat["seat"]
        return sum(1 for ev in self.events if ev["type"] == "discard" and ev["seat"] != me)

    async def run(self, stop: Any) -> None:
        sent_at: float | None = None
        while not stop():
            try:
                frame = await self.recv(0.2)
            except asyncio.TimeoutError:
                continue
            if frame["type"] != "update":
                continue
            if sent_at is not None:
                self.after_discard.append((frame, time.monotonic() - sent_at))
                sent_at = None
            view = frame["state"]["view"]
            if view["phase"] == "claim":
                if view["to_act"]:
                    self.asked_on.add(self.their_discards() - 1)
                else:
                    self.not_asked_claims.append(frame)
            if self.to_act():
                index = choose(view)
                action = dict(zip(view["legal_indices"], view["legal_actions"]))[index]
                await self.send({"type": "act", "index": index})
                if action["type"] == "discard":
                    sent_at = time.monotonic()
                self.state = None


def test_the_discarder_cannot_tell_whether_the_other_seat_was_asked(tmp_path):
    s = ServerSettings(db=str(tmp_path / "claims.sqlite3"), bots=False, rounds=20, seed=31, tick_s=0.01,
                       act_timeout_s=30.0, **{**FAST, "claim_pause_s": PAUSE})
    with LiveServer(s) as srv:
        a, b = srv.join("kim", "coins"), srv.join("lou", "coins")
        ca, cb = Seat(srv.ws_url, a), Seat(srv.ws_url, b)

        def enough() -> bool:
            return ca.over or (len(cb.asked_on) >= 6 and len(ca.after_discard) - len(cb.asked_on) >= 6)

        async def main() -> None:
            await ca.open()
            await cb.open()
            await asyncio.gather(ca.run(enough), cb.run(enough))
            await ca.close()
            await cb.close()

        asyncio.run(main())
    assert len(cb.asked_on) >= 6, "the other seat was asked on too few discards to compare"
    # never a claim window for a seat that is not asked, on either side
    assert ca.not_asked_claims == [] and cb.not_asked_claims == []
    # the discarder's first frame after each discard on which the round goes on: one shape
    # whether the other seat was asked (and passed) or not (the discard, the other seat's draw;
    # its turn; the deadline started anew), and never sooner than the pause
    asked = [ca.after_discard[i] for i in range(len(ca.after_discard)) if i in cb.asked_on]
    not_asked = [ca.after_discard[i] for i in range(len(ca.after_discard)) if i not in cb.asked_on]
    asked = [(f, t) for f, t in asked if _play_on(f)]
    not_asked = [(f, t) for f, t in not_asked if _play_on(f)]
    assert len(asked) >= 5 and len(not_asked) >= 5
    me, other = a["seat"], b["seat"]
    one = ((("action", me), ("discard", me), ("draw", other)), "turn", other, None, False, s.act_timeout_s)
    assert {_shape(f) for f, _ in asked} == {_shape(f) for f, _ in not_asked} == {one}, (
        [_shape(f) for f, _ in asked], [_shape(f) for f, _ in not_asked])
    for _, waited in asked + not_asked:
        assert waited >= PAUSE - 0.02, waited
    db = stored(s.db)
    for c in (ca, cb):     # stopped mid-match: each stream a prefix of the stored one
        assert c.events == db["streams"][(a["table"], c.seat["seat"])][:len(c.events)]
