"""changpai-ydr in the family registry: the shared entry points reach the long-card family."""

from __future__ import annotations

import pytest
from mahjong_core.errors import MahjongError, RulesetError
from mahjong_core.families import longcard as lc
from mahjong_core.families import registry

import mahjong_core as mj

HAND20 = "46 46 13 16 34 25 14 14 55 55 55 66 66 66 44 44 44 11 11 11"
X1 = ("46 46 13 16 34 25 14 14 55 55 55", "36")
X1_DECL = ["peng 11×3", "sha 44×4", "sha 66×4"]


def test_registered():
    assert "changpai-ydr" in registry.ruleset_names()
    assert registry.ruleset_names("longcard") == ("changpai-ydr",)
    rec = registry.get_ruleset("changpai-ydr")
    assert (rec.family, rec.players, rec.min_fan) == ("longcard", 3, 0) and rec is lc.CHANGPAI_YDR
    assert registry.family_of("changpai-ydr").name == "longcard"


def test_mj_entry_points_dispatch():
    assert mj.is_win(HAND20 + " 36", ruleset="changpai-ydr") is lc.is_win(HAND20 + " 36")
    assert mj.waits(HAND20, ruleset="changpai-ydr") == lc.waits(HAND20) == [3, 14, 16]
    assert mj.waits(HAND20, ruleset=lc.CHANGPAI_YDR) == [3, 14, 16]
    s = mj.score(*X1, ruleset="changpai-ydr", melds=X1_DECL, jiang="36 25")
    assert isinstance(s, lc.Score) and (s.total, s.tuo) == (4, 43)
    s = mj.score(*X1, ruleset="changpai-ydr", melds=X1_DECL, jiang="36 25", banker=True)
    assert s.total == 3


def test_mahjong_unchanged_and_refusals():
    assert mj.is_win("11123456789999m") and mj.waits("1112345678999m") == list(range(9))
    with pytest.raises(TypeError):
        mj.score("123m456m789m11mE", "E", banker=True)
    with pytest.raises(MahjongError, match="self_drawn"):
        mj.score(*X1, ruleset="changpai-ydr", melds=X1_DECL, self_drawn=True)
    # since issue 28 the family offers shanten (the cards-to-a-win distance minus one) and mj.Hand
    assert mj.shanten(HAND20, ruleset="changpai-ydr") == 0 and mj.shanten(HAND20 + " 36", ruleset="changpai-ydr") == -1
    assert mj.Hand(HAND20, ruleset="changpai-ydr").waits() == [3, 14, 16]
    with pytest.raises(RulesetError, match="not a mahjong ruleset"):
        mj.waits_mask(HAND20, ruleset="changpai-ydr")
    with pytest.raises(mj.UnsupportedError, match="longcard family"):
        mj.Scorer("changpai-ydr")
    with pytest.raises(RulesetError, match="unknown ruleset"):
        mj.is_win("11123456789999m", ruleset="no-such-game")
    with pytest.raises(RulesetError, match="no minimum fan"):
        registry.family_of("changpai-ydr").new_match(ruleset="changpai-ydr", seed=1, rounds=1, min_fan=8)


def test_new_round_is_the_reference_engine():
    from mahjong_core.families.longcard._ref.round import Round
    fam = registry.family_of("changpai-ydr")
    r = fam.new_round(ruleset="changpai-ydr", seed=1, fan_cap=4)
    assert isinstance(r, Round) and r.settings.fan_cap == 4 and r.to_json() == Round(1, options={"fan_cap": 4}).to_json()
    assert fam.new_round(ruleset="changpai-ydr", seed=1, banker=2).banker == 2
    with pytest.raises(RulesetError, match="unknown changpai-ydr option"):
        fam.new_round(ruleset="changpai-ydr", seed=1, nope=1)
    with pytest.raises(RulesetError):
        fam.new_round(ruleset="mcr", seed=1)
    assert set(fam.bots) == {"random", "greedy", "advisor", "search"}      # issue 30 added advisor and search
    assert fam.bots["random"](3).act(r, r.seats_to_act()[0]).kind in ("qi", "pass", "fold")
