"""One consistent API (issue 11, item 4): one default ruleset, ``ruleset`` passed the same way,
one seed convention, bots as objects or names, one naming of fan fields, every error class in
``errors.py``, and one exception type per kind of bad argument (a bad seat: ``SeatError``)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import errors
from mahjong_core.errors import RulesetError, SeatError
from mahjong_core.families.mahjong.settings import flow_settings
from mahjong_core.families.registry import DEFAULT_RULESET, family_of, get_ruleset
from mahjong_core.game import play_match, play_round
from mahjong_core.families.mahjong.api import GreedyBot, RandomBot, redact_event
from mahjong_core.play import play_terminal

PIN_HAND_13 = "123456789p1122s"   # pins and sous: not played in the default ruleset (two-player)
PIN_HAND_14 = "123456789p11223s"

PY_ENTRY_POINTS = [mj.form_shanten, mj.form_is_win, mj.is_win_batch, mj.waits_batch, mj.shanten_batch,
                   mj.live_waits, mj.score, mj.score_batch, mj.simulate, flow_settings, play_terminal]


def test_the_default_ruleset_is_two_player():
    assert DEFAULT_RULESET == "two-player"
    for fn in PY_ENTRY_POINTS + [mj.Round.__init__, mj.Match.__init__]:
        assert inspect.signature(fn).parameters["ruleset"].default == DEFAULT_RULESET, fn.__qualname__


@pytest.mark.parametrize("call", [
    lambda: mj.is_win(PIN_HAND_14), lambda: mj.waits(PIN_HAND_13), lambda: mj.shanten(PIN_HAND_13),
    lambda: mj.Hand(PIN_HAND_13), lambda: mj.form_shanten(PIN_HAND_13, "standard"),
    lambda: mj.form_is_win(PIN_HAND_14, "standard"), lambda: mj.live_waits(PIN_HAND_13, ""),
    lambda: mj.score(PIN_HAND_13, "2s"),
], ids=["is_win", "waits", "shanten", "Hand", "form_shanten", "form_is_win", "live_waits", "score"])
def test_the_compiled_entry_points_default_to_two_player_too(call):
    """Pins are not played in two-player: every entry point without ``ruleset=`` refuses them."""
    with pytest.raises(RulesetError):
        call()


def test_ruleset_is_keyword_only_in_the_hand_and_scoring_functions():
    for fn in [mj.form_shanten, mj.form_is_win, mj.is_win_batch, mj.waits_batch, mj.shanten_batch,
               mj.live_waits, mj.score, mj.score_batch]:
        assert inspect.signature(fn).parameters["ruleset"].kind is inspect.Parameter.KEYWORD_ONLY, fn.__name__


def test_ruleset_as_a_keyword_works_everywhere():
    assert mj.is_win("11123456789999m", ruleset="two-player")
    assert mj.Round(ruleset="public", seed=1).players == 4
    assert mj.Match(ruleset="public", seed=1, rounds=1).players == 4
    assert mj.simulate(ruleset="public", rounds=4, workers=1, seed=1).ruleset == "public"
    assert len(mj.fan_table(ruleset="public")) == 82
    assert flow_settings(ruleset="public").players == 4


def test_seed_none_is_fresh_entropy_and_an_int_is_reproducible():
    assert mj.Round(seed=5).to_dict() == mj.Round(seed=5).to_dict()
    assert mj.Round(seed=None).seed != mj.Round(seed=None).seed
    assert mj.Match(seed=None).seed != mj.Match(seed=None).seed
    a = mj.simulate(rounds=6, workers=1, seed=None)
    b = mj.simulate(rounds=6, workers=1, seed=None)
    assert isinstance(a.seed, int) and a.seed != b.seed
    again = mj.simulate(rounds=6, workers=1, seed=a.seed)
    assert again.to_dict() == a.to_dict()
    assert inspect.signature(mj.simulate).parameters["seed"].default is None
    assert inspect.signature(mj.Round.__init__).parameters["seed"].default is None
    assert inspect.signature(mj.Match.__init__).parameters["seed"].default is None


def test_bots_as_objects_or_names():
    by_obj = play_round(mj.Round(seed=3), [GreedyBot(), GreedyBot()])
    by_name = play_round(mj.Round(seed=3), ["greedy", "greedy"])
    assert by_obj.to_dict() == by_name.to_dict()
    # a named random bot is seeded from the round: the same round plays the same game
    assert (play_round(mj.Round(seed=4), ["random", "greedy"]).to_dict()
            == play_round(mj.Round(seed=4), ["random", "greedy"]).to_dict())
    m = mj.Match(seed=2, rounds=2)
    assert len(play_match(m, ["greedy", GreedyBot()])) == 2
    # simulate: a built-in bot object counts as its name (seeded from the run, any worker count)
    named = mj.simulate(rounds=8, workers=1, seed=9, bots=("greedy", "random"))
    objects = mj.simulate(rounds=8, workers=1, seed=9, bots=(GreedyBot(), RandomBot(123)))
    assert named.to_dict() == objects.to_dict()
    with pytest.raises(mj.MahjongError, match="unknown bot"):
        play_round(mj.Round(seed=1), ["greedy", "wizard"])
    with pytest.raises(mj.MahjongError, match="neither a bot"):
        play_round(mj.Round(seed=1), ["greedy", 3])
    assert set(family_of("two-player").bots) == {"greedy", "random", "advisor", "search", "ismcts"}


class _FirstLegal:
    """A bot of the user's own: always the first legal action."""

    def act_index(self, rnd, seat):
        return rnd.legal_indices(seat)[0]

    def act(self, rnd, seat):
        return rnd.decode_action(seat, self.act_index(rnd, seat))


