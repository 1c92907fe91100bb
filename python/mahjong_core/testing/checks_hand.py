"""Checks of the hand-level entry points and the advisor (issue 28, item 4): every shared hand entry
point answers every registered ruleset -- it works, or it refuses with a ``MahjongError`` about the
input, or with the :class:`~mahjong_core.errors.UnsupportedError` naming the ruleset's family and
what it does not offer; never "unknown ruleset" for a registered one, never another exception --
and a family's advisor (``Family.hand_layer.advise_round``) agrees with its round's legal and
penalised actions at every decision of the seats to act."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from ..errors import MahjongError, RulesetError, UnsupportedError
from .subject import Subject, default_engine, play_to_end

__all__ = ["check_hand", "HAND_ENTRY_POINTS"]


def _entry_points() -> Mapping[str, Callable[[str], Any]]:
    import mahjong_core as mj

    return {
        "mj.Hand": lambda r: mj.Hand("", ruleset=r),
        "mj.is_win": lambda r: mj.is_win("", ruleset=r),
        "mj.waits": lambda r: mj.waits("", ruleset=r),
        "mj.shanten": lambda r: mj.shanten("", ruleset=r),
        "mj.is_win_batch": lambda r: mj.is_win_batch([], ruleset=r),
        "mj.waits_batch": lambda r: mj.waits_batch([], ruleset=r),
        "mj.shanten_batch": lambda r: mj.shanten_batch([], ruleset=r),
        "mj.score_batch": lambda r: mj.score_batch([], np.zeros(0, np.int64), ruleset=r),
        "mj.advise": lambda r: mj.advise("", ruleset=r),
    }


HAND_ENTRY_POINTS = ("mj.Hand", "mj.is_win", "mj.waits", "mj.shanten", "mj.is_win_batch", "mj.waits_batch",
                     "mj.shanten_batch", "mj.score_batch", "mj.advise")
"""The shared hand-level entry points the check calls (with an empty hand: each answers the input)."""


def _entry_point_answers(s: Subject, name: str, call: Callable[[str], Any]) -> None:
    family = s.family.name
    try:
        call(s.ruleset)
    except UnsupportedError as exc:
        msg = str(exc)
        s.expect(f"{family} family" in msg and "does not offer" in msg,
                 f"{name}: the UnsupportedError does not name the {family} family and what it lacks: {msg}")
    except RulesetError as exc:
        s.fail(f"{name}: a registered ruleset is refused as a ruleset ({exc})")
    except MahjongError:
        pass          # the empty input refused, by the family that answers the ruleset
    except Exception as exc:   # noqa: BLE001 - anything else is a failure of the check
        s.fail(f"{name}: {type(exc).__name__} instead of an answer or a MahjongError: {exc}")


def _advice_agrees(s: Subject, r: Any, advise_round: Callable[[Any, int], Any], n: int) -> int:
    """At the seat to act: the advisor's options are every legal action of one type, and ``baozi`` is
    set exactly on the penalised ones; the number of decisions advised (0 or 1)."""
    seat = r.seats_to_act()[0]
    try:
        advice = advise_round(r, seat)
    except MahjongError:
        return 0      # no discard to make at this decision
    at = f"seed {r.seed}, step {n}, seat {seat}"
    ids = [o.discard for o in advice.options]
    legal = r.legal_indices(seat)
    s.expect(ids and len(set(ids)) == len(ids) and set(ids) <= set(legal),
             f"{at}: the advised discards {ids} are not distinct legal actions ({legal})")
    view = r.view(seat)      # the common view keys: each legal action's record (its "type") by id
    kind = {i: a.get("type") for i, a in zip(view["legal_indices"], view["legal_actions"])}
    kinds = {kind.get(i) for i in ids}
    same = [i for i in legal if kind.get(i) in kinds]
    s.expect(len(kinds) == 1 and sorted(ids) == sorted(same),
             f"{at}: the advised discards {sorted(ids)} are not every legal action of their kind ({sorted(same)})")
    penalised = getattr(r, "penalised_mask", None)
    if penalised is not None:
        mask = penalised(seat)
        wrong = [o.discard for o in advice.options if (o.baozi is not None) != bool(mask[o.discard])]
        s.expect(not wrong, f"{at}: the advisor's 包子 flags differ from the round's penalised actions at {wrong}")
    return 1


def check_hand(s: Subject) -> None:
    """Every shared hand entry point answers the ruleset (the module docstring); with the family's
    ``hand_layer.advise_round``, the rounds of the default engine played by the family's bots are
    advised at every decision of the seat to act, and each advice agrees with the round."""
    for name, call in _entry_points().items():
        _entry_point_answers(s, name, call)
    layer = s.family.hand_layer
    advise_round = getattr(layer, "advise_round", None) if layer is not None else None
    if advise_round is None:
        return
    engine = default_engine(s)
    advised = 0
    for k, seed in s.seeds():
        r = s.new_round(engine, seed, dealer=k % s.players)

        def each_step(rnd: Any, n: int) -> None:
            nonlocal advised
            if not rnd.is_over:
                advised += _advice_agrees(s, rnd, advise_round, n)

        # the family's bots (random legal actions without them): random play often folds at once
        play_to_end(s, r, s.players_for(k + 1, seed, engine), each_step)
    s.expect(advised > 0, f"the advisor never advised a decision in {s.rounds} rounds")
