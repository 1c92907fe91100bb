"""Our bots as Botzone programs (the wrapper), run under our own adapter, and the duplicate match."""
from __future__ import annotations

import io
import json

import mahjong_core as mj
from mahjong_core.families.mahjong.botzone import BotzoneBot, make_bot, play_game, respond, serve

from .conftest import RULESET, wrapper_command


def _external(env: dict[str, str], *extra: str, json_io: bool = False) -> BotzoneBot:
    return BotzoneBot(wrapper_command("greedy", *extra), json=json_io, keep_running=True, time_limit=20,
                      kept_time_limit=10, env=env)


def test_the_wrapped_greedy_bot_plays_as_the_greedy_bot_does(env: dict[str, str]) -> None:
    # the world rebuilt from the Botzone history gives the greedy bot the same decisions: the
    # round ends exactly as with the greedy bot in process at that seat
    for seed, seat in ((0, 0), (5, 2)):
        out = play_game(mj.Round(RULESET, seed=seed, dealer=1), [_external(env) if s == seat else "greedy"
                                                                  for s in range(4)])
        same = mj.Round(RULESET, seed=seed, dealer=1)
        mj.play_round(same, ["greedy"] * 4)
        assert out.forfeit is None and out.result.to_dict() == same.result.to_dict()
        assert {d.verdict for d in out.records[seat]} == {"OK"}


def test_json_interaction_of_the_wrapper(env: dict[str, str]) -> None:
    out = play_game(mj.Round(RULESET, seed=9), ["random", _external(env, "--json", json_io=True), "greedy", "random"])
    assert out.forfeit is None and out.result is not None
    assert len(out.records[1]) > 20 and {d.verdict for d in out.records[1]} == {"OK"}


def test_a_duplicate_match_between_an_external_bot_and_ours(env: dict[str, str]) -> None:
    m = mj.Match(RULESET, seed=11, rounds=4, duplicate=True, first_dealer=0)
    bot = BotzoneBot(wrapper_command("greedy"), keep_running=True, time_limit=20, kept_time_limit=10,
                     on_fault="pass", env=env)
    try:
        results = mj.play_match(m, [bot, "greedy", "random", "greedy"])
    finally:
        bot.close()
    assert [r["dealer"] for r in m.results] == [0, 1, 2, 3] and len(results) == 4
    assert all(d.verdict != "FALLBACK" for d in bot.record)


def test_duplicate_rounds_deal_one_wall_with_the_seats_rotated() -> None:
    m = mj.Match(RULESET, seed=3, rounds=8, duplicate=True, first_dealer=2)
    hands = []
    while not m.is_over:
        hands.append([sorted(m.round.hand(s)) for s in range(4)])
        mj.play_round(m.round, ["greedy"] * 4)
        m.next_round()
    assert [r["dealer"] for r in m.results] == [2, 3, 0, 1, 2, 3, 0, 1]
    for k in (1, 2, 3):   # the wall of the group, each hand one seat on
        assert all(hands[k][(s + k) % 4] == hands[0][s] for s in range(4))
    assert hands[4] != hands[0]
    d = m.to_dict()
    assert d["duplicate"] is True and mj.Match.from_dict(d).to_dict() == d
    assert "duplicate" not in mj.Match(RULESET, seed=3, rounds=2).to_dict()


def test_respond_and_serve_in_process() -> None:
    bot = make_bot("greedy")
    reqs = ["0 1 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4", "3 0 DRAW"]
    assert respond(reqs, ["PASS", "PASS"], bot, RULESET) == "PASS"
    out = io.StringIO()
    text = "3\n" + "\n".join([reqs[0], "PASS", reqs[1], "PASS", reqs[2]]) + "\n"
    assert serve(bot, RULESET, keep_running=False, stdin=io.StringIO(text), stdout=out) == 0
    assert out.getvalue() == "PASS\n"
    out = io.StringIO()
    first = json.dumps({"requests": reqs, "responses": ["PASS", "PASS"]})
    serve(bot, RULESET, use_json=True, stdin=io.StringIO(first + "\n" + json.dumps("3 0 PLAY J3") + "\n"), stdout=out)
    lines = out.getvalue().splitlines()
    assert json.loads(lines[0]) == {"response": "PASS"} and lines[1] == ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
    assert json.loads(lines[2])["response"] in ("PASS", "PENG W1") and len(lines) == 4
