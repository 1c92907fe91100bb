"""Game flow (spec section 2): every rule from a scripted wall."""

from __future__ import annotations

import pytest

from mahjong_core.errors import IllegalActionError
from mahjong_core.families.mahjong.api import (
    Chi,
    DeclareReady,
    Discard,
    Kong,
    Match,
    Pass,
    Pon,
    Round,
    Win,
    flow_settings,
    script_wall,
)
from mahjong_core.families.mahjong.wall import Wall, deal_order, physical_position
from mahjong_core.families.mahjong.tiles import parse_tiles

# ---------------------------------------------------------------------------------------- helpers


def T(s: str) -> int:
    t = parse_tiles(s)
    assert len(t) == 1
    return t[0]


def mk(ruleset, hands, draws="", tail="", dealer=0, **kw) -> Round:
    s = flow_settings(ruleset, kw.get("options"), kw.get("min_fan"))
    wall = script_wall(s, hands, draws, tail, dealer=dealer)
    return Round(ruleset, 0, dealer=dealer, wall=wall, **kw)


def full_wall(ruleset, final, flowers, last=(), dealer=0, **kw) -> Round:
    """Every flower dealt (replaced from the tail at once), the final hands ``final[seat]`` after the
    replacement, then every other tile as head draws with ``last`` at the very end."""
    s = flow_settings(ruleset, kw.get("options"), kw.get("min_fan"))
    P = s.players
    hands = [None] * P
    tail = []
    for k in range(P):
        seat = (dealer + k) % P
        fl = parse_tiles(flowers[seat]) if flowers[seat] else []
        fin = parse_tiles(final[seat])
        n = len(fl)
        hands[seat] = fl + fin[: len(fin) - n]
        tail += fin[len(fin) - n:]
    used = [t for h in hands for t in h] + tail
    last = parse_tiles(last) if isinstance(last, str) else list(last)
    pool = s.tile_set()
    for t in used + last:
        pool.remove(t)
    wall = script_wall(s, hands, pool + last, tail, dealer=dealer)
    return Round(ruleset, 0, dealer=dealer, wall=wall, **kw)


def tsumogiri_until(r: Round, stop) -> None:
    """Discard every drawn tile and pass on every claim until ``stop(r)`` or the end."""
    while not r.is_over and not stop(r):
        seat = r.seats_to_act()[0]
        if r.phase_name == "turn":
            t = r.drawn if r.drawn >= 0 else r.hand(seat)[-1]
            r.step(seat, Discard(t))
        else:
            r.step(seat, Pass())


def fans(r: Round) -> set[str]:
    return set(r.result.fan_ids)


def assert_refused(r: Round, seat, action, *words):
    before = r.to_json()
    with pytest.raises(IllegalActionError) as ei:
        r.step(seat, action)
    for w in words:
        assert w in str(ei.value), str(ei.value)
    assert r.to_json() == before
    return str(ei.value)


# ---------------------------------------------------------------------------------------- 1.4 wall


def test_logical_wall_head_tail_and_die():
    w = Wall(list(range(20)))  # 10 stacks
    assert [w.draw_head(), w.draw_head(), w.draw_head()] == [0, 1, 2]
    assert [w.draw_tail(), w.draw_tail(), w.draw_tail()] == [18, 19, 16]
    # die 3: third non-empty stack from the tail: stacks 8 (bottom left), 7, 6 -> stack 6 top
    assert w.draw_die(3) == 12
    assert w.draw_die(3) == 13  # stack 6 bottom
    # stack 6 is empty now: counting skips it: 8, 7, 5
    assert w.draw_die(3) == 10
    assert w.remaining == 20 - 9
    # fewer non-empty stacks than the die: the one nearest the head
    w2 = Wall(list(range(6)))
    w2.draw_head(); w2.draw_head()
    assert w2.draw_die(6) == 2
    assert w2.draw_die(6) == 3
    assert w2.draw_die(6) == 4 and w2.draw_die(1) == 5 and w2.remaining == 0


def test_wall_round_trip_with_holes():
    w = Wall(list(range(40)))
    w.draw_head(); w.draw_die(4); w.draw_tail(); w.draw_die(2)
    w2 = Wall.from_dict(w.to_dict())
    assert (w2.head, w2.tail, w2.remaining, w2.taken) == (w.head, w.tail, w.remaining, w.taken)
    assert [w2.draw_die(5) for _ in range(3)] == [w.draw_die(5) for _ in range(3)]


