"""``mahjong-core play --ruleset changpai-ydr``: one 长牌 hand against two RuleBots in the terminal.

As the mahjong ``play`` (:mod:`mahjong_core.play`): the screen shows only what the player's view holds
(spec 8.3: never the bots' concealed cards or the stock), what the others did since the last
decision, and the legal actions numbered from 1, a move that incurs 包子 marked with its cause; the
player types a number (or ``q`` to quit).  Reads standard input line by line, so it can be scripted.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from ..._validate import as_flag, as_int
from ...game.schema import MAX_SEED
from .cards import face_name, format_cards
from .cli import describe_result, display_name
from .round_actions import Action
from ._ref.round import BAOZI_CAUSES

__all__ = ["play_terminal"]

_KIND_WORDS = {"discard": "discard 打", "chi": "chi 吃", "peng": "peng 碰", "sha": "sha 杀", "xiang": "xiang 吐火响",
               "hu": "hu 胡", "pass": "pass 过", "qi": "qi 起", "fold": "fold 扣牌"}
_GROUP_WORDS = {"peng": "碰", "kan": "坎", "sha": "杀", "chi": "吃", "tuhuo_weixiang": "吐火未响",
                "tuhuo_xiang": "吐火响"}


class _Screen:
    def __init__(self, out: TextIO, you: int, glyphs: bool, names: Sequence[str] | None = None) -> None:
        self.out, self.you, self.glyphs = out, you, glyphs
        self.names = names          # the face_names option (CP-50): display names, None = spec 1.1

    def write(self, line: str = "") -> None:
        self.out.write(line + "\n")

    def who(self, seat: int) -> str:
        return "you" if seat == self.you else f"seat {seat}"

    def does(self, seat: int, verb: str) -> str:
        """``seat 2 discards`` / ``you discard``."""
        return f"you {verb}" if seat == self.you else f"seat {seat} {verb}s"

    def card(self, c: int) -> str:
        shown = face_name(c, "glyph") if self.glyphs else face_name(c, "pips")
        return f"{shown} {display_name(c, self.names)}"

    def cards(self, cards: list[int]) -> str:
        return format_cards(cards, "glyph" if self.glyphs else "pips") if cards else "-"

    def action(self, a: Action, phase: str) -> str:
        if a.kind == "pass" and phase == "turn":
            return "turn 翻牌 (the next stock card)"
        if a.kind == "discard":
            assert a.face is not None
            return f"discard 打 {self.card(a.face)}"
        if a.kind == "chi":
            assert a.pair is not None
            return f"chi 吃 with {self.card(a.pair[0])} + {self.card(a.pair[1])}"
        return _KIND_WORDS[a.kind]

    def event(self, e: dict[str, Any]) -> str | None:
        """An event of the player's stream in words (None: shown elsewhere, or nothing to say)."""
        t, seat = e["type"], e["seat"]
        if t == "jiang":
            return f"五门将 (the two jiang cards): {self.cards(e['cards'])}"
        if t == "caishen":
            return f"{self.does(seat, 'lay')} out 财神 x{e['count']}"
        if t == "action":      # another seat's 起-stage decision or fold; the rest shows in its own events
            kind = Action.from_id(e["action"]).kind
            if seat == self.you or (e["phase"] not in ("qi", "stay") and kind != "fold"):
                return None
            return f"{self.who(seat)}: {_KIND_WORDS[kind]}"
        if t == "draw" and seat == self.you:
            return f"you draw {self.card(e['card'])}"
        if t == "replacement":
            return f"{self.does(seat, 'draw')} a replacement" + (f": {self.card(e['card'])}" if "card" in e else "")
        if t == "declare":
            return f"{self.does(seat, 'declare')} {_GROUP_WORDS[e['kind']]} of {self.card(e['face'])}"
        if t in ("discard", "turn"):
            return f"{self.does(seat, t)} {self.card(e['card'])}"
        if t == "claim":
            kind = Action.from_id(e["action"]).kind
            return f"{self.who(seat)}: {_KIND_WORDS[kind]} {self.card(e['card'])} (from {self.who(e['source'])})"
        if t == "announce":
            return f"{self.does(seat, 'announce')} {e['name']} {self.card(e['face'])}"
        return None

    def table(self, v: dict[str, Any]) -> None:
        self.write("-" * 64)
        jiang = f" | 五门将 {self.cards(v['jiang'])}" if v["jiang"] else ""
        self.write(f"stock {v['stock_left']} | banker {self.who(v['banker'])}{jiang} | you are seat {self.you}")
        for q in range(3):
            t = v["table"][q]
            groups = ", ".join(f"{_GROUP_WORDS[g['kind']]} {self.cards(g['cards'])}" for g in t["declared"]) or "-"
            state = " (folded 扣牌)" if t["folded"] else ""
            state += " (起)" if v["qi_player"] == q else ""
            concealed = "" if q == self.you else f" | {t['concealed']} concealed"
            self.write(f"{self.who(q):>7}{state}: groups {groups} | 堂子 {self.cards(t['tangzi'])} | "
                       f"财神 {t['caishen']}{concealed}")
        hand = [f for f in range(21) for _ in range(v["hand"][f])]
        self.write(f"   hand {self.cards(hand)}   ({' '.join(display_name(c, self.names) for c in hand)})")
        if v["offer"]:
            o = v["offer"]
            self.write(f"  offer {self.card(o['card'])} ({'turned' if o['kind'] == 'turn' else 'discarded'} "
                       f"by {self.who(o['from'])})")


