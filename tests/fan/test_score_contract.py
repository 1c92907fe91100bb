"""The scoring contract (issue 10, item 6).

* 和绝张 (fan id ``last_tile``) holds whenever the three other copies of the winning tile are in the
  winner's own exposed groups (spec D10), whatever ``last_of_kind`` says; a concealed kong is face
  down (OP-50).  The rule lives in the evaluator (compiled and reference), so ``score``,
  ``score_batch`` and the round engine all apply it.
* Flags that contradict each other or the hand are refused with :class:`FlagError` by ``score``
  and, row by row, by ``score_batch`` (the evaluator's ``OPT_CHECK_FLAGS``; the reference raises
  the same classes with ``check_flags``).
* Combinations the engine really produces are accepted: every win of thousands of seeded rounds
  of each ruleset, under several settings, is re-scored by ``mj.score`` from the engine's own
  ``score_args`` to exactly the engine's total and fan counts.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import _fan
from mahjong_core.families.mahjong._ref import fan as fan_py
from mahjong_core.errors import FlagError
from mahjong_core.game import play_round
from mahjong_core.families.mahjong.api import GreedyBot, RandomBot, Round
from mahjong_core.families.mahjong.scoring import FLAGS, parse_meld
from mahjong_core.families.mahjong.tiles import parse_hand, parse_tiles

RULESET_CODE = {"two-player": 0, "two-player-bamboo": 1, "public": 2}


def _fans(score: mj.Score) -> dict[str, int]:
    return score.fan_counts


# ------------------------------------------------------------------ D10 from the winner's own melds
def test_last_of_kind_from_the_winners_own_pon_issue_example():
    s = mj.score("1m4m7m2s5s8s3p7p7p9p", "6p", ruleset="public", melds=["pon 6p6p6p"])
    assert _fans(s).get("last_tile") == 1, s
    explicit = mj.score("1m4m7m2s5s8s3p7p7p9p", "6p", ruleset="public", melds=["pon 6p6p6p"],
                        last_of_kind=True)
    assert s.total == explicit.total and s.fan_counts == explicit.fan_counts


def test_last_of_kind_from_three_exposed_chows():
    # 4m is in chi 234m, chi 345m and chi 456m: the three other copies are all exposed
    melds = ["chi 234m", "chi 345m", "chi 456m"]
    s = mj.score("56mEE", "4m", ruleset="two-player", melds=melds)
    assert _fans(s).get("last_tile") == 1
    # two exposed copies only: 和绝张 only when the caller says the third was visible elsewhere
    two = mj.score("56mEE", "4m", ruleset="two-player", melds=["chi 234m", "chi 345m", "chi 789m"])
    assert "last_tile" not in _fans(two)
    told = mj.score("56mEE", "4m", ruleset="two-player", melds=["chi 234m", "chi 345m", "chi 789m"],
                    last_of_kind=True)
    assert told.fan_counts.get("last_tile") == 1


def test_concealed_kong_copies_are_not_visible():
    # OP-50: only exposed groups count.  A concealed kong of the winning kind cannot exist (a fifth
    # copy), so the rule can only differ through exposed groups: an exposed kong of another kind and
    # a concealed kong change nothing for the winning tile.
    s = mj.score("56mEE", "4m", ruleset="two-player", melds=["ckong 9999m", "chi 234m", "chi 345m"])
    assert "last_tile" not in _fans(s)
    with pytest.raises(mj.TileCountError):
        mj.score("56mEE", "4m", ruleset="two-player", melds=["ckong 4444m", "chi 234m", "chi 345m"])


def test_reference_and_batch_apply_the_same_rule():
    hand, win, melds = parse_hand("1m4m7m2s5s8s3p7p7p9p"), parse_tiles("6p")[0], [parse_meld("pon 6p6p6p")]
    ref_melds = [fan_py.Meld("pon", (14, 14, 14))]
    r = fan_py.evaluate("public", [k for k in range(34) for _ in range(hand[k])], win, ref_melds)
    assert r.fan_counts().get("last_tile") == 1
    m = np.full((1, 4, 2), 255, np.uint8)
    m[0, 0] = melds[0]
    totals, _, counts = mj.score_batch(hand[None, :], [win], ruleset="public", melds=m)
    s = mj.score("1m4m7m2s5s8s3p7p7p9p", "6p", ruleset="public", melds=["pon 6p6p6p"])
    assert totals[0] == s.total and counts[0].tolist() == s._counts.tolist()


def test_robbed_kong_gets_last_of_kind_as_before():
    # the robbed pung is another player's: nothing changes, 抢杠和 still excludes 和绝张 where the table says so
    s = mj.score("123m345m78mEEE55m", "9m", robbing_kong=True, last_of_kind=True)
    assert "robbing_the_kong" in s.fan_counts and "last_tile" not in s.fan_counts


# ------------------------------------------------------------------ refusals
REFUSED = [
    # (name, score arguments, message fragment)
    ("last_of_kind with a held copy", dict(hand="123m456m789mEEE9m", win_tile="9m", last_of_kind=True),
     "holds another copy"),
    ("kong_replacement without melds", dict(hand="123m456m789mEEE9m", win_tile="9m", self_drawn=True,
                                            kong_replacement=True), "without a kong"),
    ("kong_replacement with a pon only", dict(hand="123m456m789m9m", win_tile="9m", melds=["pon EEE"],
                                              self_drawn=True, kong_replacement=True), "without a kong"),
    ("kong_replacement on a discard", dict(hand="123m456m789m9m", win_tile="9m", melds=["kong EEEE"],
                                           kong_replacement=True), "self-drawn"),
    ("flower_replacement without a flower", dict(hand="123m456m789mEEE9m", win_tile="9m", self_drawn=True,
                                                flower_replacement=True), "without a flower"),
    ("flower_replacement on a discard", dict(hand="123m456m789mEEE9m", win_tile="9m", flowers=1,
                                             flower_replacement=True), "self-drawn"),
    ("heavenly with an exposed chow", dict(hand="456m789mEEE99m", win_tile=None, melds=["chi 123m"],
                                           heavenly=True), "declared group"),
    ("heavenly after a concealed kong", dict(hand="456m789mEEE99m", win_tile=None, melds=["ckong CCCC"],
                                             heavenly=True), "concealed kong"),
    ("earthly with a pon", dict(hand="123m456mEEE9m", win_tile="9m", melds=["pon CCC"], earthly=True),
     "declared group"),
    ("earthly after a concealed kong", dict(hand="123m456mEEE9m", win_tile="9m", melds=["ckong CCCC"],
                                            earthly=True, kong_replacement=True), "declared group"),
    ("humanly with a chow", dict(hand="456m789mEEE9m", win_tile="9m", melds=["chi 123m"], humanly=True),
     "declared group"),
    ("heavenly and earthly", dict(hand="123m456m789mEEE99m", win_tile=None, heavenly=True, earthly=True),
     "cannot go with earthly"),
    ("heavenly and heavenly_ready", dict(hand="123m456m789mEEE99m", win_tile=None, heavenly=True,
                                         heavenly_ready=True), "heavenly_ready"),
    ("heavenly and ready", dict(hand="123m456m789mEEE99m", win_tile=None, heavenly=True, ready=True),
     "ready_declared"),
    ("heavenly and humanly", dict(hand="123m456m789mEEE99m", win_tile=None, heavenly=True, humanly=True),
     "humanly"),
    ("earthly and humanly", dict(hand="123m456m789mEEE9m", win_tile="9m", earthly=True, humanly=True),
     "humanly"),
    ("humanly self-drawn", dict(hand="123m456m789mEEE9m", win_tile="9m", humanly=True, self_drawn=True),
     "humanly"),
    ("robbing self-drawn", dict(hand="123m345m78mEEE55m", win_tile="9m", robbing_kong=True, self_drawn=True),
     "robbing"),
    ("robbing on a first draw", dict(hand="123m345m78mEEE55m", win_tile="9m", robbing_kong=True, earthly=True),
     "robbing"),
    ("robbing on the last tile", dict(hand="123m345m78mEEE55m", win_tile="9m", robbing_kong=True,
                                      last_tile=True), "wall is empty"),
    ("robbing a held kind", dict(hand="123m456m789mEEE9m", win_tile="9m", robbing_kong=True), "robbed pung"),
    ("robbing a kind of the own chow", dict(hand="45m789mEEE99m", win_tile="3m", melds=["chi 123m"],
                                            robbing_kong=True), "robbed pung"),
    ("last_of_kind on heavenly", dict(hand="123m456m789mEEE99m", win_tile=None, heavenly=True,
                                      last_of_kind=True), "first-turn"),
    ("last_of_kind on earthly", dict(hand="123m345m78mEEE55m", win_tile="9m", earthly=True, last_of_kind=True),
     "first-turn"),
    ("last_of_kind on humanly", dict(hand="123m345m78mEEE55m", win_tile="9m", humanly=True, last_of_kind=True),
     "first-turn"),
    ("ready_concealed without ready", dict(hand="123m456m789mEEE9m", win_tile="9m", ready_concealed=True),
     "ready"),
    ("a string flag", dict(hand="123m456m789mEEE9m", win_tile="9m", self_drawn="no"), "true or false"),
    ("a float flag", dict(hand="123m456m789mEEE9m", win_tile="9m", last_tile=0.0), "true or false"),
]


@pytest.mark.parametrize("name, kwargs, fragment", REFUSED, ids=[c[0] for c in REFUSED])
def test_contradicting_flags_are_refused(name, kwargs, fragment):
    kw = dict(kwargs)
    hand, win = kw.pop("hand"), kw.pop("win_tile")
    with pytest.raises(FlagError) as info:
        mj.score(hand, win, ruleset="two-player", **kw)
    assert fragment.lower() in str(info.value).lower(), str(info.value)


def _batch_row(kwargs):
    """(hand counts, win, meld rows, flag bits, flower bits) of a REFUSED/ACCEPTED case for score_batch."""
    kw = dict(kwargs)
    hand = parse_hand(kw.pop("hand"))
    win = kw.pop("win_tile")
    win = -1 if win is None else parse_tiles(win)[0]
    rows = np.full((4, 2), 255, np.uint8)
    for j, m in enumerate(kw.pop("melds", [])):
        rows[j] = parse_meld(m)
    flowers = kw.pop("flowers", 0)
    flags = 0
    for name, value in kw.items():
        key = "ready" if name == "ready" else name
        flags |= FLAGS[key] if value is True else 0
    if flags & (FLAGS["heavenly"] | FLAGS["earthly"]):
        flags |= FLAGS["self_drawn"]
    return hand, win, rows, flags, (1 << flowers) - 1


BATCH_REFUSED = [c for c in REFUSED if all(v is True or k in ("hand", "win_tile", "melds", "flowers")
                                           for k, v in c[1].items())]


@pytest.mark.parametrize("name, kwargs, fragment", BATCH_REFUSED, ids=[c[0] for c in BATCH_REFUSED])
def test_score_batch_refuses_the_same_rows(name, kwargs, fragment):
    good = _batch_row(dict(hand="123m456m789mEEE9m", win_tile="9m"))
    bad = _batch_row(kwargs)
    rows = [good, bad, good]
    with pytest.raises(FlagError, match=r"^row 1: ") as info:
        mj.score_batch(np.stack([r[0] for r in rows]), np.array([r[1] for r in rows]),
                       melds=np.stack([r[2] for r in rows]), flags=np.array([r[3] for r in rows]),
                       flowers=np.array([r[4] for r in rows]))
    assert fragment.lower() in str(info.value).lower()


@pytest.mark.parametrize("name, kwargs, fragment", BATCH_REFUSED, ids=[c[0] for c in BATCH_REFUSED])
def test_reference_refuses_the_same_with_check_flags(name, kwargs, fragment):
    hand, win, rows, flags, flowers = _batch_row(kwargs)
    args = (0, hand, win, rows, flags, flowers, 27, 27, 8)
    out = np.zeros(_fan.fan_count(0), np.uint16)
    for evaluate in (_fan.evaluate, fan_py.evaluate_codes):
        with pytest.raises(FlagError):
            evaluate(*args, _fan.OPT_CHECK_FLAGS, out)


def test_raw_evaluator_without_check_flags_evaluates_as_given():
    # the oracle convention (parity suites): flags are evaluated as passed, the old classes kept
    hand, win, rows, flags, flowers = _batch_row(dict(hand="123m456m789mEEE9m", win_tile="9m", last_of_kind=True))
    out = np.zeros(_fan.fan_count(0), np.uint16)
    total, _, _ = _fan.evaluate(0, hand, win, rows, flags, flowers, 27, 27, 8, 0, out)
    assert out[_fan.fan_ids(0).index("last_tile")] == 1 and total > 0
    hand, win, rows, flags, flowers = _batch_row(dict(hand="123m456m789mEEE9m", win_tile="9m", robbing_kong=True,
                                                     self_drawn=True))
    with pytest.raises(mj.MahjongError) as info:
        _fan.evaluate(0, hand, win, rows, flags, flowers, 27, 27, 8, 0, out)
    assert type(info.value) is mj.MahjongError


# ------------------------------------------------------------------ accepted (the engine produces them)
ACCEPTED = [
    ("earthly after 天听", dict(hand="123m456m789mEEE9m", win_tile="9m", earthly=True, ready=True,
                               heavenly_ready=True)),
    ("humanly after 天听", dict(hand="123m456m789mEEE9m", win_tile="9m", humanly=True, heavenly_ready=True)),
    ("earthly on a flower replacement", dict(hand="123m456m789mEEE9m", win_tile="9m", earthly=True,
                                             flower_replacement=True, flowers=1)),
    ("earthly on the last tile (reserved tail)", dict(hand="123m456m789mEEE9m", win_tile="9m", earthly=True,
                                                      last_tile=True)),
    ("humanly on the last tile (reserved tail)", dict(hand="123m456m789mEEE9m", win_tile="9m", humanly=True,
                                                      last_tile=True)),
    ("kong replacement on the last tile", dict(hand="456m789m9m", win_tile="9m", melds=["kong CCCC", "chi 123m"],
                                               self_drawn=True, last_tile=True, kong_replacement=True)),
    ("kong replacement was a flower", dict(hand="123m456m789m9m", win_tile="9m", melds=["ckong CCCC"],
                                           self_drawn=True, kong_replacement=True, flower_replacement=True,
                                           flowers=2)),
    ("robbing with the three copies visible", dict(hand="123m345m78mEEE55m", win_tile="9m", robbing_kong=True,
                                                   last_of_kind=True)),
    ("天听 with an exposed group (ready_locks_hand off)", dict(hand="456m789mEEE9m", win_tile="9m",
                                                             melds=["chi 123m"], ready=True, heavenly_ready=True)),
    ("heavenly with the last tile passed", dict(hand="123m456m789mEEE9m", win_tile="9m", heavenly=True)),
    ("heavenly with flowers replaced", dict(hand="123m456m789mEEE99m", win_tile=None, heavenly=True, flowers=3)),
    ("last_of_kind with melds of other kinds", dict(hand="123m456mEE78m", win_tile="9m", melds=["pon CCC"],
                                                    last_of_kind=True, self_drawn=True)),
]


def test_heavenly_with_a_winning_tile_counts_it_in_the_14():
    # 天胡 has no winning tile: a passed tile is part of the dealer's 14, so 14 + 1 is a size error
    assert mj.score("123m456m789mEEE9m", "9m", heavenly=True).fan_counts["heavenly_hand"] == 1
    with pytest.raises(mj.HandSizeError, match="15 tiles"):
        mj.score("123m456m789mEEE99m", "9m", heavenly=True)


@pytest.mark.parametrize("name, kwargs", ACCEPTED, ids=[c[0] for c in ACCEPTED])
def test_possible_combinations_are_accepted(name, kwargs):
    kw = dict(kwargs)
    hand, win = kw.pop("hand"), kw.pop("win_tile")
    s = mj.score(hand, win, ruleset="two-player", min_fan=0, **kw)
    assert s.total > 0
    h, w, rows, flags, flowers = _batch_row(kwargs)
    totals, _, _ = mj.score_batch(h[None, :], [w], melds=rows[None], flags=[flags], flowers=[flowers])
    assert totals[0] == s.total


# ------------------------------------------------------------------ the engine's own wins
ENGINE_SETTINGS = [
    ("two-player", {}, 8),
    ("two-player", {}, 0),
    ("two-player", {"ready_locks_hand": False, "ready_mode": "any_discard"}, 0),
    # the largest reserved tail a two-player wall allows (settings.max_reserved_tail_tiles): first-turn
    # wins can then come on the last live tile
    ("two-player", {"reserved_tail_tiles": 37, "literal_first_turn_exclusions": True}, 0),
    ("two-player-bamboo", {}, 0),
    ("two-player-bamboo", {"ready_locks_hand": False, "replacement_bloom": "last_tile"}, 0),
    ("two-player-bamboo", {"reserved_tail_tiles": 36, "replacement_bloom": "kongs_only", "rob_kong": True}, 8),
    ("public", {}, 0),
    ("public", {"multiple_winners": True, "reserved_tail_tiles": 40}, 0),
    ("public", {}, 8),
]
ROUNDS_PER_SETTING = 1500


def _play(ruleset, options, min_fan, seed):
    r = Round(ruleset, seed, min_fan=min_fan, options=options)
    rng = random.Random(seed)
    bots = [GreedyBot() if rng.random() < 0.7 else RandomBot(seed=seed + k) for k in range(r.players)]
    play_round(r, bots)
    return r


@pytest.mark.parametrize("ruleset, options, min_fan", ENGINE_SETTINGS,
                         ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(ENGINE_SETTINGS)])
def test_every_engine_win_is_accepted_and_scored_alike(ruleset, options, min_fan):
    seen: Counter = Counter()
    wins = 0
    for seed in range(ROUNDS_PER_SETTING):
        r = _play(ruleset, options, min_fan, seed)
        for k, w in enumerate(r.result.to_dict()["winners"]):
            args = dict(w["score_args"])
            args["melds"] = [(kind, list(tiles)) for kind, tiles in args["melds"]]
            s = mj.score(**args)
            rec = r._core.win_record(k)
            assert s.total == w["total"] == rec["total"], (seed, args)
            assert s.non_flower_total == w["non_flower_total"], (seed, args)
            assert s._counts.tolist() == rec["counts"], (seed, args)
            wins += 1
            seen.update(name for name in FLAGS if args.get(name))
    print(f"\n{ruleset} {options} min_fan={min_fan}: {ROUNDS_PER_SETTING} rounds, {wins} wins, flags {dict(seen)}")
    assert wins >= 40 and seen["self_drawn"]   # the run really exercised the comparison


# ------------------------------------------------------------------ the engine's first-turn wins
def _winning_tiles(rng: random.Random, kinds: list[int], pool: Counter) -> "list[int] | None":
    """A random standard-form winning hand (4 groups + a pair) drawn from `pool`, or None."""
    need: Counter = Counter()
    suited = [k for k in kinds if k < 27 and k % 9 <= 6]
    for _ in range(4):
        if suited and rng.random() < 0.6:
            k = rng.choice(suited)
            need.update([k, k + 1, k + 2])
        else:
            need.update([rng.choice(kinds)] * 3)
    need.update([rng.choice(kinds)] * 2)
    if any(pool[k] < n for k, n in need.items()):
        return None
    return sorted(need.elements())


class _FirstDiscard:
    """The dealer discards `tile` first (offering 人胡), then plays greedily."""

    def __init__(self, tile: int) -> None:
        self.tile, self.done, self.greedy = tile, False, GreedyBot()

    def act_index(self, rnd, seat):
        if not self.done and rnd.phase_name == "turn":
            for a in rnd.legal_actions(seat):
                if getattr(a, "type", "") == "discard" and a.tile == self.tile and not a.ready:
                    self.done = True
                    return rnd.action_index(seat, a)
        return self.greedy.act_index(rnd, seat)


@pytest.mark.parametrize("ruleset", ["two-player", "two-player-bamboo"])
@pytest.mark.parametrize("kind", ["heavenly", "earthly", "humanly"])
def test_engine_first_turn_wins_are_accepted(ruleset, kind):
    """Scripted deals that offer 天胡 / 地胡 / 人胡 (with flowers, kongs and 天听 wherever the deal
    brings them): every win is re-scored by mj.score from the engine's score_args alike."""
    from mahjong_core.families.mahjong.api import flow_settings, script_wall

    settings = flow_settings(ruleset, {"min_fan": 0})
    kinds = list(mj.get_ruleset(ruleset).kinds)
    seen: Counter = Counter()
    rounds = 0
    for seed in range(400):
        rng = random.Random(seed)
        pool = Counter(settings.tile_set())
        win14 = _winning_tiles(rng, kinds, pool)
        if win14 is None:
            continue
        pool.subtract(win14)
        rest = list(pool.elements())
        rng.shuffle(rest)
        draws: list[int] = []
        if kind == "heavenly":
            hands = [win14, rest[:13]]
        else:
            t = rng.choice(win14)
            ready = list(win14)
            ready.remove(t)
            if kind == "earthly":
                hands, draws = [rest[:14], ready], [t]
            else:
                if t not in rest:
                    continue
                rest.remove(t)
                hands = [[t] + rest[:13], ready]
        r = Round(ruleset, seed, min_fan=0, wall=script_wall(settings, hands, draws, fill_seed=seed))
        bots = [_FirstDiscard(hands[0][0]) if kind == "humanly" else GreedyBot(), GreedyBot()]
        from mahjong_core.game.bots import play_steps

        play_steps(r, bots)
        rounds += 1
        for k, w in enumerate(r.result.to_dict()["winners"]):
            args = dict(w["score_args"])
            args["melds"] = [(m, list(tiles)) for m, tiles in args["melds"]]
            s = mj.score(**args)
            assert s.total == w["total"] and s._counts.tolist() == r._core.win_record(k)["counts"], (seed, args)
            seen.update(name for name in FLAGS if args.get(name))
    print(f"\n{ruleset} {kind}: {rounds} scripted rounds, flags {dict(seen)}")
    assert seen[kind] >= 20
