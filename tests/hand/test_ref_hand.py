"""Tests of the pure-Python reference (oracle) for win detection, waits and shanten."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from mahjong_core.families.mahjong._ref import hand as H

RULESETS = ("two-player", "two-player-bamboo", "public")
HONOR_LETTERS = "ESWNCFP"


def parse(text: str) -> list[int]:
    """Counts from a string like ``"123m456p EE C"``: digits then m/p/s; honors as E S W N C F P."""
    h = [0] * 34
    digits: list[int] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in "mps":
            base = {"m": 0, "p": 9, "s": 18}[ch]
            for d in digits:
                h[base + d - 1] += 1
            digits = []
        else:
            h[27 + HONOR_LETTERS.index(ch)] += 1
    assert not digits, f"dangling digits in {text!r}"
    return h


def plus(h: list[int], *kinds: int) -> list[int]:
    out = list(h)
    for k in kinds:
        out[k] += 1
    return out


def minus(h: list[int], *kinds: int) -> list[int]:
    out = list(h)
    for k in kinds:
        out[k] -= 1
    return out


# ---------------------------------------------------------------------------
# random hand generators
# ---------------------------------------------------------------------------


def random_hand(rng: random.Random, n: int, kinds) -> list[int]:
    """``n`` tiles drawn uniformly from four copies of each kind in ``kinds``."""
    pool = [k for k in kinds for _ in range(4)]
    h = [0] * 34
    for t in rng.sample(pool, n):
        h[t] += 1
    return h


def random_complete(rng: random.Random, m: int, kinds) -> list[int]:
    """A random standard complete hand: ``m`` groups + a pair on ``kinds``."""
    kinds = list(kinds)
    chow_starts = [k for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kinds]
    while True:
        h = [0] * 34
        for _ in range(m):
            if chow_starts and rng.random() < 0.6:
                s = rng.choice(chow_starts)
                for k in (s, s + 1, s + 2):
                    h[k] += 1
            else:
                h[rng.choice(kinds)] += 3
        h[rng.choice(kinds)] += 2
        if max(h) <= 4:
            return h


def random_special(rng: random.Random) -> list[int]:
    """A random 14-tile complete hand of a public special form."""
    form = rng.randrange(3)
    pattern = rng.choice(H.KNITTED_PATTERNS)
    if form == 0:
        return plus([1 if i in H.ORPHANS else 0 for i in range(34)], rng.choice(H.ORPHANS))
    if form == 1:
        chosen = rng.sample(pattern + H.HONORS, 14)
        return [1 if i in chosen else 0 for i in range(34)]
    while True:
        rest = random_complete(rng, 1, range(34))
        h = plus(rest, *pattern)
        if max(h) <= 4:
            return h


def random_seven_pairs(rng: random.Random, kinds) -> list[int]:
    """A random seven-pairs hand on ``kinds`` (a kind may hold two pairs)."""
    while True:
        h = [0] * 34
        for _ in range(7):
            h[rng.choice(kinds)] += 2
        if max(h) <= 4:
            return h


def near_hands(rng: random.Random, ruleset: str, count: int) -> list[list[int]]:
    """A mix of random hands and perturbed complete hands (3k+1 and 3k+2) of a ruleset."""
    kinds = H.RULESET_KINDS[ruleset]
    hands = []
    while len(hands) < count:
        kind = rng.randrange(4)
        m = rng.randint(0, 4)
        if kind == 0:
            n = 3 * m + rng.choice((1, 2))
            hands.append(random_hand(rng, n, kinds))
            continue
        if m == 4 and rng.random() < 0.5:
            if ruleset == "public" and rng.random() < 0.6:
                h = random_special(rng)
            else:
                h = random_seven_pairs(rng, kinds)
        else:
            h = random_complete(rng, m, kinds)
        # kind 1: swap 0 tiles, kind 2: 1 tile, kind 3: 2 tiles (each swap: drop a held
        # tile, take a random tile of the ruleset); then drop one tile half of the time
        for _ in range(kind - 1):
            held = [i for i in range(34) if h[i]]
            h = minus(h, rng.choice(held))
            free = [k for k in kinds if h[k] < 4]
            h = plus(h, rng.choice(free))
        if rng.random() < 0.5:
            held = [i for i in range(34) if h[i]]
            h = minus(h, rng.choice(held))
        if sum(h) % 3 != 0:
            hands.append(h)
    return hands


# ---------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------


def test_knitted_patterns():
    assert len(H.KNITTED_PATTERNS) == 6
    assert len(set(H.KNITTED_PATTERNS)) == 6
    # permutation (0, 1, 2) first: 147m 258p 369s
    assert H.KNITTED_PATTERNS[0] == tuple(sorted(i for i in range(34) if parse("147m258p369s")[i]))
    for p in H.KNITTED_PATTERNS:
        assert len(p) == 9
        assert sorted(i % 9 for i in p) == list(range(9))  # every rank once
        assert Counter(i // 9 for i in p) == {0: 3, 1: 3, 2: 3}


def test_ruleset_kinds():
    assert H.RULESET_KINDS["two-player"] == tuple(range(9)) + tuple(range(27, 34))
    assert H.RULESET_KINDS["two-player-bamboo"] == tuple(range(18, 27)) + tuple(range(27, 34))
    assert H.RULESET_KINDS["public"] == tuple(range(34))
    assert len(H.ORPHANS) == 13


# ---------------------------------------------------------------------------
# win detection
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["123m456m789mEEECC", "11m", "EE", "123m99m", "111m22m", "11122233344455m", "1112345678999m5m",
     "123m123p123sEEEWW", "55m666m777m888m999m"],
)
def test_standard_wins(text):
    h = parse(text)
    assert H.is_standard_win(h)
    assert H.standard_shanten(h) == -1
    assert H.decompositions(h)
    for ruleset in RULESETS:
        assert H.is_win(h, ruleset)


@pytest.mark.parametrize(
    "text",
    ["12m", "189mEE", "89m1pEE", "ESWCC", "123m456m789mEESCC", "1357m9mEEESSSWWN", "EESSW", "12233m"],
)
def test_standard_non_wins(text):
    h = parse(text)
    assert sum(h) % 3 == 2
    assert not H.is_standard_win(h)
    assert H.standard_shanten(h) >= 0
    assert H.decompositions(h) == []


def test_nine_and_one_do_not_connect_and_no_honor_chows():
    assert not H.is_standard_win(parse("891mEE"))
    assert not H.is_standard_win(parse("9m12pEE"))
    assert not H.is_standard_win(parse("ESWEE"))
    assert not H.is_standard_win(parse("CFPEE"))
    assert H.is_standard_win(parse("789mEE"))


def test_seven_pairs_with_four_of_a_kind():
    h = parse("1111m22m33m44m55m66m")
    assert H.is_seven_pairs_win(h)
    assert H.seven_pairs_shanten(h) == -1
    for ruleset in RULESETS:
        assert H.is_win(h, ruleset)
    assert H.shanten(h) == -1
    # also a standard win: 11m + 123m 123m 456m 456m
    assert H.is_standard_win(h)
    # a seven-pairs-only hand
    h2 = parse("11m33m55m77m99mEESS")
    assert H.is_seven_pairs_win(h2) and not H.is_standard_win(h2)
    assert H.is_win(h2, "two-player")
    assert H.standard_shanten(h2) > -1 and H.seven_pairs_shanten(h2) == -1
    # 13-tile seven pairs wait: the single tile
    assert H.waits(parse("11m33m55m77m99mEES"), "two-player") == [28]


def test_seven_pairs_only_for_full_hands():
    h = parse("11m33m55m77m")  # 8 tiles: pairs but a group is declared
    assert not H.is_seven_pairs_win(h)
    assert not H.is_win(h, "public")
    with pytest.raises(ValueError):
        H.seven_pairs_shanten(h)
    with pytest.raises(ValueError):
        H.seven_pairs_shanten(parse("11m33m55m77m9m"))


def test_seven_pairs_four_copies_are_two_pairs_not_a_single_wait():
    # 1111m 22m 33m 44m 55m 6m: 6m completes seven pairs (1111 = two pairs)
    h = parse("1111m22m33m44m55m6m")
    w = H.waits(h, "two-player")
    assert 5 in w
    assert w == [1, 2, 4, 5]
    # 1111 + five pairs + single 1m is impossible (a fifth 1m): "1111m22m33m44m55mE" waits only E
    assert H.waits(parse("1111m22m33m44m55mE"), "two-player") == [27]


def test_thirteen_orphans():
    base = [1 if i in H.ORPHANS else 0 for i in range(34)]
    assert H.waits(base, "public") == list(H.ORPHANS)  # 13-sided wait
    assert H.thirteen_orphans_shanten(base) == 0
    assert H.shanten(base, "public") == 0
    for dup in H.ORPHANS:
        h = plus(base, dup)
        assert H.is_thirteen_orphans_win(h)
        assert H.is_win(h, "public")
        assert not H.is_win(h, "two-player")
        assert H.thirteen_orphans_shanten(h) == -1
    # 12 orphans + a pair of one of them: single wait on the missing one
    h = plus(minus(base, 31), 0)
    assert H.waits(h, "public") == [31]
    # replace an orphan by a simple: one more step
    h = plus(minus(base, 27), 4)
    assert H.thirteen_orphans_shanten(h) == 1
    assert not H.is_thirteen_orphans_win(plus(h, 27))
    with pytest.raises(ValueError):
        H.thirteen_orphans_shanten(parse("19m19pEE"))


def test_honors_and_knitted():
    h = parse("147m258p369sESWNC")  # 9 + 5
    assert H.is_honors_knitted_win(h)
    assert H.is_win(h, "public") and not H.is_win(h, "two-player")
    assert H.honors_knitted_shanten(h) == -1
    seven_stars = parse("14m25p369sESWNCFP")  # 七星不靠: 7 + 7 honors
    assert H.is_honors_knitted_win(seven_stars)
    assert H.is_win(seven_stars, "public")
    assert H.waits(parse("147m258p369sESWN"), "public") == [31, 32, 33]
    # mixing two patterns: 2m is not in the pattern of 258p
    assert not H.is_honors_knitted_win(parse("12m258p369sESWNCF"))
    # a pair breaks the form
    assert not H.is_honors_knitted_win(parse("147m258p369sESWNN"))
    assert not H.is_win(parse("147m258p369sESWNN"), "public")
    with pytest.raises(ValueError):
        H.honors_knitted_shanten(parse("147m258p"))


def test_knitted_straight():
    full = parse("147m258p369s123sEE")  # pattern + 123s + EE; 3s twice
    assert H.is_knitted_straight_win(full)
    assert H.is_win(full, "public") and not H.is_win(full, "two-player")
    assert H.knitted_straight_shanten(full) == -1
    small = parse("147m258p369sEE")  # M = 3: other group declared
    assert H.is_knitted_straight_win(small)
    assert H.is_win(small, "public")
    assert H.knitted_straight_shanten(small) == -1
    assert H.waits(parse("147m258p369sE"), "public") == [27]
    assert H.waits(parse("147m258p369s45mEE"), "public") == [2, 5]
    assert H.knitted_straight_shanten(parse("147m258p369s45mEE")) == 0
    assert H.knitted_straight_shanten(parse("147m258p36sEE")) == 0  # 10 tiles: waits 9s
    assert not H.is_knitted_straight_win(parse("147m258p36sEEE"))  # 11 tiles, 9s missing
    assert not H.is_knitted_straight_win(parse("147mEE"))  # too few tiles
    with pytest.raises(ValueError):
        H.knitted_straight_shanten(parse("147m258pE"))


def test_nine_gates_waits_all_nine():
    h = parse("1112345678999m")
    for ruleset in ("two-player", "public"):
        assert H.waits(h, ruleset) == list(range(9))
        assert H.shanten(h, ruleset) == 0
    bamboo = parse("1112345678999s")
    assert H.waits(bamboo, "two-player-bamboo") == list(range(18, 27))


def test_four_copies_of_the_only_wait():
    # 1111m + three complete groups: 1m would be the wait but a fifth copy does not exist
    h = parse("1111m234p567p789s")
    assert H.waits(h, "public") == []
    assert H.shanten(h, "public") == 1
    h2 = parse("1111mEEESSSWWW")
    assert H.waits(h2, "two-player") == []
    assert H.shanten(h2, "two-player") == 1
    assert H.waits(parse("1111m"), "two-player") == [] and H.standard_shanten(parse("1111m")) == 1
    # 1111 2222 3333 4: 1m 2m 3m are excluded (fifth copies), 4m and 5m remain
    assert H.waits(parse("1111222233334m"), "two-player") == [3, 4]


def test_small_hands():
    assert H.waits(parse("E"), "two-player") == [27]
    assert H.standard_shanten(parse("E")) == 0
    assert H.standard_shanten(parse("EE")) == -1
    assert H.standard_shanten(parse("ES")) == 0
    assert H.waits(parse("2m"), "two-player-bamboo") == []  # 2m is not a tile of the ruleset
    assert H.waits(parse("13mEE"), "two-player") == [1]
    assert H.waits(parse("23mEE"), "two-player") == [0, 3]
    assert H.standard_shanten(parse("19mES")) == 2


def test_numpy_input():
    np = pytest.importorskip("numpy")
    h = np.array(parse("1112345678999m"), dtype=np.uint8)
    assert H.waits(h, "two-player") == list(range(9))
    assert H.shanten(h, "two-player") == 0
    assert H.is_win(np.array(parse("11m"), dtype=np.uint8), "public")


def test_ruleset_object_accepted():
    from mahjong_core.families.mahjong.rulesets import RULESETS as RS

    assert H.waits(parse("1112345678999m"), RS["two-player"]) == list(range(9))


# ---------------------------------------------------------------------------
# decompositions
# ---------------------------------------------------------------------------


def test_decompositions_known():
    assert H.decompositions(parse("111222333m44m")) == [
        (("chow", 0), ("chow", 0), ("chow", 0), ("pair", 3)),
        (("chow", 0), ("chow", 1), ("chow", 1), ("pair", 0)),
        (("pair", 3), ("pung", 0), ("pung", 1), ("pung", 2)),
    ]
    assert H.decompositions(parse("EE")) == [(("pair", 27),)]
    assert H.decompositions(parse("123mEE")) == [(("chow", 0), ("pair", 27))]
    assert H.decompositions(parse("124mEE")) == []


def _rebuild(dec) -> list[int]:
    h = [0] * 34
    for kind, i in dec:
        if kind == "pair":
            h[i] += 2
        elif kind == "pung":
            h[i] += 3
        else:
            assert kind == "chow" and i < 27 and i % 9 <= 6
            for k in (i, i + 1, i + 2):
                h[k] += 1
    return h


def test_decompositions_properties():
    rng = random.Random(11)
    for _ in range(300):
        m = rng.randint(0, 4)
        h = random_complete(rng, m, rng.choice([range(9), range(34)]))
        decs = H.decompositions(h)
        assert decs, h
        assert len(decs) == len(set(decs))
        assert decs == sorted(decs)
        for dec in decs:
            assert dec == tuple(sorted(dec))
            assert sum(1 for part in dec if part[0] == "pair") == 1
            assert len(dec) == m + 1
            assert _rebuild(dec) == h


def test_decompositions_match_target_enumeration():
    """Every multiset of 2 groups + a pair on 1m-6m that builds the hand, found by brute force."""
    groups = [("chow", s) for s in range(4)] + [("pung", k) for k in range(6)]
    by_hand: dict[tuple, set] = {}
    for gs in itertools.combinations_with_replacement(groups, 2):
        for p in range(6):
            dec = tuple(sorted(gs + (("pair", p),)))
            h = _rebuild(dec)
            if max(h) <= 4:
                by_hand.setdefault(tuple(h), set()).add(dec)
    assert len(by_hand) > 50
    for h, decs in by_hand.items():
        assert H.decompositions(list(h)) == sorted(decs)


# ---------------------------------------------------------------------------
# shanten: independent checks of each distance
# ---------------------------------------------------------------------------


def test_standard_distance_shortcut_equals_exhaustive():
    rng = random.Random(3)
    for _ in range(250):
        kinds = rng.choice([range(9), range(34), H.RULESET_KINDS["two-player"]])
        n = rng.choice([1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
        h = random_hand(rng, n, kinds)
        cap = None
        if rng.random() < 0.3:
            cap = [3 if i in rng.choice(H.KNITTED_PATTERNS) else 4 for i in range(34)]
        m = n // 3
        assert H._groups_distance(h, m, cap) == H._groups_distance_exhaustive(h, m, cap), (h, m, cap)


def _enumerated_targets(m: int, kinds) -> list[dict]:
    """All standard targets (m groups + pair) on ``kinds``, as sparse dicts."""
    kinds = list(kinds)
    groups = [(s, s + 1, s + 2) for s in kinds if s < 27 and s % 9 <= 6 and s + 2 in kinds]
    groups += [(k, k, k) for k in kinds]
    targets = []
    for gs in itertools.combinations_with_replacement(groups, m):
        for p in kinds:
            t = Counter(itertools.chain.from_iterable(gs))
            t[p] += 2
            if max(t.values()) <= 4:
                targets.append(dict(t))
    return targets


def test_standard_shanten_matches_target_enumeration():
    """Brute force over every target on 1m-9m + E + S (a place for free groups)."""
    rng = random.Random(4)
    kinds = list(range(9)) + [27, 28]
    for m, count in ((0, 20), (1, 30), (2, 30), (3, 15)):
        targets = _enumerated_targets(m, kinds)
        for _ in range(count):
            n = 3 * m + rng.choice((1, 2))
            h = random_hand(rng, n, range(9))
            d = min(sum(max(0, c - h[k]) for k, c in t.items()) for t in targets)
            assert H.standard_shanten(h) == d - 1, h


def test_seven_pairs_shanten_matches_greedy():
    """Closed form: 7 best 'pair slots' (second slot of a kind only with 4 copies)."""
    rng = random.Random(5)
    for _ in range(400):
        h = random_hand(rng, rng.choice((13, 14)), rng.choice([range(9), range(34), range(5)]))
        gains = []
        for c in h:
            gains.append(min(2, c))
            gains.append(min(2, max(0, c - 2)))
        overlap = sum(sorted(gains, reverse=True)[:7])
        assert H.seven_pairs_shanten(h) == 14 - overlap - 1, h


def test_thirteen_orphans_and_honors_knitted_closed_forms():
    rng = random.Random(6)
    for _ in range(400):
        kinds = rng.choice([range(34), H.ORPHANS, H.KNITTED_PATTERNS[2] + H.HONORS])
        h = random_hand(rng, rng.choice((13, 14)), kinds)
        distinct_orphans = sum(1 for i in H.ORPHANS if h[i])
        has_pair = any(h[i] >= 2 for i in H.ORPHANS)
        assert H.thirteen_orphans_shanten(h) == 14 - distinct_orphans - has_pair - 1
        best = max(sum(1 for i in p + H.HONORS if h[i]) for p in H.KNITTED_PATTERNS)
        assert H.honors_knitted_shanten(h) == 14 - min(14, best) - 1


def test_knitted_straight_shanten_matches_target_enumeration():
    rng = random.Random(7)
    kinds = list(range(27)) + [27]
    targets_m0 = _enumerated_targets(0, range(34))
    for _ in range(40):
        n = rng.choice((10, 11))
        h = random_hand(rng, n, kinds)
        d = min(
            sum(max(0, c - h[k]) for k, c in (Counter(p) + Counter(t)).items())
            for p in H.KNITTED_PATTERNS
            for t in targets_m0
        )
        assert H.knitted_straight_shanten(h) == d - 1


# ---------------------------------------------------------------------------
# invariants on random hands of all rulesets
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_invariants_random(ruleset):
    rng = random.Random(RULESETS.index(ruleset) + 100)
    count = 300 if ruleset == "public" else 400
    seen_ready = seen_win = 0
    for h in near_hands(rng, ruleset, count):
        n = sum(h)
        s = H.shanten(h, ruleset)
        assert s >= -1
        if n % 3 == 2:
            win = H.is_win(h, ruleset)
            assert (s == -1) == win, h
            seen_win += win
            # removing the best tile: min_x shanten(h - x) == max(shanten(h), 0)
            assert min(H.shanten(minus(h, x), ruleset) for x in range(34) if h[x]) == max(s, 0), h
        else:
            w = H.waits(h, ruleset)
            assert s >= 0
            assert bool(w) == (s == 0), h
            seen_ready += bool(w)
            for t in w:
                assert h[t] < 4 and H.is_win(plus(h, t), ruleset)
        # every form's shanten is at least the overall minimum
        assert H.standard_shanten(h) >= s
    assert seen_ready > 10 and seen_win > 10


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shanten_drawing_recursion(ruleset):
    """For a 3k+1 hand, d(h) = 1 + min over drawable t of d(h + t) (t in the ruleset)."""
    rng = random.Random(RULESETS.index(ruleset) + 200)
    kinds = H.RULESET_KINDS[ruleset]
    hands = [h for h in near_hands(rng, ruleset, 200) if sum(h) % 3 == 1]
    for h in hands[: 25 if ruleset == "public" else 60]:
        s = H.shanten(h, ruleset)
        assert s == 1 + min(H.shanten(plus(h, t), ruleset) for t in kinds if h[t] < 4), h


FORMS = (
    (H.is_seven_pairs_win, H.seven_pairs_shanten),
    (H.is_thirteen_orphans_win, H.thirteen_orphans_shanten),
    (H.is_honors_knitted_win, H.honors_knitted_shanten),
    (H.is_knitted_straight_win, H.knitted_straight_shanten),
    (H.is_standard_win, H.standard_shanten),
)


def test_each_form_win_iff_shanten_minus_one_and_ready_iff_zero():
    """Per form, on perturbed special-form and seven-pairs hands of 13/14 tiles."""
    rng = random.Random(8)
    counts = Counter()
    for _ in range(150):
        h = random_special(rng) if rng.random() < 0.7 else random_seven_pairs(rng, range(34))
        for _ in range(rng.choice((0, 0, 1, 2))):  # swaps
            h = minus(h, rng.choice([i for i in range(34) if h[i]]))
            h = plus(h, rng.choice([k for k in range(34) if h[k] < 4]))
        if rng.random() < 0.5:
            h = minus(h, rng.choice([i for i in range(34) if h[i]]))
        for is_form_win, form_shanten in FORMS:
            s = form_shanten(h)
            if sum(h) == 14:
                assert (s == -1) == is_form_win(h), (h, form_shanten.__name__)
            else:
                ready = any(is_form_win(plus(h, t)) for t in range(34) if h[t] < 4)
                assert (s == 0) == ready, (h, form_shanten.__name__)
            counts[form_shanten.__name__, s <= 0] += 1
    # every special form was met both at/near completion and farther away
    for _, form_shanten in FORMS[:4]:
        assert counts[form_shanten.__name__, True] > 5, counts
        assert counts[form_shanten.__name__, False] > 5, counts
