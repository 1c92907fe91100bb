"""The shared parity fixture's data: each behaviour in its implementations.

``tests/conftest.py`` serves :data:`TWINS` through the ``parity`` fixture, parametrised over the
implementations under test (RapidFuzz's shape: one fixture, one parameter per implementation; a
second compiled family or a new engine adds a parameter here and every parity suite runs on it).
A parity suite names its behaviour (``PARITY = "hand"``, ``"fan"``, ``"score"`` or ``"round"``) and gets a
:class:`Twins`: the implementation under test as ``compiled`` and the pure-Python oracle as
``reference``, both with the same calling convention, and :meth:`Twins.check` to run one call on
both and compare.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import mahjong_core as mj
from mahjong_core import _fan
from mahjong_core.families.mahjong import scoring
from mahjong_core.families.mahjong._ref import bots as bots_py, fan as fan_py, hand as hand_py, round as round_py
from mahjong_core.families.mahjong import round as game_round
from mahjong_core.game import bots

__all__ = ["Twins", "TWINS", "IMPLEMENTATIONS"]


@dataclass(frozen=True)
class Twins:
    """One behaviour in the implementation under test (``compiled``) and in the oracle."""

    behaviour: str
    implementation: str
    compiled: Any
    reference: Any

    @staticmethod
    def outcome(fn: Any, *args: Any, **kw: Any) -> tuple:
        """``("ok", value)`` or ``("err", exception class name, message)``."""
        try:
            return ("ok", fn(*args, **kw))
        except Exception as e:  # noqa: BLE001 - both implementations must fail the same way
            return ("err", type(e).__name__, str(e))

    def both(self, name: str, *args: Any, **kw: Any) -> tuple[Any, Any]:
        """``name(*args, **kw)`` of the compiled implementation and of the reference."""
        return getattr(self.compiled, name)(*args, **kw), getattr(self.reference, name)(*args, **kw)

    def check(self, name: str, *args: Any, **kw: Any) -> Any:
        """Run ``name`` on both; assert equal results, naming the call; return the result."""
        got, want = self.both(name, *args, **kw)
        if hasattr(got, "tolist"):
            got, want = got.tolist(), getattr(want, "tolist", lambda: want)()
        assert got == want, f"{self.implementation} {self.behaviour}.{name}{args!r}: {got!r} != reference {want!r}"
        return got


def _hand_compiled() -> SimpleNamespace:
    """The compiled hand functions with the reference's calling convention ``f(counts, ruleset)``;
    the batch functions answer per hand as the reference's loops do (waits as tile lists)."""
    return SimpleNamespace(
        is_win=lambda h, ruleset: mj.is_win(h, ruleset=ruleset),
        waits=lambda h, ruleset: mj.waits(h, ruleset=ruleset),
        shanten=lambda h, ruleset: mj.shanten(h, ruleset=ruleset),
        is_win_batch=lambda hs, ruleset: mj.is_win_batch(hs, ruleset=ruleset).tolist(),
        waits_batch=lambda hs, ruleset: [mj.mask_to_tiles(m) for m in mj.waits_batch(hs, ruleset=ruleset)],
        shanten_batch=lambda hs, ruleset: mj.shanten_batch(hs, ruleset=ruleset).tolist(),
    )


def _hand_reference() -> SimpleNamespace:
    """The reference hand functions, the batch ones as loops."""
    return SimpleNamespace(
        is_win=hand_py.is_win, waits=hand_py.waits, shanten=hand_py.shanten,
        is_win_batch=lambda hs, ruleset: [hand_py.is_win(h, ruleset) for h in hs],
        waits_batch=lambda hs, ruleset: [hand_py.waits(h, ruleset) for h in hs],
        shanten_batch=lambda hs, ruleset: [hand_py.shanten(h, ruleset) for h in hs],
    )


IMPLEMENTATIONS = ("compiled",)
"""The implementations the parity suites hold against the reference (fixture parameters)."""

TWINS: dict[tuple[str, str], Twins] = {
    ("hand", "compiled"): Twins("hand", "compiled", _hand_compiled(), _hand_reference()),
    ("fan", "compiled"): Twins("fan", "compiled", SimpleNamespace(evaluate=_fan.evaluate),
                               SimpleNamespace(evaluate=fan_py.evaluate_codes)),
    # the compiled front of mj.score against the Python path it hands odd calls to (issue 14)
    ("score", "compiled"): Twins("score", "compiled", SimpleNamespace(score=mj.score),
                                 SimpleNamespace(score=scoring._score_checked)),
    ("round", "compiled"): Twins("round", "compiled", SimpleNamespace(Round=game_round.Round, bots=bots),
                                 SimpleNamespace(Round=round_py.Round, bots=bots_py)),
}
