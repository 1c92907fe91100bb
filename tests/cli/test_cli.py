"""Command line: hand, match and play (score and simulate have their own test files)."""

from __future__ import annotations

import io
import json

import pytest

from mahjong_core import cli
from mahjong_core.play import play_terminal


def test_hand_command(capsys):
    assert cli.main(["hand", "1112345678999m"]) == 0
    out = capsys.readouterr().out
    assert "shanten  0" in out and "九万" in out
    assert cli.main(["hand", "19m19p19sESWNCFP", "--ruleset", "public", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shanten"] == 0 and len(data["waits"]) == 13


def test_hand_command_user_error(capsys):
    assert cli.main(["hand", "1112345678999p"]) == 2
    err = capsys.readouterr().err
    assert "1p" in err and "Traceback" not in err


def test_match_command_prints_rounds_and_a_balanced_ledger(capsys):
    assert cli.main(["match", "--ruleset", "two-player", "--room", "beginner", "--rounds", "4",
                     "--bots", "greedy,random", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("round ") >= 4 and "ledger:" in out
    lines = {l.split()[0]: l.split()[-1] for l in out.splitlines()[-4:]}
    balances = [int(lines[k].replace(",", "")) for k in lines if k != "total"]
    assert sum(balances) == int(lines["total"].replace(",", "")) == 20_000


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["match", "--ruleset", "public", "--room", "beginner"], "two-player room"),
        (["match", "--bots", "greedy,alien"], "--bots"),
        (["match", "--rounds", "0"], "--rounds"),
        (["match", "--balance", "10"], "at least 1,000"),
        (["match", "--room", "vip"], "unknown room"),
    ],
)
def test_match_command_user_errors(argv, fragment, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_play_a_scripted_round_to_the_end():
    out = io.StringIO()
    # always take the first legal action; a wrong entry is asked again
    script = io.StringIO("x\n99\n" + "1\n" * 400)
    assert play_terminal("two-player", seed=3, stdin=script, stdout=out) == 0
    text = out.getvalue()
    assert "type a number from 1" in text
    assert "won" in text or "exhaustive draw" in text
    assert "1. " in text


def test_play_quit_and_end_of_input():
    out = io.StringIO()
    assert play_terminal("two-player-bamboo", seed=1, stdin=io.StringIO("q\n"), stdout=out, glyphs=True) == 0
    assert out.getvalue().rstrip().endswith("bye")
    out = io.StringIO()
    assert play_terminal("two-player", seed=1, stdin=io.StringIO(""), stdout=out) == 0


def test_score_flags_are_the_generated_flags_with_the_library_defaults(capsys):
    """The score command's situational flags are built from the generated FLAGS (none missing,
    ``--ready-concealed`` included) and, unset, leave ``score`` its own defaults."""
    import inspect

    from mahjong_core.families.mahjong import cli as mahjong_cli   # the family's side of the command
    from mahjong_core.families.mahjong._constants import FLAGS
    from mahjong_core.families.mahjong.scoring import score

    assert [dest for _, dest, _ in mahjong_cli.SCORE_FLAGS] == list(FLAGS)
    defaults = inspect.signature(score).parameters
    args = ["score", "123s456s789s234sE", "--win", "E", "--ruleset", "two-player-bamboo", "--ready", "--json"]

    def fans(*extra):
        assert cli.main(args + list(extra)) == 0
        return [f["id"] for f in json.loads(capsys.readouterr().out)["fans"]]

    assert "riichi" in fans() and "riichi" in fans("--ready-concealed")   # concealed by default: 立直
    assert "riichi" not in fans("--no-ready-concealed")
    assert mahjong_cli.FLAG_UNSET == {k: v.default for k, v in defaults.items() if k in FLAGS and v.default is not False}


def test_score_flags_of_mahjong_are_refused_for_the_long_card_game(capsys):
    for flag in ("--ready-concealed", "--no-ready-concealed", "--self-drawn"):
        assert cli.main(["score", "11 22", "--ruleset", "changpai-ydr", flag]) == 2
        assert f"{flag}: not an option of --ruleset changpai-ydr" in capsys.readouterr().err
