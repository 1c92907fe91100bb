"""Issue 27, item 3: every public entry point answers every registered ruleset: it works, or it
raises the one documented error, :class:`~mahjong_core.errors.UnsupportedError`, naming the
ruleset's family and what it does not offer.  "unknown ruleset" is only for a name nobody
registered.  (``play`` offers the rulesets its ``--ruleset`` choices list; see test_cli_errors.)

A ruleset registered without a sample below fails here: add its sample hands."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import cli
from mahjong_core.errors import RulesetError, UnsupportedError
from mahjong_core.families import registry

# per ruleset: a complete hand, a ready hand, (hand, winning tile, melds) to score, CLI arguments
_MAHJONG = {
    "two-player": ("11123456789999m", "1112345678999m", ("1112345678999m", "9m", ())),
    "two-player-bamboo": ("11123456789999s", "1112345678999s", ("1112345678999s", "9s", ())),
    "public": ("11123456789999m", "1112345678999m", ("1112345678999m", "9m", ())),
    "mcr": ("11123456789999m", "1112345678999m", ("1112345678999m", "9m", ())),
}
_LC20 = "46 46 13 16 34 25 14 14 55 55 55 66 66 66 44 44 44 11 11 11"
SAMPLES = {
    **_MAHJONG,
    "changpai-ydr": (_LC20 + " 36", _LC20, ("46 46 13 16 34 25 14 14 55 55 55", "36",
                                             ("peng 11×3", "sha 44×4", "sha 66×4"))),
}


def _counts(ruleset: str, text: str) -> np.ndarray:
    if registry.get_ruleset(ruleset).family == "mahjong":
        return mj.to_counts(text)
    from mahjong_core.families.longcard import to_counts
    return to_counts(text)


def _win_index(ruleset: str, tile: str) -> int:
    if registry.get_ruleset(ruleset).family == "mahjong":
        return int(mj.parse_tiles(tile)[0])
    from mahjong_core.families.longcard import parse_card
    return int(parse_card(tile))


def _play_out(ruleset: str, bot: object) -> object:
    rnd = mj.Round(ruleset=ruleset, seed=3)
    return mj.play_round(rnd, [bot] * registry.get_ruleset(ruleset).players)


def _cli(argv: list[str]) -> object:
    """Run a command with --json where it takes one; a refusal comes back as the JSON error."""
    out = io.StringIO()
    old_out, old_in = sys.stdout, sys.stdin
    sys.stdout, sys.stdin = out, io.StringIO("q\n")
    try:
        status = cli.main(argv)
    finally:
        sys.stdout, sys.stdin = old_out, old_in
    text = out.getvalue()
    if status:
        error = json.loads(text.splitlines()[-1])["error"] if text.strip().startswith("{") else {}
        if error.get("type") == "UnsupportedError":
            raise UnsupportedError(error["message"])
        raise AssertionError(f"{argv}: exit {status}: {text[-500:]}")
    return text


def _cli_status(argv: list[str]) -> tuple[int, str]:
    """The exit status and standard error of a command that reports on standard error."""
    err = io.StringIO()
    old_err, old_in = sys.stderr, sys.stdin
    sys.stderr, sys.stdin = err, io.StringIO("q\n")
    try:
        status = cli.main(argv)
    finally:
        sys.stderr, sys.stdin = old_err, old_in
    return status, err.getvalue()


ENTRY_POINTS = {
    "get_ruleset": lambda r, s: mj.get_ruleset(r),
    "fan_table": lambda r, s: mj.fan_table(r),
    "score": lambda r, s: mj.score(s[2][0], s[2][1], ruleset=r, melds=s[2][2]),
    "Scorer": lambda r, s: mj.Scorer(r),
    "Hand": lambda r, s: mj.Hand(s[1], ruleset=r),
    "is_win": lambda r, s: mj.is_win(s[0], ruleset=r),
    "waits": lambda r, s: mj.waits(s[1], ruleset=r),
    "shanten": lambda r, s: mj.shanten(s[1], ruleset=r),
    "is_win_batch": lambda r, s: mj.is_win_batch(_counts(r, s[0])[None], ruleset=r),
    "waits_batch": lambda r, s: mj.waits_batch(_counts(r, s[1])[None], ruleset=r),
    "shanten_batch": lambda r, s: mj.shanten_batch(_counts(r, s[1])[None], ruleset=r),
    # the ready hand and the winning tile of the sample (batch calls take no declared groups)
    "score_batch": lambda r, s: mj.score_batch(_counts(r, s[1])[None], [_win_index(r, s[2][1])], ruleset=r),
    "fan_shanten": lambda r, s: mj.fan_shanten(s[1], ruleset=r),
    "advise": lambda r, s: mj.advise(s[0], ruleset=r),
    "GreedyBot": lambda r, s: _play_out(r, mj.GreedyBot()),
    "RandomBot": lambda r, s: _play_out(r, mj.RandomBot(1)),
    "bot names": lambda r, s: _play_out(r, "greedy"),
    "Round": lambda r, s: mj.Round(ruleset=r, seed=1),
    "Match": lambda r, s: mj.Match(r, 1, rounds=1),
    "simulate": lambda r, s: mj.simulate(r, 2, seed=1),
    "cli hand": lambda r, s: _cli(["hand", s[1], "--ruleset", r, "--json"]),
    "cli score": lambda r, s: _cli(["score", s[2][0], "--win", s[2][1], "--ruleset", r, "--json",
                                    *(["--melds", *s[2][2]] if s[2][2] else [])]),
    "cli simulate": lambda r, s: _cli(["simulate", "--ruleset", r, "-n", "2", "--workers", "1", "--json"]),
    "cli match": lambda r, s: _cli(["match", "--ruleset", r, "--rounds", "1", "--bots", "greedy", "--json"]),
    "cli advise": lambda r, s: _cli(["advise", s[0], "--ruleset", r, "--json"]),
    "cli play": lambda r, s: _cli(["play", "--ruleset", r, "--seed", "1"]),
}


def _played_at_the_terminal() -> tuple[str, ...]:
    """The rulesets some family plays at the terminal (``CliHooks.play_rulesets``)."""
    return tuple(n for f in registry.families() if f.cli is not None for n in f.cli.play_rulesets())


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("ruleset", registry.ruleset_names())
def test_every_entry_point_works_or_names_the_family(ruleset, entry):
    assert ruleset in SAMPLES, f"{ruleset}: add its sample hands to SAMPLES"
    family = registry.get_ruleset(ruleset).family
    if entry == "cli play" and ruleset not in _played_at_the_terminal():
        # a ruleset its family does not play at the terminal: refused by the family, by name
        status, err = _cli_status(["play", "--ruleset", ruleset, "--seed", "1"])
        assert status == 2 and f"play: the {family} family does not offer play for {ruleset!r}" in err, err
        return
    try:
        result = ENTRY_POINTS[entry](ruleset, SAMPLES[ruleset])
    except UnsupportedError as exc:
        message = str(exc)
        assert f"{family} family" in message, message          # names the family ...
        assert "does not offer" in message, message            # ... and what it does not offer
        assert "unknown" not in message, message               # the ruleset is registered
        assert family != "mahjong", f"the mahjong family offers {entry}: {message}"
    else:
        assert result is not None


def test_the_mahjong_family_offers_every_entry_point_and_long_card_most():
    """What the long-card family offers through the shared entry points (the rest: UnsupportedError)."""
    offered = []
    for entry, call in ENTRY_POINTS.items():
        try:
            call("changpai-ydr", SAMPLES["changpai-ydr"])
        except UnsupportedError:
            continue
        offered.append(entry)
    assert set(offered) >= {"score", "is_win", "waits", "bot names", "Round", "Match", "simulate", "cli hand",
                            "cli score", "cli simulate", "cli match", "cli play",
                            # issue 28, item 3 and 4: the advisor and the hand-level entry points
                            "advise", "cli advise", "shanten", "Hand", "is_win_batch", "waits_batch",
                            "shanten_batch", "score_batch"}, offered
    assert set(ENTRY_POINTS) - set(offered) == {"Scorer", "fan_shanten", "get_ruleset", "fan_table", "GreedyBot",
                                                 "RandomBot"}, offered


@pytest.mark.parametrize("entry", sorted(e for e in ENTRY_POINTS if not e.startswith("cli")))
def test_an_unregistered_name_is_an_unknown_ruleset(entry):
    with pytest.raises(RulesetError, match="unknown ruleset") as info:
        ENTRY_POINTS[entry]("no-such-game", SAMPLES["two-player"])
    assert not isinstance(info.value, UnsupportedError)


def test_a_family_without_simulation_or_command_line_hooks_is_refused_by_name():
    """The toy family of tests/support registers no ``simulation`` and no ``cli``: ``simulate`` and
    every command refuse its ruleset with the UnsupportedError naming it (nothing falls back to
    mahjong's)."""
    from tests.support.toy import RULESET, registered

    with registered() as family:
        with pytest.raises(UnsupportedError, match=f"^simulate: the {family.name} family .* does not offer simulate"):
            mj.simulate(RULESET.name, 2, seed=1)
        for argv in (["hand", "x"], ["score", "x", "--win", "x"], ["match", "--rounds", "1"], ["simulate", "-n", "1"]):
            with pytest.raises(UnsupportedError, match=f"the {family.name} family"):
                _cli([*argv, "--ruleset", RULESET.name, "--json"])