def test_a_user_bot_satisfies_the_protocol_and_plays_everywhere():
    assert isinstance(_FirstLegal(), mj.game.bots.Bot)
    assert play_round(mj.Round(seed=1), [_FirstLegal(), "greedy"]).dealer == 0
    res = mj.simulate(rounds=4, workers=1, seed=1, bots=(_FirstLegal(), "greedy"))
    assert res.rounds == 4 and res.bots == ("_FirstLegal", "greedy")


def test_fan_fields_are_named_as_in_the_fan_table():
    s = mj.score("PPP999m5m", "5m", self_drawn=True, melds=["pon CCC", "pon FFF"])
    row = {f.id: f for f in mj.fan_table("two-player")}
    for f in s.fans:
        assert (f.zh, f.en, f.points) == (row[f.id].zh, row[f.id].en, row[f.id].points)
        assert (f.name, f.name_en) == (f.zh, f.en)   # the old names stay as aliases
    assert s.counts.shape == (len(row),) and not s.counts.flags.writeable


def test_every_error_class_lives_in_errors_py():
    """Every input error (a MahjongError) is defined in errors.py; the command line's own
    exit-status exceptions (cli.CliError) are its control flow, not errors of the API."""
    found = []
    for info in pkgutil.walk_packages(mj.__path__, "mahjong_core."):
        if info.name.endswith(("dask_support", "plots")):
            continue   # optional dependencies; they define no classes of their own
        mod = importlib.import_module(info.name)
        for obj in vars(mod).values():
            if (inspect.isclass(obj) and issubclass(obj, errors.MahjongError) and obj.__module__ == info.name
                    and info.name != "mahjong_core.errors"):
                found.append(f"{info.name}.{obj.__name__}")
    assert found == [], f"error classes outside mahjong_core.errors: {found}"
    for name in errors.__all__:
        assert getattr(mj, name) is getattr(errors, name)


def _bad_seat_calls():
    r = mj.Round(seed=1)
    m = mj.Match(seed=1, rounds=1)
    ev = r.log[1]
    return [
        ("view", lambda: r.view(5)), ("log_for", lambda: r.log_for(-1)), ("hand", lambda: r.hand(2)),
        ("seat_wind", lambda: r.seat_wind(True)), ("legal_indices", lambda: r.legal_indices("0")),
        ("action_index", lambda: r.action_index(9, 0)), ("step", lambda: r.step(7, 0)),
        ("step np", lambda: r.step(np.int64(3), 0)), ("match step", lambda: m.step(2, 0)),
        ("redact_event", lambda: redact_event(ev, 9)), ("greedy", lambda: GreedyBot().act_index(r, 4)),
        ("random", lambda: RandomBot(1).act(r, -1)), ("dealer", lambda: mj.Round(seed=1, dealer=2)),
        ("first_dealer", lambda: mj.Match(seed=1, first_dealer=4)),
    ]


@pytest.mark.parametrize("i", range(len(_bad_seat_calls())), ids=[n for n, _ in _bad_seat_calls()])
def test_a_bad_seat_is_always_a_seat_error(i):
    _, call = _bad_seat_calls()[i]
    with pytest.raises(SeatError, match="seat"):
        call()


def test_registry_knows_the_rulesets_and_refuses_unknown_ones():
    assert get_ruleset("public").players == 4 and get_ruleset("public").family == "mahjong"
    assert get_ruleset(get_ruleset("public")) is get_ruleset("public")
    assert get_ruleset("changpai-ydr").family == "longcard"    # the second family (issue 12)
    with pytest.raises(RulesetError, match="unknown ruleset"):
        get_ruleset("no-such-game")


