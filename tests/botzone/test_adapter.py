"""External programs as seats of our round (BotzoneBot), with the test bots of tests/botzone/bots."""
from __future__ import annotations

import time

import pytest

import mahjong_core as mj
from mahjong_core.errors import MahjongError
from mahjong_core.families.mahjong.botzone import BotzoneBot, BotzoneForfeit, parse_response, play_game
from mahjong_core.families.mahjong.botzone.adapter import _claim_fault
from mahjong_core.families.mahjong.botzone.feed import Request

from .conftest import RULESET, script


def test_a_legal_passer_plays_a_whole_round_process_per_request(env: dict[str, str]) -> None:
    bot = BotzoneBot(script("passer.py"), time_limit=10, env=env)
    out = play_game(mj.Round(RULESET, seed=1, dealer=2), [bot, "greedy", "greedy", "greedy"])
    assert out.forfeit is None and out.result is not None and out.scores == out.result.deltas
    rec = out.records[0]
    assert {d.verdict for d in rec} == {"OK"}
    # seat 0 with dealer 2 is Botzone's player 2; the deal comes first
    assert rec[0].request == "0 2 0" and rec[1].request.startswith("1 ") and rec[2].request == "3 0 DRAW"
    draws = [d for d in rec if d.request.startswith("2 ")]
    assert draws and all(d.asked and d.response == "PLAY " + d.request[2:] for d in draws)
    assert all(d.response == "PASS" for d in rec if not d.request.startswith("2 ") and d.request)


def test_garbage_forfeits_as_the_judge_scores_it(env: dict[str, str]) -> None:
    bot = BotzoneBot(script("garbage.py"), json=True, keep_running=True, time_limit=10, env=env)
    r = mj.Round(RULESET, seed=2)
    with pytest.raises(BotzoneForfeit, match="WA on request 1"):
        mj.play_round(r, ["greedy", bot, "greedy", "greedy"])
    out = play_game(mj.Round(RULESET, seed=2), ["greedy", bot, "greedy", "greedy"])
    assert out.scores == [10, -30, 10, 10] and out.result is None
    assert out.forfeit is not None and out.forfeit.seat == 1 and out.forfeit.decision.response == "HELLO WORLD"
    assert not bot.process.alive


def test_garbage_with_on_fault_pass_finishes_the_round_on_fallbacks(env: dict[str, str]) -> None:
    bot = BotzoneBot(script("garbage.py"), json=True, keep_running=True, time_limit=10, on_fault="pass", env=env)
    out = play_game(mj.Round(RULESET, seed=2), ["greedy", bot, "greedy", "greedy"])
    assert out.result is not None and out.forfeit is None
    verdicts = [d.verdict for d in out.records[1]]
    assert verdicts[0] == "WA" and verdicts.count("WA") == 1 and set(verdicts[1:]) == {"FALLBACK"}


def test_a_bot_that_never_answers_is_a_tle_within_the_limit() -> None:
    bot = BotzoneBot(script("sleeper.py"), time_limit=0.5)
    start = time.monotonic()
    out = play_game(mj.Round(RULESET, seed=3), [bot, "greedy", "greedy", "greedy"])
    assert time.monotonic() - start < 5
    assert out.forfeit is not None and out.forfeit.decision.verdict == "TLE" and out.scores[0] == -30


def test_a_crash_is_a_runtime_error() -> None:
    bot = BotzoneBot(["python3", "-c", "import sys; sys.exit(3)"], time_limit=5)
    out = play_game(mj.Round(RULESET, seed=3), [bot, "greedy", "greedy", "greedy"])
    assert out.forfeit is not None and out.forfeit.decision.verdict == "RE"
    assert "exit status 3" in out.forfeit.decision.note


@pytest.mark.parametrize(("args", "verdict"), [((), "WA"), (("--hu",), "WH")])
def test_illegal_moves_are_wa_and_a_false_win_is_wh(env: dict[str, str], args: tuple[str, ...], verdict: str) -> None:
    bot = BotzoneBot(script("illegal.py", *args), keep_running=True, time_limit=10, env=env)
    out = play_game(mj.Round(RULESET, seed=4), [bot, "greedy", "greedy", "greedy"])
    assert out.forfeit is not None and out.forfeit.decision.verdict == verdict
    assert out.forfeit.decision.asked and out.forfeit.decision.request.startswith("2 ")
    assert out.scores == [-30, 10, 10, 10]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(MahjongError, match="on_fault"):
        BotzoneBot("x", on_fault="ignore")
    with pytest.raises(MahjongError, match="time_limit"):
        BotzoneBot("x", time_limit=0)
    with pytest.raises(MahjongError, match="four players"):
        BotzoneBot(script("passer.py")).act_index(mj.Round("two-player", seed=1), 0)


def _claim(line: str, hand: str, tile: int, discarder: int, taken: "tuple[str, int] | None" = None) -> Request:
    counts = [0] * 34
    for t in mj.parse_tiles(hand):
        counts[t] += 1
    return Request(line, "claim", tuple(counts), tile, discarder, taken)


@pytest.mark.parametrize(("response", "hand", "fault"), [
    ("PENG W5", "1155m", ""), ("PENG W5", "15m", "PENG without two"), ("PENG W9", "1155m", "not in hand"),
    ("GANG", "111m", ""), ("GANG", "11m", "GANG without three"),
    ("CHI W2 W5", "235m", ""), ("CHI W2 W5", "3m5p", "chow's tiles"), ("CHI W3 W5", "245m", "does not hold"), ("CHI W2 W3", "233m", ""),
    ("CHI W1 W5", "235m", "does not hold"), ("CHI F2 W5", "235m", "does not hold"),
])
def test_claims_our_round_did_not_offer_are_checked_as_the_judge_checks_them(
        response: str, hand: str, fault: str) -> None:
    # player 1 answers player 0's discard of W1 (tile 0)
    why = _claim_fault(parse_response(response), _claim("3 0 PLAY W1", hand, 0, 0), 1)
    assert (fault in why) if fault else why == ""


def test_a_chow_is_only_for_the_next_player() -> None:
    assert "player before" in _claim_fault(parse_response("CHI W2 W5"), _claim("3 0 PLAY W1", "35m", 0, 0), 2)


def test_a_bot_claiming_kongs_it_cannot_make_is_wa(env: dict[str, str]) -> None:
    # answers GANG to every discard of another player: the first one the judge examines is a WA
    bot = BotzoneBot(["python3", "-c", (
        "import sys\n"
        "n = int(sys.stdin.readline()); reqs = [sys.stdin.readline().split() for _ in range(2 * n - 1)][0::2]\n"
        "w = reqs[-1]\n"
        "print('PLAY ' + w[1] if w[0] == '2' else 'GANG' if w[0] == '3' and w[2] == 'PLAY' "
        "and w[1] != reqs[0][1] else 'PASS')\n")], time_limit=10)
    out = play_game(mj.Round(RULESET, seed=6), ["greedy", bot, "greedy", "greedy"])
    assert out.forfeit is not None and out.forfeit.decision.verdict == "WA"
    assert out.forfeit.decision.response == "GANG" and "three" in out.forfeit.decision.note
