"""Issue 27 items 1-2: one contract for every family (mahjong_core.game.contract).

``mj.Round`` and ``mj.Match`` are the public face of every registered ruleset: ``isinstance`` holds,
construction, ``from_json``/``from_dict``/``replay``/``from_header``, ``load_state``, pickle and deepcopy
work for every family and keep the seed and the engine; an unseeded round draws a fresh seed; the
compiled engine is every family's default; results share their common fields."""

from __future__ import annotations

import copy
import json
import pickle
import warnings

import pytest

import mahjong_core as mj
from mahjong_core.errors import RulesetError, StateError
from mahjong_core.families import registry
from mahjong_core.families.longcard.round_match import HandResult, LongcardMatch, LongcardRound
from mahjong_core.families.mahjong._ref.round import Round as MahjongReference
from mahjong_core.game import contract
from mahjong_core.game.bots import make_bots, play_round
from mahjong_core.game.state import load_state
from tests.support.toy import RaceMatch, RaceRound, registered

RULESETS = registry.ruleset_names()
LONGCARD = registry.ruleset_names("longcard")


def _advanced(r, steps: int = 12):
    """``r`` after up to ``steps`` actions (the first legal one of the first seat to act)."""
    for _ in range(steps):
        if r.is_over:
            break
        p = r.seats_to_act()[0]
        r.step(p, r.legal_indices(p)[0])
    return r


def _engines(ruleset: str):
    """Fresh rounds of ``ruleset`` on each of its engines, seeded 5."""
    if ruleset in LONGCARD:
        return [mj.Round(ruleset, 5, engine=e) for e in contract.ENGINES]
    return [mj.Round(ruleset, 5), MahjongReference(ruleset, 5)]


