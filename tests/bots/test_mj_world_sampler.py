"""The search bot's world sampler (src/mahjong_core/_round_search.pxi) and what an opponent's 报听
and last discard tell it: a declared hand is dealt ready by shape; where 报听 may go with any discard,
an undeclared ready hand is kept with probability ``ready_weight``; in a two-player round, a hand
with which the opponent's last discard was not one of his best is kept with probability
``last_weight``; and per earlier discard of his that would lower its shanten with ``past_weight``,
per one of the seat's last ``pass_depth`` discards it waits on (he passed on it) with
``pass_weight``.  All read only what the seat sees (the same hands in a world whose hidden tiles
are permuted)."""

from __future__ import annotations

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core._round import sample_hidden_hands, search_outcomes
from mahjong_core.families.mahjong._constants import PH_CLAIM
from tests.support.bot_decisions import hidden_twin, two_player_points


_points = two_player_points


def _ready_share(hands, ruleset):
    return float((mj.waits_batch(hands, ruleset=ruleset) != 0).mean())


def test_a_declared_opponent_is_dealt_a_ready_hand():
    """His 报听 passed the rules' ready check and locked his hand: every world deals him a ready
    hand (the sampler dealt one in about half of them before it read the declaration)."""
    checked = 0
    for rnd, seat, opp in _points("two-player-bamboo", range(1, 40), lambda r, s, o: r.view(s)["ready"][o]):
        hands = sample_hidden_hands(rnd._core, seat, 60, np.random.PCG64(checked), True)[:, opp]
        assert _ready_share(hands, "two-player-bamboo") == 1.0
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_an_undeclared_opponent_is_seldom_ready_where_he_could_declare():
    """In two-player-bamboo (报听 with any discard) an opponent who has discarded and not declared
    holds a ready hand in a share ready_weight of the worlds where he otherwise would; 1 is the
    plain sampler, draw for draw."""
    def undeclared(r, s, o):
        return not r.view(s)["ready"][o] and len(r.view(s)["discards"][o]) >= 4
    rows = {1.0: [], 0.0: []}
    for k, (rnd, seat, opp) in enumerate(_points("two-player-bamboo", range(1, 30), undeclared)):
        for rw, hands in rows.items():
            hands.append(sample_hidden_hands(rnd._core, seat, 40, np.random.PCG64(k), True, None, rw)[:, opp])
        if k == 30:
            break
    plain, never = np.concatenate(rows[1.0]), np.concatenate(rows[0.0])
    assert _ready_share(plain, "two-player-bamboo") > 0.05
    assert _ready_share(never, "two-player-bamboo") < 0.01        # a hand is kept after 16 deals anyway


def test_the_ready_weight_has_no_effect_where_no_one_declares_with_a_discard():
    """In two-player 报听 goes only with the first discard: an undeclared hand says nothing later."""
    for k, (rnd, seat, opp) in enumerate(_points("two-player", [3], lambda r, s, o: len(r.view(s)["discards"][o]) >= 3)):
        assert np.array_equal(sample_hidden_hands(rnd._core, seat, 30, np.random.PCG64(1), True, None, 0.0),
                              sample_hidden_hands(rnd._core, seat, 30, np.random.PCG64(1), True, None, 1.0))
        if k == 2:
            break


def _last_discard(rnd, seat, opp):
    """The opponent's discard just made, when it is his last action (what the sampler checks)."""
    v = rnd.view(seat)
    if rnd.phase == PH_CLAIM:
        return v["claim"]["tile"] if v["claim"] and v["claim"].get("from") == opp else None
    return None


def test_the_last_discard_weight_keeps_hands_that_would_have_thrown_it():
    """In the claim window on the opponent's discard t, with last_weight 0 his sampled hand H is
    one from which throwing t lowered the shanten the most (H + t is no nearer a win than H),
    nearly always; with 1 some hands are not."""
    def bad_share(rnd, seat, opp, t, lw, k):
        h = sample_hidden_hands(rnd._core, seat, 40, np.random.PCG64(k), True, None, 1.0, lw)[:, opp].copy()
        s13 = mj.shanten_batch(h, ruleset="two-player")
        h[:, t] += 1
        return float((mj.shanten_batch(h, ruleset="two-player") < s13).mean())
    plain = kept = 0.0
    n = 0
    for k, (rnd, seat, opp) in enumerate(_points("two-player", range(1, 20), lambda r, s, o: _last_discard(r, s, o) is not None)):
        t = _last_discard(rnd, seat, opp)
        plain += bad_share(rnd, seat, opp, t, 1.0, k)
        kept += bad_share(rnd, seat, opp, t, 0.0, k)
        n += 1
        if n == 25:
            break
    assert n == 25
    assert plain / n > 0.03 and kept / n < 0.01


