#!/usr/bin/env python3
"""Generate ``src/mahjong_core/_fan_tables.pxi`` from :mod:`mahjong_core.fan_tables`.

The compiled fan evaluator (``_fan.pyx``) reads every property of a fan from
the arrays written here, never from hand-written constants, so code and data
cannot drift (style.md points 3, 4, 6).  ``tests/generated/test_fan_tables_generated.py``
re-runs this script into a temporary file and checks it equals the committed
``.pxi``.

Layout (per ruleset code ``rs``: 0 two-player, 1 two-player-bamboo, 2 public, 3 mcr)
------------------------------------------------------------------------------------
Each ruleset numbers its fans by an *internal index*: the fans sorted by
(points descending, table order).  That is exactly the walk order of the single
generic exclusion pass (spec 4.3 step 1), so the pass is "take the lowest set
bit of the present-fan bit set" (two 64-bit words, ``FAN_WORDS``).

* ``FAN_COUNT[rs]``: number of fans of the ruleset (59 / 62 / 82 / 82).
* ``FAN_TABLE_POS[rs][i]``: table position (the ``out_counts`` slot) of internal fan i.
* ``FAN_POINTS[rs][i]``, ``FAN_FLAGS[rs][i]`` (bits ``FF_*``).
* ``FAN_EXCL[rs][i][w]``: the exclusion bit set of fan i as applied by the pass:
  the row's ``excludes`` minus the set-C-vs-set-C pairs (left to the NS rule of
  4.2 step 3) and minus 幺九刻, whose scope is ``FAN_YJ_MODE[rs][i]`` (D14):
  ``YJ_NONE``, ``YJ_OWN`` (the pungs of this fan's own instances), ``YJ_ALL``
  (every instance: 字一色, 清幺九, 混幺九, two-player 九莲宝灯) or ``YJ_ONE`` (exactly
  one instance: 九莲宝灯 in two-player-bamboo and public).
* ``FAN_EXCL_LITERAL[rs][i][w]``: the same with the seed-only lists of the
  first-turn fans (OP-23 option ``literal_first_turn_exclusions``).
* ``FAN_TIE_ORDER[rs][k]``: internal index of the k-th fan in (the ruleset's ``tie_last`` at the
  end, points desc, its ``tie_preference``, id asc) order: the tie rule of 4.2 step 5 compares fan
  lists in that order.
* ``FAN_OF_KEY[rs][K_x]``: internal index of fan key ``K_x`` (``NO_FAN`` if the
  ruleset has no such fan).  ``K_*`` is one enum over the ids of all rulesets,
  used by the detectors.
* ``FAN_IDS[rs]``: the ids in table order (Python tuple).
* ``RULESET_QUIRKS[rs]``: the ruleset's rule quirks as ``RQ_*`` bits (``QUIRKS``), and
  ``RULESET_KINDS[rs]``: the tile kinds in play as a bit mask.

Run: ``PYTHONPATH=python python tools/gen_fan_tables.py [output]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _import_fan_tables():
    """Import ``mahjong_core.families.mahjong.fan_tables`` from the source tree *without* running the
    package ``__init__`` (which imports the compiled modules this script feeds)."""
    import importlib
    import types

    if "mahjong_core" not in sys.modules:
        pkg = types.ModuleType("mahjong_core")
        pkg.__path__ = [str(HERE / "python" / "mahjong_core")]
        sys.modules["mahjong_core"] = pkg
    tables = importlib.import_module("mahjong_core.families.mahjong.fan_tables")
    fandef = importlib.import_module("mahjong_core.families.mahjong.fandef")
    rulesets = importlib.import_module("mahjong_core.families.mahjong.rulesets")
    return tables.FAN_TABLES, fandef.PER_VALUES, rulesets.RULESETS


FAN_TABLES, PER_VALUES, _RULESETS = _import_fan_tables()

OUTPUT = HERE / "src" / "mahjong_core" / "_fan_tables.pxi"

RULESETS = tuple(sorted(_RULESETS, key=lambda name: _RULESETS[name].code))  # index = ruleset code
EXPECTED_COUNTS = {"two-player": 59, "two-player-bamboo": 62, "public": 82, "mcr": 82}
FAN_WORDS = 2


def _max_fans() -> int:
    """The length of a fan-count row: tools/constants/mahjong.py's MAX_FANS (the round engine's count rows
    use it too, through _mahjong_constants.pxd, which _fan.pyx cimports before including the tables)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_constants_source_mahjong", HERE / "tools" / "constants" / "mahjong.py")
    src = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(src)
    (value,) = [v for name, v, _ in src.SCALARS if name == "MAX_FANS"]
    assert value == 64 * FAN_WORDS, "MAX_FANS must be the bits of FAN_WORDS exclusion words"
    return value


