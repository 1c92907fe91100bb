"""The long-card advisor (issue 28, item 3) on hands whose answers are counted by hand in the comments,
through ``mj.advise(..., ruleset="changpai-ydr")`` and ``mahjong-core advise --ruleset changpai-ydr``;
``advise_round`` against a round's legal and penalised discards."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import cli
from mahjong_core.errors import HandSizeError, MahjongError, TileCountError
from mahjong_core.families.longcard.advise import RANKING, advise, advise_round
from mahjong_core.families.longcard.cards import parse_card

# X1 of the spec (4.9) with a useless 22 (长二) drawn: 12 concealed + 3 declared groups = 21 effective
X1 = "46 46 13 16 34 25 14 14 55 55 55"
X1_DECLARED = ["peng 11×3", "sha 44×4", "sha 66×4"]
HAND = X1 + " 22"
F = parse_card


def _options(a):
    return {o.discard_card: o for o in a.options}


def test_x1_hand_counted():
    a = mj.advise(HAND, ruleset="changpai-ydr", melds=X1_DECLARED, jiang="36 25")
    o = _options(a)
    # declared 陀: (11×3) 8 + (44×4) 12 + (66×4) 12 = 32.  Discarding 22 keeps X1 (spec 4.9):
    #   36 -> [14 14 36] 2 + [46 46 13] 3 + [16 25 34] 2 + [55×3] 4 = 43: 地 1 + 人 2 + 高胡 1 = 4 fan (X1)
    #   45 -> [14 14 45] 3: 44 陀, 4 fan (X2)
    #   14 -> [14×3] 坎 8: 49 陀: 地 1 + 人 2 + 幺四 1 + 高胡 floor(16/10) 1 = 5 fan
    #   live: 14 = 5 - 2 held = 3, 36 = 45 = 5 (nothing seen)
    assert [(w.card, w.fan, w.tuo, w.live) for w in o["22"].waits] == [("14", 5, 49, 3), ("36", 4, 43, 5),
                                                                        ("45", 4, 44, 5)]
    assert o["22"].cards_to_win == 1 and o["22"].live_total == 13 and o["22"].best_fan == 5
    # for a ready hand the effective cards are its live waits
    assert [(e.card, e.live) for e in o["22"].effective] == [("14", 3), ("36", 5), ("45", 5)]
    # discarding 13 keeps [46 46 22] (2 red 46 + black 22 = 2 陀, one less than [46 46 13]):
    #   36 -> 42 陀, 3 fan (高胡 0); 45 -> 43, 4; 14 -> 48, 5
    assert [(w.card, w.fan, w.tuo, w.live) for w in o["13"].waits] == [("14", 5, 48, 3), ("36", 3, 42, 5),
                                                                        ("45", 4, 43, 5)]
    # both ready with 13 live waits; live x fan: 22 -> 3*5 + 5*4 + 5*4 = 55, 13 -> 3*5 + 5*3 + 5*4 = 50
    assert (o["22"].live_fan, o["13"].live_fan) == (55, 50)
    # discarding 55 keeps [55 55 22] (0 陀): 14 -> 32 + 3 + 2 + 0 + 8 = 45, 5 fan; 36 -> 39, 3 fan
    assert [(w.card, w.fan, w.tuo) for w in o["55"].waits] == [("14", 5, 45), ("36", 3, 39), ("45", 3, 40)]
    assert [x.discard_card for x in a.options[:3]] == ["22", "13", "55"]
    # every other discard breaks a group: two cards must come in
    assert {x.discard_card for x in a.options[3:]} == {"46", "14", "25", "16", "34"}
    assert all(x.cards_to_win == 2 and not x.waits for x in a.options[3:])
    # 包子 exposure (5.3): ready -> max(3, best win 5) = 5 fan, 梯坎番 6 points per opponent; not ready ->
    # held fan: 碰 地 1 + 杀 人 2 (+ the 坎 55 of a w = 0 face) = 3 -> max(3, 3) = 3, 4 points
    assert (o["22"].baozi_fan, o["22"].baozi_points) == (5, 6)
    assert (o["46"].baozi_fan, o["46"].baozi_points) == (3, 4)
    assert all(x.baozi is None and not x.must_fold and x.qualified for x in a.options)
    assert a.to_json()["ranking"] == list(RANKING) and a.threshold == 33


def test_visible_copies_change_live_counts_and_the_effective_cards():
    # another player's 碰 of 幺四 (three 14 seen): 14 = 5 - 2 held - 3 seen = 0 live
    a = advise(HAND, declared=X1_DECLARED, jiang="36 25", visible="14×3")
    o = _options(a)
    assert [(w.card, w.live) for w in o["22"].waits] == [("14", 0), ("36", 5), ("45", 5)]
    assert o["22"].live_total == 10 and [e.card for e in o["22"].effective] == ["36", "45"]
    assert o["22"].best_fan == 4      # the 5-fan wait 14 has no live copy
    # every copy of 36 and 45 seen too: the 14 14 pair is dead (spec C1's reasoning), the waits have no live
    # copy and the kept cards are 3 from a win (a new group replaces 14 14)
    b = _options(advise(HAND, declared=X1_DECLARED, visible="14×3 36×5 45×5"))
    assert b["22"].live_total == 0 and b["22"].best_fan is None and b["22"].cards_to_win == 3
    # a discarded card is seen: after discarding 22, 22 has 5 - 1 = 4 live copies
    assert _options(advise(HAND, declared=X1_DECLARED))["46"].effective[2].card == "22"
    assert {e.card: e.live for e in _options(advise(HAND, declared=X1_DECLARED))["46"].effective}["22"] == 4


def test_a_forbidden_tiao_is_ranked_last():
    # 22 as a 起 fan face not yet released: discarding it is 包子 B5, so the best is 13
    a = advise(HAND, declared=X1_DECLARED, jiang="36 25", qi_faces="22")
    assert a.best.discard_card == "13"
    assert a.options[-1].discard_card == "22" and a.options[-1].baozi == "B5"


def test_qualification_after_the_discard_spec_c1():
    # spec 2.9 C1 (闲家): (66×3) 碰 and 17 concealed cards, plus a 22 to discard (22 joins no unit)
    c1 = "44 44 44 14 14 55 55 16 34 56 12 23 26 35 46 11 25"
    o = _options(advise(c1 + " 22", declared=["peng 66×3"]))["22"]
    # 卯 = 1 declared + 5 units + 1 bonus (the 人 坎 can be 杀'd) = 7; T_max = 8 + 12 + 8 + 4 + 3 + 2 = 37
    assert (o.mao, o.t_max, o.qualified, o.must_fold) == (7, 37, True, False)
    # three 14 seen (another player's 碰): the 14 14 pair is worth 2 + max(red 36, red 45) = 3, not 8:
    # T_max = 37 - 8 + 3 = 32 < 33: not qualified, the seat must fold at its next decision point
    o = _options(advise(c1 + " 22", declared=["peng 66×3"], visible="14×3"))["22"]
    assert (o.mao, o.t_max, o.qualified, o.must_fold) == (7, 32, False, True)


def test_refusals():
    with pytest.raises(HandSizeError, match="must discard holds 12"):
        advise(X1, declared=X1_DECLARED)
    with pytest.raises(TileCountError):
        advise(HAND, declared=X1_DECLARED, visible="14×4")
    with pytest.raises(MahjongError, match="seat_wind is a mahjong option"):
        mj.advise(HAND, ruleset="changpai-ydr", melds=X1_DECLARED, seat_wind="S")
    with pytest.raises(MahjongError, match="banker is not an option of a mahjong ruleset"):
        mj.advise("1234567m1199pEEC", ruleset="public", banker=True)
    with pytest.raises(MahjongError, match="allowed names none"):
        advise(HAND, declared=X1_DECLARED, allowed="66")


def test_advise_round_follows_the_rounds_discards():
    """At every DISCARD decision of two seeded hands: one option per legal discard, B5 exactly on the
    round's penalised discards."""
    bot = mj.families.registry.get_family("longcard").bots["greedy"](None)
    seen = 0
    for seed in (3, 11):
        r = mj.Round(ruleset="changpai-ydr", seed=seed)
        while not r.is_over and seen < 8:
            s = r.seats_to_act()[0]
            if r.view(s)["phase"] == "discard":
                a = advise_round(r, s)
                legal = sorted(i for i in r.legal_indices(s) if i < 21)
                assert sorted(o.discard for o in a.options) == legal
                pen = r.penalised_mask(s)
                assert sorted(o.discard for o in a.options if o.baozi) == [i for i in legal if pen[i]]
                seen += 1
            r.step(s, bot.act(r, s))
    assert seen >= 4
    with pytest.raises(MahjongError, match="no discard to make now"):
        r = mj.Round(ruleset="changpai-ydr", seed=3)
        advise_round(r, (r.seats_to_act()[0] + 1) % 3)


