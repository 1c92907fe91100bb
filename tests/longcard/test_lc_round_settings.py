"""The round settings record (spec changpai.md sections 6-7): defaults, validation naming the option."""

from __future__ import annotations

import pytest
from mahjong_core.errors import MahjongError, RulesetError
from mahjong_core.families.longcard.options import OPTIONS
from mahjong_core.families.longcard.round_settings import RoundSettings


def test_defaults_are_the_spec_table():
    s = RoundSettings()
    for key, opt in OPTIONS.items():
        assert getattr(s, key) == opt.default, key
    assert (s.settlement_mode, s.bi_peng, s.liang_mao_bi_jin, s.wei_zhang_bi_jin, s.bi_jin_bi_da) == (
        "tikan", False, True, True, True)
    assert RoundSettings.from_options(s.to_options()) == s


@pytest.mark.parametrize("key,value", [("fan_cap", -1), ("bi_peng", 1), ("settlement_mode", "x"),
                                       ("caishen_count", 3), ("base", 0), ("banker_after_win", None)])
def test_bad_value_names_the_option(key, value):
    with pytest.raises(RulesetError, match=key):
        RoundSettings.from_options({key: value})


def test_unknown_and_unsupported():
    with pytest.raises(MahjongError, match="nope"):
        RoundSettings.from_options(nope=1)
    with pytest.raises(RulesetError, match="multiple_winners"):
        RoundSettings(multiple_winners=True)
    with pytest.raises(RulesetError, match="empty_replacement_ends"):
        RoundSettings(empty_replacement_ends=False)


def test_frozen():
    s = RoundSettings(fan_cap=4)
    with pytest.raises(AttributeError):
        s.fan_cap = 3
    assert s.score_options()["fan_cap"] == 4


def test_first_actor_fits_extra_card():
    assert RoundSettings(banker_extra_card=False, first_actor="banker_turns").first_actor == "banker_turns"
    with pytest.raises(RulesetError, match="first_actor"):
        RoundSettings(banker_extra_card=False)
    with pytest.raises(RulesetError, match="first_actor"):
        RoundSettings(first_actor="banker_turns")


def test_fields_are_the_options_table():
    # RoundSettings is written out field by field for type checkers: hold it to the table
    from dataclasses import MISSING, fields
    got = [(f.name, f.default) for f in fields(RoundSettings)]
    assert got == [(key, opt.default) for key, opt in OPTIONS.items()]
    assert all(f.default_factory is MISSING for f in fields(RoundSettings))
