"""The long-card "cards to a win" distance (issue 28, item 3): the fast ``distance.cards_to_win``
against the brute-force reference ``_ref.distance.cards_to_win`` (hypothesis, small hands: 5 or 6
declared groups), the definition's identities on whole hands (0 = a win, 1 = ready, a hand that
must discard = its best discard), hand-counted cases, ``shanten`` = distance - 1 through the
registry, and the refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mj
from mahjong_core import _lc_hand
from mahjong_core.errors import HandSizeError, TileCountError
from mahjong_core.families.longcard import distance, to_counts
from mahjong_core.families.longcard._ref import distance as ref
from mahjong_core.families.longcard.cards import COPIES, N_FACES
from mahjong_core.families.longcard.counting import live_counts
from mahjong_core.families.longcard.sampling import random_deal, random_group_hand


def _small_case(seed: int, n_declared: int, between_turns: bool):
    """Declared groups and a perturbed concealed part of 3 (7 - D) - [between_turns] cards, plus dead
    copies, all within the deck."""
    rng = np.random.default_rng(seed)
    counts, declared = random_group_hand(rng, n_declared)
    left = np.full(N_FACES, COPIES, np.int64) - counts
    for g in declared:
        for c in g.cards:
            left[c] -= 1
    hand = [f for f in range(N_FACES) for _ in range(int(counts[f]))]
    rng.shuffle(hand)
    swaps = int(rng.integers(0, len(hand) + 1))
    for i in range(swaps):                      # replace some cards by others still in the deck
        pool = np.repeat(np.arange(N_FACES), left)
        new = int(rng.choice(pool))
        left[new] -= 1
        left[hand[i]] += 1
        hand[i] = new
    if between_turns:
        left[hand.pop()] += 1
    dead = np.zeros(N_FACES, np.int64)
    for _ in range(int(rng.integers(0, 12))):
        pool = np.repeat(np.arange(N_FACES), left)
        f = int(rng.choice(pool))
        left[f] -= 1
        dead[f] += 1
    return np.bincount(hand, minlength=N_FACES), declared, dead


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), n_declared=st.sampled_from([5, 6, 6]), between=st.booleans(),
       banker=st.booleans(), split=st.booleans(), waive=st.booleans())
def test_fast_distance_equals_the_brute_force_reference(seed, n_declared, between, banker, split, waive):
    counts, declared, dead = _small_case(seed, n_declared, between)
    avail = live_counts(counts, declared, dead)
    fast = distance.cards_to_win(counts, declared=declared, dead=dead, banker=banker, win_split_kan=split,
                                 all_black_waives_tuo=waive)
    # 6 declared: 3 concealed cards at most come in, so the search to 3 is exhaustive (None = unreachable);
    # 5 declared: the reference searches 2 cards deep (a larger distance is "more than 2")
    max_k = 3 if n_declared == 6 else 2
    slow = ref.cards_to_win(list(counts), declared, avail, banker, max_k=max_k, win_split_kan=split,
                            all_black_waives_tuo=waive)
    assert slow == (fast if fast is not None and fast <= max_k else None), (counts, declared, dead, fast, slow)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), banker=st.booleans())
def test_definition_identities_on_whole_hands(seed, banker):
    """20 cards: distance 1 iff ready (compiled waits); 21 cards: distance 0 iff a win, and otherwise
    the best distance over its discards (a discard is a card of c outside the winning part)."""
    rng = np.random.default_rng(seed)
    hand21 = random_deal(rng, 21)[0] if rng.random() < 0.5 else random_group_hand(rng, 0)[0]
    d21 = distance.cards_to_win(hand21, banker=banker)
    assert (d21 == 0) == _lc_hand.is_win(hand21, banker=banker)
    after = []
    for f in np.flatnonzero(hand21):
        h = hand21.copy()
        h[f] -= 1
        d20 = distance.cards_to_win(h, banker=banker)
        assert (d20 == 1) == bool(_lc_hand.waits(h, banker=banker))
        assert d20 >= 1
        after.append(d20)
    assert d21 == (0 if d21 == 0 else min(after))
    # a card coming in lowers the distance by at most one
    h = hand21.copy()
    h[int(np.flatnonzero(h)[0])] -= 1
    d = distance.cards_to_win(h, banker=banker)
    for x in range(N_FACES):
        if h[x] < COPIES:
            g = h.copy()
            g[x] += 1
            assert distance.cards_to_win(g, banker=banker) >= d - 1


# X1 (spec 4.9): waits 36, 14, 45 -> ready, distance 1
X1 = ("46 46 13 16 34 25 14 14 55 55 55", ("peng 11×3", "sha 44×4", "sha 66×4"))


def test_hand_counted_distances():
    hand, declared = X1
    assert distance.cards_to_win(hand, declared=declared) == 1
    assert distance.cards_to_win(hand + " 36", declared=declared) == 0
    # every copy of 36, 45 (the partners of 14) and 14 seen: the 14 14 pair can never be completed
    d = distance.cards_to_win(hand, declared=declared, dead="36×5 45×5 14×3")
    # the other groups give 41 陀: (11×3) 8 + (44×4) 12 + (66×4) 12 + [46 46 13] 3 + [16 25 34] 2 +
    # [55×3] 4.  A winning part of 12 concealed cards cannot hold a 14, so it uses at most the 9 other
    # concealed cards: 3 cards must come in (a 坎 of any live face, 41 + 4 >= 33, does it)
    assert d == 3
    # the banker needs 34: the same
    assert distance.cards_to_win(hand, declared=declared, dead="36×5 45×5 14×3", banker=True) == 3


def test_unreachable_is_none():
    # six black 碰 (4 陀 each = 24) need 9 more from one concealed group: a red 坎 gives 8 at most
    declared = ["peng 22×3", "peng 23×3", "peng 25×3", "peng 26×3", "peng 33×3", "peng 35×3"]
    assert distance.cards_to_win("44 44", declared=declared) is None
    assert distance.shanten("44 44", declared=declared) is None
    # ... unless an all-black win waives the 陀 (CP-13): 55 55 + one 55
    assert distance.cards_to_win("55 55", declared=declared, all_black_waives_tuo=True) == 1


def test_shanten_through_the_registry_is_distance_minus_one():
    lc20 = "46 46 13 16 34 25 14 14 55 55 55 66 66 66 44 44 44 11 11 11"
    assert mj.shanten(lc20, ruleset="changpai-ydr") == 0
    assert mj.shanten(lc20 + " 36", ruleset="changpai-ydr") == -1
    rng = np.random.default_rng(5)
    for row in random_deal(rng, 20, rows=5):
        assert mj.shanten(row, ruleset="changpai-ydr") == distance.cards_to_win(row) - 1


def test_refusals_name_the_problem():
    with pytest.raises(HandSizeError, match="19 concealed cards with 0 declared groups"):
        distance.cards_to_win(random_deal(np.random.default_rng(1), 19)[0])
    with pytest.raises(TileCountError):
        distance.cards_to_win("11×5 12×5 13×5 14×5", dead="11")
    with pytest.raises(Exception, match="banker"):
        distance.cards_to_win(random_deal(np.random.default_rng(1), 20)[0], banker="yes")
