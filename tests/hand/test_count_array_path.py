"""The count-array fast path of ``is_win`` / ``waits`` / ``shanten`` (issue 14).

An exact C-contiguous ``uint8`` (34,) array is read through the NumPy C API and checked in C
(counts 0-4, tiles the ruleset plays, the size for the question); every other input goes through
the general loader.  Hypothesis holds the array path against the reference and against the same
hand passed in the other accepted forms (a list, another dtype, a non-contiguous view, a Hand),
for valid hands and for arrays with a fifth copy, an unplayed tile or a wrong size: the same
answer or the same error class and message.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mj

PARITY = "hand"   # the behaviour the shared ``parity`` fixture (tests/conftest.py) gives this suite

QUESTIONS = ("is_win", "waits", "shanten")


class _Sub(np.ndarray):
    """An ndarray subclass: not an exact ndarray, so the fast path leaves it to the loader."""


def outcome(fn, *args, **kw):
    try:
        return ("ok", fn(*args, **kw))
    except Exception as e:  # noqa: BLE001 - every form must fail the same way
        return ("err", type(e).__name__, str(e))


@st.composite
def count_arrays(draw):
    """A ruleset and a count array drawn near winning sizes, sometimes with a bad count."""
    ruleset = draw(st.sampled_from(mj.RULESET_NAMES))
    kinds = list(mj.get_ruleset(ruleset).kinds)
    n = draw(st.integers(0, 15))
    counts = np.zeros(34, np.uint8)
    for _ in range(n):
        k = draw(st.sampled_from(kinds))
        if counts[k] < 4:
            counts[k] += 1
    odd = draw(st.integers(0, 9))
    if odd == 0:
        counts[draw(st.integers(0, 33))] = draw(st.sampled_from((5, 9, 255)))
    elif odd == 1:
        counts[draw(st.integers(0, 33))] += 1      # maybe a tile the ruleset does not play
    return ruleset, counts


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count_arrays(), st.sampled_from(QUESTIONS))
def test_array_path_equals_every_other_form_and_the_reference(parity, drawn, question):
    ruleset, counts = drawn
    fn = getattr(mj, question)
    got = outcome(fn, counts, ruleset=ruleset)
    # the buffer-protocol loader (the path exact arrays took before): same answer, same error
    for other in (bytearray(counts.tobytes()), counts.view(_Sub), memoryview(counts)):
        assert outcome(fn, other, ruleset=ruleset) == got
    if got[0] == "ok":
        # the forms converted in Python (their count errors have the converter's own message)
        wide = np.zeros(68, np.uint8)
        wide[::2] = counts
        for other in (counts.tolist(), counts.astype(np.int64), wide[::2]):
            assert outcome(fn, other, ruleset=ruleset) == got
        assert got[1] == getattr(parity.reference, question)(counts, ruleset)
        assert got == outcome(getattr(mj.Hand(counts, ruleset=ruleset), question))


@pytest.mark.parametrize("bad", [np.zeros(33, np.uint8), np.zeros((2, 34), np.uint8), np.zeros(34, np.float64),
                                 np.zeros(34, np.int8) - 1])
def test_arrays_the_fast_path_does_not_take_raise_the_loader_errors(bad):
    for question in QUESTIONS:
        with pytest.raises(mj.MahjongError):
            getattr(mj, question)(bad)
