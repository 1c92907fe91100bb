"""Issue 27 item 6: the conformance suite (:mod:`mahjong_core.testing`) holds every registered
ruleset and the toy family of tests/support/toy to the contract, check by check (a failure names
the ruleset and the check), and it catches a faulty family: each broken variant of the toy round
fails the check it breaks."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from mahjong_core import testing
from mahjong_core.errors import IllegalActionError
from mahjong_core.families import registry
from mahjong_core.testing import CHECKS, ConformanceError, check_ruleset, run_check
from mahjong_core.testing.checks_layers import run_cli
from tests.support.toy import RULESET as TOY, RaceRound, registered
from tests.support.toy.hidden_worlds import hidden_world as toy_hidden_world

RULESETS = registry.ruleset_names()
_SUBJECTS: dict[str, testing.Subject] = {}


def _subject(ruleset: str) -> testing.Subject:
    """One subject per ruleset: the rounds several checks read are played once."""
    if ruleset not in _SUBJECTS:
        _SUBJECTS[ruleset] = testing.subject(ruleset)
    return _SUBJECTS[ruleset]


@pytest.fixture
def toy():
    with registered() as family:
        yield family


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_registered_ruleset_conforms(ruleset, check):
    run_check(_subject(ruleset), check)


@pytest.mark.parametrize("check", CHECKS)
def test_the_toy_family_conforms(toy, check):
    run_check(_subject(TOY.name), check)


def test_the_suite_sees_every_engine_a_family_registers():
    for ruleset in RULESETS:
        assert set(_subject(ruleset).engines) == {"compiled", "reference"}, ruleset


def test_check_ruleset_runs_every_check_on_the_toy_family(toy):
    start = time.perf_counter()
    check_ruleset(TOY.name, seed=3, rounds=2)
    assert time.perf_counter() - start < 30


def test_unknown_checks_and_rulesets_are_refused():
    with pytest.raises(ValueError, match="unknown check 'nope'"):
        run_check(RULESETS[0], "nope")
    with pytest.raises(ValueError, match="unknown checks"):
        check_ruleset(RULESETS[0], only=["nope"])
    with pytest.raises(ValueError, match="unknown ruleset"):
        check_ruleset("no-such-ruleset")


# ---------------------------------------------------------------------------------- faults it catches
class MaskDisagrees(RaceRound):
    """legal_mask marks every move, legal or not."""

    def legal_mask(self, seat):
        m = super().legal_mask(seat)
        m[:] = bool(m.any())
        return m


class ViewLeaks(RaceRound):
    """Every seat's view shows every seat's secret card."""

    VIEW_KEYS = RaceRound.VIEW_KEYS + ("cards",)

    def _view_fields(self, seat, legal):
        return {**super()._view_fields(seat, legal), "cards": list(self.cards)}


class RefusalMutates(RaceRound):
    """A refused action passes the turn on before it is refused."""

    def step(self, seat, action):
        try:
            return super().step(seat, action)
        except IllegalActionError:
            if not self.is_over:
                self.turn = (self.turn + 1) % self.players
            raise


class ReferenceLostByPickle(RaceRound):
    """A reference engine whose pickle and deep copy come back as the compiled engine."""

    engine = "reference"

    def __reduce__(self):
        return (RaceRound.from_dict, (self.to_dict(),))


class RefusesWithTypeError(RaceRound):
    """A malformed action is refused with a TypeError, not the library's ValueError."""

    def _encode_action(self, seat, action):
        if action is None:
            raise TypeError("no action")
        return super()._encode_action(seat, action)


class ResultDeltasUnbalanced(RaceRound):
    """The winner takes a point from every seat, himself included: the deltas do not sum to 0."""

    def step(self, seat, action):
        events = super().step(seat, action)
        if self._result is not None:
            self._result["deltas"] = [d + 1 for d in self._result["deltas"]]
        return events