def test_physical_position_display_only():
    # 4 players, dealer 0, dice sum 6: wall of seat (0+5)%4 = 1 is opened; dealing starts at its 7th stack
    assert physical_position(4, 0, 6, 0) == (1, 6)
    # the tail is the S-th stack of the opened wall
    assert physical_position(4, 0, 6, 71) == (1, 5)
    # two players, odd sum opens the dealer's wall
    assert physical_position(2, 0, 7, 0)[0] == 0
    assert physical_position(2, 0, 8, 0)[0] == 1


# ---------------------------------------------------------------------------------------- 2.2 start


@pytest.mark.parametrize("ruleset", ["two-player", "two-player-bamboo", "public"])
@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_sizes_and_wall(ruleset, dealer):
    for seed in range(5):
        r = Round(ruleset, seed, dealer=dealer)
        P = r.players
        for s in range(P):
            assert r.concealed_size(s) == (14 if s == dealer else 13)
        n = 72 if P == 2 else 144
        dealt = 27 if P == 2 else 53
        n_fl = sum(len(f) for f in r.flowers)
        assert r.wall_remaining == n - dealt - n_fl  # each flower took one tail draw
        assert 1 <= r.dice[0] <= 6 and 1 <= r.dice[1] <= 6
        ev = [e for e in r.log if e["type"] == "dice"][0]
        assert ev["dice"] == r.dice and r.log[0]["seed"] == seed


def test_deal_order_public():
    s = flow_settings("public")
    order = deal_order(4, 2)
    assert order[:4] == [2] * 4 and order[4:8] == [3] * 4 and order[16:20] == [2] * 4
    assert order[48:] == [2, 2, 3, 0, 1] and len(order) == 53
    hands = [parse_tiles(h) for h in
             ["123456789m1234p", "56789p12345678s", "999sESWNCFP11m2m3m", "3m4m5m6m7m8m9m2p3p4p5p6p7p"]]
    r = Round("public", 0, dealer=2, wall=script_wall(s, hands, dealer=2))
    for seat in range(4):
        assert r.hand(seat) == sorted(hands[seat])
    deals = {e["seat"]: e["tiles"] for e in r.log if e["type"] == "deal"}
    assert deals == {seat: hands[seat] for seat in range(4)}
    assert [e["seat"] for e in r.log if e["type"] == "deal"] == [2, 3, 0, 1]  # dealer first
    assert r.seats_to_act() == [2] and r.drawn == -1  # the dealer acts without drawing


def test_initial_flower_chain_from_tail():
    # dealer's 1f is replaced by 3f (a flower again) and then 5m; then the non-dealer's 2f by C
    r = mk("two-player", ["1f123m456m789mEECP", "2f11m22m33mSSWWNP"], tail="3f5mC")
    assert r.flowers == [[34, 36], [35]]
    fl = [(e["type"], e["seat"], e.get("tile"), e.get("from")) for e in r.log if e["type"] in ("flower", "draw")]
    assert fl == [("flower", 0, 34, None), ("draw", 0, 36, "tail"), ("flower", 0, 36, None),
                  ("draw", 0, T("5m"), "tail"), ("flower", 1, 35, None), ("draw", 1, T("C"), "tail")]
    assert r.concealed_size(0) == 14 and r.concealed_size(1) == 13
    assert r.wall_remaining == 72 - 27 - 3


def test_flower_drawn_in_play_chain():
    r = mk("two-player", ["123m456m789mEECFP", "11m22m33mSSWWNNP"], draws="5f", tail="6f7m")
    r.step(1, Pass())
    r.step(0, Discard(T("F")))
    # non-dealer draws 5f -> tail 6f -> tail 7m
    assert r.flowers[1] == [38, 39] and r.drawn == T("7m") and r.turn == 1
    assert r.drawn_src == 3  # flower replacement


# ---------------------------------------------------------------------------------------- 2.4 claims

def test_chi_only_from_previous_player_public():
    hands = ["3m19p19sESWNCFP5p7s", "12m2p4p6p8p2s4s6s8sEEC", "45m2p4p6p8p2s4s6s8sSSF",
             "2334m2p4p6p8p2s4s6s8sW"]
    r = mk("public", hands)
    r.step(0, Discard(T("3m")))
    # seat 1 (下家 of the discarder) may chi; seat 3 may only pon; seat 2 has nothing
    assert sorted(r.seats_to_act()) == [1, 3]
    assert r.legal_actions(1) == [Chi((0, 1, 2)), Pass()]
    assert r.legal_actions(3) == [Pon(), Pass()]
    assert r.legal_actions(2) == []
    assert_refused(r, 2, Chi((2, 3, 4)), "not to act")
    assert_refused(r, 3, Chi((1, 2, 3)), "上家")
    r.step(3, Pass())
    r.step(1, Chi((0, 1, 2)))
    assert r.turn == 1 and r.must_discard and r.melds[1] == [[0, 0, 0, T("3m"), 0]]
    # after a chi only a discard (no kong, no win)
    assert all(a.type == "discard" for a in r.legal_actions(1))
    assert r.discards[0] == []  # the claimed tile left the pool


