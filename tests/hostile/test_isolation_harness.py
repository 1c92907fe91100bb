"""The hostile-input harness itself: a crash or a non-MahjongError in the child fails the test
(with the case that caused it) instead of killing the run."""

from __future__ import annotations

import pytest

from tests.support.isolation import assert_no_crash, run_cases, run_code

pytestmark = pytest.mark.hostile


def test_outcomes_are_classified():
    out = run_cases("hostile_ops_harness:classify", [{"kind": "ok", "value": 3}, {"kind": "mahjong"}])
    assert out[0] == {"outcome": "ok", "detail": 3}
    assert out[1]["outcome"] == "refused" and out[1]["error"] == "TileParseError"


@pytest.mark.parametrize("kind", ["segfault", "abort"])
def test_a_crash_fails_the_test_and_names_the_case(kind):
    with pytest.raises(pytest.fail.Exception) as info:
        run_cases("hostile_ops_harness:classify", [{"kind": "ok"}, {"kind": kind, "marker": "case-two"}])
    msg = str(info.value)
    assert "case 1 of hostile_ops_harness:classify crashed" in msg and "case-two" in msg


def test_a_non_mahjong_error_fails_the_test():
    with pytest.raises(pytest.fail.Exception) as info:
        run_cases("hostile_ops_harness:classify", [{"kind": "other"}])
    assert "KeyError" in str(info.value) and "non-MahjongError" in str(info.value)


def test_run_code_uses_the_same_build():
    import mahjong_core

    proc = run_code("import mahjong_core, sys; print(mahjong_core.__file__)")
    assert_no_crash(proc)
    assert proc.returncode == 0 and proc.stdout.strip() == mahjong_core.__file__


def test_assert_no_crash_reports_a_signal():
    proc = run_code("import os; os.abort()")
    with pytest.raises(pytest.fail.Exception, match="signal"):
        assert_no_crash(proc)
