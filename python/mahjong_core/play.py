"""``mahjong-core play``: a two-player round against the greedy bot in the terminal.

The screen shows what the player's view holds (never the bot's hand or the
wall), the legal actions numbered from 1; the player types a number (or ``q``
to quit).  Reads standard input line by line, so it can be scripted.
"""

from __future__ import annotations

import sys
from typing import TextIO

from ._validate import as_flag, as_int, counted
from .families.registry import DEFAULT_RULESET
from .errors import RulesetError, StateError
from .families.mahjong.api import GreedyBot, Round
from .families.mahjong.actions import describe_index
from .families.mahjong.json_types import MeldView, PlayerView
from .families.mahjong.rulesets import get_ruleset
from .families.mahjong.tiles import format_tiles, tile_glyph, tile_name, tile_short

__all__ = ["play_terminal", "read_choice"]


def _tiles(tiles: list[int], glyphs: bool) -> str:
    if not tiles:
        return "-"
    if glyphs:
        return " ".join(tile_glyph(t) for t in tiles)
    return format_tiles(tiles)


def _tile(t: int, glyphs: bool) -> str:
    return f"{tile_short(t)} {tile_glyph(t) if glyphs else tile_name(t, 'zh')}"


def _describe(index: int, glyphs: bool) -> str:
    """A mask index in words, with tile names (the layout is in mahjong_core.families.mahjong.actions)."""
    if index < 34:
        return f"discard {_tile(index, glyphs)}"
    if index < 68:
        return f"discard {_tile(index - 34, glyphs)} and declare ready (报听)"
    if index < 102:
        return f"kong {_tile(index - 68, glyphs)}"
    return describe_index(index)


def _melds(melds: list[MeldView], glyphs: bool) -> str:
    if not melds:
        return "-"
    out = []
    for m in melds:
        tiles = m.get("tiles")
        out.append(f"{m['kind']} {_tiles(tiles, glyphs) if tiles else '(face down)'}")
    return ", ".join(out)


def _show(view: PlayerView, glyphs: bool, out: TextIO) -> None:
    me = view["seat"]
    other = 1 - me
    out.write("\n" + "-" * 60 + "\n")
    out.write(f"wall {counted(view['wall_remaining'], 'tile')} | dealer: seat {view['dealer']} | you are seat {me}\n")
    out.write(f"bot    melds {_melds(view['melds'][other], glyphs)}  flowers {_tiles(view['flowers'][other], glyphs)}  "
              f"hand {counted(view['hand_sizes'][other], 'tile')}\n")
    out.write(f"bot    discards {_tiles(view['discards'][other], glyphs)}\n")
    out.write(f"you    discards {_tiles(view['discards'][me], glyphs)}\n")
    out.write(f"you    melds {_melds(view['melds'][me], glyphs)}  flowers {_tiles(view['flowers'][me], glyphs)}\n")
    hand = sorted(view["hand"])
    out.write(f"hand   {_tiles(hand, glyphs)}   ({' '.join(tile_name(t, 'zh') for t in hand)})\n")
    drawn = view["drawn"]
    if drawn is not None:
        out.write(f"drew   {tile_short(drawn)} {tile_glyph(drawn)}\n")
    if view.get("claim"):
        out.write(f"claim  {view['claim']}\n")


def read_choice(inp: TextIO, out: TextIO, n: int) -> int | None:
    """Ask for a number from 1 to ``n`` until one is typed; None (after "bye") when the player types
    ``q`` or the input ends.  Shared by every family's terminal game."""
    while True:
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line or line.strip().lower() in ("q", "quit", "exit"):
            out.write("\nbye\n")
            return None
        try:
            choice = int(line.strip())
            if 1 <= choice <= n:
                return choice
        except ValueError:
            pass
        out.write(f"type a number from 1 to {n}, or q\n")


def play_terminal(ruleset: str = DEFAULT_RULESET, seed: int | None = None, *, glyphs: bool = False,
                  you: int = 0, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play one round; returns 0 when the round ended or the player quit.

    ``ruleset``: a two-player ruleset; ``you``: your seat, 0 or 1.  Bad arguments raise a
    :class:`~mahjong_core.errors.MahjongError` before anything is shown.
    """
    rs = get_ruleset(ruleset)
    if rs.players != 2:
        raise RulesetError(f"play is for the two-player rulesets, not {rs.name} ({rs.players} players)")
    you = as_int(you, "you (your seat)", 0, 1)
    glyphs = as_flag(glyphs, "glyphs")
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    rnd = Round(rs, seed=seed, dealer=0)
    bot = GreedyBot()
    # the round's own seed (drawn at random when none was given), so that the round can be replayed
    out.write(f"mahjong-core: {rs.name} round, seed {rnd.seed}. "
              "Type the number of an action, q to quit.\n")
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        if seat != you:
            index = bot.act_index(rnd, seat)
            events = rnd.step(seat, index)
            for e in events:
                if e.get("type") in ("discard", "pon", "chi", "kong", "win", "ready") and e.get("seat") == seat:
                    tile = e.get("tile")
                    shown = f" {_tile(tile, glyphs)}" if isinstance(tile, int) else ""
                    out.write(f"bot: {e['type']}{shown}\n")
            continue
        view = rnd.view(you)
        _show(view, glyphs, out)
        indices = view["legal_indices"]
        for k, index in enumerate(indices, 1):
            out.write(f"  {k:>2}. {_describe(index, glyphs)}\n")
        choice = read_choice(inp, out, len(indices))
        if choice is None:
            return 0
        rnd.step(you, indices[choice - 1])
    res = rnd.result
    if res is None:   # pragma: no cover - the loop above runs until the round is over
        raise StateError("the round ended without a result")
    if res.draw:
        out.write("\nexhaustive draw (荒牌)\n")
    else:
        if res.score is None:   # pragma: no cover - a won round has its score
            raise StateError("a won round without its score")
        who = "you" if res.winner == you else "the bot"
        out.write(f"\n{who} won ({res.method}), {res.total} fan:\n")
        for f in res.score.fans:
            out.write(f"  {f.zh} {f.en} {f.points}×{f.count}\n")
    return 0