MAX_FANS = _max_fans()
NO_FAN = 255

YJ = "pung_of_terminals_or_honors"
# D14: fans whose own pungs never score 幺九刻 (whether or not the row lists it).
D14_OWN_PUNG_FANS = frozenset((
    "big_three_winds", "little_four_winds", "big_four_winds", "big_three_dragons",
    "little_three_dragons", "two_dragon_pungs", "dragon_pung", "prevalent_wind", "seat_wind",
))
# D14 / 4.3: whole-hand fans that clear every 幺九刻 (plus 九莲宝灯 in two-player).
D14_ALL_INSTANCES = frozenset(("all_honors", "all_terminals", "all_terminals_and_honors"))
# OP-23 literal reading: the seed exclusion lists of the first-turn fans.
LITERAL_FIRST_TURN_EXCLUDES = {
    "heavenly_hand": ("single_wait", "edge_wait", "closed_wait"),
    "earthly_hand": (),
    "humanly_hand": (),
}
# plain (non set-C) fans whose instances are tied to a group (their pung): D14 "own" scope.
PLAIN_PUNG_FANS = frozenset(("dragon_pung", "prevalent_wind", "seat_wind"))

# Rule quirks: behaviour one ruleset has and the others do not, read from the Ruleset records'
# fields of these names (the compiled evaluator reads RULESET_QUIRKS[rs] bits, never a ruleset's
# name); bit order = the RQ_* enum written below.
QUIRKS = (
    # (field, bit name, doc)
    ("special_forms", "RQ_SPECIAL_FORMS",
     "thirteen orphans, 全不靠/七星不靠 and the knitted straight are winning forms"),
    ("first_turn_and_ready", "RQ_FIRST_TURN_AND_READY",
     "天胡 地胡 人胡 天听 and 报听 exist (else such flags are refused, E_PUBLIC_FIRST_TURN)"),
    ("terminal_honor_hands_in_seven_pairs", "RQ_TERMINAL_HONOR_IN_SEVEN_PAIRS",
     "字一色, 清幺九, 混幺九 also count in the seven-pairs form (D12, OP-35)"),
    ("seven_pairs_all_honors", "RQ_SEVEN_PAIRS_ALL_HONORS",
     "七小对(全字牌) replaces 七对 when every pair is an honor (OP-29)"),
    ("flower_replacement_bloom", "RQ_FLOWER_REPLACEMENT_BLOOM",
     "a flower replacement can count 杠上开花 (option replacement_bloom, OP-28)"),
    ("nine_gates_clears_terminal_pungs", "RQ_NINE_GATES_CLEARS_TERMINAL_PUNGS",
     "九莲宝灯 clears every 幺九刻 (D14); otherwise exactly one instance"),
    ("tie_division_order", "RQ_TIE_DIVISION_ORDER",
     "between standard readings of equal total, the first in PyMahjongGB's division order is kept"),
)


def quirk(name: str, field: str) -> bool:
    """A rule quirk of ruleset `name`: the Ruleset record's field."""
    return bool(getattr(_RULESETS[name], field))


def quirk_bits(name: str) -> int:
    return sum(1 << i for i, (field, _, _) in enumerate(QUIRKS) if quirk(name, field))


YJ_NONE, YJ_OWN, YJ_ALL, YJ_ONE = 0, 1, 2, 3
FF_COMBINATION, FF_FLOWER, FF_REPEATABLE, FF_D14_OWN, FF_TIE_FAVOURED = 1, 2, 4, 8, 16


def all_keys() -> list[str]:
    """Every fan id of every ruleset, in order of first appearance (public first; a new ruleset's
    own ids come last, so the keys of the others keep their values)."""
    keys: list[str] = []
    for name in ("public", "two-player", "two-player-bamboo", "mcr"):
        for f in FAN_TABLES[name]:
            if f.id not in keys:
                keys.append(f.id)
    return keys


def words(bits: set[int]) -> list[int]:
    out = [0] * FAN_WORDS
    for b in bits:
        assert 0 <= b < MAX_FANS
        out[b >> 6] |= 1 << (b & 63)
    return out


