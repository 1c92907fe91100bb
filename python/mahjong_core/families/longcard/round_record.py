"""Views and the replay record of the long-card reference hand (spec changpai.md 8.3, 8.4).

:class:`RoundRecord` is the half of :class:`._ref.round.Round` that shows a seat what it may see and
writes / reads the replay record: ``{"ruleset", "version", "options", "banker", "stock", "actions",
"result"}``.  Reading replays every action and checks every field (``StateError`` names it).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from ..._validate import as_seat, is_int, short_repr
from ...errors import MahjongError, StateError
from ...game.schema import first_difference
from .cards import CAISHEN
from .options import OPTIONS, RULESET
from .round_rules import PLAYERS, RoundState
from .round_settings import RoundSettings

if TYPE_CHECKING:
    from ._ref.round import Round

__all__ = ["VERSION", "RoundRecord", "checked_stock"]

VERSION = 2
"""Version of the replay record (spec 8.4)."""


class RoundRecord(RoundState):
    """Views and JSON of a hand (mixed into :class:`._ref.round.Round`)."""

    # ------------------------------------------------------------------ views (8.3)
    def events_for(self, seat: Any) -> list[dict[str, Any]]:
        """The events ``seat`` may see, in order."""
        return list(self.seen[as_seat(seat, PLAYERS)])

    def view(self, seat: Any) -> dict[str, Any]:
        """What ``seat`` may see (spec 8.3); nothing of the others' concealed cards or the stock order."""
        p = as_seat(seat, PLAYERS)
        offer = None if self.offer < 0 else {"card": self.offer, "from": self.offer_from, "kind": self.offer_kind}
        return {
            # who decides in a claim window is shown only to himself: being asked reveals an option (8.3)
            "seat": p, "phase": self.phase, "actor": self.actor if self.phase != "claim" or self.actor == p else None,
            "banker": self.banker, "qi_player": self.qi_player,
            "jiang": None if self.jiang is None else list(self.jiang), "stock_left": self.stock_left,
            "offer": offer, "hand": list(self.hands[p]), "discard_ban": self.discard_ban if p == self.actor else -1,
            "players": [{
                "declared": [{"kind": g.kind, "cards": list(g.cards), "from": None if src < 0 else src}
                             for g, src in zip(self.groups[q], self.group_from[q])],
                "tangzi": list(self.tangzi[q]), "caishen": self.caishen[q], "folded": self.folded[q],
                "concealed": sum(self.hands[q]),
            } for q in range(PLAYERS)],
            "events": self.events_for(p),
            "result": self.result,
        }

    # ------------------------------------------------------------------ replay and JSON (8.4)
    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": RULESET, "version": VERSION, "options": self.settings.to_options(), "banker": self.banker,
                "stock": list(self.stock), "actions": [list(x) for x in self.log], "result": self.result}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Any, *, impl: Any = "compiled") -> Round:
        """Rebuild a hand from its replay record, every field checked (``StateError`` names it);
        ``impl`` is the counting backend of the rebuilt hand.

        The record is held to JSON types exactly, as the shared state boundary holds a saved round
        (:mod:`mahjong_core.game.schema`): ``true`` is not ``1`` and ``6.0`` is not ``6``; ``options``
        has every key of spec 6 (none filled in with a default) with its value as the settings hold
        it; the replayed ``result`` must equal the record's field by field, types included."""
        if type(d) is not dict:
            raise StateError(f"a long-card round record is a JSON object, got {short_repr(d)}")
        expected = {"ruleset", "version", "options", "banker", "stock", "actions", "result"}
        if set(d) != expected:
            raise StateError(f"record keys must be {sorted(expected)}, got {short_repr(sorted(map(str, d)))}")
        if type(d["ruleset"]) is not str or d["ruleset"] != RULESET:
            raise StateError(f"ruleset: expected {RULESET!r}, got {short_repr(d['ruleset'])}")
        if type(d["version"]) is not int or d["version"] != VERSION:
            raise StateError(f"version: expected {VERSION}, got {short_repr(d['version'])}")
        options = d["options"]
        if type(options) is not dict:
            raise StateError(f"options: expected an object, got {short_repr(options)}")
        missing = [k for k in OPTIONS if k not in options]
        if missing:
            raise StateError(f"options: every option of spec 6 is recorded; missing {short_repr(missing)}")
        if type(d["banker"]) is not int or not 0 <= d["banker"] < PLAYERS:
            raise StateError(f"banker: expected a seat 0-2, got {short_repr(d['banker'])}")
        stock = d["stock"]
        if type(stock) is not list or not all(type(c) is int for c in stock):
            raise StateError(f"stock: expected a list of integer card ids, got {short_repr(stock)}")
        try:
            settings = RoundSettings.from_options(options)
        except MahjongError as e:
            raise StateError(f"options: {e}") from None
        diff = first_difference(settings.to_options(), options, "options", against="the checked settings")
        if diff is not None:
            raise StateError(diff)
        try:
            r = cast("Round", cls(settings=settings, banker=d["banker"], stock=stock, impl=impl))
        except StateError:
            raise
        except MahjongError as e:
            raise StateError(f"stock: {e}") from None
        actions = d["actions"]
        if type(actions) is not list:
            raise StateError(f"actions: expected a list, got {short_repr(actions)}")
        for k, item in enumerate(actions):
            if not (type(item) is list and len(item) == 2 and all(type(v) is int for v in item)):
                raise StateError(f"actions[{k}]: expected [seat, action id], got {short_repr(item)}")
            try:
                r.step(item[0], item[1])
            except MahjongError as e:
                raise StateError(f"actions[{k}]: {e}") from None
        diff = first_difference(r.result, d["result"], "result", against="the replay")
        if diff is not None:
            raise StateError(diff)
        return r

    @classmethod
    def from_json(cls, data: Any, *, impl: Any = "compiled") -> Round:
        if isinstance(data, (str, bytes, bytearray)):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError) as e:
                raise StateError(f"not valid JSON: {short_repr(str(e))}") from None
        return cls.from_dict(data, impl=impl)

    @classmethod
    def replay(cls, record: Any, *, impl: Any = "compiled") -> Round:
        """The hand reproduced from a replay record (``to_dict``/``to_json`` output)."""
        return cls.from_json(record, impl=impl) if not isinstance(record, dict) else cls.from_dict(record, impl=impl)


def checked_stock(stock: Any, deck: list[int]) -> list[int]:
    if isinstance(stock, (str, bytes)) or not hasattr(stock, "__len__"):
        raise StateError(f"stock: expected a list of {len(deck)} card ids, got {short_repr(stock)}")
    out = list(stock)
    if len(out) != len(deck):
        raise StateError(f"stock: expected {len(deck)} cards (105 + caishen_count), got {len(out)}")
    for k, c in enumerate(out):
        if not is_int(c) or not 0 <= c <= CAISHEN:
            raise StateError(f"stock[{k}]: expected a card id 0-21, got {short_repr(c)}")
    if sorted(int(c) for c in out) != sorted(deck):
        raise StateError("stock: not the deck (each face 5 times, caishen_count 财神)")
    return [int(c) for c in out]