def _cli(argv):
    out = io.StringIO()
    old = sys.stdout
    sys.stdout = out
    try:
        status = cli.main(argv)
    finally:
        sys.stdout = old
    return status, out.getvalue()


def test_cli_advise_long_card():
    argv = ["advise", HAND, "--melds", *X1_DECLARED, "--jiang", "36 25", "--ruleset", "changpai-ydr"]
    status, out = _cli([*argv, "--json"])
    assert status == 0
    data = json.loads(out)
    assert [o["discard"] for o in data["options"][:3]] == ["22", "13", "55"]
    assert data["options"][0]["waits"][0] == {"card": "14", "fan": 5, "tuo": 49, "live": 3}
    status, out = _cli([*argv, "--top", "1", "--visible", "14×3", "--qi-faces", "13"])
    assert status == 0 and out.splitlines()[2].split()[:4] == ["22", "1", "10", "10"]
    status, out = _cli([*argv, "--lang", "zh", "--top", "2"])
    assert status == 0 and "长二" in out and "排序" in out
    # each family refuses the other's options
    status, out = _cli([*argv, "--seat-wind", "S", "--json"])
    assert status == 2 and "--seat-wind: not an option of --ruleset changpai-ydr" in out
    status, out = _cli(["advise", "1234567m1199pEEC", "--ruleset", "public", "--banker", "--json"])
    assert status == 2 and "--banker: not an option of --ruleset public" in out