# ---------------------------------------------------------------- issue 25, item 16: what a family does not offer
_A = np.zeros((1, 34), np.uint8)
_LC = "changpai-ydr"
MAHJONG_ONLY = {
    "mj.get_ruleset": lambda r: mj.get_ruleset(r), "mj.fan_table": lambda r: mj.fan_table(r),
    # (mj.Hand, mj.advise and the batch calls reach the long-card family since issue 28: tests/longcard
    # test_lc_hand_layer.py and tests/advisor/test_lc_advise.py; their unknown-ruleset refusal is below)
    "mj.Scorer": lambda r: mj.Scorer(r),
    "mj.waits_mask": lambda r: mj.waits_mask("123m", ruleset=r),
    "mj.live_waits": lambda r: mj.live_waits("123m", "", ruleset=r),
    "mj.form_shanten": lambda r: mj.form_shanten("123m", "standard", ruleset=r),
    "mj.form_is_win": lambda r: mj.form_is_win("123m", "standard", ruleset=r),
    "mj.fan_shanten": lambda r: mj.fan_shanten("123m", ruleset=r),
    "flow_settings": lambda r: flow_settings(r),
    "mj.GreedyBot": lambda r: GreedyBot().act(mj.Round(r, seed=1), 0),
    "mj.RandomBot": lambda r: RandomBot(1).act_index(mj.Round(r, seed=1), 0),
}


@pytest.mark.parametrize("capability", sorted(MAHJONG_ONLY))
def test_a_ruleset_of_another_family_names_the_family_and_what_it_lacks(capability):
    """``mj.Hand(..., ruleset="changpai-ydr")`` and ``mj.advise(...)`` said "unknown ruleset": the
    ruleset exists; the message names the family and the missing capability (UnsupportedError, a
    RulesetError), and "unknown ruleset" stays for names nobody registered."""
    call = MAHJONG_ONLY[capability]
    with pytest.raises(errors.UnsupportedError) as info:
        call(_LC)
    msg = str(info.value)
    assert msg.startswith(f"{capability}: 'changpai-ydr' is not a mahjong ruleset but one of the longcard family, "
                          f"which does not offer {capability} (mahjong rulesets: two-player, two-player-bamboo, "
                          "public, mcr)"), msg
    assert "unknown" not in msg and isinstance(info.value, RulesetError)
    with pytest.raises(RulesetError, match=r"^unknown ruleset 'no-such-game'; expected one of two-player, "
                                           r"two-player-bamboo, public, mcr$") as info:
        call("no-such-game")
    assert not isinstance(info.value, errors.UnsupportedError)


def test_unsupported_error_is_exported_and_documented():
    assert mj.UnsupportedError is errors.UnsupportedError and "UnsupportedError" in mj.__all__
    assert issubclass(errors.UnsupportedError, RulesetError)
    errors_page = (Path(__file__).resolve().parents[2] / "docs/reference/errors.md").read_text(encoding="utf-8")
    assert "| `UnsupportedError` (a `RulesetError`) |" in errors_page


@pytest.mark.parametrize("tile", [34, 40, 41, 42, 99, -1, 2**70, np.int64(40)])
def test_hand_add_of_an_index_outside_0_33_is_a_tile_parse_error(tile):
    """The error table (docs/reference/errors.md): not one tile where one is asked (a flower given as a tile) is a
    TileParseError; Hand.add(40) raised RulesetError, unlike mj.score's winning tile and
    tiles.tile_kind.  A tile the ruleset does not play stays a RulesetError."""
    from mahjong_core.errors import TileParseError

    h = mj.Hand("1112345678999m")
    for op in (h.add, h.remove):
        with pytest.raises(TileParseError, match=r"is not a tile of a hand \(0-33\)$"):
            op(tile)
    with pytest.raises(TileParseError, match=r"is not a tile of a hand \(0-33\)$"):
        mj.score("123m456m789m11mE", tile)
    with pytest.raises(RulesetError, match="not played"):
        h.add("1p")
    assert mj.Hand("1112345678999m") == h   # unchanged by every refusal


@pytest.mark.parametrize("call", [lambda s: mj.Round(seed=s), lambda s: mj.Match("public", s),
                                  lambda s: mj.simulate(rounds=1, seed=s), lambda s: mj.RandomBot(s)])
def test_a_seed_out_of_range_says_below_2_256_not_78_digits(call):
    """``Round(seed="one")`` printed the bound as a 78-digit number (issue 25, item 16); RandomBot took
    NumPy's rule (a TypeError for "one", True and 2**256 accepted)."""
    for seed in ("one", -1, 2 ** 256, 1.5, True):
        with pytest.raises(errors.MahjongError) as info:
            call(seed)
        msg = str(info.value)
        assert "seed must be an integer >= 0 and below 2**256, got " in msg, msg
        assert not any(len(run) > 20 for run in msg.replace(",", "").split() if run.isdigit()), msg