def ruleset_data(name: str) -> dict:
    table = FAN_TABLES[name]
    n = len(table)
    assert n == EXPECTED_COUNTS[name], (name, n)
    assert n <= MAX_FANS
    ids = [f.id for f in table]
    assert len(set(ids)) == n, f"{name}: duplicate fan ids"
    by_id = {f.id: f for f in table}
    for f in table:
        assert f.points > 0, (name, f.id)
        assert f.per is None or f.per in PER_VALUES, (name, f.id, f.per)
        assert f.id not in f.excludes, (name, f.id, "excludes itself")
        for x in f.excludes:
            assert x in by_id, (name, f.id, "excludes unknown fan", x)
            # flower-derived fans only exclude flower-derived fans and vice versa (D16)
            assert by_id[x].flower_derived == f.flower_derived, (name, f.id, x)
    # internal order: the walk order of the exclusion pass (4.3 step 1)
    internal = sorted(range(n), key=lambda k: (-table[k].points, k))
    pos_of = {table[k].id: i for i, k in enumerate(internal)}
    rows = []
    for i, k in enumerate(internal):
        f = table[k]
        flags = 0
        if f.combination:
            flags |= FF_COMBINATION
        if f.flower_derived:
            flags |= FF_FLOWER
        if f.per is not None:
            flags |= FF_REPEATABLE
        if f.id in D14_OWN_PUNG_FANS:
            flags |= FF_D14_OWN
            assert f.combination or f.id in PLAIN_PUNG_FANS, f.id
        if f.id in _RULESETS[name].tie_division_favoured:
            flags |= FF_TIE_FAVOURED

        def effective(excludes: tuple[str, ...]) -> tuple[set[int], int]:
            bits: set[int] = set()
            yj_mode = YJ_NONE
            for x in excludes:
                if f.combination and by_id[x].combination:
                    continue  # set C vs set C: handled by NS (4.2 step 3)
                if x == YJ:
                    if f.id in D14_ALL_INSTANCES or (f.id == "nine_gates"
                                                     and quirk(name, "nine_gates_clears_terminal_pungs")):
                        yj_mode = YJ_ALL
                    elif f.id == "nine_gates":
                        yj_mode = YJ_ONE
                    else:
                        # own scope: only fans whose instances are tied to groups can clear anything
                        assert f.combination or f.id in PLAIN_PUNG_FANS, (name, f.id)
                        yj_mode = YJ_OWN
                    continue
                bits.add(pos_of[x])
            return bits, yj_mode

        bits, yj_mode = effective(f.excludes)
        lit = LITERAL_FIRST_TURN_EXCLUDES.get(f.id)
        lit_bits, lit_mode = effective(lit) if lit is not None else (bits, yj_mode)
        assert lit_mode == yj_mode
        # The compiled pass adds a fan's points as soon as the walk reaches it: that is
        # exact only if no fan clears a fan that comes earlier in the walk order.
        assert all(b > i for b in bits | lit_bits), (name, f.id, "excludes an earlier fan")
        # 幺九刻 is counted after the walk: every fan that clears its instances must come first.
        if yj_mode != YJ_NONE or f.id in D14_OWN_PUNG_FANS:
            assert i < pos_of[YJ], (name, f.id)
        rows.append(dict(id=f.id, table_pos=k, points=f.points, flags=flags,
                         excl=words(bits), excl_lit=words(lit_bits), yj_mode=yj_mode))
    prefer = {fid: k for k, fid in enumerate(_RULESETS[name].tie_preference)}
    last = set(_RULESETS[name].tie_last)
    assert all(fid in by_id for fid in [*prefer, *last, *_RULESETS[name].tie_division_favoured]), \
        (name, "tie_preference / tie_last / tie_division_favoured name an unknown fan")
    tie = sorted(range(n), key=lambda i: (rows[i]["id"] in last, -rows[i]["points"],
                                          prefer.get(rows[i]["id"], len(prefer)), rows[i]["id"]))
    return dict(name=name, n=n, ids=ids, rows=rows, pos_of=pos_of, tie=tie)