def _share_against_history(rnd, seat, opp, k, **weights):
    """(the share of sampled hands H of the opponent that some earlier discard of his, all but the
    last in his pool, would bring nearer a win; the share that wait by shape on one of the seat's
    last three discards)."""
    h = sample_hidden_hands(rnd._core, seat, 40, np.random.PCG64(k), True, None, 1.0, 1.0, **weights)[:, opp]
    v = rnd.view(seat)
    base = mj.shanten_batch(h, ruleset="two-player")
    lowered = np.zeros(len(h), dtype=bool)
    for d in {int(t) for t in v["discards"][opp][:-1]}:
        hd = h.copy()
        hd[:, d] += 1
        lowered |= (hd[:, d] <= 4) & (mj.shanten_batch(hd, ruleset="two-player") < base)
    waits = mj.waits_batch(h, ruleset="two-player")
    passed = np.zeros(len(h), dtype=bool)
    for t in v["discards"][seat][-3:]:
        d = int(t)
        passed |= ((waits >> np.uint64(d)) & np.uint64(1)).astype(bool)
    return float(lowered.mean()), float(passed.mean())


def test_the_past_and_pass_weights_keep_hands_that_agree_with_his_history():
    """With past_weight 0 a sampled hand is nearly never one that an earlier discard of his would
    bring nearer a win; with pass_weight 0 and pass_depth 3, nearly never one that waits on one
    of the seat's last three discards (he passed on it); with both 1 some hands are."""
    def late(r, s, o):
        return len(r.view(s)["discards"][o]) >= 5 and len(r.view(s)["discards"][s]) >= 3
    plain = np.zeros(2)
    kept = np.zeros(2)
    n = 0
    for k, (rnd, seat, opp) in enumerate(_points("two-player", range(1, 30), late)):
        plain += _share_against_history(rnd, seat, opp, k)
        kept += (_share_against_history(rnd, seat, opp, k, past_weight=0.0)[0],
                 _share_against_history(rnd, seat, opp, k, pass_weight=0.0, pass_depth=3)[1])
        n += 1
        if n == 25:
            break
    assert n == 25
    assert plain[0] / n > 0.1 and kept[0] / n < 0.01
    assert plain[1] / n > 0.05 and kept[1] / n < 0.01


def test_the_new_weights_read_nothing_hidden_and_refuse_bad_values():
    rng = np.random.default_rng(4)
    checked = 0
    for ruleset in ("two-player-bamboo", "two-player"):
        for rnd, seat, opp in _points(ruleset, range(1, 10), lambda r, s, o: len(r.view(s)["discards"][o]) >= 3):
            other = hidden_twin(rnd, seat, rng, tries=20)
            if other is None:
                continue
            assert other.view(seat) == rnd.view(seat)
            a = sample_hidden_hands(rnd._core, seat, 30, np.random.PCG64(2), True, (0.5, 0.7, 0.85, 0.1), 0.1, 0.1,
                                    0.5, 0.3, 3)
            b = sample_hidden_hands(other._core, seat, 30, np.random.PCG64(2), True, (0.5, 0.7, 0.85, 0.1), 0.1, 0.1,
                                    0.5, 0.3, 3)
            assert np.array_equal(a, b)
            checked += 1
            break
    assert checked == 2
    rnd = mj.Round(ruleset="two-player", seed=1)
    seat = rnd.seats_to_act()[0]
    legal = rnd.legal_indices(seat)[:1]
    for name in ("ready_weight", "last_weight", "past_weight", "pass_weight"):
        for bad in (-0.1, 1.5, float("nan")):
            with pytest.raises(ValueError, match=name):
                sample_hidden_hands(rnd._core, seat, 1, np.random.PCG64(1), True, None, **{name: bad})
            with pytest.raises(ValueError, match=name):
                search_outcomes(rnd._core, seat, legal, 1, np.random.PCG64(1), True, **{name: bad})
    for bad in (-1, 201):
        with pytest.raises(ValueError, match="pass_depth"):
            sample_hidden_hands(rnd._core, seat, 1, np.random.PCG64(1), True, pass_depth=bad)
        with pytest.raises(ValueError, match="pass_depth"):
            search_outcomes(rnd._core, seat, legal, 1, np.random.PCG64(1), True, pass_depth=bad)
