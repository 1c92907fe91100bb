"""Issue 28 item 2: the long-card observation encoding (``_lc_round.observe``) -- its documented
layout, parity with the encoding of the seat's documented view on the reference engine
(tests/rl/lc_reference.py), and the leak property: re-dealing the cards a seat cannot see (the
family's ``hidden_worlds`` hook) never changes its observation, nor its rendered table."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pytest
from mahjong_core._lc_round import observation_fields, observation_size, observe
from mahjong_core.errors import ArrayShapeError, SeatError, UnsupportedError
from mahjong_core.families import registry
from mahjong_core.families.longcard import rl as lc_rl
from mahjong_core.families.longcard.round_match import LongcardRound
from mahjong_core.rl import observation_layout, rl_rulesets
from mahjong_core.rl.render import view_table

from tests.rl.lc_reference import encode_view
from tests.support.toy import RULESET as TOY, registered

RULESET = "changpai-ydr"
LAYOUT = observation_layout(RULESET)


def test_the_long_card_ruleset_offers_the_environments() -> None:
    assert RULESET in rl_rulesets() and LAYOUT.players == 3 and LAYOUT.action_size == 259


def test_the_documented_layout_is_the_engine_layout() -> None:
    """The table of families/longcard/rl.py names every section, in order, with its shape; the
    sections tile the engine's vector exactly."""
    doc = lc_rl.__doc__ or ""
    rows = re.findall(r"^``(\w+)``\s+(\([^)]*\))", doc, re.M)
    subs = {"P": str(LAYOUT.players), "T": str(LAYOUT.discard_cap)}
    documented = [(name, eval(re.sub(r"[PT]", lambda m: subs[m.group()], shape))) for name, shape in rows]
    documented = [(n, s if isinstance(s, tuple) else (s,)) for n, s in documented]
    assert documented == list(LAYOUT.fields) == [(n, tuple(s)) for n, s in observation_fields()]
    at = 0
    for name, shape in LAYOUT.fields:
        assert LAYOUT.slices[name] == slice(at, at + int(np.prod(shape)))
        at += int(np.prod(shape))
    assert at == LAYOUT.size == observation_size() == LAYOUT.high.size
    r = LongcardRound(RULESET, 1)
    obs, mask = observe(r.hand.core, r.seats_to_act()[0])
    parts = LAYOUT.decode(obs)
    assert parts["groups"].shape == (3, 7, 5) and parts["tangzi"].shape == (3, 53) and mask.shape == (259,)
    assert LAYOUT.decode(np.stack([obs, obs]))["jiang"].shape == (2, 2, 22)
    with pytest.raises(ArrayShapeError):
        LAYOUT.decode(np.zeros(LAYOUT.size + 1, np.uint8))
    for seat in (-1, 3, True):
        with pytest.raises(SeatError):
            observe(r.hand.core, seat)


def test_a_family_without_hooks_is_refused() -> None:
    with registered():
        with pytest.raises(UnsupportedError, match="offers no learning environment"):
            observation_layout(TOY)


def _play_random(r: LongcardRound, rng: np.random.Generator, steps: int, penalties: bool = False) -> None:
    """Up to ``steps`` random offered actions (without the penalised ones unless ``penalties``)."""
    for _ in range(steps):
        if r.is_over:
            return
        seat = r.seats_to_act()[0]
        legal = r.legal_indices(seat)
        if not penalties:
            pen = r.penalised_mask(seat)
            legal = [a for a in legal if not pen[a]] or legal
        r.step(seat, legal[int(rng.integers(len(legal)))])


