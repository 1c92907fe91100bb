"""The learned opponent model (issue 30): shipped for the two-player rulesets, read from the seat's
view only (the hidden tiles permuted change nothing), its tilt of the sampler's hands toward its
prediction, the engine dealing the hands it is given, the search bot's ``opponents="learned"`` and
the training script's reproducibility."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core._round import search_outcomes
from mahjong_core.errors import MahjongError
from mahjong_core.families.mahjong.opponent_model import (
    RULESETS,
    SHANTEN_CLASSES,
    WEIGHTS_FILE,
    features,
    load_model,
    resample_pool,
    sample_pool,
    tilt_weights,
)
from mahjong_core.families.mahjong.search_bot import (
    LEARNED_POOL,
    WORLD_STEPS,
    SearchBot,
)

import mahjong_core as mj
from tests.support.bot_decisions import decision_points, hidden_twin, opponents_differ
from tests.support.scripts import load_script


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_shipped_model_gives_probabilities_over_the_kinds_in_play(ruleset):
    model = load_model(ruleset)
    kinds = set(mj.get_ruleset(ruleset).kinds)
    assert set(model.kinds) == kinds and model.pool_worlds == 0
    for rnd, seat in list(decision_points(ruleset, seed=3, every=2))[:5]:
        hold, wait, sh = model.predict(rnd.view(seat), ruleset)
        assert hold.shape == wait.shape == (34,) and sh.shape == (SHANTEN_CLASSES,)
        assert ((0 <= hold) & (hold <= 1) & (0 <= wait) & (wait <= 1)).all()
        assert not hold[[k for k in range(34) if k not in kinds]].any()
        assert sh.sum() == pytest.approx(1.0)


def test_a_ruleset_without_a_model_is_refused():
    with pytest.raises(MahjongError, match="no model for ruleset 'public'"):
        load_model("public")
    with pytest.raises(ValueError):
        load_model("mcr")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_peeking_the_model_and_the_learned_bot_see_the_view_only(ruleset):
    """The hidden tiles permuted (the seat's view the same): the same features, prediction,
    pool weights and decision of the bot with ``opponents="learned"``."""
    rng = np.random.default_rng(4)
    model = load_model(ruleset)
    checked = changed = 0
    for rnd, seat in decision_points(ruleset, seed=7, every=1):
        other = hidden_twin(rnd, seat, rng)
        if other is None:
            continue
        changed += opponents_differ(rnd, other, seat)
        assert np.array_equal(features(rnd.view(seat), model.kinds), features(other.view(seat), model.kinds))
        pool = sample_pool(rnd._core, seat, 32, np.random.PCG64(1))
        assert np.array_equal(pool, sample_pool(other._core, seat, 32, np.random.PCG64(1)))
        assert np.array_equal(resample_pool(model, rnd.view(seat), ruleset, pool),
                              resample_pool(model, other.view(seat), ruleset, pool))
        a = SearchBot(2, playouts=60, opponents="learned").act_index(rnd, seat)
        assert a == SearchBot(2, playouts=60, opponents="learned").act_index(other, seat)
        checked += 1
        if checked == 4 and changed:
            break
    assert checked >= 3 and changed >= 1


def test_the_tilt_moves_the_pool_to_the_models_shares():
    rng = np.random.default_rng(0)
    waits = rng.random((400, 3)) < [0.1, 0.5, 0.3]
    shanten = rng.integers(0, SHANTEN_CLASSES, 400)
    target = np.array([0.2, 0.4, 0.3])
    w = tilt_weights(waits, shanten, target, np.full(SHANTEN_CLASSES, 1 / SHANTEN_CLASSES))
    assert w.sum() == pytest.approx(1.0) and (w > 0).all()
    assert np.allclose(w @ waits, target, atol=0.03)
    untouched = tilt_weights(waits, shanten, waits.mean(axis=0), np.bincount(shanten) / 400)
    assert np.allclose(untouched, 1 / 400)


def _turn_point(ruleset: str) -> tuple[mj.Round, int]:
    return next((r, s) for r, s in decision_points(ruleset, seed=2, every=1) if r.phase == 1)


def test_the_engine_deals_the_opponent_hands_it_is_given():
    rnd, seat = _turn_point("two-player")
    legal = rnd.legal_indices(seat)
    hands = sample_pool(rnd._core, seat, 6, np.random.PCG64(5))
    a = search_outcomes(rnd._core, seat, legal, 6, np.random.PCG64(9), opponent_hands=hands)
    b = search_outcomes(rnd._core, seat, legal, 6, np.random.PCG64(9), opponent_hands=hands)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    # his true hand dealt in every world: the worlds are the true round with the wall reshuffled
    true = np.repeat(np.asarray(rnd.hand_counts(1 - seat), dtype=np.int8)[None, :34], 6, axis=0)
    search_outcomes(rnd._core, seat, legal, 6, np.random.PCG64(9), opponent_hands=true)
    bad = hands.copy()
    bad[0, np.flatnonzero(bad[0])[0]] -= 1
    with pytest.raises(ValueError, match="a hand of"):
        search_outcomes(rnd._core, seat, legal, 6, np.random.PCG64(9), opponent_hands=bad)
    seen = next(t for t in rnd.hand(seat) if t < 34)
    bad = hands.copy()
    bad[0, seen] = 4
    with pytest.raises(ValueError, match="opponent_hands"):
        search_outcomes(rnd._core, seat, legal, 6, np.random.PCG64(9), opponent_hands=bad)
    with pytest.raises(ValueError, match="shape"):
        search_outcomes(rnd._core, seat, legal, 5, np.random.PCG64(9), opponent_hands=hands)
    four, s4 = _turn_point("public")
    with pytest.raises(ValueError, match="two players only"):
        search_outcomes(four._core, s4, four.legal_indices(s4), 6, np.random.PCG64(9), opponent_hands=hands)


def test_the_learned_bot_counts_its_pool_and_falls_back_where_no_model_is_shipped():
    rnd, seat = _turn_point("two-player")
    bot = SearchBot(3, steps=4000, opponents="learned")
    bot.act_index(rnd, seat)
    assert bot.last["steps"] >= LEARNED_POOL * WORLD_STEPS
    four, s4 = _turn_point("public")
    a = SearchBot(3, playouts=60, opponents="learned").act_index(four, s4)
    assert a == SearchBot(3, playouts=60, opponents="history").act_index(four, s4)


def test_the_training_script_is_seeded_and_its_weights_load(tmp_path):
    tool = load_script("tools/train_opponent_model.py")
    outs = []
    for name in ("a.npz", "b.npz"):
        out = tmp_path / name
        tool.main(["--rounds", "20", "--epochs", "1", "--hidden", "8", "--rulesets", "two-player", "--out", str(out)])
        outs.append(np.load(out))
    assert outs[0].files == outs[1].files
    assert all(np.array_equal(outs[0][k], outs[1][k]) for k in outs[0].files)
    model = load_model("two-player", str(tmp_path / "a.npz"))
    assert model.w1.shape[1] == 8
    pooled = tmp_path / "pool.npz"
    tool.main(["--rounds", "10", "--epochs", "1", "--hidden", "4", "--pool", "8", "--rulesets", "two-player",
               "--out", str(pooled)])
    model = load_model("two-player", str(pooled))
    rnd, seat = _turn_point("two-player")
    with pytest.raises(MahjongError, match="pool"):
        model.predict(rnd.view(seat), "two-player")
    pool = sample_pool(rnd._core, seat, 8, np.random.PCG64(0))
    assert model.predict(rnd.view(seat), "two-player", pool)[2].sum() == pytest.approx(1.0)
    # the pool's waits found once serve both the model's input and the tilt
    assert resample_pool(model, rnd.view(seat), "two-player", pool).sum() == pytest.approx(1.0)
    assert WEIGHTS_FILE.exists()


def test_a_weights_file_without_the_rulesets_arrays_is_refused_by_name(tmp_path):
    other = tmp_path / "other.npz"
    np.savez(other, **{"two-player/w1": np.zeros((2, 2), dtype=np.float32)})
    with pytest.raises(MahjongError, match=r"has no two-player/b1, two-player/b2, two-player/kinds"):
        load_model("two-player", str(other))


def test_his_concealed_kong_takes_a_kind_his_given_hand_does_not_hold():
    """A world's concealed kong of his is a kind the seat has not seen; dealt a hand from another
    world (the pool), the kong's kind is drawn among those that hand does not hold."""
    from tests.support.bot_decisions import two_player_points

    def ckong(rnd, seat, opp):
        return rnd.phase == 1 and any(m[0] == 3 for m in rnd.melds[opp])

    rnd, seat, _ = next(two_player_points("two-player", range(1, 400), ckong))
    pool = sample_pool(rnd._core, seat, 64, np.random.PCG64(3))
    search_outcomes(rnd._core, seat, rnd.legal_indices(seat), 64, np.random.PCG64(4), opponent_hands=pool)
    SearchBot(1, playouts=200, opponents="learned").act_index(rnd, seat)


def test_a_hand_that_cannot_wait_falls_back_to_history():
    """In the 天听 window of the deal the dealer holds 14 tiles: no waits to weigh his hands by, so
    the decision is the one ``"history"`` makes (it used to raise from the waits of 14 tiles)."""
    from tests.support.bot_decisions import two_player_points

    rnd, seat, opp = next(two_player_points("two-player", range(1, 300), lambda r, s, o: r.concealed_size(o) % 3 != 1))
    assert rnd.concealed_size(opp) == 14
    learned = SearchBot(1, playouts=60, opponents="learned")
    assert learned.act_index(rnd, seat) == SearchBot(1, playouts=60, opponents="history").act_index(rnd, seat)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_shipped_model_predicts_his_hand_better_than_history(ruleset):
    """The reason it ships: on the sampler study's turns (seeds 1-10 here; 1-100 in the guide) its
    waits' and shanten's log losses are below those of the default sampler's worlds."""
    bench = load_script("bench/bench_search_bot.py")
    st = bench.sampler_study(ruleset, 10, seed=1, worlds=100, only=["history", bench.LEARNED])
    assert st["waits_log_loss"][bench.LEARNED] < st["waits_log_loss"]["history"]
    assert st["shanten_log_loss"][bench.LEARNED] < 0.9 * st["shanten_log_loss"]["history"]
