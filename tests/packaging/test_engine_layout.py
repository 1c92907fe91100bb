"""The two compiled round engines share one layout and one vocabulary (issue 27, item 7): each is one
struct, ``RoundCore``, whose C fields are declared in the engine's ``.pxd`` (the state), with its
behaviour in functions of that struct in ``.pxi`` files by concern (transitions, legality, events and
views, bots); the ``.pyx`` keeps the module's tables, the constructor and the Python API.  CMake
cythonizes an engine again when one of its own ``.pxd``/``.pxi`` files changes (Cython's dependency file)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mahjong_core import _lc_round, _round

SRC = Path(__file__).resolve().parents[2] / "src" / "mahjong_core"
ENGINES = {
    "_round": ("_round_transitions.pxi", "_round_legal.pxi", "_round_events.pxi", "_round_views.pxi",
               "_round_bots.pxi"),
    "_lc_round": ("_lc_round_transitions.pxi", "_lc_round_legal.pxi", "_lc_round_seats.pxi",
                  "_lc_round_events.pxi", "_lc_round_bots.pxi"),
}


def _class_body(text: str) -> list[str]:
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("cdef class RoundCore"))
    body = []
    for line in lines[start + 1:]:
        if line and not line.startswith((" ", "#")):
            break
        body.append(line)
    return body


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_the_state_is_one_struct_in_the_pxd(engine):
    pxd = (SRC / f"{engine}.pxd").read_text(encoding="utf-8")
    assert "cdef class RoundCore:" in pxd
    fields = [line for line in _class_body(pxd) if line.startswith("    cdef ")]
    assert len(fields) > 20
    assert not any("(" in line.split("#")[0] and line.rstrip().endswith(":") for line in fields), "no methods"


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_the_behaviour_is_in_files_by_concern(engine):
    pyx = (SRC / f"{engine}.pyx").read_text(encoding="utf-8")
    body = _class_body(pyx)
    # the class in the .pyx holds no C fields and no cdef methods: its Python API only
    assert not [line for line in body if re.match(r"    c(p)?def ", line)]
    includes = set(re.findall(r'^include "(\w+\.pxi)"', pyx, re.M))
    assert set(ENGINES[engine]) <= includes
    for name in ENGINES[engine]:
        text = (SRC / name).read_text(encoding="utf-8")
        if name.endswith(("_transitions.pxi", "_legal.pxi", "_seats.pxi")):
            # functions of the struct, never methods of another class
            assert re.search(r"^cdef [\w\* ]+\(RoundCore self", text, re.M), name
    # every .pxi of the engine's name is included by it (none left over from an older layout)
    own = {p.name for p in SRC.glob(f"{engine}_*.pxi")}
    nested = {f"{engine}_vec.pxi"}   # the batch of rounds, included by the engine's _obs.pxi
    assert all(f'include "{n}"' in (SRC / f"{engine}_obs.pxi").read_text(encoding="utf-8") for n in nested & own)
    assert own - nested <= includes


def test_one_vocabulary_for_both_engines():
    assert _round.RoundCore.__name__ == _lc_round.RoundCore.__name__ == "RoundCore"
    # the long-card engine's old name keeps working
    assert _lc_round.HandCore is _lc_round.RoundCore


def test_cmake_tracks_each_modules_own_includes():
    cmake = (SRC.parents[1] / "CMakeLists.txt").read_text(encoding="utf-8")
    assert "--depfile" in cmake and "DEPFILE ${csrc}.dep" in cmake
    assert "CONFIGURE_DEPENDS" in cmake      # the fallback of generators without dependency files


def test_one_naming_rule_for_the_references():
    """Every family's pure-Python references are ``<family>/_ref/<concern>.py`` (issue 27 item 7):
    no reference module elsewhere under an older name (``*_ref.py``, ``*_py.py``, a ``_ref.py``),
    and each family's ``_ref`` package holds at least its hand and round oracles."""
    from mahjong_core.families import registry

    families = Path(registry.__file__).resolve().parent
    stray = [p.relative_to(families).as_posix() for p in families.rglob("*.py")
             if p.parent.name != "_ref" and re.search(r"(^_ref|_ref|_py)\.py$", p.name)]
    assert stray == []
    shipped = [p.parent for p in families.glob("*/family.py")]
    assert len(shipped) >= 2
    for family in shipped:
        assert {"hand.py", "round.py"} <= {p.name for p in (family / "_ref").glob("*.py")}, family.name
