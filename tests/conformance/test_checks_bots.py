"""Issue 30 item 3: the conformance check ``bots_blind`` (a bot never cheats) passes every registered
bot of every family (tests/conformance/test_conformance.py runs it with the other checks) and
fails a bot that reads what its seat may not know, through the family's ``hidden_worlds`` and,
without that hook, through deals that show the seat the same events."""

from __future__ import annotations

import dataclasses
import zlib
from typing import Any

import pytest

from mahjong_core import testing
from mahjong_core.testing import CHECKS, ConformanceError, run_check
from mahjong_core.testing.subject import canonical
from tests.support.toy import RULESET as TOY, registered


class Peeker:
    """Chooses among its legal actions by what the other seats' views show (their concealed
    cards): the cheat the check must catch."""

    def __init__(self, seed: Any = None) -> None:
        pass

    def act_index(self, rnd: Any, seat: int) -> int:
        legal = rnd.legal_indices(seat)
        others = canonical([rnd.view(o) for o in range(rnd.players) if o != seat])
        return int(legal[zlib.crc32(others.encode()) % len(legal)])

    def act(self, rnd: Any, seat: int) -> Any:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


class Meddler:
    """Decides honestly but steps the round it is asked about (a bot must only look)."""

    def __init__(self, seed: Any = None) -> None:
        pass

    def act_index(self, rnd: Any, seat: int) -> int:
        i = int(rnd.legal_indices(seat)[0])
        rnd.step(seat, i)
        return i

    def act(self, rnd: Any, seat: int) -> Any:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


@pytest.fixture
def toy():
    with registered() as family:
        yield family


def _with_bots(ruleset: str, bots: dict, hidden_worlds: Any = "keep") -> testing.Subject:
    s = testing.subject(ruleset)
    changes: dict[str, Any] = {"bots": bots}
    if hidden_worlds != "keep":
        changes["hidden_worlds"] = hidden_worlds
    s.family = dataclasses.replace(s.family, **changes)
    return s


def test_the_check_is_registered_last():
    assert list(CHECKS)[-1] == "bots_blind"


@pytest.mark.parametrize("ruleset", ["two-player", "public", "changpai-ydr"])
def test_a_peeking_bot_fails_for_a_real_family(ruleset):
    with pytest.raises(ConformanceError, match=rf"^{ruleset}: bots_blind: the bot 'peek' at seat \d chose action "
                                               r"\d+ in the round of seed \d+ .* re-dealt where the seat cannot see"):
        run_check(_with_bots(ruleset, {"peek": Peeker}), "bots_blind")


def test_a_peeking_bot_fails_for_the_toy_with_and_without_the_hook(toy):
    run_check(_with_bots(TOY.name, dict(toy.bots)), "bots_blind")   # the toy's own bots pass
    with pytest.raises(ConformanceError, match=r"^toy-race: bots_blind: the bot 'peek' .* re-dealt"):
        run_check(_with_bots(TOY.name, {**toy.bots, "peek": Peeker}), "bots_blind")
    run_check(_with_bots(TOY.name, dict(toy.bots), hidden_worlds=None), "bots_blind")
    with pytest.raises(ConformanceError, match=r"^toy-race: bots_blind: the bot 'peek' at seat \d sees the same "
                                               r"events .* reads what the seat may not know"):
        run_check(_with_bots(TOY.name, {"peek": Peeker}, hidden_worlds=None), "bots_blind")


def test_a_bot_that_changes_the_round_fails(toy):
    with pytest.raises(ConformanceError, match=r"the bot 'meddle' changed the round it was asked about"):
        run_check(_with_bots(TOY.name, {"meddle": Meddler}), "bots_blind")


def test_the_check_cannot_pass_vacuously(toy):
    """A hook that re-deals nothing leaves too few worlds to compare: a failure, not a pass."""
    with pytest.raises(ConformanceError, match=r"the bot 'first': hidden_worlds gave 0 worlds"):
        run_check(_with_bots(TOY.name, dict(toy.bots), hidden_worlds=lambda r, seat, rng: None), "bots_blind")