def test_chi_from_any_player_option():
    hands = ["3m19p19sESWNCFP5p7s", "12m2p4p6p8p2s4s6s8sEEC", "45m2p4p6p8p2s4s6s8sSSF",
             "2334m2p4p6p8p2s4s6s8sW"]
    r = mk("public", hands, options={"chi_from_previous_only": False})
    r.step(0, Discard(T("3m")))
    assert sorted(r.seats_to_act()) == [1, 2, 3]
    assert Chi((2, 3, 4)) in r.legal_actions(2)


def test_two_player_chi_from_opponent():
    r = mk("two-player", ["3m456m789mEEECCFF", "12m99mSSSWWNNPF"])
    r.step(1, Pass())
    r.step(0, Discard(T("3m")))
    assert r.legal_actions(1) == [Chi((0, 1, 2)), Pass()]


PRIO = ["5p19m19sESWNCFP3m7s", "46p2m4m6m8m2s4s6s8sEEC", "55p2m4m6m8m2s4s6s8sSSF", "2m4m6m8m2s4s6s8sWWN1pP"]


@pytest.mark.parametrize("order", [(1, 2), (2, 1)])
def test_pon_beats_chi(order):
    r = mk("public", PRIO)
    r.step(0, Discard(T("5p")))
    assert sorted(r.seats_to_act()) == [1, 2]
    acts = {1: Chi((T("4p"), T("5p"), T("6p"))), 2: Pon()}
    for s in order:
        r.step(s, acts[s])
    assert r.turn == 2 and r.phase_name == "turn" and r.must_discard
    assert r.melds[2] == [[1, T("5p"), 0, T("5p"), 0]] and r.melds[1] == []
    r.step(2, Discard(T("F")))
    # play continues from the claimer: seat 3 is next (seat 1 lost its turn)
    assert r.seats_to_act() == [3] and r.drawn >= 0


def test_win_beats_pon_and_min_fan_zero():
    hands = ["5p19m19sESWNCFP3s7s", "2s4s6s8sEEC79p1p9sN1s", "55p2m4m6m8m2s4s6s8sSSF", "46p123456789mWW"]
    r = mk("public", hands, min_fan=0)
    r.step(0, Discard(T("5p")))
    assert sorted(r.seats_to_act()) == [2, 3]
    assert r.legal_actions(3) == [Win(), Pass()]
    r.step(2, Pon())
    r.step(3, Win())
    res = r.result
    assert res.winner == 3 and res.loser == 0 and res.method == "discard" and not res.draw
    assert r.melds[2] == []
    assert res.next_dealer == 3 and not res.dealer_continues
    args = res.winners[0]["score_args"]
    assert (args["seat_wind"], args["round_wind"]) == (30, 27)  # seat 3 is North with dealer 0 (OP-13)


HEADBUMP = ["5p7m3sESWNCCPFF8p9s", "46p123456789sEE", "19p258sSSSNNFFP", "46p123456789mWW"]


@pytest.mark.parametrize("order", [(1, 3), (3, 1)])
def test_head_bump_first_in_turn_order(order):
    r = mk("public", HEADBUMP, min_fan=0)
    r.step(0, Discard(T("5p")))
    assert sorted(r.seats_to_act()) == [1, 3]
    for s in order:
        r.step(s, Win())
    assert r.result.winner == 1 and len(r.result.winners) == 1


def test_head_bump_seat_after_discarder_wins_even_if_later_seat_claims_alone():
    r = mk("public", HEADBUMP, min_fan=0)
    r.step(0, Discard(T("5p")))
    r.step(3, Win())
    r.step(1, Pass())
    assert r.result.winner == 3


def test_multiple_winners_option():
    r = mk("public", HEADBUMP, min_fan=0, options={"multiple_winners": True})
    r.step(0, Discard(T("5p")))
    r.step(3, Win())
    r.step(1, Win())
    assert [w["seat"] for w in r.result.winners] == [1, 3]


def test_no_claim_next_player_draws():
    r = mk("two-player", ["123m456m789mEECCF", "11m22m33mSSWWNNP"], draws="P")
    r.step(1, Pass())
    r.step(0, Discard(T("F")))
    assert r.seats_to_act() == [1] and r.drawn == T("P") and r.concealed_size(1) == 14


# ---------------------------------------------------------------------------------------- 2.5 kongs


