"""The shared hand-level entry points for the long-card family (issue 28, item 4): ``mj.Hand`` builds a
long-card hand object, the batch calls take ``(N, 21)`` count arrays validated at entry, and what the
family does not offer (``mj.Scorer``, ``mj.fan_shanten``, ``mj.waits_mask``) is the UnsupportedError
naming the family and the capability."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import _lc_hand
from mahjong_core.errors import ArrayShapeError, HandSizeError, MahjongError, TileCountError, UnsupportedError
from mahjong_core.families.longcard import distance, score, to_counts
from mahjong_core.families.longcard.hand_layer import LongcardHand
from mahjong_core.families.longcard.sampling import random_deal, random_group_hand

LC = "changpai-ydr"
X1 = "46 46 13 16 34 25 14 14 55 55 55"
X1_DECLARED = ["peng 11×3", "sha 44×4", "sha 66×4"]


def test_mj_hand_builds_a_long_card_hand():
    h = mj.Hand(X1, ruleset=LC, declared=X1_DECLARED)
    assert isinstance(h, LongcardHand) and isinstance(h, mj.Hand) and h.ruleset == LC
    assert len(h) == 11 and h["14"] == 2 and h[2] == 1
    assert h.waits() == [3, 14, 16] and h.shanten() == 0 and h.cards_to_win() == 1    # spec X1: 14 36 45
    c = h.copy()
    h.add("36")
    assert h.is_win() and h.shanten() == -1
    assert c != h and len(c) == 11          # the copy is independent
    with pytest.raises(HandSizeError, match="this question needs 11"):
        h.waits()
    with pytest.raises(HandSizeError, match="21 effective"):
        h.add("22")
    h.remove("36")
    assert h == c
    with pytest.raises(TileCountError, match="holds no"):
        h.remove("66")
    with pytest.raises(TileCountError, match="every copy of 55"):
        mj.Hand("55×5", ruleset=LC).add("55")
    # the mahjong hand is untouched: compiled, pickles, isinstance
    m = mj.Hand("1112345678999m")
    assert type(m).__module__ == "mahjong_core._hand" and isinstance(m, mj.Hand)
    assert pickle.loads(pickle.dumps(m)) == m and not isinstance(c, type(m))


def test_mj_hand_refusals():
    with pytest.raises(HandSizeError, match="at most 12"):
        mj.Hand(X1 + " 22 22", ruleset=LC, declared=X1_DECLARED)
    with pytest.raises(TileCountError, match="44: 6 copies"):
        mj.Hand("44 44", ruleset=LC, declared=X1_DECLARED)
    with pytest.raises(MahjongError):
        mj.Hand(X1, ruleset=LC, win_split_kan="no")


def _rows(n: int, cards: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = [random_group_hand(rng, 0)[0] for _ in range(n)]   # mostly wins in shape
    out = np.array(rows, np.uint8)
    if cards == 20:
        for r in out:
            r[int(np.flatnonzero(r)[-1])] -= 1
    return out


def test_batch_calls_agree_with_the_single_hand_functions():
    wins = _rows(30, 21)
    assert mj.is_win_batch(wins, ruleset=LC).tolist() == [_lc_hand.is_win(r) for r in wins]
    assert mj.is_win_batch(wins, ruleset=LC, banker=True).tolist() == [_lc_hand.is_win(r, banker=True) for r in wins]
    ready = _rows(30, 20)
    masks = mj.waits_batch(ready, ruleset=LC)
    assert masks.dtype == np.uint32
    assert [[f for f in range(21) if m >> f & 1] for m in masks] == [_lc_hand.waits(r) for r in ready]
    mixed = np.concatenate([ready[:5], wins[:5], random_deal(np.random.default_rng(2), 20, rows=3)])
    assert mj.shanten_batch(mixed, ruleset=LC).tolist() == [distance.shanten(r) for r in mixed]
    # score_batch: the 20 cards before the winning card and the winning faces, as mahjong's
    cards = [int(np.flatnonzero(w - r)[0]) for w, r in zip(wins, ready)]
    fan, tuo = mj.score_batch(ready, cards, ruleset=LC)
    for r, c, f, t in zip(ready, cards, fan, tuo):
        if _lc_hand.is_win(r + np.eye(21, dtype=np.uint8)[c]):
            s = score(r, c)
            assert (f, t) == (s.total, s.tuo)
        else:
            assert (f, t) == (-1, -1)


def test_batch_calls_validate_at_entry():
    good = _rows(2, 20)
    with pytest.raises(ArrayShapeError, match=r"\(N, 21\)"):
        mj.waits_batch(np.zeros((2, 34), np.uint8), ruleset=LC)
    with pytest.raises(ArrayShapeError, match="integers"):
        mj.waits_batch(good.astype(float), ruleset=LC)
    bad = good.astype(np.int64)
    bad[1, 3] = 6
    with pytest.raises(TileCountError, match="row 1: 6 copies of 14"):
        mj.waits_batch(bad, ruleset=LC)
    bad[1, 3] = -1
    with pytest.raises(TileCountError, match="row 1"):
        mj.shanten_batch(bad, ruleset=LC)
    with pytest.raises(HandSizeError, match="row 0 holds 20 cards; expected 21"):
        mj.is_win_batch(good, ruleset=LC)
    with pytest.raises(HandSizeError, match="row 0 holds 21 cards; expected 20"):
        mj.waits_batch(_rows(1, 21), ruleset=LC)
    with pytest.raises(TileCountError, match="win card 21 is not a face"):
        mj.score_batch(good, [0, 21], ruleset=LC)
    with pytest.raises(ArrayShapeError):
        mj.score_batch(good, [0], ruleset=LC)
    with pytest.raises(MahjongError, match="flags is a mahjong option"):
        mj.score_batch(good, [0, 0], ruleset=LC, flags=np.zeros(2, np.uint32))
    with pytest.raises(MahjongError, match="waits_batch: 'jiang' is not one of its options"):
        mj.waits_batch(good, ruleset=LC, jiang="36 25")
    assert mj.waits_batch(good, ruleset=LC, win_split_kan=False).dtype == np.uint32
    with pytest.raises(MahjongError, match="banker is not an option of a mahjong ruleset"):
        mj.waits_batch(np.zeros((1, 34), np.uint8), ruleset="public", banker=True)
    # the mahjong batch calls are unchanged for a mahjong ruleset
    assert mj.is_win_batch(np.array([mj.to_counts("11123456789999m")]), ruleset="public").tolist() == [True]


@pytest.mark.parametrize("call", [lambda: mj.Scorer(LC), lambda: mj.fan_shanten("11 66", ruleset=LC),
                                  lambda: mj.waits_mask(X1, ruleset=LC)])
def test_what_the_family_does_not_offer_names_it(call):
    with pytest.raises(UnsupportedError, match="longcard family, which does not offer"):
        call()


def test_to_counts_of_the_hand_and_the_batch_row_are_one_scheme():
    h = mj.Hand(X1, ruleset=LC, declared=X1_DECLARED)
    assert (h.counts == to_counts(X1)).all()
