"""Gap (g) of spec changpai.md 3.8 / 3.13: when every card the 起 player could discard is a forbidden
跳牌, the restriction yields and discarding one is no 包子 (folding stays B2 under 必进必打).

The stock is the one of ``Round(1304)``, written out, and the actions the RuleBots took in it up to
the dead end (the 10,000-hand property run found it, tools/lc_property_run.py): the banker, the 起
player, must discard holding only cards of his 起 fan faces, 11 11 14 14 66 66 (the faces of 11, 14
and 66 are 起 fan faces, none released by 挡)."""

from __future__ import annotations

from mahjong_core.families.longcard.cards import N_FACES, parse_cards
from mahjong_core.families.longcard.round_actions import FOLD, Action
from mahjong_core.families.longcard._ref.round import Round

STOCK = [0, 10, 20, 20, 0, 1, 2, 10, 5, 10, 3, 9, 10, 3, 9, 5, 6, 17, 5, 9, 0, 16, 8, 6, 18, 4, 16, 12, 13, 2, 3,
         14, 21, 19, 19, 18, 16, 17, 15, 13, 18, 12, 2, 20, 15, 12, 5, 6, 18, 16, 12, 11, 3, 7, 15, 21, 11, 10, 8,
         11, 14, 2, 21, 21, 9, 4, 14, 8, 17, 14, 6, 17, 1, 0, 4, 5, 3, 7, 0, 1, 7, 1, 19, 4, 19, 8, 20, 13, 13, 7,
         9, 19, 6, 1, 13, 18, 11, 14, 8, 17, 2, 21, 4, 12, 15, 7, 16, 11, 15, 20]
TO_DEAD_END = [(0, 257), (1, 256), (2, 256), (0, 1), (1, 249), (1, 258), (2, 256), (2, 163), (2, 5), (0, 253),
               (0, 4), (2, 231), (2, 6), (0, 143), (0, 14), (2, 256), (0, 256), (0, 256), (2, 246), (2, 7),
               (0, 256), (0, 77)]


def dead_end(**options: object) -> Round:
    r = Round(banker=0, stock=STOCK, options=options)
    for seat, a in TO_DEAD_END:
        r.step(seat, a)
    return r


def test_the_dead_end_is_reached():
    r = dead_end()
    assert r.phase == "discard" and r.actor == 0 == r.qi_player
    held = [f for f in range(N_FACES) for _ in range(r.hands[0][f])]
    assert held == sorted(parse_cards("11 11 14 14 66 66"))
    assert all(r._is_tiao(0, f) for f in set(held))        # every discard would be a 跳牌


def test_discarding_a_qi_face_is_free_when_nothing_else_can_go():
    r = dead_end()
    discards = [a for a in r.legal_actions(0) if a.kind == "discard"]
    assert [a.face for a in discards] == sorted(set(parse_cards("11 14 66")))
    assert all(r.penalty_of(0, a) is None for a in discards)
    assert not r.penalised_mask(0)[: N_FACES].any()
    assert r.penalty_of(0, Action.from_id(FOLD)) == "B2"      # folding is still 必进必打's 包子
    r.step(0, Action("discard", face=parse_cards("66")[0]))
    assert r.phase != "end" and r.result is None              # play goes on: no 包子


def test_a_fully_enforced_table_offers_them():
    """With ``baozi_actions_allowed`` false (CP-49) the discards are offered, so the 起 player is not stuck."""
    r = dead_end(baozi_actions_allowed=False)
    assert {a.kind for a in r.legal_actions(0)} == {"discard"}


def test_one_free_card_keeps_the_ban():
    """The restriction yields only when every card is a 跳牌: with one other card the 跳牌 stays B5."""
    r = dead_end()
    h = r.hands[0]
    # swap one 66 of his hand with a stock card of a face that is no 起 fan face (census kept)
    j = next(j for j in range(r.pos, len(r.stock) - 1) if r.stock[j] < N_FACES and not r._is_tiao(0, r.stock[j]))
    six, other = parse_cards("66")[0], r.stock[j]
    r.stock[j], h[six], h[other] = six, h[six] - 1, h[other] + 1
    assert r.penalty_of(0, Action("discard", face=other)) is None
    assert r.penalty_of(0, Action("discard", face=parse_cards("11")[0])) == "B5"
    assert r.penalty_of(0, Action("discard", face=six)) == "B5"