def test_discard_kong_tail_replacement():
    r = mk("two-player", ["E123m567mCCFFPS9m", "EEE2m4m6m8mSSWWN1m"], tail="N")
    r.step(1, Pass())
    r.step(0, Discard(T("E")))
    assert r.legal_actions(1) == [Pon(), Kong(T("E"), "exposed"), Pass()]
    ev = r.step(1, Kong(T("E"), "exposed"))
    assert {"type": "draw", "seat": 1, "tile": T("N"), "from": "tail"} in ev
    assert r.melds[1] == [[2, T("E"), 0, T("E"), 0]]
    assert r.turn == 1 and r.drawn == T("N") and r.drawn_src == 2
    assert r.concealed_size(1) == 11  # 13 - 3 + 1 (a kong adds one tile beyond 13)


def test_public_kong_replacement_by_die():
    hands = ["C19m19sESWNFP3m7s5p", "CCC2m4m6m8m2s4s6s8sEE", "2p4p6p8p2s4s6s8sSSF1p9s", "2m4m6m8m2p4p6p8pWWN9p1s"]
    s = flow_settings("public")
    wall = script_wall(s, hands)
    r = Round("public", 0, wall=wall, kong_dice=[3])
    r.step(0, Discard(T("C")))
    ev = r.step(1, Kong(T("C"), "exposed"))
    d = [e for e in ev if e["type"] == "draw"][0]
    assert d["from"] == "die" and d["die"] == 3
    assert d["tile"] == wall[2 * (72 - 3)]  # top of the 3rd stack from the tail


def test_public_die_flower_then_plain_tail():
    hands = ["C19m19sESWNFP3m7s5p", "CCC2m4m6m8m2s4s6s8sEE", "2p4p6p8p2s4s6s8sSSF1p9s", "2m4m6m8m2p4p6p8pWWN9p1s"]
    s = flow_settings("public")
    wall = script_wall(s, hands)
    # put flower 1f on top of the 2nd stack from the tail
    i_fl = wall.index(34)
    j = 2 * (72 - 2)
    wall[i_fl], wall[j] = wall[j], wall[i_fl]
    assert i_fl > 53 and wall[2 * 71] < 34
    r = Round("public", 0, wall=wall, kong_dice=[2])
    r.step(0, Discard(T("C")))
    ev = r.step(1, Kong(T("C"), "exposed"))
    draws = [e for e in ev if e["type"] == "draw"]
    assert draws[0]["tile"] == 34 and draws[0]["from"] == "die"
    assert draws[1]["from"] == "tail" and draws[1]["tile"] == wall[2 * 71]  # plain tail draw (OP-16)
    assert r.flowers[1] == [34] and r.drawn_src == 3


def test_concealed_kong_and_views():
    hands = ["CCCC19m19sESWNFP", "2m4m6m8m2s4s6s8sEE1p3p5p", "2p4p6p8p2s4s6s8sSSF1p9s", "2m4m6m8m2p4p6p8pWWN9p1s"]
    r = mk("public", hands, kong_dice=[1])
    assert Kong(T("C"), "concealed") in r.legal_actions(0)
    assert_refused(r, 0, Kong(T("C"), "added"), "no exposed pung")
    r.step(0, Kong(T("C"), "concealed"))
    assert r.melds[0] == [[3, T("C"), -1, -1, 0]] and r.drawn_src == 2 and r.turn == 0
    assert r.view(0)["melds"][0] == [{"kind": "ckong", "tiles": [T("C")] * 4, "from": None}]
    assert r.view(1)["melds"][0] == [{"kind": "ckong", "tiles": None, "from": None}]
    from mahjong_core.families.mahjong.api import redact_event

    k = [e for e in r.log if e["type"] == "kong"][0]
    assert redact_event(k, 1)["tile"] is None and redact_event(k, 0)["tile"] == T("C")


ROB = ["123m789mCCCNN4m5mW", "55mSSSEEEFFFPN"]


def _rob_setup(tail="P"):
    r = mk("two-player", ROB, draws="6m5m", tail=tail)
    assert r.legal_actions(1) == [Pass()]  # not ready: no 天听 declaration
    r.step(1, Pass())
    r.step(0, Discard(T("5m")))
    r.step(1, Pon())
    # a kong right after a pon is not allowed (2.3)
    assert_refused(r, 1, Kong(T("5m"), "added"), "must discard")
    r.step(1, Discard(T("N")))
    r.step(0, Pass())  # the dealer could pon N
    r.step(0, Discard(T("W")))  # drew 6m; now waiting on 5m
    assert r.turn == 1 and r.drawn == T("5m")
    assert Kong(T("5m"), "added") in r.legal_actions(1)
    return r


