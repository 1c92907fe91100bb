"""Issue 27 items 2 and 4: settlement profiles and preset rooms belong to the family that
registers them; the long-card family settles through the shared ``settle_hand`` + ``Ledger`` path;
mahjong results have per-seat ``deltas`` (the unit room's payments)."""

from __future__ import annotations

import dataclasses
import pickle
import random
import warnings

import pytest

import mahjong_core as mj
from mahjong_core.errors import MahjongError, RulesetError
from mahjong_core.families import registry
from mahjong_core.game.bots import play_round
from mahjong_core.settlement import (
    ROOMS,
    HandOutcome,
    Ledger,
    Room,
    SettlementProfile,
    get_profile,
    get_room,
    hand_payments,
    profile_names,
    register_profiles,
    register_rooms,
    settle_hand,
)

LC = "changpai-ydr"
MAHJONG_RULESETS = registry.ruleset_names("mahjong")
PACKAGE_RULESETS = MAHJONG_RULESETS + registry.ruleset_names("longcard")
"""The package's own families' rulesets (a test family registered elsewhere has its own rooms)."""


def ledger(*names: str, balance: int = 1_000) -> Ledger:
    return Ledger({n: balance for n in names})


# ------------------------------------------------------------------ profiles and rooms by family
def test_each_family_registers_its_own_profiles():
    assert profile_names("mahjong") == ("coins_000", "beans_004", "bamboo_001", "public_mcr")
    assert profile_names("longcard") == ("tikan", "fan_cheng_fan")
    assert set(profile_names()) >= set(profile_names("mahjong")) | set(profile_names("longcard"))
    for name in profile_names():
        p = get_profile(name)
        assert isinstance(p, SettlementProfile) and p.name == name and callable(p.hand_payments)
    # every ruleset record's profile is one its own family registered
    for ruleset in PACKAGE_RULESETS:
        record = registry.get_ruleset(ruleset)
        assert get_profile(record.settlement_profile).family == record.family


def test_each_family_registers_its_preset_rooms_and_default_room():
    assert list(ROOMS)[:6] == ["beginner", "coins", "bamboo", "public", "mcr", "changpai"]
    for ruleset in PACKAGE_RULESETS:
        record = registry.get_ruleset(ruleset)
        room = get_room(record.default_room)
        assert room.ruleset == ruleset and get_profile(room.profile).family == record.family
    lc = ROOMS["changpai"]
    assert (lc.ruleset, lc.profile, lc.value_per_fan, lc.base, lc.players) == (LC, "tikan", 1, 1, 3)
    assert (lc.table_fee, lc.service_fee, lc.escape_penalty) == (0, 0, 0)


def test_an_unknown_profile_is_refused_naming_the_registered_ones():
    with pytest.raises(MahjongError) as err:
        Room("x", "two-player", "nope", value_per_fan=1)
    msg = str(err.value)
    assert "'nope'" in msg and all(name in msg for name in profile_names())


def test_a_profile_of_another_family_is_refused():
    with pytest.raises(MahjongError, match=r"'coins_000' settles the mahjong family's rulesets, not changpai-ydr"):
        Room("x", LC, "coins_000", value_per_fan=1)
    with pytest.raises(MahjongError, match=r"'tikan' settles the longcard family's rulesets, not public"):
        Room("x", "public", "tikan", value_per_fan=1)


def test_registering_a_taken_profile_or_room_name_is_a_ruleset_error():
    before = (profile_names(), dict(ROOMS))
    clash = SettlementProfile("coins_000", "longcard", lambda room, outcome: [])
    with pytest.raises(RulesetError, match="'coins_000' is already registered by family 'mahjong'"):
        register_profiles(clash)
    with pytest.raises(RulesetError, match="family .no-such-family. has registered no ruleset"):
        register_profiles(SettlementProfile("fresh", "no-such-family", lambda room, outcome: []))
    with pytest.raises(RulesetError, match="room name 'public' is already taken"):
        register_rooms(Room("public", LC, "tikan", value_per_fan=1))
    # a room equal to the registered one is no collision (a family module imported again)
    register_rooms(ROOMS["changpai"])
    register_profiles(get_profile("tikan"))
    assert (profile_names(), dict(ROOMS)) == before