def render() -> str:
    keys = all_keys()
    assert len(keys) < NO_FAN
    data = [ruleset_data(name) for name in RULESETS]
    out: list[str] = []
    w = out.append
    w("# DO NOT EDIT - generated by tools/gen_fan_tables.py from mahjong_core.fan_tables")
    w("# (see the generator's docstring for the layout).  Included by _fan.pyx.")
    w("")
    w("cdef enum:")
    w(f"    N_RULESETS = {len(RULESETS)}")
    w(f"    FAN_WORDS = {FAN_WORDS}")
    w(f"    N_KEYS = {len(keys)}")
    w(f"    NO_FAN = {NO_FAN}")
    w(f"    YJ_NONE = {YJ_NONE}")
    w(f"    YJ_OWN = {YJ_OWN}")
    w(f"    YJ_ALL = {YJ_ALL}")
    w(f"    YJ_ONE = {YJ_ONE}")
    w(f"    FF_COMBINATION = {FF_COMBINATION}")
    w(f"    FF_FLOWER = {FF_FLOWER}")
    w(f"    FF_REPEATABLE = {FF_REPEATABLE}")
    w(f"    FF_D14_OWN = {FF_D14_OWN}")
    w(f"    FF_TIE_FAVOURED = {FF_TIE_FAVOURED}")
    w("")
    w("# rule quirks of a ruleset (RULESET_QUIRKS bits)")
    w("cdef enum:")
    for i, (field, bit, doc) in enumerate(QUIRKS):
        w(f"    {bit} = {1 << i}    # {field}: {doc}")
    w("")
    w("# per ruleset: its quirk bits and the tile kinds in play")
    w(f"cdef uint32_t RULESET_QUIRKS[{len(RULESETS)}]")
    w(f"RULESET_QUIRKS[:] = [{', '.join(str(quirk_bits(name)) for name in RULESETS)}]")
    w(f"cdef uint64_t RULESET_KINDS[{len(RULESETS)}]")
    w(f"RULESET_KINDS[:] = [{', '.join(hex(_RULESETS[name].kind_mask) + 'ULL' for name in RULESETS)}]")
    w("")
    w("# fan keys: one enum over the fan ids of every ruleset")
    w("cdef enum:  # FanKey")
    for k, fid in enumerate(keys):
        w(f"    K_{fid.upper()} = {k}")
    w("")
    w(f"cdef int FAN_COUNT[{len(RULESETS)}]")
    w(f"FAN_COUNT[:] = [{', '.join(str(d['n']) for d in data)}]")
    w("")
    w("cdef uint8_t FAN_TABLE_POS[N_RULESETS][MAX_FANS]")
    w("cdef uint8_t FAN_POINTS[N_RULESETS][MAX_FANS]")
    w("cdef uint8_t FAN_FLAGS[N_RULESETS][MAX_FANS]")
    w("cdef uint8_t FAN_YJ_MODE[N_RULESETS][MAX_FANS]")
    w("cdef uint64_t FAN_EXCL[N_RULESETS][MAX_FANS][FAN_WORDS]")
    w("cdef uint64_t FAN_EXCL_LITERAL[N_RULESETS][MAX_FANS][FAN_WORDS]")
    w("cdef uint8_t FAN_TIE_ORDER[N_RULESETS][MAX_FANS]")
    w("cdef uint8_t FAN_OF_KEY[N_RULESETS][N_KEYS]")
    w("")
    w("")
    w("cdef void _load_fan_tables() noexcept:")
    w('    """Fill the fan arrays (called once at import, before anything reads them)."""')
    for rs, d in enumerate(data):
        w(f"    # --- {d['name']}: {d['n']} fans, internal order = (points desc, table order)")
        for i, r in enumerate(d["rows"]):
            e0, e1 = r["excl"]
            l0, l1 = r["excl_lit"]
            w(f"    # {i:2d} {r['id']} ({r['points']})")
            w(f"    FAN_TABLE_POS[{rs}][{i}] = {r['table_pos']}; FAN_POINTS[{rs}][{i}] = {r['points']}; "
              f"FAN_FLAGS[{rs}][{i}] = {r['flags']}; FAN_YJ_MODE[{rs}][{i}] = {r['yj_mode']}")
            w(f"    FAN_EXCL[{rs}][{i}][0] = {e0:#x}ULL; FAN_EXCL[{rs}][{i}][1] = {e1:#x}ULL")
            w(f"    FAN_EXCL_LITERAL[{rs}][{i}][0] = {l0:#x}ULL; FAN_EXCL_LITERAL[{rs}][{i}][1] = {l1:#x}ULL")
        w(f"    FAN_TIE_ORDER[{rs}][:{d['n']}] = [{', '.join(str(t) for t in d['tie'])}]")
        ofkey = [d["pos_of"].get(fid, NO_FAN) for fid in keys]
        w(f"    FAN_OF_KEY[{rs}][:] = [{', '.join(str(v) for v in ofkey)}]")
    w("")
    w("")
    w("FAN_IDS = (")
    for d in data:
        w("    (")
        for fid in d["ids"]:
            w(f'        "{fid}",')
        w("    ),")
    w(")")
    w("")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    target = Path(argv[1]) if len(argv) > 1 else OUTPUT
    text = render()
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