def test_added_kong_robbed():
    r = _rob_setup()
    r.step(1, Kong(T("5m"), "added"))
    assert r.phase_name == "rob" and r.seats_to_act() == [0]
    assert r.legal_actions(0) == [Win(), Pass()]
    r.step(0, Win())
    res = r.result
    assert res.winner == 0 and res.loser == 1 and res.method == "robbing"
    assert "robbing_the_kong" in fans(r)
    assert r.melds[1][0][0] == 1  # the pung stays a pung
    assert r.concealed_size(0) == 14


def test_added_kong_not_robbed_completes_then_bloom():
    r = _rob_setup(tail="P")
    r.step(1, Kong(T("5m"), "added"))
    ev = r.step(0, Pass())
    assert r.melds[1][0] == [2, T("5m"), 0, T("5m"), 1]
    assert {"type": "draw", "seat": 1, "tile": T("P"), "from": "tail"} in ev
    assert Win() in r.legal_actions(1)
    r.step(1, Win())
    assert "out_with_replacement_tile" in fans(r) and r.result.method == "self_drawn"


def test_no_rob_option_when_disabled():
    r = mk("two-player", ROB, draws="6m5m", tail="P", options={"rob_kong": False})
    r.step(1, Pass()); r.step(0, Discard(T("5m"))); r.step(1, Pon()); r.step(1, Discard(T("N")))
    r.step(0, Pass()); r.step(0, Discard(T("W")))
    r.step(1, Kong(T("5m"), "added"))
    assert r.turn == 1 and r.drawn == T("P")


# ---------------------------------------------------------------------------------------- 2.7 报听

BAMBOO = ["123s789sCCCNN4s5sW", "SSSEEEFFFPP11s"]


def test_bamboo_ready_lock_and_riichi():
    r = mk("two-player-bamboo", BAMBOO, draws="NC3s")
    assert r.legal_actions(1) == [DeclareReady(), Pass()]
    r.step(1, Pass())
    assert Discard(T("W"), True) in r.legal_actions(0)
    assert_refused(r, 0, Discard(T("1s"), True), "not ready")
    ev = r.step(0, Discard(T("W"), True))
    d = [e for e in ev if e["type"] == "discard"][0]
    assert d["ready"] and d["heavenly"]
    r.step(1, Discard(T("N")))  # the locked dealer may not pon N: no claim window
    assert r.seats_to_act() == [0] and r.drawn == T("C")
    # locked: only the drawn tile may be discarded; no concealed kong of CCCC
    assert r.legal_actions(0) == [Discard(T("C"))]
    assert_refused(r, 0, Discard(T("4s")), "报听")
    assert_refused(r, 0, Kong(T("C"), "concealed"), "报听")
    r.step(0, Discard(T("C")))
    r.step(1, Discard(T("3s")))
    assert r.legal_actions(0) == [Win(), Pass()]  # a locked hand may win on a discard, never chi
    r.step(0, Win())
    f = fans(r)
    assert {"riichi", "heavenly_ready"} <= f


def test_bamboo_ready_on_later_discard_not_heavenly():
    r = mk("two-player-bamboo", BAMBOO, draws="NN")
    r.step(1, Pass())
    r.step(0, Discard(T("N")))  # the dealer does not declare with his first discard
    r.step(1, Discard(T("N")))  # the non-dealer drew N
    assert r.turn == 0 and r.drawn == T("N")
    assert Discard(T("W"), True) in r.legal_actions(0)
    r.step(0, Discard(T("W"), True))
    assert r.ready[0] and r.ready_concealed[0] and not r.heavenly_ready[0]


def test_two_player_ready_only_as_heavenly_ready():
    r = mk("two-player", ["123m789mCCCNN4m5mW", "SSSEEEFFFPP11m"], draws="N9m")
    r.step(1, Pass())
    r.step(0, Discard(T("N")))  # no declaration with the first discard
    r.step(1, Discard(T("N")))
    assert r.turn == 0 and r.drawn == T("9m")
    assert Discard(T("W"), True) not in r.legal_actions(0)
    assert_refused(r, 0, Discard(T("W"), True), "天听")


def test_public_has_no_ready():
    r = Round("public", 3)
    t = r.hand(r.dealer)[0]
    assert_refused(r, r.dealer, Discard(t, True), "no 报听")


# ---------------------------------------------------------------------------------------- 2.11 first-turn fans

NON_DEALER_C = "123m456m789mEEEC"