def test_the_observation_is_the_encoded_view() -> None:
    """At every step of random hands (the reference engine and pure-Python counting beside the
    compiled engine on the same stock), the actor's observation and mask equal the encoding of its
    view, and stay inside the layout's bounds; at the end every seat's does."""
    rng = np.random.default_rng(7)
    checked = 0
    for seed in range(10):
        ref = LongcardRound(RULESET, seed, dealer=seed % 3, engine="reference", impl="reference")
        core = LongcardRound(RULESET, seed, dealer=seed % 3).hand.core
        while True:
            seats = ref.seats_to_act() or [0, 1, 2]
            for seat in seats:
                obs, mask = observe(core, seat)
                want, want_mask = encode_view(ref, seat, LAYOUT)
                np.testing.assert_array_equal(obs, want, err_msg=f"seed {seed} seat {seat} step {len(core.log)}")
                np.testing.assert_array_equal(mask, want_mask)
                assert (obs <= LAYOUT.high).all()
                checked += 1
            for other in {0, 1, 2} - set(seats):     # no mask, no penalty flags for a seat not asked (8.3)
                obs, mask = observe(core, other)
                assert not mask.any() and not LAYOUT.decode(obs)["penalised"].any()
            if ref.is_over:
                break
            before = len(ref.hand.log)
            _play_random(ref, rng, 1, penalties=seed % 5 == 4)
            for seat, action in ref.hand.log[before:]:
                core.step(seat, action)
    assert checked > 150


# ---------------------------------------------------------------------------------------------
# the leak property: the family's hidden_worlds hook keeps every card the observer saw where it
# was and re-deals the rest (the stock left, the other seats' concealed cards); the same history is
# replayed there, and the observer, asked to act in both, must get the same observation and mask.
# ---------------------------------------------------------------------------------------------
_HIDDEN_WORLD = registry.family_of(RULESET).hidden_worlds
assert _HIDDEN_WORLD is not None


def _observed(r: LongcardRound, seat: int) -> tuple[np.ndarray, np.ndarray]:
    return observe(r.hand.core, seat)


def _compare_worlds(encode: Callable[[LongcardRound, int], tuple[np.ndarray, np.ndarray]] = _observed,
                    ) -> tuple[int, int, int]:
    """(worlds compared, of them with other opponents' hands, of them with another encoding)."""
    rng = np.random.default_rng(11)
    compared = changed_hands = differ = 0
    for trial in range(300):
        r = LongcardRound(RULESET, 100 + trial, dealer=trial % 3)
        _play_random(r, rng, int(rng.integers(0, 30)))
        if r.is_over:
            continue
        observer = r.seats_to_act()[0]
        r2 = _HIDDEN_WORLD(r, observer, rng)
        if r2 is None:
            continue
        compared += 1
        (o1, m1), (o2, m2) = encode(r, observer), encode(r2, observer)
        differ += not (np.array_equal(o1, o2) and np.array_equal(m1, m2))
        if any(r.hand.core.hands[o] != r2.hand.core.hands[o] for o in range(3) if o != observer):
            changed_hands += 1
    return compared, changed_hands, differ


def test_swapping_hidden_cards_never_changes_an_observation() -> None:
    compared, changed_hands, differ = _compare_worlds()
    assert differ == 0
    assert compared >= 20 and changed_hands >= compared // 2, (compared, changed_hands)


def test_the_leak_check_catches_a_leak() -> None:
    """The same comparison with an encoding that appends the opponents' hands finds the leak."""
    def leaky(r: LongcardRound, seat: int) -> tuple[np.ndarray, np.ndarray]:
        obs, mask = observe(r.hand.core, seat)
        return np.concatenate([obs, np.array(r.hand.core.hands, np.uint8).ravel()]), mask

    _, changed_hands, differ = _compare_worlds(leaky)
    assert differ >= changed_hands > 0


def test_swapping_hidden_cards_never_changes_the_rendered_table() -> None:
    def table(r: LongcardRound, seat: int) -> tuple[np.ndarray, np.ndarray]:
        return np.frombuffer(view_table(r.view(seat)).encode(), np.uint8), np.zeros(0)

    compared, changed_hands, differ = _compare_worlds(table)
    assert differ == 0 and compared >= 20
