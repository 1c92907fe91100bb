"""The observation encoding of mahjong_core.rl: its layout, parity with the encoding of the
documented per-seat view (tests/rl/reference.py), and the leak property -- swapping the tiles a
seat cannot see (other hands, the wall) never changes its observation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from mahjong_core._round import observation_shape, observe
from mahjong_core.errors import ArrayShapeError, MahjongError, RulesetError
from mahjong_core.families import registry
from mahjong_core.rl import mahjong_rulesets, observation_layout
from mahjong_core.rl.render import view_table

import mahjong_core as mj
from tests.rl.reference import encode_view, mask_of_view

RULESETS = mahjong_rulesets()


def play_random(r: mj.Round, rng: np.random.Generator, steps: int) -> None:
    """Up to ``steps`` uniformly random legal actions of the first seat to act."""
    for _ in range(steps):
        if r.is_over:
            return
        seat = r.seats_to_act()[0]
        legal = r.legal_indices(seat)
        r.step(seat, legal[int(rng.integers(len(legal)))])


def test_rulesets() -> None:
    assert RULESETS == ["two-player", "two-player-bamboo", "public", "mcr"]
    assert observation_layout("changpai-ydr").action_size == 259      # issue 28: the long cards too
    with pytest.raises(RulesetError):
        observation_layout("no-such-ruleset")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_layout_matches_engine(ruleset: str) -> None:
    lay = observation_layout(ruleset)
    r = mj.Round(ruleset, seed=1)
    P, D, L = observation_shape(r._core)
    assert (lay.players, lay.discard_cap, lay.size) == (P, D, L)
    assert D == r.settings.n_tiles - 13 * P
    # the sections tile the vector exactly, in order
    at = 0
    for name, shape in lay.fields:
        assert lay.slices[name] == slice(at, at + int(np.prod(shape)))
        at += int(np.prod(shape))
    assert at == L == lay.high.size
    obs, mask = observe(r._core, r.seats_to_act()[0])
    parts = lay.decode(obs)
    assert parts["hand"].shape == (34,) and parts["melds"].shape == (P, 4, 4) and parts["discards"].shape == (P, D)
    assert lay.decode(np.stack([obs, obs]))["discards"].shape == (2, P, D)
    assert mask.dtype == np.int8 and mask.shape == (110,)


def test_decode_refuses_other_arrays() -> None:
    lay = observation_layout("public")
    for bad in (np.zeros(5, np.uint8), np.zeros(lay.size, np.int64), np.zeros((2, 2, lay.size), np.uint8)):
        with pytest.raises(ArrayShapeError, match="uint8 of shape"):
            lay.decode(bad)


def test_observe_refuses_bad_seat() -> None:
    r = mj.Round("public", seed=1)
    for seat in (-1, 4):
        with pytest.raises(MahjongError, match="seat"):
            observe(r._core, seat)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_observation_is_the_encoded_view(ruleset: str) -> None:
    """At every step of random rounds, every seat's observation and mask equal the pure-Python
    encoding of its view, and stay inside the layout's bounds."""
    lay = observation_layout(ruleset)
    rng = np.random.default_rng(7)
    checked = 0
    for seed in range(8):
        r = mj.Round(ruleset, seed=seed, dealer=seed % lay.players)
        while True:
            for seat in range(lay.players):
                obs, mask = observe(r._core, seat)
                view = r.view(seat)
                np.testing.assert_array_equal(obs, encode_view(view, r.must_discard, lay), err_msg=f"seed {seed} seat {seat}")
                np.testing.assert_array_equal(mask, mask_of_view(view))
                assert (obs <= lay.high).all()
                checked += 1
            if r.is_over:
                break
            play_random(r, rng, 1)
    assert checked > 300


# ---------------------------------------------------------------------------------------------
# the leak property: swapping hidden tiles never changes an observation.  The other world (the
# family's ``hidden_worlds`` hook, mahjong_core.families.mahjong.hidden_worlds) keeps every tile
# the observer saw where it was and permutes the rest (the wall left, the opponents' concealed
# tiles); the same public history is replayed there, and the observer, asked to act in both,
# must get the same observation and mask.
# ---------------------------------------------------------------------------------------------
_HIDDEN_WORLD = registry.get_family("mahjong").hidden_worlds
assert _HIDDEN_WORLD is not None


def _observed(r: mj.Round, seat: int) -> tuple[np.ndarray, np.ndarray]:
    return observe(r._core, seat)


def _compare_worlds(ruleset: str, encode: Callable[[mj.Round, int], tuple[np.ndarray, np.ndarray]] = _observed,
                    ) -> tuple[int, int, int]:
    """(worlds compared, of them with other opponents' hands, of them with another encoding)."""
    rng = np.random.default_rng(11)
    compared = changed_hands = differ = 0
    for trial in range(60):
        r = mj.Round(ruleset, seed=100 + trial, dealer=trial % observation_layout(ruleset).players)
        play_random(r, rng, int(rng.integers(0, 60)))
        if r.is_over:
            continue
        # the observation a seat decides on: one of the seats asked to act now (between its
        # decisions a seat sees, as in its view, that a claim window is open on its discard)
        asked = r.seats_to_act()
        observer = asked[int(rng.integers(len(asked)))]
        r2 = _HIDDEN_WORLD(r, observer, rng)
        if r2 is None:
            continue
        compared += 1
        (o1, m1), (o2, m2) = encode(r, observer), encode(r2, observer)
        differ += not (np.array_equal(o1, o2) and np.array_equal(m1, m2))
        if any((r.hand_counts(o) != r2.hand_counts(o)).any() for o in range(r.players) if o != observer):
            changed_hands += 1
    return compared, changed_hands, differ


@pytest.mark.parametrize("ruleset", RULESETS)
def test_swapping_hidden_tiles_never_changes_an_observation(ruleset: str) -> None:
    compared, changed_hands, differ = _compare_worlds(ruleset)
    assert differ == 0
    # the property was exercised: many comparisons, most of two worlds whose hidden hands differ
    assert compared >= 15 and changed_hands >= compared // 2, (compared, changed_hands)


def test_the_leak_check_catches_a_leak() -> None:
    """The same comparison with an encoding that appends the opponents' hands finds the leak."""
    def leaky(r: mj.Round, seat: int) -> tuple[np.ndarray, np.ndarray]:
        obs, mask = observe(r._core, seat)
        return np.concatenate([obs, r._core.hands_array().ravel()]), mask

    _, changed_hands, differ = _compare_worlds("public", leaky)
    assert differ >= changed_hands > 0


def _table(r: mj.Round, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The environments' rendered table of the seat (``render_mode="ansi"``), as bytes."""
    return np.frombuffer(view_table(r.view(seat)).encode(), np.uint8), np.zeros(0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_swapping_hidden_tiles_never_changes_the_rendered_table(ruleset: str) -> None:
    compared, changed_hands, differ = _compare_worlds(ruleset, _table)
    assert differ == 0
    assert compared >= 15 and changed_hands >= compared // 2, (compared, changed_hands)