def test_old_names_keep_working():
    import mahjong_core.settlement as settlement
    import mahjong_core.settlement.rooms as rooms

    for module in (settlement, rooms):
        with pytest.warns(DeprecationWarning, match=r"profile_names\(\)"):
            assert set(module.PROFILES) >= {"coins_000", "beans_004", "bamboo_001", "public_mcr"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from mahjong_core.settlement import ROOMS as rooms_again, get_room as get_room_again
        assert rooms_again is ROOMS and get_room_again("beginner") is ROOMS["beginner"]
        assert get_room("bamboo").profile == "bamboo_001"


def test_users_find_the_rooms_through_the_shared_mapping():
    from mahjong_core.rl.rewards import default_room
    from mahjong_core.server.settings import ServerSettings

    for ruleset in PACKAGE_RULESETS:
        assert default_room(ruleset) is ROOMS[registry.get_ruleset(ruleset).default_room]
    assert ServerSettings().room("changpai") == ROOMS["changpai"]


# ------------------------------------------------------------------ long-card rooms through the Ledger
PLAYERS = ("a", "b", "c")


@pytest.mark.parametrize("mode, fan, each", [
    # spec 5.5: W1 wins with 4 fan: each of the two others pays 5 (梯坎番) / 16 (番乘番)
    ("tikan", 4, 5), ("fan_cheng_fan", 4, 16),
    # W2 (banker) wins with 8 fan: 9 / 256
    ("tikan", 8, 9), ("fan_cheng_fan", 8, 256),
])
def test_a_long_card_win_settles_in_the_room_through_the_ledger(mode, fan, each):
    room = dataclasses.replace(ROOMS["changpai"], profile=mode)
    led = ledger(*PLAYERS)
    won = HandOutcome(PLAYERS, winner=1, method="self_drawn", hand_value=fan, non_flower_total=fan, round=3)
    transfers = settle_hand(led, room, won)
    assert [(t.payer, t.payee, t.amount, t.reason, t.round) for t in transfers] == [
        ("a", "b", each, "win", 3), ("c", "b", each, "win", 3)]
    assert [led.balance(n) for n in PLAYERS] == [1_000 - each, 1_000 + 2 * each, 1_000 - each]


@pytest.mark.parametrize("mode, n_b, each", [
    # spec 5.5: 包子, offender not ready, H = 2: N_b = max(3, 2) = 3: pays 4 (梯坎番) / 8 (番乘番) to each
    ("tikan", 3, 4), ("fan_cheng_fan", 3, 8),
    # offender ready, best_win = 5: 6 / 32 to each
    ("tikan", 5, 6), ("fan_cheng_fan", 5, 32),
])
def test_a_baozi_is_paid_by_the_offender_to_each_other_seat(mode, n_b, each):
    room = dataclasses.replace(ROOMS["changpai"], profile=mode)
    led = ledger(*PLAYERS)
    baozi = HandOutcome(PLAYERS, offender=2, hand_value=n_b)
    assert not baozi.is_draw
    transfers = settle_hand(led, room, baozi)
    assert [(t.payer, t.payee, t.amount, t.reason) for t in transfers] == [
        ("c", "a", each, "baozi"), ("c", "b", each, "baozi")]
    assert [led.balance(n) for n in PLAYERS] == [1_000 + each, 1_000 + each, 1_000 - 2 * each]


def test_the_room_unit_multiplies_the_points_and_a_draw_pays_nothing():
    room = dataclasses.replace(ROOMS["changpai"], value_per_fan=10)
    won = HandOutcome(PLAYERS, winner=0, method="self_drawn", hand_value=4, non_flower_total=4)
    assert hand_payments(room, won) == [("b", "a", 50, "win"), ("c", "a", 50, "win")]
    assert hand_payments(room, HandOutcome(PLAYERS)) == []


def test_a_mahjong_profile_refuses_an_offender_hand_and_nothing_moves():
    led = ledger("a", "b")
    with pytest.raises(MahjongError, match="settles wins only"):
        settle_hand(led, "coins", HandOutcome(("a", "b"), offender=0, hand_value=3))
    assert [led.balance(n) for n in ("a", "b")] == [1_000, 1_000] and led.transfers == []


def test_an_offender_hand_has_no_winner_loser_method_or_escape():
    for bad in ({"winner": 1, "method": "self_drawn"}, {"loser": 1}, {"method": "discard"}, {"escaped": 1}):
        with pytest.raises(MahjongError):
            HandOutcome(PLAYERS, offender=0, hand_value=3, **bad)
    with pytest.raises(MahjongError, match="offender"):
        HandOutcome(PLAYERS, offender=3, hand_value=3)


class _AnyLegal:
    """Uniform over every legal action, penalised ones too (the family's bots avoid a 包子)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act_index(self, rnd, seat: int) -> int:
        return self.rng.choice(rnd.legal_indices(seat))

    def act(self, rnd, seat: int):
        return rnd.decode_action(seat, self.act_index(rnd, seat))


def _long_card_results(ends: set[str]) -> dict[str, object]:
    """The first result of each end in ``ends`` over seeded hands: the family's greedy bot in
    seats 0 and 1 (it wins), one that takes any action in seat 2 (it incurs 包子)."""
    found: dict[str, object] = {}
    greedy = registry.get_family("longcard").bots["greedy"]
    for seed in range(400):
        r = mj.Round(ruleset=LC, seed=seed)
        play_round(r, [greedy(seed), greedy(seed), _AnyLegal(seed)])
        end = r.result.end
        if end in ends and end not in found:
            found[end] = r.result
        if set(found) == ends:
            return found
    raise AssertionError(f"no {ends - set(found)} in 400 seeded hands")


def test_a_long_card_hand_result_settles_as_its_own_payments_in_the_default_room():
    """HandOutcome.from_result reads a long-card result (the family's registered reader); in the
    preset room (the spec's defaults: 梯坎番, base 1) the ledger moves exactly the hand's deltas."""
    results = _long_card_results({"win", "baozi"})
    for end, res in results.items():
        outcome = HandOutcome.from_result(res, PLAYERS, round=0)
        if end == "win":
            assert (outcome.winner, outcome.hand_value, outcome.offender) == (res.winner, res.fan, None)
        else:
            assert (outcome.winner, outcome.hand_value, outcome.offender) == (None, res.fan, res.offender)
        led = ledger(*PLAYERS)
        settle_hand(led, registry.get_ruleset(LC).default_room, outcome)
        assert [led.balance(n) - 1_000 for n in PLAYERS] == res.deltas
    assert HandOutcome.from_result(results["win"], list(PLAYERS)) == pickle.loads(pickle.dumps(
        HandOutcome.from_result(results["win"], PLAYERS)))
    with pytest.raises(MahjongError, match="3 players"):
        HandOutcome.from_result(results["win"], ("a", "b"))


# ------------------------------------------------------------------ mahjong deltas (item 2)
def _unit_payments(ruleset: str, result) -> list[int]:
    """The unit room's settlement of each winner, counted here through settle_hand and a Ledger."""
    room = Room("unit", ruleset, registry.get_ruleset(ruleset).settlement_profile, value_per_fan=1)
    names = tuple(f"p{k}" for k in range(room.players))
    led = ledger(*names, balance=10 ** 9)
    for w in result.winners:
        outcome = HandOutcome(names, winner=w["seat"], loser=w["loser"], method=w["method"], hand_value=w["total"],
                              non_flower_total=w["non_flower_total"], min_fan=w["score"]["min_fan"])
        settle_hand(led, room, outcome)
    return [led.balance(n) - 10 ** 9 for n in names]


@pytest.mark.parametrize("ruleset", MAHJONG_RULESETS)
def test_mahjong_deltas_are_the_unit_room_settlement_and_sum_to_zero(ruleset):
    players = registry.get_ruleset(ruleset).players
    wins = 0
    for seed in range(60):
        r = mj.Round(ruleset, seed=seed)
        play_round(r, [mj.GreedyBot() for _ in range(players)])
        res = r.result
        deltas = res.deltas
        assert isinstance(deltas, list) and len(deltas) == players and sum(deltas) == 0
        assert deltas == _unit_payments(ruleset, res)
        if res.draw:
            assert deltas == [0] * players
        else:
            wins += 1
            assert deltas[res.winner] > 0
            # the simulation's unit room: the same payments as HandOutcome.from_result in it
            outcome = HandOutcome.from_result(res, [str(k) for k in range(players)])
            paid = [0] * players
            for payer, payee, amount, _ in hand_payments(
                    Room("unit", ruleset, registry.get_ruleset(ruleset).settlement_profile, value_per_fan=1), outcome):
                paid[int(payer)] -= amount
                paid[int(payee)] += amount
            assert paid == deltas
        # the deltas survive the round trips of a result (a draw knows its table from its ruleset)
        assert pickle.loads(pickle.dumps(res)).deltas == deltas
        assert type(r).from_json(r.to_json()).result.deltas == deltas
    assert wins >= 10


@pytest.mark.parametrize("ruleset", MAHJONG_RULESETS)
def test_mahjong_match_round_results_have_deltas(ruleset):
    m = mj.Match(ruleset, seed=11, rounds=6)
    bots = [mj.GreedyBot() for _ in range(registry.get_ruleset(ruleset).players)]
    mj.play_match(m, bots)
    results = m.round_results
    assert len(results) == 6
    for res in results:
        assert sum(res.deltas) == 0 and res.deltas == _unit_payments(ruleset, res)


def test_mahjong_deltas_follow_the_public_mcr_unit_room():
    """public: 8 points from each of the three others, plus F from the discarder (one point per fan)."""
    rng = random.Random(5)
    for seed in rng.sample(range(10_000), 80):
        r = mj.Round("public", seed=seed)
        play_round(r, [mj.GreedyBot() for _ in range(4)])
        res = r.result
        if res.draw or len(res.winners) != 1:
            continue
        w = res.winners[0]
        expect = [-8] * 4
        expect[w["seat"]] = 0
        if w["loser"] is None:
            expect = [-(8 + w["total"]) if k != w["seat"] else 0 for k in range(4)]
        else:
            expect[w["loser"]] -= w["total"]
        expect[w["seat"]] = -sum(expect)
        assert res.deltas == expect
        return
    raise AssertionError("no single public win in 80 seeded rounds")


def test_a_draw_rebuilt_from_its_dict_alone_does_not_know_its_table():
    for seed in range(200):
        r = mj.Round("two-player", seed=seed)
        play_round(r, [mj.GreedyBot(), mj.GreedyBot()])
        if r.result.draw:
            assert r.result.deltas == [0, 0]
            assert type(r.result)(r.result.to_dict()).deltas is None
            return
    raise AssertionError("no draw in 200 seeded rounds")


def test_the_server_offers_every_familys_rooms_and_refuses_an_unknown_one(tmp_path):
    """The lobby lists the preset rooms of every family it can host (issue 28: the long-card rooms
    too, played with that family's match and bots); an unknown room is refused at join, nothing stored."""
    from mahjong_core.errors import JoinError
    from mahjong_core.server import ServerSettings
    from mahjong_core.server.lobby import Lobby, hosted_rooms

    assert hosted_rooms() == ("beginner", "coins", "bamboo", "public", "mcr", "changpai", "changpai-fcf")
    lobby = Lobby(ServerSettings(db=str(tmp_path / "lobby.db"), init=True, claim_pause_s=0.0))
    assert [r["name"] for r in lobby.rooms()] == list(hosted_rooms())
    with pytest.raises(JoinError, match="unknown room; expected one of beginner, coins, bamboo, public, mcr, changpai, "
                                        "changpai-fcf"):
        lobby.join("alice", "nowhere")
    assert lobby.tables == {} and "alice" not in lobby.points
    seat = lobby.join("alice", "changpai")
    assert seat["ruleset"] == LC and lobby.tables[seat["table"]].status == "playing"
    lobby.close()
