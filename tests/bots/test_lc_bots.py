"""The long-card family's bots by name (issue 30): ``advisor`` and ``search`` next to ``random`` and
``greedy`` in the family's factories, so make_bots, simulate, match and the CLI take them; the
advisor bot discards by the advisor and otherwise plays as the RuleBot."""

from __future__ import annotations

import numpy as np

import mahjong_core as mj
from mahjong_core.families import registry
from mahjong_core.families.longcard.advise import advise_round
from mahjong_core.families.longcard.advise_bot import AdvisorBot
from mahjong_core.families.longcard.round_bots import RuleBot
from mahjong_core.families.longcard.round_match import LongcardRound
from mahjong_core.families.longcard.search_bot import DEFAULT_STEPS, SearchBot
from mahjong_core.game.bots import make_bots

RULESET = "changpai-ydr"


def test_the_family_names_its_four_bots():
    bots = registry.get_family("longcard").bots
    assert set(bots) == {"random", "greedy", "advisor", "search"}
    made = make_bots(["advisor", "search", "greedy"], 3, ruleset=RULESET)
    assert type(made[0]) is AdvisorBot and type(made[1]) is SearchBot and type(made[2]) is RuleBot
    assert made[1].steps == DEFAULT_STEPS and made[1].playouts is None and made[1].max_ms is None
    again = make_bots(["advisor", "search", "greedy"], 3, ruleset=RULESET)
    assert again[1].seed == made[1].seed             # a named bot is seeded from make_bots' seed


def test_simulate_and_match_take_the_new_names():
    res = mj.simulate(RULESET, rounds=1, bots=["advisor", "search", "greedy"], seed=4)
    assert res.rounds == 1
    m = mj.Match(ruleset=RULESET, seed=2, rounds=1, auto_advance=True)
    bots = make_bots(["advisor", "advisor", "greedy"], 2, ruleset=RULESET)
    while not m.is_over:
        seat = m.seats_to_act()[0]
        m.step(seat, bots[seat].act_index(m.round, seat))
    assert len(m.results) == 1 and sum(m.results[0]["deltas"]) == 0


def test_the_cli_match_takes_the_new_names(capsys):
    from mahjong_core.cli import main

    assert main(["match", "--ruleset", RULESET, "--rounds", "1", "--bots", "advisor,search,greedy", "--seed", "1"]) in (0, None)
    out = capsys.readouterr().out
    assert "seat0-advisor" in out and "seat1-search" in out


def _discard_points(n: int, seed: int = 0):
    """Up to ``n`` (round, seat) at a DISCARD decision with more than one legal discard, from hands
    played by RuleBots."""
    rule = RuleBot()
    found = []
    s = seed
    while len(found) < n:
        r = LongcardRound(RULESET, s, dealer=s % 3)
        s += 1
        while not r.is_over and len(found) < n:
            seat = r.seats_to_act()[0]
            if r.view(seat)["phase"] == "discard" and sum(1 for i in r.legal_indices(seat) if i < 21) > 1:
                found.append((r.hand.__class__, r.to_json(), seat))
            r.step(seat, rule.act_index(r, seat))
    return [(LongcardRound.from_json(j), seat) for _, j, seat in found]


def test_the_advisor_bot_discards_the_advisors_best_and_else_plays_as_the_rulebot():
    rule = RuleBot()
    differs = 0
    for r, seat in _discard_points(12):
        a, b = AdvisorBot().act_index(r, seat), rule.act_index(r, seat)
        if b >= 21:                # the RuleBot folds (or wins): so does the advisor bot
            assert a == b
            continue
        assert a == advise_round(r, seat).best.discard
        differs += a != b
    assert differs >= 1          # the advisor's ranking is not the RuleBot's
    # every other decision is the RuleBot's
    r = LongcardRound(RULESET, 11, dealer=0)
    bot = AdvisorBot()
    while not r.is_over:
        seat = r.seats_to_act()[0]
        a = bot.act_index(r, seat)
        if r.view(seat)["phase"] != "discard":
            assert a == rule.act_index(r, seat)
        r.step(seat, a)


def test_the_advisor_bot_on_the_reference_engine_and_from_a_bare_view():
    r = LongcardRound(RULESET, 5, dealer=1, engine="reference")
    bot = AdvisorBot()
    while not r.is_over:
        seat = r.seats_to_act()[0]
        h = r.hand
        a = bot.choose_in(h, h.view(seat), h.legal_mask(seat), h.penalised_mask(seat))
        assert a == bot.choose(h.view(seat), h.legal_mask(seat), h.penalised_mask(seat))   # default settings
        assert np.asarray(h.legal_mask(seat))[a]
        r.step(seat, a)
    assert sum(r.result.deltas) == 0


def test_the_advisor_bot_decides_the_same_when_the_hidden_cards_are_swapped():
    hook = registry.get_family("longcard").hidden_worlds
    rng = np.random.default_rng(3)
    swapped = 0
    for r, seat in _discard_points(20, seed=200):
        other = hook(r, seat, rng)
        if other is None or all(other.view(o)["hand"] == r.view(o)["hand"] for o in range(3) if o != seat):
            continue
        assert AdvisorBot().act_index(other, seat) == AdvisorBot().act_index(r, seat)
        swapped += 1
    assert swapped >= 3, swapped