def test_heavenly_hand():
    r = mk("two-player", ["123m456m789mEEECC", "11223344mSSSWN"])
    r.step(1, Pass())
    assert Win() in r.legal_actions(0)
    r.step(0, Win())
    assert "heavenly_hand" in fans(r) and r.result.method == "self_drawn"
    assert r.result.winners[0]["win_tile"] is None
    assert r.result.next_dealer == 0 and r.result.dealer_continues


def test_heavenly_hand_after_flower_replacement():
    r = mk("two-player", ["1f123m456m789mEEEC", "11223344mSSSWN"], tail="C")
    r.step(1, Pass())
    r.step(0, Win())
    assert "heavenly_hand" in fans(r) and "flower_tiles" in fans(r)


def test_heavenly_cancelled_by_concealed_kong():
    r = mk("two-player", ["1111m234m567mEEEC", "99m88mSSSWWNNFP"], tail="C")
    r.step(1, Pass())
    r.step(0, Kong(T("1m"), "concealed"))
    r.step(0, Win())
    f = fans(r)
    assert "heavenly_hand" not in f and "out_with_replacement_tile" in f


def test_earthly_hand():
    r = mk("two-player", ["11m22m33mSSWWNFP4m", NON_DEALER_C], draws="C")
    r.step(1, Pass())  # (the non-dealer is ready but does not declare)
    r.step(0, Discard(T("F")))
    assert Win() in r.legal_actions(1)
    r.step(1, Win())
    assert "earthly_hand" in fans(r) and "heavenly_ready" not in fans(r)
    assert r.result.next_dealer == 1


def test_earthly_hand_through_flower_chain():
    r = mk("two-player", ["11m22m33mSSWWNFP4m", NON_DEALER_C], draws="1f", tail="2fC")
    r.step(1, Pass())
    r.step(0, Discard(T("F")))
    r.step(1, Win())
    assert "earthly_hand" in fans(r)


def test_earthly_cancelled_by_dealer_concealed_kong():
    r = mk("two-player", ["SSSS11m22m33mWWNF", NON_DEALER_C], draws="C", tail="P")
    r.step(1, Pass())
    r.step(0, Kong(T("S"), "concealed"))
    r.step(0, Discard(T("F")))
    r.step(1, Win())
    assert "earthly_hand" not in fans(r)


def test_earthly_cancelled_by_claim():
    r = mk("two-player", ["11m22m33mSSWWNFPE", "123m456m789mECFF"], draws="NC")
    r.step(1, Pass())
    r.step(0, Discard(T("F")))
    r.step(1, Pon())
    r.step(1, Discard(T("E")))
    r.step(0, Discard(T("P")))
    assert r.turn == 1 and r.drawn == T("C")
    r.step(1, Win())
    assert "earthly_hand" not in fans(r)


def test_humanly_hand_and_heavenly_ready_window():
    r = mk("two-player", ["C11mSSWWNNFFPP2m", NON_DEALER_C])
    assert r.phase_name == "ready_window" and r.seats_to_act() == [1]
    ev = r.step(1, DeclareReady())
    assert ev[-1] == {"type": "ready", "seat": 1, "heavenly": True}
    assert r.ready[1] and r.heavenly_ready[1]
    r.step(0, Discard(T("C")))
    assert r.legal_actions(1) == [Win(), Pass()]
    r.step(1, Win())
    assert {"humanly_hand", "heavenly_ready"} <= fans(r)
    assert r.result.method == "discard" and r.result.loser == 0


def test_humanly_cancelled_by_dealer_kong_keeps_non_dealer_heavenly_ready():
    r = mk("two-player", ["SSSSC11mWWNNFFP", NON_DEALER_C], tail="P")
    r.step(1, DeclareReady())
    r.step(0, Kong(T("S"), "concealed"))
    r.step(0, Discard(T("C")))
    r.step(1, Win())
    f = fans(r)
    assert "humanly_hand" not in f and "heavenly_ready" in f


def test_no_furiten_pass_then_win_later():
    r = mk("two-player", ["C11mSSWWNNFFPP2m", NON_DEALER_C], draws="C")
    r.step(1, Pass())
    r.step(0, Discard(T("C")))
    r.step(1, Pass())  # passes on 人胡
    assert r.turn == 1 and r.drawn == T("C")
    r.step(1, Win())  # and may still win later (OP-38)
    assert r.result.winner == 1 and "humanly_hand" not in fans(r)


def test_dealer_heavenly_ready():
    r = mk("two-player", ["123m456m789mEEECW", "11223344mSSSWN"], draws="N")
    r.step(1, Pass())
    assert Discard(T("W"), True) in r.legal_actions(0)
    r.step(0, Discard(T("W"), True))
    r.step(1, Discard(T("N")))
    acts = r.legal_actions(0)
    assert r.turn == 0 and Discard(r.drawn) in acts
    assert all(a.type != "discard" or a.tile == r.drawn for a in acts)  # locked after 天听
    assert r.heavenly_ready[0] == 1 and r.ready[0] == 1


