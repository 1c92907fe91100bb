"""Settlement profiles and preset rooms: what each family registers with the settlement layer.

A **settlement profile** (:class:`SettlementProfile`) is one set of payment rules: its name, the
family whose rulesets it settles, and the callables the shared settlement code calls where the
rules differ (``hand_payments``; ``escape_penalty`` when the penalty is not the room's
``escape_multiplier`` × ``base``).  A :class:`~mahjong_core.settlement.Room` names its profile;
the room is refused unless that profile is registered for the family of the room's ruleset.

A family registers its profiles with :func:`register_profiles` and its preset rooms with
:func:`~mahjong_core.settlement.rooms.register_rooms` when it registers (its ``settlement`` module, imported by its ``family``
module).  The shared layer keeps the machinery (rooms, outcomes, the ledger, fees, escapes) and
names no family: it looks profiles up here (:func:`get_profile`, :func:`profile_names`) and the
preset rooms in :data:`~mahjong_core.settlement.ROOMS` (filled by the families, in registration order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..errors import RulesetError
from ..families.registry import ruleset_names

if TYPE_CHECKING:
    from .outcome import HandOutcome
    from .rooms import Room

__all__ = ["SettlementProfile", "Request", "register_profiles", "get_profile", "profile_names",
           "register_outcome_reader", "outcome_reader"]

Request = tuple[str, str, int, str]
"""One payment request ``(payer, payee, amount, reason)`` as :meth:`~mahjong_core.settlement.Ledger.apply`
takes it."""


@dataclass(frozen=True)
class SettlementProfile:
    """One set of payment rules a family registers (see the module docstring)."""

    name: str
    """What a :class:`~mahjong_core.settlement.Room`'s ``profile`` says (unique across families)."""
    family: str
    """The registered family whose rulesets it settles."""
    hand_payments: "Callable[[Room, HandOutcome], list[Request]]"
    """``(room, outcome)`` -> the hand's payment requests, for an outcome with a winner or an
    offender (the shared code has checked the table size and the minimum, and returns no payment
    for a drawn or escaped hand itself)."""
    escape_penalty: "Callable[[Room], int] | None" = None
    """``room`` -> what an escaper is charged before capping; None: ``escape_multiplier`` × ``base``."""
    description: str = ""
    """One line for listings (the rules and where the spec states them)."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise RulesetError(f"a settlement profile's name must be a non-empty string, got {self.name!r}")
        if not callable(self.hand_payments) or not (self.escape_penalty is None or callable(self.escape_penalty)):
            raise RulesetError(f"settlement profile {self.name!r}: hand_payments and escape_penalty must be callables")


_PROFILES: dict[str, SettlementProfile] = {}
_READERS: "list[tuple[type, Callable[..., HandOutcome]]]" = []


def register_profiles(*profiles: SettlementProfile) -> None:
    """Register a family's profiles.  A name another profile already holds, or a family that has
    registered no ruleset, raises :class:`~mahjong_core.errors.RulesetError` (nothing is registered)."""
    for p in profiles:
        if not isinstance(p, SettlementProfile):
            raise RulesetError(f"expected SettlementProfile objects, got {type(p).__name__}")
        if not ruleset_names(p.family):
            raise RulesetError(f"settlement profile {p.name!r}: family {p.family!r} has registered no ruleset")
        taken = _PROFILES.get(p.name)
        if taken is not None and taken != p:
            raise RulesetError(f"settlement profile {p.name!r} is already registered by family {taken.family!r}")
    if len({p.name for p in profiles}) != len(profiles):
        raise RulesetError("the profiles registered together must have distinct names")
    for p in profiles:
        _PROFILES[p.name] = p


def profile_names(family: "str | None" = None) -> tuple[str, ...]:
    """The registered profiles' names (of one family), in registration order."""
    return tuple(n for n, p in _PROFILES.items() if family in (None, p.family))


def get_profile(name: Any) -> SettlementProfile:
    """The registered profile called ``name``; else a :class:`~mahjong_core.errors.RulesetError`
    naming the registered ones."""
    profile = _PROFILES.get(name) if isinstance(name, str) else None
    if profile is None:
        raise RulesetError(f"unknown settlement profile {name!r}; expected one of {', '.join(profile_names())}")
    return profile


def register_outcome_reader(result_type: type, reader: "Callable[..., HandOutcome]") -> None:
    """``HandOutcome.from_result(result, players, round)`` calls ``reader(result, players, round)``
    for a result of ``result_type`` (a family whose results are not read field by field)."""
    if not isinstance(result_type, type) or not callable(reader):
        raise RulesetError("register_outcome_reader takes a result class and a callable")
    _READERS.append((result_type, reader))


def outcome_reader(result: Any) -> "Callable[..., HandOutcome] | None":
    """The registered reader of ``result``'s class, or None."""
    for cls, reader in _READERS:
        if isinstance(result, cls):
            return reader
    return None