FAULTS: dict[str, tuple[str, dict[str, Any]]] = {
    "mask disagrees with the legal set": ("legal_mask", {"compiled": MaskDisagrees}),
    "view leaks a hidden card": ("hidden_information", {"compiled": ViewLeaks}),
    "refused action mutates the state": ("refused_actions", {"compiled": RefusalMutates}),
    "refusal not a ValueError": ("refused_actions", {"compiled": RefusesWithTypeError}),
    "pickle loses the engine": ("round_trips", {"compiled": RaceRound, "reference": ReferenceLostByPickle}),
    "deltas do not sum to 0": ("results", {"compiled": ResultDeltasUnbalanced}),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_a_broken_family_fails_the_check_it_breaks(toy, fault):
    check, engines = FAULTS[fault]
    run_check(TOY.name, check)   # the sound toy passes it
    with pytest.raises(ConformanceError) as info:
        run_check(TOY.name, check, engines=engines)
    err = info.value
    assert isinstance(err, AssertionError) and err.ruleset == TOY.name and err.check == check
    assert str(err).startswith(f"{TOY.name}: {check}: ")


def test_a_broken_family_fails_check_ruleset_naming_the_check(toy):
    with pytest.raises(ConformanceError, match=r"^toy-race: hidden_information: seat \d sees the same events"):
        check_ruleset(TOY.name, engines={"compiled": ViewLeaks})


def test_every_family_re_deals_what_a_seat_cannot_see():
    """Every registered family registers ``hidden_worlds``: the hidden_information check re-deals
    its rounds (it finds no two deals a seat cannot tell apart among different seeds)."""
    for ruleset in RULESETS:
        assert _subject(ruleset).family.hidden_worlds is not None, ruleset


def _hidden_subject(engines=None, hidden_worlds="toy"):
    """A subject of the toy race whose family re-deals with ``hidden_worlds`` (the toy's own by default)."""
    s = testing.subject(TOY.name, engines=engines)
    if hidden_worlds != "toy":
        s.family = dataclasses.replace(s.family, hidden_worlds=hidden_worlds)
    return s


def test_a_leaking_view_is_caught_with_the_hook_and_without_it(toy):
    """The toy's view that shows every card fails through the re-dealt worlds of its hook, and
    through the comparison of different deals when the family registers no hook."""
    assert _subject(TOY.name).family.hidden_worlds is not None
    for hook, how in (("toy", r"and in that round re-dealt where it cannot see \(hidden_worlds\)"),
                      (None, r"and the round of seed \d+ \(compiled engine\) at step \d+")):
        run_check(_hidden_subject(hidden_worlds=hook), "hidden_information")   # the sound toy passes
        with pytest.raises(ConformanceError, match=r"^toy-race: hidden_information: seat \d sees the same "
                           r"events in the round of seed \d+ \(compiled engine\) at step \d+ " + how +
                           r" but not the same view: .*view\['cards'\]"):
            run_check(_hidden_subject({"compiled": ViewLeaks}, hook), "hidden_information")


def test_the_hook_path_cannot_pass_vacuously(toy):
    """A hook that re-deals nothing, or re-deals worlds whose hidden cards never differ, fails the
    check: it must compare enough worlds with other hidden cards."""
    never = _hidden_subject(hidden_worlds=lambda r, seat, rng: None)
    with pytest.raises(ConformanceError, match=r"hidden_worlds gave 0 worlds to compare, 0 of them"):
        run_check(never, "hidden_information")
    same = _hidden_subject(hidden_worlds=lambda r, seat, rng: RaceRound.from_dict(r.to_dict()))
    with pytest.raises(ConformanceError, match=r"hidden_worlds gave \d+ worlds to compare, 0 of them with other"):
        run_check(same, "hidden_information")


def test_a_hook_that_changes_what_the_seat_saw_fails(toy):
    """A re-dealt world must show the seat the same events and the same turn: a fresh race (its
    moves not replayed) is refused as a hook fault, not compared."""
    fresh = _hidden_subject(hidden_worlds=lambda r, seat, rng: RaceRound(r.ruleset, r.seed, dealer=r.dealer))
    with pytest.raises(ConformanceError, match=r"hidden_worlds re-dealt for seat \d a round whose events"):
        run_check(fresh, "hidden_information")


def test_a_hook_that_changes_the_round_it_re_deals_fails(toy):
    def meddling(r, seat, rng):
        r.log.append({"type": "note", "seat": seat})
        return toy_hidden_world(r, seat, rng)

    with pytest.raises(ConformanceError, match=r"hidden_worlds changed the round it re-dealt for seat 0"):
        run_check(_hidden_subject(hidden_worlds=meddling), "hidden_information")


def test_the_cli_runner_reports_exit_status_and_output(toy):
    status, out, _ = run_cli(["hand", "x", "--ruleset", TOY.name, "--json"])
    assert status != 0 and '"UnsupportedError"' in out and "the toy family" in out