def test_dealer_heavenly_ready_cancelled_by_kong():
    r = mk("two-player", ["SSSS123m456mEECW", "11223344mWWNN7m"], tail="C")
    r.step(1, Pass())
    r.step(0, Kong(T("S"), "concealed"))
    assert not any(a.type == "discard" and a.ready for a in r.legal_actions(0))


def test_public_has_no_first_turn_fans():
    # a dealer complete at the deal in public wins without 天胡
    hands = ["123m456p789sEEECC", "2m4m6m8m2s4s6s8sSS1p3p5p", "2p4p6p8p2s4s6s8sSSF1p9s", "2m4m6m8m4p6p8pWWN9p1s3s"]
    r = mk("public", hands)
    assert Win() in r.legal_actions(0)
    r.step(0, Win())
    assert "heavenly_hand" not in fans(r) and r.result.method == "self_drawn"


# ---------------------------------------------------------------------------------------- 2.9 end of the wall


def test_last_tile_self_drawn():
    r = full_wall("two-player", ["11m22m33mSSWWNFP4m", "123m456m789mEEEC"], ["1f2f3f4f", "5f6f7f8f"], last="C")
    tsumogiri_until(r, lambda r: r.live_remaining == 0 and r.phase_name == "turn")
    assert r.turn == 1 and r.drawn == T("C") and r.wall_remaining == 0
    acts = r.legal_actions(1)
    assert Win() in acts and not any(a.type == "kong" for a in acts)
    r.step(1, Win())
    assert "last_tile_draw" in fans(r)


def test_last_tile_claim_only_win():
    r = full_wall("two-player", ["123m456m789mSSSWN", "11m22m33mEEFFPC4m"], ["1f2f3f4f", "5f6f7f8f"], last="W")
    r.step(1, Pass())
    r.step(0, Discard(T("N")))
    tsumogiri_until(r, lambda r: r.live_remaining == 0 and r.phase_name == "turn")
    assert r.turn == 1 and r.drawn == T("W")
    r.step(1, Discard(T("W")))
    assert r.legal_actions(0) == [Win(), Pass()]
    r.step(0, Win())
    assert "last_tile_claim" in fans(r)


def test_last_discard_cannot_be_punged_and_exhaustive_draw():
    r = full_wall("two-player", ["123m456m789mSWWNP", "EEE11m22m33mFPCN"], ["1f2f3f4f", "5f6f7f8f"], last="WE")
    r.step(1, Pass())
    r.step(0, Discard(T("N")))
    tsumogiri_until(r, lambda r: r.live_remaining == 0 and r.phase_name == "turn")
    assert r.drawn == T("E") and r.turn == 1
    assert not any(a.type == "kong" for a in r.legal_actions(1))  # no kong at the end (OP-37)
    assert_refused(r, 1, Kong(T("E"), "concealed"), "wall is empty")
    ev = r.step(1, Discard(T("E")))
    assert r.is_over and r.result.draw and ev[-2]["type"] == "exhaustive_draw"
    assert r.result.next_dealer == 0 and r.wall_remaining == 0


def test_last_discard_pon_refused():
    r = full_wall("two-player", ["123m456m789mSWWNP", "EEE11m22m33mFPCN"], ["1f2f3f4f", "5f6f7f8f"], last="SW")
    r.step(1, Pass())
    r.step(0, Discard(T("N")))
    tsumogiri_until(r, lambda r: r.live_remaining == 0 and r.phase_name == "turn")
    assert r.drawn == T("W") and r.turn == 1
    ev = r.step(1, Discard(T("W")))
    # the dealer holds WW but the last discard can only be won: no claim window, exhaustive draw
    assert r.is_over and r.result.draw
    assert all(e["type"] != "pon" for e in ev)


def test_last_wall_tile_flower_ends_in_draw():
    r = full_wall("two-player", ["11m22m33mSSWWNFP4m", "123m456m789mEEEC"], ["1f2f3f4f", "5f6f7f"], last="8f")
    tsumogiri_until(r, lambda r: False)
    assert r.is_over and r.result.draw and r.wall_remaining == 0
    assert [e["type"] for e in r.log[-4:]] == ["draw", "flower", "exhaustive_draw", "round_end"]
    assert r.log[-3]["tile"] == 41 and 41 in r.flowers[r.log[-3]["seat"]]


