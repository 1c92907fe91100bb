"""Runner of the per-fan acceptance cases in ``tests/fan_cases.py`` (spec sections 3 and 4).

Every case is run against every backend of ``BACKENDS`` (today the pure-Python
reference evaluator; the compiled evaluator is added by one more entry).  A backend
takes a :class:`~fan_cases.Case` and returns ``(fans, total)`` with ``fans`` a dict
``{fan_id: count}`` of the counted fans and ``total`` the hand value F.

Also checked: the case table is complete (every fan of every ruleset has at least
two hits and one miss, every exclusion pair of the tables has an exclusion case or a
documented reason why none can exist) and every case names a fan of its ruleset.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.fan_cases import (  # noqa: E402
    ALL_CASES,
    IMPOSSIBLE_HITS,
    SKIPPED_EXCLUSIONS,
    Case,
)

from mahjong_core.families.mahjong.fan_tables import FAN_TABLES  # noqa: E402
from mahjong_core.families.mahjong.tiles import parse_tiles  # noqa: E402


# ---------------------------------------------------------------------------------------
# Building the arguments
# ---------------------------------------------------------------------------------------


def _tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)] if text else []


def _melds(case: Case) -> list[tuple[str, tuple[int, ...]]]:
    out = []
    for m in case.melds:
        kind, tiles = m.split()
        out.append((kind, tuple(_tiles(tiles))))
    return out


def case_arguments(case: Case) -> dict:
    """The arguments of ``evaluate`` for ``case`` (ruleset, concealed, win_tile, melds, keywords)."""
    win = None if case.win is None else _tiles(case.win)[0]
    kw = dict(case.flags)
    kw["flowers"] = _tiles(case.flowers)
    kw["seat_wind"] = _tiles(case.seat)[0]
    kw["round_wind"] = _tiles(case.round)[0]
    return {"ruleset": case.ruleset, "concealed": _tiles(case.hand), "win_tile": win,
            "melds": _melds(case), "kw": kw}


# ---------------------------------------------------------------------------------------
# Backends
# ---------------------------------------------------------------------------------------


def _run_reference(case: Case) -> tuple[dict, int]:
    from mahjong_core.families.mahjong._ref.fan import Meld, evaluate

    a = case_arguments(case)
    r = evaluate(a["ruleset"], a["concealed"], a["win_tile"], [Meld(k, t) for k, t in a["melds"]], **a["kw"])
    return {fid: n for fid, n, _pts in r.fans}, r.total


_SCORE_NAMES = {"ready_declared": "ready"}


def _run_score(case: Case) -> tuple[dict, int]:
    """The public API: mahjong_core.score, i.e. the compiled evaluator with input parsing."""
    import mahjong_core as mj

    a = case_arguments(case)
    kw = {_SCORE_NAMES.get(k, k): v for k, v in a["kw"].items() if k != "options"}
    kw.update(case.flags.get("options", {}))
    if not kw.get("ready") and "ready_concealed" in kw and not kw["ready_concealed"]:
        kw.pop("ready_concealed")
    melds = [(k, t) for k, t in a["melds"]]
    s = mj.score(case.hand, case.win, ruleset=a["ruleset"], melds=melds, **kw)
    return s.fan_counts, s.total


BACKENDS = {"reference": _run_reference, "score": _run_score}


def run_case(case: Case, backend: str = "reference") -> tuple[dict, int]:
    return BACKENDS[backend](case)


# ---------------------------------------------------------------------------------------
# Parametrization
# ---------------------------------------------------------------------------------------


def _case_ids(cases) -> list[str]:
    seen: Counter = Counter()
    ids = []
    for c in cases:
        key = (c.ruleset, c.fan_id, c.kind)
        seen[key] += 1
        ids.append(f"{c.ruleset}-{c.fan_id}-{c.kind}-{seen[key]}")
    return ids


def _params():
    out = []
    ids = _case_ids(ALL_CASES)
    for backend in BACKENDS:
        for case, cid in zip(ALL_CASES, ids):
            marks = ()
            if case.xfail_reason:
                marks = (pytest.mark.xfail(strict=True, reason=case.xfail_reason),)
            out.append(pytest.param(backend, case, id=f"{backend}:{cid}", marks=marks))
    return out


def _describe(case: Case, fans: dict, total: int) -> str:
    return (f"\ncase: {case.ruleset} {case.fan_id} {case.kind}: hand={case.hand!r} win={case.win!r} "
            f"melds={case.melds} flags={case.flags} flowers={case.flowers!r} seat={case.seat} "
            f"round={case.round}\nsource: {case.source}\ngot: {fans} total={total}")


@pytest.mark.parametrize("backend,case", _params())
def test_fan_case(backend: str, case: Case) -> None:
    fans, total = run_case(case, backend)
    info = _describe(case, fans, total)
    for fid, n in case.expect_present.items():
        assert fans.get(fid, 0) == n, f"{fid}: expected count {n}, got {fans.get(fid, 0)}" + info
    for fid in case.expect_absent:
        assert fid not in fans, f"{fid} must not be counted" + info
    for ids, n in case.sum_of:
        got = sum(fans.get(f, 0) for f in ids)
        assert got == n, f"counts of {ids} must add up to {n}, got {got}" + info
    if case.total is not None:
        assert total == case.total, f"total: expected {case.total}, got {total}" + info


# ---------------------------------------------------------------------------------------
# Completeness of the case table
# ---------------------------------------------------------------------------------------


def test_case_fans_exist() -> None:
    bad = []
    for c in ALL_CASES:
        ids = {f.id for f in FAN_TABLES[c.ruleset]}
        named = {c.fan_id, *c.expect_present, *c.expect_absent, *(f for ids_, _ in c.sum_of for f in ids_)}
        unknown = named - ids
        if unknown:
            bad.append((c.ruleset, c.fan_id, c.kind, sorted(unknown)))
        assert c.kind in ("hit", "miss", "exclusion"), c
    assert not bad, bad


def test_every_fan_has_two_hits_and_a_miss() -> None:
    count: Counter = Counter((c.ruleset, c.fan_id, c.kind) for c in ALL_CASES)
    missing = []
    for ruleset, table in FAN_TABLES.items():
        for f in table:
            hits_needed = 0 if (ruleset, f.id) in IMPOSSIBLE_HITS else 2
            if count[(ruleset, f.id, "hit")] < hits_needed:
                missing.append((ruleset, f.id, "hit", count[(ruleset, f.id, "hit")]))
            if count[(ruleset, f.id, "miss")] < 1:
                missing.append((ruleset, f.id, "miss", 0))
    assert not missing, missing


def test_every_exclusion_has_a_regression_case() -> None:
    covered = {(c.ruleset, c.fan_id, b) for c in ALL_CASES if c.kind == "exclusion" for b in c.expect_absent}
    missing = []
    for ruleset, table in FAN_TABLES.items():
        for f in table:
            for b in f.excludes:
                if (ruleset, f.id, b) not in covered and (ruleset, f.id, b) not in SKIPPED_EXCLUSIONS:
                    missing.append((ruleset, f.id, b))
    assert not missing, missing


def test_skip_lists_are_real_pairs() -> None:
    for (ruleset, a, b), reason in SKIPPED_EXCLUSIONS.items():
        row = {f.id: f for f in FAN_TABLES[ruleset]}[a]
        assert b in row.excludes and reason, (ruleset, a, b)
    for (ruleset, fid), reason in IMPOSSIBLE_HITS.items():
        assert fid in {f.id for f in FAN_TABLES[ruleset]} and reason
