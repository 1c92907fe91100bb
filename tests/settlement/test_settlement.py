"""Settlement, rooms, escapes, levels and the ledger, with the seeds' own figures (spec section 5)."""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import random

import pytest

from mahjong_core import rulesets
from mahjong_core.errors import MahjongError, StateError
from mahjong_core.settlement import (
    ESCAPE_RULES,
    LEVELS,
    OUTSIDE,
    ROOMS,
    SYSTEM,
    EscapeTracker,
    HandOutcome,
    Ledger,
    LedgerError,
    Room,
    RoomEntryError,
    Transfer,
    get_room,
    level_of,
    minimum_of,
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
    from mahjong_core.families.mahjong.api import GreedyBot, RandomBot, Round

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


# ------------------------------------------------------------------ issue 10: the settlement boundary


def _unchanged(led: Ledger):
    """Context: the ledger's whole content is the same after the block (which must raise)."""
    class _Same:
        def __enter__(self):
            self.before = led.to_dict()

        def __exit__(self, *exc):
            assert led.to_dict() == self.before
            return False
    return _Same()


@pytest.mark.parametrize("outcome", [
    HandOutcome(("a", "b", "c", "d"), winner=2, loser=3, method="discard", hand_value=20, non_flower_total=20),
    HandOutcome(("a", "b", "c", "d"), winner=3, method="self_drawn", hand_value=20, non_flower_total=20),
    HandOutcome(("a", "b", "c", "d"), escaped=3),
    HandOutcome(("a", "b", "c", "d")),
], ids=["discard", "self_drawn", "escape", "draw"])
def test_two_player_room_refuses_a_four_player_outcome(outcome):
    """Item 4: the self-drawn case used to make seat 1 - 3 = -2 (player "c") pay."""
    led = ledger(a=10_000, b=10_000, c=10_000, d=10_000)
    with _unchanged(led), pytest.raises(MahjongError, match="2 players; the outcome has 4"):
        settle_hand(led, "beginner", outcome)


def test_four_player_room_refuses_a_two_player_outcome():
    led = ledger(a=1_000, b=1_000)
    with _unchanged(led), pytest.raises(MahjongError, match="4 players; the outcome has 2"):
        settle_hand(led, "public", HandOutcome(("a", "b"), winner=0, loser=1, method="discard",
                                               hand_value=8, non_flower_total=8))


def test_two_player_profile_in_a_four_player_room_pays_discards_and_refuses_self_drawn():
    four = Room("four", "public", "beans_004", value_per_fan=15)
    led = ledger(a=1_000, b=1_000, c=1_000, d=1_000)
    settle_hand(led, four, HandOutcome(("a", "b", "c", "d"), winner=0, loser=2, method="discard",
                                       hand_value=10, non_flower_total=10))
    assert led.balances == {SYSTEM: 0, "a": 1_150, "b": 1_000, "c": 850, "d": 1_000}
    with _unchanged(led), pytest.raises(MahjongError, match="between two players only"):
        settle_hand(led, four, HandOutcome(("a", "b", "c", "d"), winner=0, method="self_drawn",
                                           hand_value=10, non_flower_total=10))


ROOM_FIELD_CASES = [
    ("name", ""), ("name", 5), ("name", None),
    ("ruleset", "riichi"), ("ruleset", 2), ("ruleset", None),
    ("profile", "nope"), ("profile", 1), ("profile", ["coins_000"]),
    ("value_per_fan", -1), ("value_per_fan", True), ("value_per_fan", 1.5), ("value_per_fan", "15"),
    ("base", -1), ("base", 2.0), ("base", False),
    ("coefficient", -1), ("coefficient", 1.5), ("coefficient", True),
    ("entry_min", -1), ("entry_min", 10.0), ("entry_max", -5), ("entry_max", "x"), ("entry_max", True),
    ("table_fee", -2), ("table_fee", math.nan),
    ("service_fee_ratio", -1), ("service_fee_ratio", 10_001), ("service_fee_ratio", 100.0),
    ("escape_multiplier", -32), ("escape_multiplier", True),
    ("escape_system_share", 101), ("escape_system_share", -1), ("escape_system_share", 50.5),
    ("min_fan", -100), ("min_fan", rulesets.MAX_MIN_FAN + 1), ("min_fan", 8.0), ("min_fan", True), ("min_fan", "8"),
    ("escape_rules", "away"), ("escape_rules", ("teleport",)), ("escape_rules", (1,)), ("escape_rules", None),
    ("away_limit_s", -1), ("away_limit_s", math.nan), ("away_limit_s", math.inf), ("away_limit_s", "90"),
    ("away_limit_s", True), ("away_limit_s", 10 ** 400), ("away_limit_s", None),
    ("escape_disconnects", -3), ("escape_disconnects", 0), ("escape_disconnects", 2.5), ("escape_disconnects", True),
    ("extra", []), ("extra", None),
]


@pytest.mark.parametrize("field, value", ROOM_FIELD_CASES, ids=[f"{f}={v!r}" for f, v in ROOM_FIELD_CASES])
def test_room_refuses_every_bad_field(field, value):
    """Item 4: every Room field is checked (type, range, finite floats, known rule names)."""
    with pytest.raises(MahjongError) as info:
        dataclasses.replace(ROOMS["bamboo"], **{field: value})
    words = {"name": "name", "ruleset": "ruleset", "profile": "profile"}
    assert words.get(field, field) in str(info.value)


def test_room_normalises_what_it_accepts():
    room = Room("r", rulesets.RULESETS["public"], "public_mcr", value_per_fan=1, away_limit_s=30,
                escape_rules=["away", "forced_quit"])
    assert room.ruleset == "public" and room.players == 4
    assert room.away_limit_s == 30.0 and isinstance(room.away_limit_s, float)
    assert room.escape_rules == ("away", "forced_quit")
    assert set(ROOMS["bamboo"].escape_rules) == set(ESCAPE_RULES)
    with pytest.raises(MahjongError, match="unknown room"):
        get_room(["beginner"])
    with pytest.raises(MahjongError, match="balance"):
        ROOMS["beginner"].check_entry(5_000.0)
    with pytest.raises(MahjongError, match="balance"):
        ROOMS["beginner"].check_entry(True)


@pytest.mark.parametrize("call", [
    lambda led: led.open("c", True),
    lambda led: led.open("c", 1.0),
    lambda led: led.open("c", "5"),
    lambda led: led.open("c", -1),
    lambda led: led.open(5, 1),
    lambda led: led.open("", 1),
    lambda led: led.open(OUTSIDE, 1),
    lambda led: led.open("a", 1),
    lambda led: led.open(SYSTEM, 1),
    lambda led: led.apply([("a", "b", True, "x")]),
    lambda led: led.apply([("a", "b", 2.0, "x")]),
    lambda led: led.apply([("a", "b", "2", "x")]),
    lambda led: led.apply([("a", "b", 1, "x")], round=True),
    lambda led: led.apply([("a", "b", 1, "x")], round=-1),
    lambda led: led.apply([("a", "b", 1)]),
    lambda led: led.apply([("a", "b", 1, "x", "y")]),
    lambda led: led.apply([{"payer": "a"}]),
    lambda led: led.apply("ab"),
    lambda led: led.apply(None),
    lambda led: led.apply([("a", "b", 1, "")]),
    lambda led: led.apply([(["a"], "b", 1, "x")]),
    lambda led: led.apply([("a", "b", 3, "x"), ("b", "a", -1, "x")]),
    lambda led: led.balance(["a"]),
    lambda led: led.balance("ghost"),
], ids=lambda f: "")
def test_ledger_refuses_booleans_and_other_non_integers(call):
    """Item 4: a boolean is never an amount or a balance; the ledger is unchanged."""
    led = ledger(a=10, b=10)
    with _unchanged(led), pytest.raises(LedgerError):
        call(led)


@pytest.mark.parametrize("balances", [
    {"a": True}, {"a": -1}, {"a": 1.0}, {"a": "1"}, {1: 5}, {"": 5}, [("a", 1)], "a",
])
def test_ledger_opening_balances_are_checked(balances):
    with pytest.raises(LedgerError):
        Ledger(balances)


def test_ledger_construction_copy_and_pickle():
    led = Ledger({"a": 7})
    assert led.balances == {SYSTEM: 0, "a": 7} and led.total == 7
    led.apply([("a", SYSTEM, 2, "table_fee")], round=3)
    for other in (copy.deepcopy(led), pickle.loads(pickle.dumps(led))):
        assert other == led and other.to_dict() == led.to_dict()
        other.apply([("a", SYSTEM, 1, "table_fee")])      # an independent ledger with its own lock
        assert other.balance("a") == 4 and led.balance("a") == 5
    with pytest.raises(LedgerError, match="Transfer"):
        Ledger({"a": 1}, transfers=[{"payer": "a"}])
    # the copies handed out are copies: changing them does not change the ledger
    led.balances["a"] = 10 ** 9
    led.transfers.clear()
    assert led.balance("a") == 5 and len(led.transfers) == 1


@pytest.mark.parametrize("kwargs", [
    {"payer": "a", "payee": "a"}, {"amount": True}, {"amount": -1}, {"amount": 1.0}, {"reason": ""},
    {"round": False}, {"requested": 1}, {"requested": True}, {"payer": 3},
])
def test_transfer_fields_are_checked(kwargs):
    base = {"payer": "a", "payee": "b", "amount": 2, "reason": "win"}
    with pytest.raises(LedgerError):
        Transfer(**{**base, **kwargs})


OUTCOME_CASES = [
    ({"winner": True, "loser": 0, "method": "discard", "hand_value": 8, "non_flower_total": 8}, "winner"),
    ({"winner": 0, "loser": True, "method": "discard", "hand_value": 8, "non_flower_total": 8}, "loser"),
    ({"escaped": False}, "escaped"),
    ({"winner": 0, "loser": 1, "method": "discard", "hand_value": 8.0, "non_flower_total": 8}, "hand_value"),
    ({"winner": 0, "loser": 1, "method": "discard", "hand_value": 8, "non_flower_total": "8"}, "non_flower_total"),
    ({"winner": 0, "loser": 1, "method": "discard", "hand_value": -8, "non_flower_total": 0}, "hand_value"),
    ({"winner": 0, "loser": 1, "method": "discard", "hand_value": 8, "non_flower_total": -1}, "non_flower_total"),
    ({"winner": 0, "loser": 1, "method": "discard", "hand_value": 7, "non_flower_total": 8}, "hand_value"),
    ({"winner": 2, "loser": 1, "method": "discard", "hand_value": 8, "non_flower_total": 8}, "winner"),
    ({"winner": 0, "loser": 1, "method": ["discard"], "hand_value": 8, "non_flower_total": 8}, "method"),
    ({"winner": 0, "loser": 1, "hand_value": 8, "non_flower_total": 8}, "method"),
    ({"round": True}, "round"), ({"round": -1}, "round"), ({"round": 1.5}, "round"),
    ({"min_fan": True}, "min_fan"), ({"min_fan": -1}, "min_fan"), ({"min_fan": 2 ** 31}, "min_fan"),
    ({"winner": 0, "loser": 1, "method": "discard", "hand_value": 9, "non_flower_total": 7, "min_fan": 8}, "minimum"),
    ({"non_flower_total": 3}, "hand value"), ({"escaped": 0, "method": "discard"}, "method"),
    ({"escaped": 0, "loser": 1}, "loser"),
]


@pytest.mark.parametrize("kwargs, fragment", OUTCOME_CASES, ids=[f"{k}" for k, _ in OUTCOME_CASES])
def test_outcome_refuses_every_bad_field(kwargs, fragment):
    """Item 4: HandOutcome(winner=True) and every other non-integer or out-of-range field."""
    with pytest.raises(MahjongError, match=fragment):
        HandOutcome(("a", "b"), **kwargs)


@pytest.mark.parametrize("players", [("a",), ("a", "a"), ("a", ""), ("a", 3), "ab", ("a", "b", "c", "d", "e"),
                                     ("a", SYSTEM), (OUTSIDE, "b"), None, {"a": 1, "b": 2}])
def test_outcome_players_are_distinct_account_names(players):
    with pytest.raises(MahjongError, match="players"):
        HandOutcome(players)


def test_outcome_normalises_equal_outcomes():
    import numpy as np

    a = HandOutcome(["a", "b"], winner=np.int64(0), loser=1, method="discard", hand_value=9, non_flower_total=8)
    b = HandOutcome(("a", "b"), winner=0, loser=1, method="discard", hand_value=9, non_flower_total=8)
    assert a == b and hash(a) == hash(b) and type(a.winner) is int and a.players == ("a", "b")


def test_escape_tracker_checks_its_arguments():
    with pytest.raises(MahjongError, match="2 players"):
        EscapeTracker("coins", 3)
    with pytest.raises(MahjongError, match="players"):
        EscapeTracker("coins", 2.0)
    with pytest.raises(MahjongError, match="unknown room"):
        EscapeTracker(None)
    t = EscapeTracker("bamboo")
    assert len(t.disconnects) == 2
    for args, fragment in [(("disconnect", True), "seat"), (("disconnect", 1.0), "seat"), (("disconnect", -1), "seat"),
                           ((["away"], 0), "event"), (("away", 0, math.nan), "away time"),
                           (("away", 0, math.inf), "away time"), (("away", 0, -1), "away time"),
                           (("away", 0, "100"), "away time"), (("away", 0, True), "away time"),
                           (("away", 0, 10 ** 400), "away time")]:
        with pytest.raises(MahjongError, match=fragment):
            t.report(*args)
    assert t.disconnects == [0, 0]         # refused reports count nothing
    assert t.report("away", 0, 91) and t.report("away", 0, 10 ** 6)


def test_levels_check_their_arguments():
    for bad in (True, 1.5, "100", None):
        with pytest.raises(MahjongError, match="积分"):
            level_of(bad)
    for args, fragment in [((True, 5, True), "积分"), ((5, -1, True), "hand_value"), ((5, 2.0, False), "hand_value"),
                           ((5, 1, "no"), "won"), ((-5, 1, False), "积分")]:
        with pytest.raises(MahjongError, match=fragment):
            update_score(*args)


# ------------------------------------------------------------------ issue 10 item 7: one minimum
def _first_round(ruleset: str, min_fan: "int | None", want) -> tuple:
    """The first seed (0, 1, ...) whose greedy round under ``min_fan`` ends as ``want(result)`` says."""
    from mahjong_core.game import play_round
    from mahjong_core.families.mahjong.api import GreedyBot, Round

    n = rulesets.get_ruleset(ruleset).players
    for seed in range(200):
        rnd = Round(ruleset, seed=seed, min_fan=min_fan)
        res = play_round(rnd, [GreedyBot()] * n)
        if want(res):
            return rnd, res
    pytest.fail("no such round in 200 seeds")


def test_a_round_played_with_min_fan_0_settles():
    """Item 7: a win under 8 fan from a min_fan=0 round used to be refused (the room fell back to 8)."""
    _, res = _first_round("public", 0, lambda r: not r.draw and r.score.non_flower_total < 8)
    players = ("e", "s", "w", "n")
    out = HandOutcome.from_result(res, players, round=1)
    assert out.min_fan == 0 and out.non_flower_total == res.score.non_flower_total < 8
    led = ledger(e=1_000, s=1_000, w=1_000, n=1_000)
    ts = settle_hand(led, "public", out)                       # the room sets no minimum of its own
    assert sum(t.amount for t in ts if t.payee == players[res.winner]) > 0
    assert led.total == 4_000
    assert minimum_of("public", out) == 0
    zero = dataclasses.replace(ROOMS["public"], min_fan=0)
    settle_hand(led, zero, out)
    eight = dataclasses.replace(ROOMS["public"], min_fan=8)
    with _unchanged(led), pytest.raises(MahjongError, match="not played under this room's rules"):
        settle_hand(led, eight, out)


def test_a_room_minimum_must_match_the_round():
    out = HandOutcome(("a", "b"), winner=0, loser=1, method="discard", hand_value=12, non_flower_total=12, min_fan=8)
    led = ledger(a=1_000, b=1_000)
    with _unchanged(led), pytest.raises(MahjongError, match="minimum .* of 8 fan but room 'r' requires 10"):
        settle_hand(led, dataclasses.replace(ROOMS["coins"], name="r", min_fan=10), out)
    with _unchanged(led), pytest.raises(MahjongError, match="requires 10"):          # draws too
        settle_hand(led, dataclasses.replace(ROOMS["coins"], name="r", min_fan=10), HandOutcome(("a", "b"), min_fan=8))
    settle_hand(led, dataclasses.replace(ROOMS["coins"], min_fan=8), out)
    assert led.balances["a"] == 1_012


def test_the_fallback_minimum_is_the_rulesets(monkeypatch):
    """No literal 8 in settlement: a ruleset whose default minimum is 5 settles a 6-fan win
    stated without a minimum; with the registered default (8) it is refused."""
    out = HandOutcome(("a", "b"), winner=0, loser=1, method="discard", hand_value=6, non_flower_total=6)
    led = ledger(a=100, b=100)
    with _unchanged(led), pytest.raises(MahjongError, match="under the minimum 8"):
        settle_hand(led, "coins", out)
    monkeypatch.setitem(rulesets.RULESETS, "two-player",
                        dataclasses.replace(rulesets.RULESETS["two-player"], min_fan=5))
    assert minimum_of("coins", out) == 5
    settle_hand(led, "coins", out)
    assert led.balances["a"] == 106


def test_from_result_takes_every_field_from_the_round():
    from mahjong_core.families.mahjong.api import Round

    for method in ("self_drawn", "discard"):
        rnd, res = _first_round("two-player", None, lambda r, method=method: r.method == method)
        out = HandOutcome.from_result(res, ["p", "q"], round=7)
        assert (out.winner, out.loser, out.method, out.hand_value, out.non_flower_total, out.min_fan, out.round) == (
            res.winner, res.loser, res.method, res.total, res.score.non_flower_total, rnd.settings.min_fan, 7)
        # a reloaded round's result (plain data, re-scored) gives the same outcome
        assert HandOutcome.from_result(Round.from_json(rnd.to_json()).result, ["p", "q"], round=7) == out
    _, res = _first_round("two-player", 12, lambda r: not r.draw)
    assert HandOutcome.from_result(res, ["p", "q"]).min_fan == 12
    _, res = _first_round("two-player", None, lambda r: r.draw)
    assert HandOutcome.from_result(res, ["p", "q"], round=2) == HandOutcome(("p", "q"), round=2)


def test_from_result_refuses_what_is_not_a_finished_round():
    from mahjong_core.families.mahjong.api import Round, RoundResult

    with pytest.raises(MahjongError, match="not over"):
        HandOutcome.from_result(Round("two-player", seed=1).result, ("a", "b"))
    with pytest.raises(MahjongError, match="RoundResult"):
        HandOutcome.from_result({"draw": True}, ("a", "b"))
    _, res = _first_round("two-player", None, lambda r: not r.draw)
    with pytest.raises(MahjongError, match="2 players; got 4"):
        HandOutcome.from_result(res, ("a", "b", "c", "d"))
    forged = copy.deepcopy(res.to_dict())
    forged["winners"][0]["total"] = 10 ** 9
    with pytest.raises(StateError, match="total"):
        HandOutcome.from_result(RoundResult(forged), ("a", "b"))
    with pytest.raises(StateError, match="damaged"):
        HandOutcome.from_result(RoundResult({"draw": False, "winners": []}), ("a", "b"))
    with pytest.raises(StateError, match="draw"):
        HandOutcome.from_result(RoundResult({"draw": "no", "winners": [], "dealer": 0, "next_dealer": 0}), ("a", "b"))


def test_settle_hand_checks_its_arguments():
    led = ledger(a=10, b=10)
    with _unchanged(led):
        with pytest.raises(MahjongError, match="Ledger"):
            settle_hand({"a": 10}, "coins", HandOutcome(("a", "b")))
        with pytest.raises(MahjongError, match="HandOutcome"):
            settle_hand(led, "coins", {"players": ("a", "b")})
        with pytest.raises(MahjongError, match="unknown room"):
            settle_hand(led, 3, HandOutcome(("a", "b")))
    from mahjong_core.settlement import escape_payments

    with pytest.raises(MahjongError, match="escaper_balance"):
        escape_payments("coins", HandOutcome(("a", "b"), escaped=0), True)