@pytest.mark.parametrize("ruleset,dealer,expected", [
    ("two-player", 1, 1), ("two-player-bamboo", 0, 0), ("public", 3, 0), ("public", 1, 2),
])
def test_exhaustive_draw_next_dealer(ruleset, dealer, expected):
    r = Round(ruleset, 11, dealer=dealer)
    tsumogiri_until(r, lambda r: False)
    res = r.result
    assert res.draw and res.winners == [] and r.wall_remaining == 0
    assert res.next_dealer == expected


def test_reserved_tail_tiles_option():
    r = Round("public", 4, options={"reserved_tail_tiles": 14})
    tsumogiri_until(r, lambda r: False)
    assert r.result.draw and r.wall_remaining == 14 and r.live_remaining == 0


# ---------------------------------------------------------------------------------------- 2.12 win declaration


def test_false_win_refused_state_unchanged():
    r = mk("two-player", ["11m22m33mSSWWNFP4m", NON_DEALER_C], draws="9m")
    r.step(1, Pass())
    msg = assert_refused(r, 0, Win(), "not a winning hand")
    assert "win refused" in msg
    r.step(0, Discard(T("F")))
    # claim on F: the non-dealer has no option -> he draws 9m; win refused again
    assert_refused(r, 1, Win(), "not a winning hand")
    assert_refused(r, 0, Discard(T("1m")), "not to act")


def test_minimum_fan():
    hands = ["2m19m19sESWNCFP3m7s", "234m345p567s789s2m", "2p4p6p8p2s4s6s8sSSF1p9s", "4m6m8m4p6p8pWWN9p1s2s3s"]
    r = mk("public", hands)  # min_fan 8: seat 1 is complete with 2m but has only 4 fans
    r.step(0, Discard(T("2m")))
    assert r.seats_to_act() == [1]
    assert r.legal_actions(1) == [Chi((1, 2, 3)), Pon(), Pass()]
    assert_refused(r, 1, Win(), "win refused", "below the minimum", "8")
    r0 = mk("public", hands, min_fan=0)
    r0.step(0, Discard(T("2m")))
    assert r0.legal_actions(1) == [Chi((1, 2, 3)), Pon(), Win(), Pass()]
    r0.step(1, Win())
    assert r0.result.total < 8 and r0.result.winner == 1


def test_no_action_after_end():
    r = mk("two-player", ["123m456m789mEEECC", "11223344mSSSWN"])
    r.step(1, Pass())
    r.step(0, Win())
    assert r.is_over and r.seats_to_act() == [] and r.legal_actions(0) == []
    assert not r.legal_mask(0).any()
    assert_refused(r, 0, Discard(0), "over")
    assert_refused(r, 1, Pass(), "over")
    assert issubclass(IllegalActionError, ValueError)


# ---------------------------------------------------------------------------------------- 2.10 match dealer rules


@pytest.mark.parametrize("ruleset", ["two-player", "two-player-bamboo", "public"])
def test_match_dealer_rotation(ruleset):
    from mahjong_core.game import play_round
    from mahjong_core.families.mahjong.api import GreedyBot

    m = Match(ruleset, seed=5, rounds=8)
    P = m.players
    bots = [GreedyBot() for _ in range(P)]
    seen = {"dealer_win": 0, "other_win": 0, "draw": 0}
    while not m.is_over:
        r = m.round
        if m.round_index % 3 == 2:  # force some exhaustive draws
            tsumogiri_until(r, lambda r: False)
        else:
            play_round(r, bots)
        res = r.result
        d = r.dealer
        m.next_round()
        nd = m.round.dealer if not m.is_over else res.next_dealer
        if res.draw:
            seen["draw"] += 1
            assert nd == (d if ruleset != "public" else (d + 1) % P)
        elif res.winner == d:
            seen["dealer_win"] += 1
            assert nd == d
        else:
            seen["other_win"] += 1
            assert nd == res.winner
    assert seen["draw"] >= 2 and seen["dealer_win"] + seen["other_win"] >= 1
    assert len(m.results) == 8 and [x["dealer"] for x in m.results] == m.dealer_sequence()


def test_match_walls_differ_and_reproducible():
    m1 = Match("public", seed=9, rounds=4)
    m2 = Match("public", seed=9, rounds=4)
    walls = []
    for _ in range(4):
        assert m1.round.wall.tiles == m2.round.wall.tiles
        walls.append(tuple(m1.round.wall.tiles))
        for m in (m1, m2):
            tsumogiri_until(m.round, lambda r: False)
            m.next_round()
    assert len(set(walls)) == 4
    assert m1.first_dealer == m2.first_dealer
    assert Match("public", seed=10, rounds=1).round.wall.tiles != Match("public", seed=9, rounds=1).round.wall.tiles
