"""The advisor bot plays legal rounds, and what it counts as seen never exceeds the tiles."""

from __future__ import annotations

from mahjong_core.families.mahjong.advise_bot import AdvisorBot, visible_tiles
from mahjong_core.game.bots import Bot, play_steps

import mahjong_core as mj


def test_is_a_bot_and_plays_two_player_rounds():
    bot = AdvisorBot()
    assert isinstance(bot, Bot)
    for seed in (1, 2, 3):
        rnd = mj.Round(ruleset="two-player", seed=seed)
        play_steps(rnd, [bot, mj.GreedyBot()], 10_000)
        assert rnd.is_over and rnd.result is not None


def test_plays_a_public_round():
    rnd = mj.Round(ruleset="public", seed=4)
    play_steps(rnd, [AdvisorBot(max_draws=3)] + [mj.GreedyBot() for _ in range(3)], 10_000)
    assert rnd.is_over


def test_visible_tiles_account_for_every_copy():
    greedy = mj.GreedyBot()
    rnd = mj.Round(ruleset="public", seed=9)
    checked = 0
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        view = rnd.view(seat)
        seen = visible_tiles(view)
        own = [0] * 34
        for t in view["hand"]:
            own[t] += 1
        for m in view["melds"][seat]:
            for t in m["tiles"]:
                own[t] += 1
        assert all(0 <= s and s + o <= 4 for s, o in zip(seen, own))
        assert sum(seen) == sum(map(len, view["discards"])) + sum(
            len(m["tiles"] or ()) for s, ms in enumerate(view["melds"]) if s != seat for m in ms)
        checked += 1
        rnd.step(seat, greedy.act(rnd, seat))
    assert checked > 50
