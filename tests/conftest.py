"""Fixtures shared by every test layer (tests/hand, fan, game, settlement, simulation, cli,
hostile, generated, longcard, packaging; helper modules in tests/support).

``parity``: the shared parity fixture.  It is parametrised over the implementations under test
(:data:`tests.support.parity.IMPLEMENTATIONS`, RapidFuzz's shape) and gives the requesting
suite's behaviour -- named by the module constant ``PARITY`` (``"hand"``, ``"fan"``,
``"round"``) -- as a :class:`~tests.support.parity.Twins`: the implementation under test and the
pure-Python reference, with the same calling convention.  Module scope, so hypothesis tests may
take it.

The hostile suites run their input in a child interpreter: :mod:`tests.support.isolation`
(``run_cases``, ``run_code``); ``tools/test_checked_build.sh`` runs them against a bounds-checked,
AddressSanitizer build.
"""

from __future__ import annotations

import sys

import pytest

from tests.support.parity import IMPLEMENTATIONS, TWINS, Twins


@pytest.fixture(scope="module", params=IMPLEMENTATIONS)
def parity(request: pytest.FixtureRequest) -> Twins:
    behaviour = getattr(request.module, "PARITY", None)
    if behaviour is None:
        raise pytest.UsageError(f"{request.module.__name__} uses the parity fixture without a PARITY constant")
    return TWINS[(behaviour, request.param)]


@pytest.fixture
def fast_switching():
    """Make the interpreter switch threads every microsecond (default 5 ms) for the test, so that
    threads are interrupted inside every read-modify-write and call sequence."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)