@pytest.mark.parametrize("seed", range(4))
def test_every_field_is_its_definition_on_random_hands(seed):
    """Seeded random hands with declared groups and seen copies: each option is the discard's kept
    cards measured by the functions the fields are defined by (waits, live counts, distance, the
    faces that lower it, counting, 包子 fan), and the options come in the documented order."""
    from mahjong_core.families.longcard import counting, distance
    from mahjong_core.families.longcard.sampling import random_group_hand

    rng = np.random.default_rng(seed)
    counts, declared = random_group_hand(rng, int(rng.integers(0, 4)))
    left = 5 - counts.astype(np.int64)
    for g in declared:
        for c in g.cards:
            left[c] -= 1
    visible = np.zeros(21, np.int64)
    for _ in range(8):
        f = int(rng.choice(np.repeat(np.arange(21), left)))
        left[f] -= 1
        visible[f] += 1
    a = advise(counts, declared=declared, visible=visible, banker=bool(seed % 2))
    assert sorted(o.discard for o in a.options) == [int(f) for f in np.flatnonzero(counts)]
    for o in a.options:
        kept = counts.copy()
        kept[o.discard] -= 1
        dead = visible.copy()
        dead[o.discard] += 1
        live = counting.live_counts(kept, declared, dead)
        assert [(w.face, w.fan, w.tuo, w.live) for w in o.waits] == [
            (f, fan, tuo, live[f]) for f, (fan, tuo) in sorted(_lc_hand_wait_scores(kept, declared, seed % 2).items())]
        d = distance.cards_to_win(kept, declared=declared, dead=dead, banker=bool(seed % 2))
        assert o.cards_to_win == d
        lower = []
        for f in range(21):
            if live[f]:
                more = kept.copy()
                more[f] += 1            # the card comes in: one copy fewer may still come
                d2 = distance._distance(more.tolist(), declared, [v - (x == f) for x, v in enumerate(live)],
                                        bool(seed % 2), False, False)
                if d is not None and d2 is not None and d2 < d:
                    lower.append(f)
        assert [e.face for e in o.effective] == lower
        s = counting.counting_summary(kept, declared, dead, banker=bool(seed % 2))
        assert (o.mao, o.t_max, o.qualified, o.must_fold) == (s.mao, s.t_max, s.qualified, not s.qualified)
        assert o.baozi_fan == counting.baozi_fan(kept, declared, banker=bool(seed % 2))
    keys = [o.rank_key() for o in a.options]
    assert keys == sorted(keys)


def _lc_hand_wait_scores(kept, declared, banker):
    from mahjong_core import _lc_hand
    return _lc_hand.wait_scores(kept, declared=declared, banker=bool(banker))
