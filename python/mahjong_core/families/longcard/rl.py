"""The long-card family's side of the learning environments (``Family.rl``): the observation
layout and compiled encoder of a 长牌 hand (``_lc_round.observe``, ``_lc_round.RoundBatch``), its
deals, rewards' keys and rendered table.  Imported when an environment first needs it.

The observation of a seat, written by the compiled engine (``_lc_round_obs.pxi``) from what the
seat may see (spec changpai.md 8.3) only.  ``P = 3`` seats, relative: row ``k`` of a per-seat
section is the seat ``k`` places after the observer in turn order (``turn_direction``), so the
observing seat is always row 0.  ``T = 53``: the most cards one seat's 堂子 can hold (the 45 cards
left in the stock after the deal, all turned by one seat, and its 8 discards: the banker's first and
one after each of at most 7 claims).

=================  ============  ================================================================
section            shape         content
=================  ============  ================================================================
``hand``           (21,)         own concealed counts 0-5 (index = face, spec 1.1)
``caishen``        (P,)          财神 laid out, per seat
``groups``         (P, 7, 5)     per seat, per declared group in order: kind (0 none, 1 + index in
                                 ``OBS_GROUP_KINDS[1:]``: peng, kan, chi, sha, tuhuo_weixiang,
                                 tuhuo_xiang), its first three cards + 1 (sorted; a 4- or 5-card
                                 group is one face), relative seat it was claimed from + 1 (0 = none)
``tangzi``         (P, T)        per seat, its 堂子 in order as face + 1 (0 = empty)
``dead``           (21,)         dead copies of each face (2.4): every 堂子 and every declared group
``concealed``      (P,)          concealed cards per seat
``folded``         (P,)          1 for a seat that folded (扣牌)
``banker``         (P,)          one-hot relative seat of the banker
``qi_player``      (P,)          one-hot relative seat of the 起 player (zeros before 起)
``jiang``          (2, 22)       one-hot card kind (21 = 财神) of the 五门将 cards J1, J2 (zeros
                                 without ``wumenjiang``)
``stock_left``     (1,)          cards left in the stock
``phase``          (8,)          one-hot deal, qi (起 stage), stay (偷牌 stage), discard, turn,
                                 claim, execute, end
``actor``          (P,)          one-hot the seat to act; in a claim window only the seat itself
``offer``          (21,)         one-hot the face of the card on offer (turned or discarded)
``offer_from``     (P,)          one-hot relative seat that turned or discarded it
``offer_kind``     (2,)          one-hot turned (翻牌), discarded
``discard_ban``    (21,)         one-hot the face the seat may not discard now (3.5), its turn only
``counting``       (4,)          own 卯, T_max, F_theo (2.6-2.8; each capped at 255), Q (qualified)
``penalised``      (259,)        1 for each offered action that incurs 包子 (3.13), at the seat's
                                 decision (the ``penalised_mask`` of the round)
``flags``          (1,)          the seat must act now
=================  ============  ================================================================

The legal actions come as a separate ``int8`` mask of 259 entries, the action ids of spec 8.2
(:mod:`mahjong_core.families.longcard.round_actions`): every offered action, the penalised ones
included (``baozi_actions_allowed``).  Everything but ``dead`` and ``counting`` is in the seat's
view (``LongcardRound.view(seat)``); those two are worked out from it (the view's own cards and the
public groups and 堂子).  Rewards: a hand's keys are ``("win", winner, fan)`` or ``("baozi",
offender, fan)``, settled by the room's profile (spec 5).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..._lc_round import OBS_GROUP_KINDS, HandCore, RoundBatch, observation_fields, observe
from ...errors import MahjongError
from ...rl.encoding import ObservationLayout, build_layout
from ...rl.hooks import EnvRound, RlHooks
from ...settlement import HandOutcome
from .cards import CAISHEN, COPIES, N_FACES, face_name
from .round_actions import ACTION_SIZE, Action
from .round_engine import CompiledHand
from .round_match import LongcardRound, hand_stock
from .round_rules import PLAYERS
from .round_settings import RoundSettings
from .settlement import outcome_of

__all__ = ["HOOKS", "LongcardDealer", "hooks", "view_table"]

_TANGZI = 53
_MAX_CONCEALED = 21     # E = 21 at most, every card loose
_MAX_STOCK = 105 + 10 - 60


def layout(ruleset: str) -> ObservationLayout:
    """The layout of a long-card ruleset (the table of the module docstring)."""
    fields = [(name, tuple(shape)) for name, shape in observation_fields()]
    high: dict[str, Any] = {name: 1 for name, _ in fields}      # one-hots and flags
    high.update(hand=COPIES, caishen=10, tangzi=N_FACES, dead=COPIES, concealed=_MAX_CONCEALED,
                stock_left=_MAX_STOCK, groups=np.array([len(OBS_GROUP_KINDS) - 1, N_FACES, N_FACES, N_FACES, PLAYERS]),
                counting=np.array([255, 255, 255, 1]))
    return build_layout(ruleset, PLAYERS, _TANGZI, fields, high, ACTION_SIZE)


def _replayed(r: Any, core: HandCore) -> Any:
    """``r`` (a fresh round of ``core``'s deal) with ``core``'s actions taken."""
    for seat, action in core.log:
        r.step(seat, action)
    return r


_CHECKED: dict[tuple[str, Any], RoundSettings] = {}
"""The settings of (ruleset, options) pairs already checked (an environment deals every hand with
the same options: checking them is a round's construction, far more than a deal)."""


def _settings_of(ruleset: str, options: dict[str, Any] | None) -> RoundSettings:
    try:
        key: tuple[str, Any] = (ruleset, None if options is None else tuple(sorted(options.items())))
        hash(key)
    except TypeError:       # an unhashable value: checked (and refused) every time
        key = ("", None)
    settings = _CHECKED.get(key) if key[0] else None
    if settings is None:
        LongcardRound(ruleset, 0, options=options)        # the round's own checks of the options
        settings = RoundSettings.from_options(options)
        if key[0] and len(_CHECKED) < 256:
            _CHECKED[key] = settings
    return settings


def _env_round(ruleset: str, rng: np.random.Generator, options: dict[str, Any] | None) -> EnvRound:
    """A hand dealt as ``LongcardRound(ruleset, seed, dealer=...)`` deals it, its seed and banker
    drawn from ``rng``; the environments step its compiled core, and its public round
    (:class:`~.round_match.LongcardRound`) is rebuilt from the core's actions when asked for."""
    settings = _settings_of(ruleset, options)
    seed = int(rng.integers(2 ** 63))
    banker = int(rng.integers(PLAYERS))
    core = HandCore(settings, hand_stock(seed, (), settings.caishen_count), banker)
    return EnvRound(core, rebuild=lambda c: _replayed(LongcardRound(ruleset, seed, dealer=banker, options=options), c))


class LongcardDealer:
    """Deals compiled hands fast, for the vectorised loop: the deck permuted by a NumPy Generator,
    then the banker drawn from it (:func:`~.round_engine.new_core`'s deal; the batch's ``deal(i,
    rng.bit_generator)`` deals the same).  :meth:`as_round` rebuilds a dealt hand with its stock."""

    def __init__(self, ruleset: str, options: dict[str, Any] | None) -> None:
        LongcardRound(ruleset, 0, options=options)    # the round's own checks of the options
        self.settings = RoundSettings.from_options(options)
        self.options = options
        self._deck = [f for f in range(N_FACES) for _ in range(COPIES)] + [CAISHEN] * self.settings.caishen_count

    def __call__(self, rng: np.random.Generator) -> HandCore:
        deck = self._deck
        stock = [deck[k] for k in rng.permutation(len(deck)).tolist()]
        return HandCore(self.settings, stock, int(rng.integers(PLAYERS)))

    def as_round(self, core: HandCore) -> CompiledHand:
        """``core``'s hand (:class:`~.round_engine.CompiledHand`: views, events, the replay record
        of spec 8.4, which holds the stock) with its actions replayed."""
        hand = CompiledHand(settings=self.settings, banker=core.banker, stock=core.stock)
        _replayed(hand, core)
        return hand


def _settle_keys(core: HandCore) -> Any:
    """:meth:`RoundCore.settle_keys`: read from how the hand ended, without building its result (the
    score's breakdown and the settlement, which the rewards do not read)."""
    return core.settle_keys()


def _outcome(key: tuple[str, int, int], names: tuple[str, ...]) -> HandOutcome:
    end, seat, fan = key
    result = SimpleNamespace(end=end, winner=seat if end == "win" else None,
                             offender=seat if end == "baozi" else None, fan=fan)
    return outcome_of(result, names)


def _check_key(key: Any, players: int) -> None:
    if not (isinstance(key, tuple) and len(key) == 3 and key[0] in ("win", "baozi")):
        raise MahjongError(f"a long-card settle key is ('win' or 'baozi', seat, fan), got {key!r}")
    _, seat, fan = key
    if any(isinstance(v, bool) or not isinstance(v, int) for v in (seat, fan)) or not 0 <= seat < players or fan < 0:
        raise MahjongError(f"settle key {key!r}: a seat 0-{players - 1} and a fan >= 0")


# ------------------------------------------------------------------ the rendered table
def _cards(cards: list[int]) -> str:
    return " ".join(face_name(c, "pips") for c in cards) or "-"


def _group(g: Mapping[str, Any]) -> str:
    src = "" if g["from"] is None else f"<p{g['from']}"
    return f"{g['kind']} {_cards(g['cards'])}{src}"


def _result(res: Mapping[str, Any]) -> str:
    end = res["end"]
    if end == "win":
        card = "" if res.get("card") is None else f" on {face_name(res['card'], 'pips')}"
        text = f"player_{res['winner']} wins{card}, {res['fan']} fan"
    elif end == "baozi":
        text = f"包子: player_{res['offender']} ({res['cause']}), {res['fan']} fan"
    else:
        text = end
    return f"result: {text}; points {res['deltas']}"


def view_table(view: Mapping[str, Any]) -> str:
    """The table of one seat's view of a long-card hand (``LongcardRound.view(seat)``), one line per
    seat: what that seat may know -- its own concealed cards, every seat's number of concealed cards,
    财神, declared groups and 堂子 in order, the banker, the 起 player, folded seats, the 将 cards,
    the stock size, the stage, the card on offer and the result once the hand is over."""
    me = view["seat"]
    head = f"{view['ruleset']}: player_{me}'s view, phase {view['phase']}, stock {view['stock_left']}"
    if view["jiang"] is not None:
        head += f", 将 {_cards(view['jiang'])}"
    if view["to_act"]:
        head += f", to act ({len(view['legal_indices'])} legal actions)"
    rows = [("seat", "hand", "财神", "groups", "堂子")]
    for k, t in enumerate(view["table"]):
        name = (f"player_{k}" + (" (you)" if k == me else "") + (" banker" if k == view["banker"] else "")
                + (" 起" if k == view["qi_player"] else "") + (" folded" if t["folded"] else ""))
        hand = _cards([f for f in range(N_FACES) for _ in range(view["hand"][f])]) if k == me \
            else f"{t['concealed']} cards"
        rows.append((name, hand, str(t["caishen"]), "; ".join(_group(g) for g in t["declared"]) or "-",
                     _cards(t["tangzi"])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = [head] + ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]
    offer = view["offer"]
    if offer is not None:
        lines.append(f"offer: {face_name(offer['card'], 'pips')} {offer['kind']}ed by player_{offer['from']}")
    if view["result"] is not None:
        lines.append(_result(view["result"]))
    return "\n".join(lines)


HOOKS = RlHooks(
    action_size=ACTION_SIZE, layout=layout, observe=observe, deal=_env_round, dealer=LongcardDealer,
    batch=RoundBatch, settle_keys=_settle_keys, outcome=_outcome, check_key=_check_key, table=view_table,
    names={"OBS_GROUP_KINDS": OBS_GROUP_KINDS, "ACTIONS": Action},
)
"""``Family.rl()`` of the long-card family."""


def hooks() -> RlHooks:
    """``Family.rl``: :data:`HOOKS`."""
    return HOOKS