def play_terminal(seed: int | None = None, *, you: int = 0, glyphs: bool = False, stdin: TextIO | None = None,
                  stdout: TextIO | None = None, options: Mapping[str, Any] | None = None) -> int:
    """Play one 长牌 hand as seat ``you`` (0-2) against two RuleBots; returns 0 when the hand ended or
    the player quit.  ``seed`` shuffles the stock and draws the banker (a random seed when None);
    ``options``: the room's options (spec 6; ``face_names`` are the names the screen shows).
    Bad arguments raise a :class:`~mahjong_core.errors.MahjongError` before anything is shown."""
    import numpy as np

    from ...play import read_choice
    from .round_bots import RuleBot
    from .round_match import LongcardRound

    you = as_int(you, "you (your seat)", 0, 2)
    glyphs = as_flag(glyphs, "glyphs")
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint32)[0])
    seed = as_int(seed, "seed", 0, MAX_SEED)
    rnd = LongcardRound(seed=seed, dealer=int(np.random.default_rng(seed).integers(3)), options=options)
    names = rnd.hand.settings.face_names
    inp = stdin or sys.stdin
    screen = _Screen(stdout or sys.stdout, you, glyphs, names)
    bot = RuleBot()                 # plays under the hand's settings
    screen.write(f"mahjong-core: changpai-ydr hand (长牌 幺地人), seed {rnd.seed}. "
                 "Type the number of an action, q to quit.")
    shown = 0
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        if seat != you:
            rnd.step(seat, bot.act_index(rnd, seat))
            continue
        v = rnd.view(you)
        for e in v["events"][shown:]:
            line = screen.event(e)
            if line:
                screen.write(line)
        shown = len(v["events"])
        screen.table(v)
        indices = v["legal_indices"]
        penalised = rnd.hand.penalised_mask(you)
        for k, i in enumerate(indices, 1):
            cause = rnd.hand.penalty_of(you, i) if penalised[i] else None
            mark = f"   <- 包子 {cause} {BAOZI_CAUSES[cause]}" if cause else ""
            screen.write(f"  {k:>2}. {screen.action(Action.from_id(i), rnd.hand.phase)}{mark}")
        choice = read_choice(inp, screen.out, len(indices))
        if choice is None:
            return 0
        rnd.step(you, indices[choice - 1])
    for e in rnd.view(you)["events"][shown:]:
        line = screen.event(e)
        if line:
            screen.write(line)

    res = rnd.hand.result
    assert res is not None   # the loop runs until the hand is over
    screen.write("")
    screen.write(describe_result(res, you=you, names=names))
    screen.write("points: " + ", ".join(f"{screen.who(q)} {d:+}" for q, d in enumerate(res["deltas"])))
    return 0
