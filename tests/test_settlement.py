"""Settlement, rooms, escapes, levels and the ledger, with the seeds' own figures (spec section 5)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from mahjong_core.errors import MahjongError
from mahjong_core.settlement import (
    LEVELS,
    ROOMS,
    SYSTEM,
    EscapeTracker,
    HandOutcome,
    Ledger,
    LedgerError,
    Room,
    RoomEntryError,
    get_room,
    level_of,
    settle_hand,
    update_score,
)


def ledger(**balances: int) -> Ledger:
    led = Ledger()
    for name, value in balances.items():
        led.open(name, value)
    return led


# ------------------------------------------------------------------ rooms
def test_beginner_room_is_the_seed_004_room():
    room = ROOMS["beginner"]
    assert (room.ruleset, room.profile, room.value_per_fan) == ("two-player", "beans_004", 15)
    assert (room.entry_min, room.entry_max) == (1_000, 200_000)
    assert room.escape_penalty == 3_000          # 房间系数 15 (OP-4) x 200


@pytest.mark.parametrize("balance, ok", [(999, False), (1_000, True), (200_000, True), (200_001, False)])
def test_room_entry_limits(balance, ok):
    if ok:
        ROOMS["beginner"].check_entry(balance)
    else:
        with pytest.raises(RoomEntryError, match="beginner"):
            ROOMS["beginner"].check_entry(balance)


def test_room_validation():
    with pytest.raises(MahjongError, match="profile"):
        Room("x", "two-player", "nope", value_per_fan=1)
    with pytest.raises(MahjongError, match="entry_max"):
        Room("x", "two-player", "coins_000", value_per_fan=1, entry_min=10, entry_max=5)
    with pytest.raises(MahjongError, match="ruleset"):
        Room("x", "riichi", "coins_000", value_per_fan=1)
    with pytest.raises(MahjongError, match="base"):
        Room("x", "two-player", "coins_000", value_per_fan=1, base=-1)
    with pytest.raises(MahjongError, match="unknown room"):
        get_room("vip")


# ------------------------------------------------------------------ wins
def test_two_player_win_beans():
    led = ledger(a=5_000, b=5_000)
    out = HandOutcome(("a", "b"), winner=0, loser=1, method="discard", hand_value=20, non_flower_total=18, round=1)
    [t] = settle_hand(led, "beginner", out)
    assert (t.payer, t.payee, t.amount, t.reason, t.round) == ("b", "a", 300, "win", 1)   # 20 fan x 15 beans
    assert led.balances == {SYSTEM: 0, "a": 5_300, "b": 4_700}


def test_two_player_self_drawn_loser_pays_the_same():
    led = ledger(a=1_000, b=1_000)
    settle_hand(led, "coins", HandOutcome(("a", "b"), winner=1, method="self_drawn", hand_value=12, non_flower_total=12))
    assert led.balances["a"] == 988 and led.balances["b"] == 1_012


def test_public_mcr_payments():
    players = ("e", "s", "w", "n")
    led = ledger(e=1_000, s=1_000, w=1_000, n=1_000)
    settle_hand(led, "public", HandOutcome(players, winner=0, method="self_drawn", hand_value=10, non_flower_total=10))
    assert led.balances == {SYSTEM: 0, "e": 1_054, "s": 982, "w": 982, "n": 982}       # each pays 10 + 8
    led = ledger(e=1_000, s=1_000, w=1_000, n=1_000)
    settle_hand(led, "public", HandOutcome(players, winner=2, loser=1, method="discard", hand_value=9, non_flower_total=9))
    assert led.balances == {SYSTEM: 0, "e": 992, "s": 983, "w": 1_033, "n": 992}       # 17 + 8 + 8
    led = ledger(e=1_000, s=1_000, w=1_000, n=1_000)
    settle_hand(led, "public", HandOutcome(players, winner=3, loser=0, method="robbing", hand_value=8, non_flower_total=8))
    assert led.balances == {SYSTEM: 0, "e": 984, "s": 992, "w": 992, "n": 1_032}       # robbed kong pays F + 8


def test_flowers_count_in_the_payment_not_the_minimum():
    led = ledger(a=1_000, b=1_000)
    before = dict(led.balances)
    with pytest.raises(MahjongError, match="minimum"):
        settle_hand(led, "coins", HandOutcome(("a", "b"), winner=0, loser=1, method="discard",
                                               hand_value=10, non_flower_total=7))
    assert led.balances == before and len(led.transfers) == 2      # only the two deposits
    settle_hand(led, "coins", HandOutcome(("a", "b"), winner=0, loser=1, method="discard",
                                           hand_value=10, non_flower_total=8))
    assert led.balances["a"] == 1_010


def test_payment_capped_at_the_balance():
    led = ledger(a=1_000, b=100)
    [t] = settle_hand(led, "beginner", HandOutcome(("a", "b"), winner=0, loser=1, method="discard",
                                                    hand_value=20, non_flower_total=20))
    assert t.amount == 100 and t.requested == 300
    assert led.balances["b"] == 0 and led.balances["a"] == 1_100


# ------------------------------------------------------------------ draws and fees
def test_draw_moves_nothing_but_takes_the_fees():
    coins = dataclasses.replace(ROOMS["coins"], table_fee=5)
    led = ledger(a=100, b=100)
    ts = settle_hand(led, coins, HandOutcome(("a", "b")))
    assert [(t.payer, t.payee, t.amount, t.reason) for t in ts] == [
        ("a", SYSTEM, 5, "table_fee"), ("b", SYSTEM, 5, "table_fee")]
    led = ledger(a=100, b=100)
    assert settle_hand(led, "beginner", HandOutcome(("a", "b"))) == []
    assert led.balances == {SYSTEM: 0, "a": 100, "b": 100}


def test_bamboo_service_fee_every_hand_any_result():
    room = ROOMS["bamboo"]
    assert room.service_fee == room.base == 1            # 100 % of 底分 per player per hand
    big = dataclasses.replace(room, base=50, value_per_fan=50)
    led = ledger(a=10_000, b=10_000)
    ts = settle_hand(led, big, HandOutcome(("a", "b"), winner=0, loser=1, method="discard",
                                            hand_value=10, non_flower_total=10))
    assert [(t.payer, t.payee, t.amount, t.reason) for t in ts] == [
        ("b", "a", 500, "win"), ("a", SYSTEM, 50, "service_fee"), ("b", SYSTEM, 50, "service_fee")]
    ts = settle_hand(led, big, HandOutcome(("a", "b")))                          # draw
    assert sum(t.amount for t in ts) == 100
    ts = settle_hand(led, big, HandOutcome(("a", "b"), escaped=0))              # escape
    assert [(t.payer, t.payee, t.amount) for t in ts] == [("a", "b", 3_000), ("a", SYSTEM, 50), ("b", SYSTEM, 50)]


# ------------------------------------------------------------------ escapes
def test_escape_coins_000_half_to_the_opponent_half_to_the_system():
    led = ledger(a=1_000, b=1_000)
    ts = settle_hand(led, "coins", HandOutcome(("a", "b"), escaped=1))
    assert sorted((t.payee, t.amount) for t in ts) == [("a", 16), (SYSTEM, 16)]     # base 1 x 32
    led = ledger(a=1_000, b=31)                                                    # odd amount after the cap
    ts = settle_hand(led, "coins", HandOutcome(("a", "b"), escaped=1))
    assert sorted((t.payee, t.amount) for t in ts) == [("a", 15), (SYSTEM, 16)]     # floor(half) to the opponent
    ten = dataclasses.replace(ROOMS["coins"], base=10, value_per_fan=10)
    led = ledger(a=1_000, b=1_000)
    settle_hand(led, ten, HandOutcome(("a", "b"), escaped=0))
    assert led.balances == {SYSTEM: 160, "a": 680, "b": 1_160}                     # 10 x 32 = 320


def test_escape_beans_004_all_to_the_stayers():
    led = ledger(a=10_000, b=10_000)
    ts = settle_hand(led, "beginner", HandOutcome(("a", "b"), escaped=0))
    assert [(t.payer, t.payee, t.amount) for t in ts] == [("a", "b", 3_000)]     # 15 x 200, nothing to the system
    four = Room("four", "public", "beans_004", value_per_fan=15)
    led = ledger(a=10_000, b=10_000, c=10_000, d=10_000)
    settle_hand(led, four, HandOutcome(("a", "b", "c", "d"), escaped=1))
    assert led.balances == {SYSTEM: 0, "a": 11_000, "b": 7_000, "c": 11_000, "d": 11_000}


def test_escape_bamboo_60_base_to_the_opponent():
    led = ledger(a=1_000, b=1_000)
    settle_hand(led, dataclasses.replace(ROOMS["bamboo"], service_fee_ratio=0), HandOutcome(("a", "b"), escaped=0))
    assert led.balances == {SYSTEM: 0, "a": 940, "b": 1_060}


def test_escape_public_default_none_and_configurable():
    players = ("e", "s", "w", "n")
    led = ledger(e=100, s=100, w=100, n=100)
    assert settle_hand(led, "public", HandOutcome(players, escaped=2)) == []
    room = dataclasses.replace(ROOMS["public"], escape_multiplier=30, escape_system_share=10)
    settle_hand(led, room, HandOutcome(players, escaped=2))
    assert led.balances == {SYSTEM: 3, "e": 109, "s": 109, "w": 70, "n": 109}


def test_escape_tracker_bamboo_rules():
    t = EscapeTracker("bamboo", 2)
    assert not t.report("away", 0, 90)          # returning within 90 s is no escape
    assert t.report("away", 0, 90.5)
    assert t.report("closed_client", 1)
    assert not t.report("disconnect", 1) and not t.report("disconnect", 1)
    assert t.report("disconnect", 1)            # third disconnect in the hand (三次以上: >= 3)
    t.new_hand()
    assert not t.report("disconnect", 1)
    assert t.report("forced_quit", 0)


def test_escape_tracker_two_player_only_forced_quit():
    t = EscapeTracker("coins", 2)
    assert not t.report("away", 0, 500) and not t.report("closed_client", 0)
    assert not any(t.report("disconnect", 1) for _ in range(5))
    assert t.report("forced_quit", 1)
    with pytest.raises(MahjongError, match="unknown event"):
        t.report("rage", 0)
    with pytest.raises(MahjongError, match="seat"):
        t.report("disconnect", 2)


# ------------------------------------------------------------------ levels
@pytest.mark.parametrize("level", LEVELS, ids=lambda l: l.zh)
def test_level_boundaries(level):
    assert level_of(level.threshold) == level
    if level.threshold:
        assert level_of(level.threshold - 1).number == level.number - 1


def test_levels_table_of_seed_004():
    assert [l.zh for l in LEVELS] == ["菜鸟", "生手", "赌客", "赌棍", "赌鬼", "老手", "高人", "老千",
                                      "千王", "赌王", "赌神", "赌圣", "赌仙", "万赌之王"]
    assert [l.threshold for l in LEVELS] == [0, 100, 200, 400, 600, 800, 1_000, 2_000, 4_000, 6_000,
                                             10_000, 20_000, 50_000, 100_000]
    assert level_of(10 ** 9).zh == "万赌之王"
    with pytest.raises(MahjongError):
        level_of(-1)
    assert update_score(50, 30, won=True) == 80 and update_score(50, 80, won=False) == 0


# ------------------------------------------------------------------ ledger
def test_ledger_is_atomic():
    led = ledger(a=10, b=10)
    before = (dict(led.balances), list(led.transfers))
    with pytest.raises(LedgerError, match="ghost"):
        led.apply([("a", "b", 5, "x"), ("ghost", "a", 1, "x")])
    with pytest.raises(LedgerError, match="non-negative"):
        led.apply([("a", "b", -5, "x")])
    with pytest.raises(LedgerError, match="himself"):
        led.apply([("a", "a", 5, "x")])
    assert (led.balances, led.transfers) == before
    with pytest.raises(LedgerError):
        settle_hand(led, "coins", HandOutcome(("a", "zz"), escaped=0))
    assert (led.balances, led.transfers) == before


def test_outcome_validation():
    with pytest.raises(MahjongError):
        HandOutcome(("a", "a"))
    with pytest.raises(MahjongError, match="loser"):
        HandOutcome(("a", "b"), winner=0, method="discard", hand_value=8, non_flower_total=8)
    with pytest.raises(MahjongError, match="no loser"):
        HandOutcome(("a", "b"), winner=0, loser=1, method="self_drawn", hand_value=8, non_flower_total=8)
    with pytest.raises(MahjongError, match="no winner"):
        HandOutcome(("a", "b"), winner=0, escaped=1)
    with pytest.raises(MahjongError, match="method"):
        HandOutcome(("a", "b"), winner=0, loser=1, method="magic", hand_value=8, non_flower_total=8)


# ------------------------------------------------------------------ conservation
def test_thousands_of_hands_conserve_every_bean():
    rng = random.Random(20261129)
    rooms = [ROOMS["beginner"], dataclasses.replace(ROOMS["coins"], table_fee=2), ROOMS["bamboo"],
             dataclasses.replace(ROOMS["public"], escape_multiplier=40, escape_system_share=25)]
    for room in rooms:
        n = 4 if room.ruleset == "public" else 2
        players = tuple(f"p{i}" for i in range(n))
        led = ledger(**{p: rng.randrange(0, 4_000) for p in players})
        total = led.total
        tracker = EscapeTracker(room, n)
        for hand in range(1_500):
            tracker.new_hand()
            escaped = None
            for _ in range(rng.randrange(0, 4)):
                seat = rng.randrange(n)
                event = rng.choice(["away", "closed_client", "disconnect", "disconnect", "forced_quit"])
                if tracker.report(event, seat, rng.uniform(0, 200)) and escaped is None and rng.random() < 0.5:
                    escaped = seat
            if escaped is not None:
                out = HandOutcome(players, escaped=escaped, round=hand)
            elif rng.random() < 0.2:
                out = HandOutcome(players, round=hand)
            else:
                winner = rng.randrange(n)
                method = rng.choice(["self_drawn", "discard", "robbing"])
                loser = None if method == "self_drawn" else rng.choice([s for s in range(n) if s != winner])
                nf = rng.randrange(8, 120)
                out = HandOutcome(players, winner=winner, loser=loser, method=method,
                                  hand_value=nf + rng.randrange(0, 9), non_flower_total=nf, round=hand)
            settle_hand(led, room, out)
            assert led.total == total, (room.name, hand)
            assert min(led.balances.values()) >= 0
        assert sum(t.amount for t in led.transfers if t.reason != "deposit") > 0


def test_engine_rounds_with_injected_escapes_conserve_every_bean():
    """2 000 real rounds from the game engine (random and greedy bots) with escapes and
    disconnects injected at random steps: after every round the ledger total is unchanged and
    no balance is negative.  An escape aborts the round (spec 5.1: no fan settlement)."""
    from mahjong_core.game import GreedyBot, RandomBot, Round

    rng = random.Random(7)
    plans = (("two-player", ROOMS["beginner"], 900),
             ("two-player-bamboo", ROOMS["bamboo"], 700),
             ("public", dataclasses.replace(ROOMS["public"], escape_multiplier=50, escape_system_share=20), 400))
    escapes = wins = 0
    for ruleset, room, rounds in plans:
        n = 4 if ruleset == "public" else 2
        players = tuple(f"p{i}" for i in range(n))
        led = ledger(**{p: rng.randrange(500, 6_000) for p in players})
        total = led.total
        tracker = EscapeTracker(room, n)
        bots = [GreedyBot() if i % 2 == 0 else RandomBot(i) for i in range(n)]
        for k in range(rounds):
            rnd = Round(ruleset, seed=rng.randrange(10 ** 9), dealer=rng.randrange(n))
            tracker.new_hand()
            escaped = None
            while not rnd.is_over:
                if rng.random() < 0.01:             # a server event during the hand
                    seat = rng.randrange(n)
                    event = rng.choice(["away", "closed_client", "disconnect", "forced_quit"])
                    if tracker.report(event, seat, rng.uniform(0, 180)):
                        escaped = seat
                        break
                seat = rnd.seats_to_act()[0]
                rnd.step(seat, bots[seat].act_index(rnd, seat))
            if escaped is not None:
                escapes += 1
                out = HandOutcome(players, escaped=escaped, round=k)
            elif rnd.result.draw:
                out = HandOutcome(players, round=k)
            else:
                wins += 1
                res = rnd.result
                out = HandOutcome(players, winner=res.winner, loser=res.loser, method=res.method,
                                  hand_value=res.total, non_flower_total=res.score.non_flower_total, round=k)
            settle_hand(led, room, out)
            assert led.total == total, (ruleset, k)
            assert min(led.balances.values()) >= 0
    assert escapes > 50 and wins > 500
