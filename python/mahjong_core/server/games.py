"""What the server needs of a game family, found through the registry (the server names no family).

A ruleset can be served when its family registers a match class (``Family.match_type()``), at
least one bot (the table's bot plays the bot seats and a seat whose time is up, 托管: the bot
named :data:`TABLE_BOT`, else the family's first) and a preset room that plays it
(:data:`mahjong_core.settlement.ROOMS`, where its settlement profile is); a family may add its
side of the tables (``Family.server``, :class:`~mahjong_core.families.hooks.ServerHooks`: the
records of its settled rounds, its web table's glossary and files).  Anything else is an
:class:`~mahjong_core.errors.UnsupportedError` naming what the family lacks.
"""

from __future__ import annotations

from typing import Any

from ..errors import MahjongError, UnsupportedError
from ..families.registry import Family, get_family, get_ruleset
from ..settlement import ROOMS
from .difficulty import difficulty_bot

__all__ = ["TABLE_BOT", "hosted_rooms", "new_match", "served_family", "settlement_fields", "table_bot", "web_table",
           "web_dirs"]

TABLE_BOT = "greedy"
"""The name of the bot a table plays with, when the family registers one by that name."""


def served_family(ruleset: Any) -> Family:
    """The family of ``ruleset`` if the server can host its tables; else an UnsupportedError
    saying what the family lacks (a RulesetError for a ruleset nobody registered)."""
    record = get_ruleset(ruleset)
    family = get_family(record.family)
    what = f"the server cannot host {record.name!r}: the {family.name} family"
    if not family.bots:
        raise UnsupportedError(f"{what} registers no bot (a table's bot seats, and the seats whose time is up, "
                               "are played by one)")
    try:
        family.match_type()
    except UnsupportedError:
        raise UnsupportedError(f"{what} registers no match class (a table plays a match)") from None
    if not any(room.ruleset == record.name for room in ROOMS.values()):
        raise UnsupportedError(f"{what} registers no preset room for it (mahjong_core.settlement.register_rooms: a "
                               "table settles its hands by a room's profile)")
    return family


def hosted_rooms() -> tuple[str, ...]:
    """The preset rooms of :data:`~mahjong_core.settlement.ROOMS` the server offers: those whose
    ruleset it can host (:func:`served_family`), in registration order."""
    out = []
    for name, room in ROOMS.items():
        try:
            served_family(room.ruleset)
        except MahjongError:
            continue
        out.append(name)
    return tuple(out)


def new_match(ruleset: str, seed: int, rounds: int, min_fan: "int | None") -> Any:
    """A new match of ``ruleset`` (the family's match class: ``Family.new_match``)."""
    return served_family(ruleset).new_match(ruleset=ruleset, seed=seed, rounds=rounds, min_fan=min_fan)


def table_bot(ruleset: Any, seed: "int | None" = None, difficulty: "str | None" = None) -> Any:
    """The bot a table of ``ruleset`` plays with: without ``difficulty`` :data:`TABLE_BOT`, else
    the family's first bot (the bot that acts for a seat whose time is up); with it, the bot of that
    difficulty level (:func:`~.difficulty.difficulty_bot`: its own, else the nearest easier one the
    family registers), the room's seat-filling bot."""
    bots = served_family(ruleset).bots
    if difficulty is not None:
        return bots[difficulty_bot(bots, difficulty)](seed)
    factory = bots.get(TABLE_BOT) or next(iter(bots.values()))
    return factory(seed)


def settlement_fields(rnd: Any, result: Any) -> dict[str, Any]:
    """The family's fields of a settled round's record (``ServerHooks.settlement``); none without hooks."""
    hooks = served_family(rnd.ruleset).server
    return {} if hooks is None else dict(hooks.settlement(rnd, result))


def web_table(ruleset: Any) -> dict[str, Any]:
    """What a seat's ``welcome`` frame says of the family's web table: ``family`` (its name), ``web``
    (the URL of its files, or None: the web table's own drawing) and, when the family has one, its
    ``glossary`` (``ServerHooks.glossary``)."""
    family = served_family(ruleset)
    hooks = family.server
    out: dict[str, Any] = {"family": family.name, "web": web_url(family)}
    if hooks is not None and hooks.glossary is not None:
        out["glossary"] = hooks.glossary()
    return out


def web_url(family: Family) -> "str | None":
    """Where the family's web-table files are served (``/family/<name>/``), or None."""
    hooks = family.server
    return None if hooks is None or hooks.web is None else f"/family/{family.name}/"


def web_dirs() -> dict[str, str]:
    """URL path (``/family/<name>``) -> directory of every hosted family's web-table files."""
    out: dict[str, str] = {}
    for name in hosted_rooms():
        family = served_family(ROOMS[name].ruleset)
        if family.server is not None and family.server.web is not None:
            out[f"/family/{family.name}"] = family.server.web
    return out