def test_the_registered_rulesets_cover_both_families():
    assert {registry.get_ruleset(n).family for n in RULESETS} == {"mahjong", "longcard"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_isinstance_holds_for_every_family(ruleset):
    r = mj.Round(ruleset=ruleset, seed=1)
    m = mj.Match(ruleset, seed=1, rounds=2)
    assert isinstance(r, mj.Round) and isinstance(r, contract.Round) and isinstance(r, mj.game.round_base.RoundBase)
    assert isinstance(m, mj.Match) and isinstance(m, contract.Match)
    assert issubclass(type(r), mj.Round) and issubclass(type(m), mj.Match)
    assert not isinstance(m, mj.Round) and not isinstance(r, mj.Match)
    assert not isinstance(3, mj.Round) and not issubclass(int, mj.Match) and not isinstance(r.log, contract.Round)


def test_the_face_builds_each_family_own_class():
    assert type(mj.Round("changpai-ydr", 1)) is LongcardRound and type(mj.Match("changpai-ydr", 1)) is LongcardMatch
    assert type(mj.Round("two-player", 1)) is mj.Round and type(mj.Match("public", 1)) is mj.Match
    # only the face dispatches: a family's own class keeps its own rulesets
    with pytest.raises(RulesetError, match="not a long-card ruleset"):
        LongcardRound("two-player", 1)
    with pytest.raises(RulesetError, match="unknown ruleset 'nope'"):
        mj.Round("nope")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_round_trips_keep_the_seed_and_the_state(ruleset):
    r = _advanced(mj.Round(ruleset, 9, dealer=1))
    text = r.to_json()
    loaded = [mj.Round.from_json(text), mj.Round.from_json(text.encode()), mj.Round.from_dict(json.loads(text)),
              mj.Round.replay(r.log), mj.Round.replay(iter(r.log_lines())), load_state(text),
              pickle.loads(pickle.dumps(r)), copy.deepcopy(r)]
    for back in loaded:
        assert type(back) is type(r) and back.seed == r.seed == 9 and back.to_json() == text
    fresh = mj.Round.from_header(r.log[0])
    assert type(fresh) is type(r) and fresh.seed == 9 and fresh.log[0] == r.log[0]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pickle_and_deepcopy_keep_the_engine(ruleset):
    for r in _engines(ruleset):
        _advanced(r)
        for back in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
            assert type(back) is type(r) and back.engine == r.engine and back.seed == r.seed
            assert back.to_json() == r.to_json()
            if ruleset in LONGCARD:
                assert type(back.hand) is type(r.hand)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_loaded_state_runs_on_the_compiled_engine(ruleset):
    """The JSON state is the game alone (both engines write the same one): loading it deals on the
    family's default engine, the compiled one."""
    for r in _engines(ruleset):
        _advanced(r)
        for back in (mj.Round.from_json(r.to_json()), load_state(r.to_dict()), mj.Round.replay(r.log)):
            assert back.engine == "compiled" and back.to_json() == r.to_json()


def test_a_long_card_loader_takes_the_engine():
    r = _advanced(LongcardRound("changpai-ydr", 3, engine="reference"))
    assert r.engine == "reference"
    for back in (LongcardRound.from_json(r.to_json(), engine="reference"),
                 LongcardRound.from_dict(r.to_dict(), engine="reference"),
                 LongcardRound.replay(r.log, engine="reference"),
                 LongcardRound.from_header(r.log[0], engine="reference")):
        assert back.engine == "reference" and type(back.hand).__name__ == "Round"
    assert LongcardRound.from_json(r.to_json()).engine == "compiled"
    for bad in ("fast", 1, None.__class__):
        with pytest.raises(RulesetError, match="engine must be"):
            LongcardRound.from_json(r.to_json(), engine=bad)
        with pytest.raises(RulesetError, match="engine must be"):
            LongcardRound("changpai-ydr", 1, engine=bad)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_match_round_trips(ruleset):
    m = mj.Match(ruleset, seed=4, rounds=3)
    play = make_bots(["random"] * m.players, seed=1, ruleset=ruleset)
    while m.round_index < 1 and not m.is_over:
        p = m.seats_to_act()[0]
        m.step(p, play[p].act_index(m.round, p))
        if m.round.is_over:
            m.next_round()
    _advanced(m.round, 5)
    text = m.to_json()
    for back in (mj.Match.from_json(text), mj.Match.from_dict(json.loads(text)), load_state(text),
                 pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert type(back) is type(m) and back.seed == 4 and back.to_json() == text
        assert back.round.engine == m.round.engine == "compiled"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_unseeded_round_draws_fresh_randomness(ruleset):
    rounds = [mj.Round(ruleset) for _ in range(3)]
    assert len({r.seed for r in rounds}) == 3 and all(r.seed > 2**32 for r in rounds)
    assert len({r.log[0]["seed"] for r in rounds}) == 3
    for r in rounds:   # the drawn seed is recorded: the state reproduces the round
        assert mj.Round.from_json(r.to_json()).to_json() == r.to_json()
        assert mj.Round(ruleset, r.seed, dealer=r.dealer).to_json() == r.to_json()
    assert len({mj.Match(ruleset).seed for _ in range(3)}) == 3


def test_an_unseeded_long_card_hand_is_dealt_at_random():
    """Before issue 27 every unseeded long-card hand was dealt from seed 0."""
    deals = {json.dumps(LongcardRound("changpai-ydr").view(0)["hand"]) for _ in range(4)}
    assert len(deals) > 1
    assert LongcardRound("changpai-ydr").seed != 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_compiled_engine_is_every_family_default(ruleset):
    r = mj.Round(ruleset, 1)
    assert r.engine == "compiled"
    if ruleset in LONGCARD:
        assert type(r.hand).__name__ == "CompiledHand"
        assert LongcardRound(ruleset, 1).engine == "compiled"
        assert all(m.engine == "compiled" for m in (mj.Match(ruleset, 1).round,))
        # the reference counting (impl) exists on the reference engine only, which it picks
        assert LongcardRound(ruleset, 1, impl="reference").engine == "reference"
    else:
        assert MahjongReference(ruleset, 1).engine == "reference"


def _finished(ruleset: str, seed: int):
    """A round played to its end, by greedy bots for an even seed (they win), else random ones."""
    r = mj.Round(ruleset, seed)
    play_round(r, ["greedy" if seed % 2 == 0 else "random"] * r.players)
    return r


@pytest.mark.parametrize("ruleset", RULESETS)
def test_results_share_the_common_fields(ruleset):
    ends = set()
    for seed in range(40):
        r = _finished(ruleset, seed)
        res = r.result
        assert isinstance(res, contract.Result)
        d = res.to_dict()
        assert isinstance(d, dict) and json.loads(json.dumps(d)) == d
        assert isinstance(res.end, str) and isinstance(res.winners, list)
        assert all({"seat", "total"} <= set(w) for w in res.winners)
        assert res.winner == (res.winners[0]["seat"] if res.winners else None)
        assert res.dealer == r.dealer and 0 <= res.next_dealer < r.players
        assert (res.end == "win") == bool(res.winners)
        if res.deltas is not None:
            assert len(res.deltas) == r.players and sum(res.deltas) == 0
        ends.add(res.end)
        if "win" in ends and len(ends) > 1:
            break
    assert "win" in ends and len(ends) > 1      # a win and another end, both seen


def test_the_mahjong_result_fields():
    for seed in range(20):
        res = _finished("two-player", seed).result
        d = res.to_dict()
        assert res.end == ("draw" if d["draw"] else "win") and res.winners == d["winners"]
        assert res.next_dealer == d["next_dealer"] and res.dealer == d["dealer"]
        # issue 27 item 2: per-seat deltas in every family (mahjong's: its unit room's payments,
        # tests/settlement/test_profiles.py), summing to 0
        assert len(res.deltas) == 2 and sum(res.deltas) == 0 and (res.deltas == [0, 0]) == d["draw"]


def test_the_long_card_result_fields():
    seen = set()
    for seed in range(60):
        res = _finished("changpai-ydr", seed).result
        assert isinstance(res, HandResult)
        d = res.to_dict()
        assert res.end == d["end"] and res.deltas == d["deltas"] and res.next_dealer == d["next_banker"]
        assert res.payments == [tuple(p) for p in d["payments"]] and res.counts is d["counts"]
        assert res.dealer == d["dealer"]
        if d["end"] == "win":
            assert res.winners == [{"seat": d["winner"], "total": d["fan"], "card": d["card"], "score": d["score"]}]
            assert res.winner == d["winner"] and res.fan == d["fan"] and res.offender is None
        else:
            assert res.winners == [] and res.winner is None
        if d["end"] == "baozi":
            assert res.offender == d["offender"] and res.fan == d["fan"]
        assert pickle.loads(pickle.dumps(res)) == res and "next_dealer=" in repr(res)
        seen.add(d["end"])
    assert "win" in seen and seen & {"huangzhuang", "void"}


def test_next_banker_is_deprecated_for_next_dealer():
    res = _finished("changpai-ydr", 2).result
    with pytest.warns(DeprecationWarning, match="next_banker is deprecated; use HandResult.next_dealer"):
        assert res.next_banker == res.next_dealer
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _ = res.next_dealer, res.end, res.winners, res.deltas


@pytest.mark.parametrize("ruleset", RULESETS)
def test_views_share_the_common_keys(ruleset):
    r = _advanced(mj.Round(ruleset, 3), 4)
    for seat in range(r.players):
        v = r.view(seat)
        assert set(contract.COMMON_VIEW_KEYS) <= set(v)
        assert set(contract.View.__annotations__) == set(contract.COMMON_VIEW_KEYS)
        assert v["ruleset"] == ruleset and v["seat"] == seat and v["players"] == r.players


def test_the_face_reaches_a_family_registered_from_its_own_folder():
    """The toy family of tests/support registers RaceRound and RaceMatch as its new_round/new_match:
    mj.Round and mj.Match build, load and replay them with no change to any shared file."""
    with registered():
        r = mj.Round("toy-race", 4, dealer=1)
        assert type(r) is RaceRound and isinstance(r, mj.Round)
        _advanced(r, 3)
        for back in (mj.Round.from_json(r.to_json()), mj.Round.replay(r.log), mj.Round.from_header(r.log[0])):
            assert type(back) is RaceRound
        m = mj.Match("toy-race", 2, rounds=1)
        assert type(m) is RaceMatch and isinstance(m, mj.Match)
        assert type(mj.Match.from_json(m.to_json())) is RaceMatch


def test_damaged_states_are_refused_as_before():
    r = mj.Round("changpai-ydr", 2)
    d = r.to_dict()
    d["header"]["ruleset"] = d["log"][0]["ruleset"] = "nope"
    with pytest.raises(StateError, match=r"ruleset: expected one of 'two-player'.* got 'nope'"):
        mj.Round.from_dict(d)
    with pytest.raises(StateError, match="header.ruleset: unknown ruleset 'nope'"):
        load_state(d)
    with pytest.raises(StateError):
        LongcardRound.from_dict(mj.Round("two-player", 1).to_dict())
    with pytest.raises(StateError):
        mj.Round.replay(42)
    with pytest.raises(StateError):
        mj.Round.from_json("[")


def test_a_long_card_match_keeps_its_engine():
    """Every hand of a match runs on the match's engine (compiled by default); pickling and deep
    copying keep it, a JSON state loads on the engine its loader names."""
    m = mj.Match("changpai-ydr", 3, rounds=2, engine="reference")
    _advanced(m.round, 6)
    assert m.engine == m.round.engine == "reference" and type(m.round.hand).__name__ == "Round"
    assert mj.Match("changpai-ydr", 3, rounds=2).round.engine == "compiled"
    for back in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m),
                 LongcardMatch.from_json(m.to_json(), engine="reference")):
        assert back.engine == back.round.engine == "reference" and back.to_json() == m.to_json()
    assert mj.Match.from_json(m.to_json()).round.engine == "compiled"
    with pytest.raises(RulesetError, match="engine must be"):
        mj.Match("changpai-ydr", 3, engine="fast")


def test_the_reference_simulation_plays_reference_hands(monkeypatch):
    """``play_batch(engine="reference")`` still plays the reference hands now that the compiled
    engine is the default of a match."""
    from mahjong_core.families.longcard import simulation
    from mahjong_core.families.longcard.round_bots import RandomBot
    from mahjong_core.families.longcard._ref.round import Round as ReferenceHand

    played = []
    real = ReferenceHand.play_decision
    monkeypatch.setattr(ReferenceHand, "play_decision", lambda self, bot: played.append(1) or real(self, bot))
    out = simulation.LongcardSimulationResult("changpai-ydr", ("x",))
    simulation.play_batch("changpai-ydr", [RandomBot(k) for k in range(3)], 7, 2, None, False, out,
                          engine="reference")
    assert played
