"""The mahjong family's bots by name (issue 30 item 1): ``greedy``, ``random``, ``advisor``,
``search`` and ``ismcts`` are its registered factories, so make_bots, play_round, simulate, the command line and
the Botzone wrapper all accept them, and the wrapper builds them with the same factories."""

from __future__ import annotations

import pytest

import mahjong_core as mj
from mahjong_core import cli
from mahjong_core.errors import MahjongError
from mahjong_core.families.mahjong.advise_bot import AdvisorBot
from mahjong_core.families.mahjong.bots import BUILTIN_BOTS
from mahjong_core.families.mahjong.botzone.wrapper import make_bot
from mahjong_core.families.mahjong.ismcts_bot import IsmctsBot
from mahjong_core.families.mahjong.search_bot import SearchBot
from mahjong_core.families.registry import family_of
from mahjong_core.game.bots import make_bots, play_round


def test_the_family_registers_five_bots_by_name():
    assert list(family_of("public").bots) == ["greedy", "random", "advisor", "search", "ismcts"]
    assert family_of("two-player").bots is BUILTIN_BOTS
    assert isinstance(BUILTIN_BOTS["advisor"](7), AdvisorBot)
    assert isinstance(BUILTIN_BOTS["search"](7), SearchBot)
    assert isinstance(BUILTIN_BOTS["ismcts"](7), IsmctsBot)


def test_make_bots_and_play_round_accept_advisor_and_search():
    bots = make_bots(["advisor", "search"], 3, ruleset="two-player-bamboo")
    assert [type(b) for b in bots] == [AdvisorBot, SearchBot]
    rnd = mj.Round(ruleset="two-player-bamboo", seed=3)
    play_round(rnd, [AdvisorBot(), SearchBot(3, playouts=16)])
    assert rnd.is_over and rnd.result is not None


def test_simulate_accepts_the_advisor_by_name():
    run = mj.simulate("two-player", 2, bots=("advisor", "greedy"), seed=4, workers=1)
    again = mj.simulate("two-player", 2, bots=("advisor", "greedy"), seed=4, workers=1)
    assert run.rounds == 2 and run.bots == ("advisor", "greedy")
    assert run.to_json() == again.to_json()


def test_the_command_line_accepts_the_new_names(capsys):
    assert cli.main(["match", "--ruleset", "two-player", "--rounds", "1", "--bots", "advisor,greedy", "--seed", "2"]) == 0
    capsys.readouterr()
    assert cli.main(["match", "--ruleset", "two-player", "--rounds", "1", "--bots", "wizard,greedy"]) != 0
    assert "advisor, greedy, ismcts, random, search" in capsys.readouterr().err


def test_the_botzone_wrapper_uses_the_registered_factories():
    assert type(make_bot("advisor")) is AdvisorBot
    assert type(make_bot("search", 5)) is SearchBot
    assert type(make_bot("ismcts", 5)) is IsmctsBot
    with pytest.raises(MahjongError, match="greedy, random, advisor, search, ismcts"):
        make_bot("wizard")


def test_the_advisor_refuses_a_bad_search_limit_when_made():
    with pytest.raises(MahjongError, match="max_draws"):
        AdvisorBot(max_draws=0)
