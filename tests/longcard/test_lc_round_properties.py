"""Properties of the long-card reference round over random and greedy hands (spec changpai.md 8.2-8.4):
every card in exactly one place, hand sizes, an illegal action changes nothing, nothing accepted after
the end, replay and JSON round trip exact, views unchanged when hidden cards are swapped."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mahjong_core.errors import IllegalActionError, StateError
from mahjong_core.families.longcard.cards import CAISHEN
from mahjong_core.families.longcard.round_actions import ACTION_SIZE, Action
from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot
from mahjong_core.families.longcard._ref.round import Round

SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_everywhere(r: Round) -> int:
    n = sum(map(sum, r.hands)) + sum(r.caishen) + sum(len(t) for t in r.tangzi) + r.stock_left
    n += sum(len(g.cards) for gs in r.groups for g in gs)
    return n + (1 if r.phase == "claim" else 0)


def check_invariants(r: Round) -> None:
    assert cards_everywhere(r) == 105 + r.settings.caishen_count
    where = r.card_census()          # every card in exactly one place, face by face
    assert where == [5] * 21 + [r.settings.caishen_count]
    if r.phase == "claim":              # 两卯必进 / 尾张必进 penalise a pass only when a claim is free to take
        d = r._decision(r.actor)
        if d.get(256) in ("B3", "B4"):
            assert any(c is None for a, c in d.items() if a not in (256, 258))
    for p in range(3):
        e = r.effective(p)
        if r.phase in ("qi",) or (r.phase == "stay" and not r.started):
            assert e in (20, 21)
        elif r.phase in ("turn", "claim"):
            assert e == 20 or r.folded[p] and e == 21, (p, e, r.phase)
        elif r.phase == "discard":
            assert e == (21 if p == r.actor else 20) or r.folded[p]


def bots_for(kind: str, seed: int, r: Round) -> list:
    if kind == "random":
        return [RandomBot(seed * 3 + k) for k in range(3)]
    if kind == "rule":
        return [RuleBot(r.settings) for _ in range(3)]
    return [RuleBot(r.settings), RandomBot(seed), RuleBot(r.settings)]


def play(r: Round, bots: list, each=None) -> None:
    while r.seats_to_act():
        p = r.seats_to_act()[0]
        r.step(p, bots[p].choose(r.view(p), r.legal_mask(p), r.penalised_mask(p)))
        if each:
            each(r)


@SLOW
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["random", "mixed"]), opts=st.sampled_from(
    [{}, {"caishen_count": 0}, {"bi_peng": True}, {"turn_direction": "cw", "settlement_mode": "fan_cheng_fan"},
     {"banker_extra_card": False, "first_actor": "banker_turns"}, {"bi_jin_bi_da": False, "wumenjiang": False},
     {"baozi_actions_allowed": False}]))
@example(seed=5881, kind="random", opts={"bi_jin_bi_da": False, "wumenjiang": False})   # all fold in a claim window
@example(seed=100000, kind="random", opts={})        # 杀 of the last card: no replacement left
def test_invariants_at_every_step_and_conserved_settlement(seed, kind, opts):
    r = Round(seed, options=opts)
    play(r, bots_for(kind, seed, r), check_invariants)
    assert r.result is not None and sum(r.result["deltas"]) == 0
    if not r.settings.baozi_actions_allowed:
        assert r.result["end"] != "baozi"          # CP-49: a fully enforced table
    assert r.seats_to_act() == [] and not any(r.legal_mask(p).any() for p in range(3))
    with pytest.raises(IllegalActionError):
        r.step(0, 256)


@SLOW
@given(seed=st.integers(0, 10**6), data=st.data())
def test_illegal_action_leaves_state_unchanged(seed, data):
    r = Round(seed, options={"bi_jin_bi_da": False})
    bots = [RandomBot(seed + k) for k in range(3)]
    while r.seats_to_act():
        p = r.seats_to_act()[0]
        legal = r.legal_mask(p)
        if data.draw(st.booleans()):
            before = r.snapshot()
            bad = [i for i in range(ACTION_SIZE) if not legal[i]]
            a = data.draw(st.sampled_from(bad))
            seat = data.draw(st.sampled_from([p, (p + 1) % 3, (p + 2) % 3]))
            if seat != p:
                a = int(np.flatnonzero(legal)[0])
            with pytest.raises(IllegalActionError):
                r.step(seat, a)
            assert r.snapshot() == before
        r.step(p, bots[p].choose(r.view(p), legal, r.penalised_mask(p)))


@SLOW
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["random", "mixed"]), cut=st.integers(0, 200))
def test_replay_and_json_round_trip(seed, kind, cut):
    r = Round(seed)
    bots = bots_for(kind, seed, r)
    played = 0
    while r.seats_to_act() and played < cut:
        p = r.seats_to_act()[0]
        r.step(p, bots[p].choose(r.view(p), r.legal_mask(p), r.penalised_mask(p)))
        played += 1
    text = r.to_json()
    r2 = Round.from_json(text)
    assert r2.snapshot() == r.snapshot() and r2.to_json() == text
    assert [r2.view(p) for p in range(3)] == [r.view(p) for p in range(3)]
    assert Round.replay(json.loads(text)).snapshot() == r.snapshot()
    play(r, bots_for("random", seed, r))          # the reloaded hand plays on exactly like the original
    play(r2, bots_for("random", seed, r2))
    assert r2.to_json() == r.to_json()


@SLOW
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 120), data=st.data())
def test_views_unchanged_when_hidden_cards_swap(seed, cut, data):
    r = Round(seed)
    bots = bots_for("mixed", seed, r)
    while r.seats_to_act() and cut:
        p = r.seats_to_act()[0]
        r.step(p, bots[p].choose(r.view(p), r.legal_mask(p), r.penalised_mask(p)))
        cut -= 1
    seat = data.draw(st.integers(0, 2))
    other = data.draw(st.sampled_from([q for q in range(3) if q != seat]))
    hidden_stock = [j for j in range(max(r.pos, 61), len(r.stock) - 1) if r.stock[j] != CAISHEN]
    held = [f for f in range(21) if r.hands[other][f]]
    if not hidden_stock or not held:
        return
    j, f = data.draw(st.sampled_from(hidden_stock)), data.draw(st.sampled_from(held))
    before = r.view(seat)
    r2 = copy.deepcopy(r)
    g = r2.stock[j]
    r2.hands[other][f] -= 1
    r2.hands[other][g] += 1
    r2.stock[j] = f
    assert r2.view(seat) == before
    third = 3 - seat - other                      # the other hidden hand: swap a card between the two
    g2 = next((x for x in range(21) if r2.hands[third][x] and x != f), None)
    if g2 is not None and r2.hands[other][f]:
        r2.hands[other][f] -= 1
        r2.hands[third][f] += 1
        r2.hands[third][g2] -= 1
        r2.hands[other][g2] += 1
        assert r2.view(seat) == before
    if seat != r.actor:
        assert not r2.legal_mask(seat).any() and not r.legal_mask(seat).any()


def test_json_is_strict():
    r = Round(5)
    bots = bots_for("random", 5, r)
    play(r, bots)
    d = json.loads(r.to_json())
    for path, mutate, match in [
        ("ruleset", lambda d: d.update(ruleset="mahjong"), "ruleset"),
        ("version", lambda d: d.update(version=1), "version"),
        ("options", lambda d: d["options"].update(fan_cap=-1), "fan_cap"),
        ("banker", lambda d: d.update(banker=3), "banker"),
        ("stock", lambda d: d["stock"].__setitem__(0, 22), "stock"),
        ("stock", lambda d: d["stock"].pop(), "stock"),
        ("actions", lambda d: d["actions"].append([0, 256]), r"actions\[\d+\]"),
        ("actions", lambda d: d["actions"].__setitem__(0, [0, "x"]), r"actions\[0\]"),
        ("result", lambda d: d.update(result={"end": "win"}), "result"),
        ("keys", lambda d: d.update(extra=1), "keys"),
    ]:
        bad = copy.deepcopy(d)
        mutate(bad)
        with pytest.raises(StateError, match=match):
            Round.from_dict(bad)
    with pytest.raises(StateError, match="JSON"):
        Round.from_json("{not json")
    with pytest.raises(StateError):
        Round.from_json("[1, 2]")


def test_same_seed_same_hand():
    a, b = Round(11), Round(11)
    assert a.stock == b.stock and a.banker == b.banker
    play(a, bots_for("random", 1, a))
    play(b, bots_for("random", 1, b))
    assert a.to_json() == b.to_json()


def test_bad_constructor_arguments():
    from mahjong_core.errors import MahjongError, RulesetError
    for bad in ("x", -1, 1.5, True):
        with pytest.raises(MahjongError, match="seed"):
            Round(bad)
    with pytest.raises(RulesetError):
        Round(1, options=[1])
    with pytest.raises(MahjongError, match="banker"):
        Round(1, banker=3)


def test_claim_answers_are_private_until_executed():
    """8.3: another seat sees neither a pass nor a losing claim in a claim window, only FOLDs and the
    executed claim (a ``claim`` event)."""
    seen_claim = False
    for seed in range(6):
        r = Round(seed)
        play(r, bots_for("rule", seed, r))
        for p in range(3):
            own = r.events_for(p)
            others = [e for e in own if e["type"] == "action" and e["seat"] != p and e["phase"] == "claim"]
            assert all(e["action"] == 258 for e in others)
            assert len([e for e in own if e["type"] == "action" and e["seat"] == p]) == sum(s == p for s, _ in r.log)
        seen_claim = seen_claim or any(e["type"] == "claim" for e in r.events_for(0))
    assert seen_claim


@settings(max_examples=200, deadline=None)
@given(seat=st.one_of(st.integers(-5, 10**30), st.text(max_size=3), st.none(), st.booleans(), st.floats()),
       action=st.one_of(st.integers(-10**20, 10**20), st.text(max_size=5), st.none(), st.floats(),
                        st.lists(st.integers(), max_size=3),
                        st.builds(Action, st.sampled_from(["discard", "chi", "pass", "hu", "nope"]),
                                  st.one_of(st.none(), st.integers(-2, 30), st.text(max_size=2)),
                                  st.one_of(st.none(), st.tuples(st.integers(-1, 22), st.integers(-1, 22))))))
def test_junk_input_is_a_mahjong_error_and_changes_nothing(seat, action):
    from mahjong_core.errors import MahjongError
    r = Round(2)
    before = r.snapshot()
    try:
        r.step(seat, action)
    except MahjongError:
        assert r.snapshot() == before
    for query in (r.legal_mask, r.penalised_mask, r.view, r.legal_actions, r.events_for):
        try:
            query(seat)
        except MahjongError:
            pass


def test_deeply_nested_json_is_a_state_error():
    with pytest.raises(StateError):
        Round.from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(StateError):
        Round.from_dict({"ruleset": "changpai-ydr", "version": 2, "options": {}, "banker": 0, "stock": "x" * 10,
                         "actions": [], "result": None})


def _property_run_module():
    from tests.support.scripts import load_script

    return load_script("tools/lc_property_run.py")


def test_the_property_run_script_on_a_few_hands():
    """tools/lc_property_run.py (spec 8.5's 10,000 RuleBot hands, run by hand) on 12 hands: no failure,
    the ledger total unchanged; and it reports a broken invariant rather than passing it."""
    import io

    run = _property_run_module().run
    s = run(12, 40, views=3, out=io.StringIO())
    assert s["failure_count"] == 0 and sum(s["ends"].values()) == 12 and s["views_checked"] > 0
    assert s["ledger_total"] == s["ledger_total_start"] == 3 * 10**9
    census = Round.card_census
    try:
        Round.card_census = lambda self: census(self)[:-1] + [99]     # a lost 财神: every hand fails
        assert run(2, 40, views=0, out=io.StringIO())["failure_count"] == 2
    finally:
        Round.card_census = census
