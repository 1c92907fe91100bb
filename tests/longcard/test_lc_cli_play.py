"""``mahjong-core match`` and ``mahjong-core play`` with ``--ruleset changpai-ydr`` (long-card hands)."""

from __future__ import annotations

import io
import json

import pytest
from mahjong_core.errors import MahjongError
from mahjong_core.families.longcard.cards import face_name
from mahjong_core.families.longcard.cli import describe_result, match_report
from mahjong_core.families.longcard.family import new_match
from mahjong_core.families.longcard.play import play_terminal
from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot
from mahjong_core.families.longcard.round_match import LongcardRound
from mahjong_core.game.bots import play_steps

from mahjong_core import cli

RS = "changpai-ydr"


def test_match_json_replays_the_same_match_and_balances_the_ledger(capsys):
    assert cli.main(["match", "--ruleset", RS, "--rounds", "5", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == ["seat0-greedy", "seat1-random", "seat2-random"]   # the default line-up
    hands = data["rounds"]          # a void hand is listed but dealt again: 5 hands count (spec 3.3 step 4)
    assert [r["round"] for r in hands] == list(range(1, len(hands) + 1))
    assert sum(r["end"] != "void" for r in hands) == 5 < len(hands)
    assert data["total"] == sum(data["balances"].values()) == 3 * data["opening_balance"] == 30_000
    # the same match, hand by hand, through the library
    m = new_match(ruleset=RS, seed=3, rounds=5)
    bots = [RuleBot(), RandomBot(4), RandomBot(5)]
    for rec in data["rounds"]:
        play_steps(m.round, bots)
        res = m.round.result.to_dict()
        assert (rec["end"], rec["dealer"], rec["deltas"], rec["next_dealer"]) == (
            res["end"], res["dealer"], res["deltas"], res["next_banker"])
        assert rec.get("fan") == res.get("fan") and rec["text"] == describe_result(res)
        assert [[int(t["payer"][4]), int(t["payee"][4]), t["amount"]] for t in rec["transfers"]] == res["payments"]
        m.next_round()
    net = {name: v - data["opening_balance"] for name, v in data["balances"].items() if name != "system"}
    assert list(net.values()) == [sum(r["deltas"][k] for r in data["rounds"]) for k in range(3)]


def test_match_text_tells_each_hand_and_the_ledger(capsys, tmp_path):
    out = tmp_path / "m.json"
    assert cli.main(["match", "--ruleset", RS, "--rounds", "3", "--seed", "1", "--bots", "greedy",
                     "--balance", "500", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    record = match_report(1, 3, ("greedy",) * 3, 500)
    assert json.loads(out.read_text(encoding="utf-8")) == record
    assert text.startswith(f"{RS} match in room 'changpai', 3 hands, settlement 梯坎番 N+1 x 1, opening balance 500 each")
    for rec in record["rounds"]:
        assert f"hand {rec['round']} (banker seat {rec['dealer']}): {rec['text']}" in text
    assert f"{'total':<16} {1500:>10,}" in text and f"wrote {out}" in text


@pytest.mark.parametrize("argv, fragment", [
    (["--room", "beginner"], "room 'beginner' is a two-player room, not changpai-ydr"),
    (["--room", "nowhere"], "unknown room 'nowhere'"),
    (["--bots", "greedy,random"], "3 players"),
    (["--bots", "greedy,alien,random"], "unknown bot"),
    (["--rounds", "0"], "--rounds"),
    (["--balance", "-1"], "--balance"),
])
def test_match_user_errors_exit_2(argv, fragment, capsys):
    assert cli.main(["match", "--ruleset", RS, *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_describe_result_of_every_end():
    """Every end of spec 3.14 in its own words: a 黄庄 by folding is no exhausted stock (issue 25)."""
    assert describe_result({"end": "huangzhuang", "why": "stock_empty"}) == "黄庄: the stock ran out with no winner"
    assert describe_result({"end": "huangzhuang", "why": "all_folded"}) == "黄庄: every seat folded (扣牌)"
    assert describe_result({"end": "void", "why": "no_qi"}) == "void hand: nobody 起 (the cards are redealt)"
    assert describe_result({"end": "baozi", "offender": 1, "cause": "B3", "fan": 3}, you=1) == (
        "包子 by you: B3 未两卯必进, 3 fan paid to each other seat")
    win = {"end": "win", "winner": 2, "card": None, "fan": 3,
           "score": {"tuo": 40, "fans": [{"name": "碰天牌", "points": 2, "count": 1},
                                         {"name": "财神", "points": 1, "count": 1}]}}
    assert describe_result(win) == ("seat 2 won (胡) with own cards (自摸 on a replacement draw, or 天胡), 3 fan, "
                                    "40 陀: 碰天牌 2, 财神 1")
    assert describe_result(dict(win, card=0), you=2, names=[f"n{f}" for f in range(21)]).startswith(
        "you won (胡) on 11 n0, 3 fan")


def _play(script: str, seed: int = 4, you: int = 1, **kw) -> str:
    out = io.StringIO()
    assert play_terminal(seed, you=you, stdin=io.StringIO(script), stdout=out, **kw) == 0
    return out.getvalue()


def test_play_a_scripted_hand_to_the_end():
    """The first listed action every time (a wrong entry is asked again) plays the hand to its end;
    the bots' cards never show, only what the seat's view holds."""
    text = _play("x\n99\n" + "1\n" * 300)
    assert "type a number from 1" in text and "  1. " in text and "you are seat 1" in text
    assert text.rstrip().splitlines()[-1].startswith("points: ")
    rnd = LongcardRound(seed=4, dealer=_banker(4))
    bot = RuleBot(rnd.hand.settings)
    while not rnd.is_over:      # the same hand: the first legal action for seat 1, RuleBots for the others
        p = rnd.seats_to_act()[0]
        rnd.step(p, rnd.legal_indices(p)[0] if p == 1 else bot.act_index(rnd, p))
    assert describe_result(rnd.hand.result, you=1) in text
    for q in (0, 2):            # another seat's concealed cards appear in no "hand" line
        hidden = " ".join(f"{f}" for f in _hand_text(rnd, q))
        assert all(hidden not in line for line in text.splitlines() if line.strip().startswith("hand"))


def _banker(seed: int) -> int:
    import numpy as np
    return int(np.random.default_rng(seed).integers(3))


def _hand_text(rnd: LongcardRound, seat: int) -> list[str]:
    from mahjong_core.families.longcard.cards import face_name
    first = next(e for e in rnd.hand.events if e["type"] == "deal" and e["seat"] == seat)["hand"]
    return [face_name(f, "pips") for f in range(21) for _ in range(first[f])]


def test_play_marks_baozi_moves_and_names_the_pass_of_a_turn():
    text = _play("1\n" * 300)
    assert "<- 包子 B" in text and "turn 翻牌 (the next stock card)" in text


def test_play_quit_end_of_input_and_glyphs():
    assert _play("q\n", glyphs=True).rstrip().endswith("bye")
    assert _play("").rstrip().endswith("bye")
    text = _play("q\n", seed=7, you=0, glyphs=True)
    assert "(地牌 地牌 " in text and f"hand {face_name(0, 'glyph')}{face_name(0, 'glyph')}" in text


def test_play_prints_the_seed_that_replays_the_hand():
    out = io.StringIO()
    assert play_terminal(None, stdin=io.StringIO("q\n"), stdout=out) == 0
    seed = int(out.getvalue().split("seed ")[1].split(".")[0])
    assert _play("q\n", seed=seed, you=0) == out.getvalue()


@pytest.mark.parametrize("kwargs", [{"you": 3}, {"you": True}, {"glyphs": "no"}, {"seed": -1}])
def test_play_refuses_bad_arguments_before_showing_anything(kwargs):
    out = io.StringIO()
    with pytest.raises(MahjongError):
        play_terminal(**{"seed": 1, **kwargs}, stdin=io.StringIO("q\n"), stdout=out)
    assert out.getvalue() == ""


def test_cli_play_long_card_and_seat_range(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert cli.main(["play", "--ruleset", RS, "--seed", "2", "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "changpai-ydr hand (长牌 幺地人), seed 2" in out and "you are seat 2" in out and out.rstrip().endswith("bye")
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert cli.main(["play", "--ruleset", "two-player", "--seat", "2"]) == 2     # two seats only
    assert "--seat 2: two-player has two seats" in capsys.readouterr().err


def _fold_first(seed: int, you: int) -> tuple[str, LongcardRound]:
    """The script that folds at the first decision of seat ``you`` (FOLD, id 258, is listed last), and
    the same hand through the library."""
    rnd = LongcardRound(seed=seed, dealer=_banker(seed))
    bot = RuleBot()
    while rnd.seats_to_act()[0] != you:
        p = rnd.seats_to_act()[0]
        rnd.step(p, bot.act_index(rnd, p))
    n = len(rnd.legal_indices(you))
    assert rnd.legal_indices(you)[-1] == 258 and not rnd.penalised_mask(you)[258]
    rnd.step(you, 258)
    while not rnd.is_over:
        p = rnd.seats_to_act()[0]
        rnd.step(p, bot.act_index(rnd, p))
    return f"{n}\n", rnd


@pytest.mark.parametrize("seed", [1, 2])
def test_play_tells_a_hand_ended_by_every_seat_folding(seed):
    """Issue 25: every seat folded while cards remain is no 黄庄 by an empty stock."""
    script, rnd = _fold_first(seed, 1)
    res = rnd.hand.result
    assert res["end"] == "huangzhuang" and res["why"] == "all_folded" and rnd.hand.stock_left > 0
    text = _play(script, seed=seed)
    assert "黄庄: every seat folded (扣牌)" in text and "stock ran out" not in text


def test_play_shows_the_face_names_option():
    """face_names (CP-50): the display names the screen shows; no rule changes."""
    names = [f"牌{f}" for f in range(21)]
    plain, named = _play("q\n", seed=7, you=0), _play("q\n", seed=7, you=0, options={"face_names": names})
    assert "(地牌 地牌 " in plain and "牌0 牌0 " in named and "地牌" not in named.split("hand ", 1)[1]
    script, _ = _fold_first(1, 1)
    a, b = _play(script, seed=1), _play(script, seed=1, options={"face_names": names})
    assert a != b and a.splitlines()[-2:] == b.splitlines()[-2:]         # the same hand, the same end


def test_a_match_of_one_hand_says_1_hand(capsys):
    assert cli.main(["match", "--ruleset", RS, "--rounds", "1", "--seed", "1", "--bots", "greedy"]) == 0
    assert capsys.readouterr().out.startswith(f"{RS} match in room 'changpai', 1 hand, settlement")


def test_match_settles_in_the_room_it_is_given_through_the_shared_settlement():
    """The room decides how each hand is paid: a 番乘番 room with a unit of 3 plays its hands under
    that mode and base, and the ledger moves exactly each hand's own payments."""
    from mahjong_core.settlement import Room

    room = Room("doubling", RS, "fan_cheng_fan", value_per_fan=3)
    record = match_report(2, 4, ("greedy",) * 3, 5_000, room=room)
    assert (record["room"], record["settlement_mode"], record["base"]) == ("doubling", "fan_cheng_fan", 3)
    m = new_match(ruleset=RS, seed=2, rounds=4, options={"settlement_mode": "fan_cheng_fan", "base": 3})
    bots = [RuleBot(), RuleBot(), RuleBot()]
    for rec in record["rounds"]:
        play_steps(m.round, bots)
        res = m.round.result.to_dict()
        assert rec["deltas"] == res["deltas"]
        assert [[int(t["payer"][4]), int(t["payee"][4]), t["amount"]] for t in rec["transfers"]] == res["payments"]
        m.next_round()
    assert any(rec["transfers"] for rec in record["rounds"])
    assert record["total"] == 15_000
