"""The registry of game families and their rulesets: how the shared engine knows them.

The shared engine (settlement, simulation, the command line) never imports a family's modules
to learn what a ruleset means and never compares ruleset names: it asks this registry.

Interface
---------
A **ruleset record** is an immutable object a family defines (mahjong's is
:class:`mahjong_core.families.mahjong.rulesetdef.Ruleset`) with at least these attributes:

``name: str``                unique across all families (``"two-player"``, ``"changpai-ydr"``)
``family: str``              the name of its :class:`Family`
``players: int``             seats at the table
``min_fan: int``             the default minimum (起和) a win must reach
``fans: tuple``              its fan rows in table order, each with ``id``, ``zh``, ``en``, ``points``
``settlement_profile: str``  the payment rules of a unit room (a profile the family registers:
                             ``mahjong_core.settlement.register_profiles``)
``default_room: str``        the preset room the family registers for it (``mahjong_core.settlement.ROOMS``):
                             where the command line settles a match, the learning rewards' default

A **family** is a :class:`Family`: its name and the callables the engine drives its rulesets
with.  Every callable takes the ruleset keyword-only (``ruleset=``: a name or a record):

``is_win(hand, *, ruleset)``, ``waits(hand, *, ruleset)``, ``shanten(hand, *, ruleset)``
    the hand functions;
``new_round(ruleset=, seed=, **options)``
    the family's round class: a :class:`mahjong_core.game.round_base.RoundBase` subclass (its
    docstring lists the hooks a family implements: seat count, header shape and deal, action
    layout, view fields, redaction, invariants, result type);
``new_match(ruleset=, seed=, rounds=, min_fan=)``
    the family's match class: a :class:`mahjong_core.game.match.Match` subclass naming the round
    class (and the family's match arguments); its rounds' results name the next dealer.
    :func:`mahjong_core.game.state.load_state` loads a saved round or match of the family with
    these two classes' ``from_dict``;
``round_class``, ``match_class`` (optional)
    zero-argument callables giving the family's round and match classes under the shared API
    (:class:`mahjong_core.game.contract.Round` and ``Match``), when ``new_round``/``new_match`` are
    not those classes themselves: ``mj.Round(ruleset=...)``, ``mj.Match``, their ``from_dict``,
    ``from_json``, ``replay`` and :func:`mahjong_core.game.state.load_state` reach the family's
    rulesets through them (:meth:`Family.round_type`, :meth:`Family.match_type`);
``bots``
    bot name -> factory ``(seed) -> Bot`` (:class:`mahjong_core.game.bots.Bot`);
``simulation`` (optional)
    the family's Monte Carlo hooks for :func:`mahjong_core.simulate` (None: the family offers no
    simulation, an :class:`~mahjong_core.errors.UnsupportedError`): ``result_type(ruleset, bots,
    seed=, batch_size=, min_fan=, workers=)`` its additive statistics (``merge``, ``to_dict``,
    ``to_json``, ``to_csv``, ``summary``, ``provenance``), ``play_batch(ruleset, bot_objects,
    match_seed, rounds, min_fan, record_wins, result)`` playing one batch into it, and
    ``plot(result, path, top)`` the charts :func:`mahjong_core.simulation.plots.plot_result` draws;
``engines`` (optional)
    engine name -> a factory of rounds on that engine (:attr:`Family.engines`), for a family with
    more than one engine (a compiled one and a reference one);
``cli`` (optional)
    the family's side of the command line (:class:`mahjong_core.families.hooks.CliHooks`: its
    ``hand``/``score``/``match``/``play`` commands, their options, help and examples, its own
    commands); None: every command refuses the family's rulesets with an ``UnsupportedError``.
``server`` (optional)
    the family's side of the reference server's tables (:class:`mahjong_core.families.hooks.ServerHooks`);
    the server plays a ruleset that has a preset room with the family's ``match_type()`` and its
    ``bots`` (a table's bot is the one named ``greedy``, else the first), hooks or not.
``hidden_worlds`` (optional)
    ``hidden_worlds(round, seat, rng) -> round | None``: another round of the family, as ``seat``
    saw ``round`` (a round in progress): the same history as ``seat`` saw it (``log_for(seat)``,
    and the public turn: phase and seats to act) and the same own cards of ``seat``, but the other
    seats' concealed cards and the unseen wall or stock permuted by ``rng`` (a NumPy
    ``Generator``); None when that history cannot happen on the other deal (an opponent's claim
    needed the cards he had).  The conformance suite's
    ``hidden_information`` check compares ``seat``'s views and legal actions in both rounds.
``rl`` (optional)
    a zero-argument callable giving the family's learning-environment hooks
    (:class:`mahjong_core.rl.hooks.RlHooks`: observation layout and encoder, action size, the
    compiled batch of rounds for vectorised stepping, the rewards' keys, the rendered table),
    called when an environment first needs them; None: the environments refuse the family's
    rulesets with an :class:`~mahjong_core.errors.UnsupportedError`.

``hand_layer`` (optional)
    the family's side of the shared hand-level entry points
    (:class:`mahjong_core.families.hooks.HandLayer`: ``advise``, ``hand``, the batch calls,
    ``advise_round``); :func:`hand_hook` hands ``mj.advise``, ``mj.Hand`` and the batch calls a
    ruleset of the family through it, or refuses with an ``UnsupportedError`` naming the family.

Registration: a family's ruleset package calls :func:`register_rulesets` with its own mapping
name -> record when it is imported (records are plain data, importable without the compiled
core); the registry keeps that mapping, not a copy, so the family's dict stays the one home of
its records.  The family module calls :func:`register_family` once its callables exist.
``import mahjong_core`` registers the mahjong family; another family registers itself the
same way, e.g.::

    register_rulesets("longcard", {"changpai-ydr": CHANGPAI_YDR})   # records with family="longcard"
    register_family(Family("longcard", is_win=..., waits=..., shanten=..., new_round=...,
                           new_match=..., bots={"greedy": ...}))

Lookups: :func:`get_ruleset` (a name or a registered record -> the record), :func:`family_of`,
:func:`get_family`, :func:`ruleset_names` (optionally of one family).  An unknown or
unregistered ruleset raises :class:`~mahjong_core.errors.RulesetError`; registering a second
record under a taken name raises :class:`~mahjong_core.errors.RulesetError` too.
:func:`require_family` is the check of an entry point that only one family offers (``mj.fan_shanten``):
a ruleset of another family is an :class:`~mahjong_core.errors.UnsupportedError` naming that family and
the capability it lacks.  :func:`hand_hook` hands a shared hand-level entry point (``mj.advise``,
``mj.Hand``, the batch calls) to the family of the ruleset through its ``hand_layer``, or refuses so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, cast

from .. import limits
from .._validate import short_repr
from ..errors import RulesetError, UnsupportedError

__all__ = ["DEFAULT_RULESET", "MAX_MIN_FAN", "Family", "RulesetRecord", "register_rulesets", "register_family", "get_ruleset", "get_family", "family_of",
           "ruleset_names", "require_family", "families", "hand_hook"]

DEFAULT_RULESET = "two-player"
"""The ruleset every function, class and command uses when none is given."""

MAX_MIN_FAN = limits.MAX_MIN_FAN
"""Upper bound accepted for a minimum (起和) anywhere in the API (:data:`mahjong_core.limits.MAX_MIN_FAN`)."""


class RulesetRecord(Protocol):
    """What every family's ruleset record has (the interface of the module docstring)."""

    @property
    def name(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def min_fan(self) -> int: ...
    @property
    def fans(self) -> tuple[Any, ...]: ...
    @property
    def settlement_profile(self) -> str: ...
    @property
    def default_room(self) -> str | None: ...


@dataclass(frozen=True)
class Family:
    """One game family and the callables the shared engine drives its rulesets with."""

    name: str
    is_win: Callable[..., bool]
    waits: Callable[..., Any]
    shanten: Callable[..., int]
    new_round: Callable[..., Any]
    new_match: Callable[..., Any]
    bots: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    """Bot name -> factory taking a seed (``None`` = fresh entropy, an int = reproducible)."""
    score: "Callable[..., Any] | None" = None
    """``score(hand, win, *, ruleset, melds, **options)`` of a family whose rulesets the mahjong
    ``mj.score`` hands on (the long-card family); None for the mahjong family itself."""
    simulation: "Any | None" = None
    """The family's simulation hooks (``result_type``, ``play_batch``, ``plot``: the module
    docstring), or None when it offers no simulation."""
    cli: "Any | None" = None
    """The family's command-line hooks (:class:`mahjong_core.families.hooks.CliHooks`), or None."""
    round_class: "Callable[[], type] | None" = None
    """Gives the family's round class under the shared API (a :class:`mahjong_core.game.contract.Round`),
    called when first needed (so a family may import its engines late): what ``mj.Round`` builds,
    loads and replays for the family's rulesets.  None: ``new_round`` is that class."""
    match_class: "Callable[[], type] | None" = None
    """Gives the family's match class (a :class:`mahjong_core.game.contract.Match`), as ``round_class``.
    None: ``new_match`` is that class."""
    engines: "Callable[[], Mapping[str, Callable[..., Any]]] | None" = None
    """Gives the family's round engines: engine name (:data:`mahjong_core.game.contract.ENGINES`)
    -> a factory ``(ruleset, seed, *, dealer=)`` of a round on that engine, called when first needed.
    None: the family's round class (:meth:`round_type`) is its one engine.  The conformance suite
    (:mod:`mahjong_core.testing`) checks every engine listed here."""
    hidden_worlds: "Callable[[Any, int, Any], Any] | None" = None
    """``(round, seat, rng) -> round | None``: the same round re-dealt where ``seat`` cannot see
    (the module docstring), for the conformance suite's ``hidden_information`` check.  None: the
    suite compares the states of different seeds that a seat cannot tell apart."""
    server: "Any | None" = None
    """The family's side of the reference server's tables (:class:`mahjong_core.families.hooks.ServerHooks`:
    its settled rounds' records, its web table's glossary and files), or None: the server plays the
    family's rulesets with its match and bots and records the common fields only."""
    rl: "Callable[[], Any] | None" = None
    """Gives the family's learning-environment hooks (:class:`mahjong_core.rl.hooks.RlHooks`), called
    when first needed (so a family imports its learning code late).  None: no learning environment."""
    hand_layer: "Any | None" = None
    """The family's hand-level entry points under the shared names
    (:class:`mahjong_core.families.hooks.HandLayer`: ``advise``, ``Hand``, the batch calls), or None:
    the shared entry points refuse the family's rulesets (:func:`hand_hook`)."""

    def round_type(self) -> type:
        """The family's round class under the shared API (``round_class``, else ``new_round``)."""
        return self.round_class() if self.round_class is not None else _as_class(self.new_round, self.name, "round")

    def match_type(self) -> type:
        """The family's match class under the shared API (``match_class``, else ``new_match``)."""
        return self.match_class() if self.match_class is not None else _as_class(self.new_match, self.name, "match")

    def round_engines(self) -> dict[str, Callable[..., Any]]:
        """Engine name -> round factory: ``engines`` if the family registers them, else its round
        class under the name of the engine it plays on."""
        if self.engines is not None:
            return dict(self.engines())
        cls = self.round_type()
        return {str(getattr(cls, "engine", "compiled")): cls}


def _as_class(value: Any, family: str, what: str) -> type:
    if not isinstance(value, type):
        raise UnsupportedError(f"the {family} family registers no {what} class")
    return value


_RULESETS: dict[str, Mapping[str, RulesetRecord]] = {}
"""Family name -> that family's own mapping ruleset name -> record."""
_FAMILIES: dict[str, Family] = {}


def register_rulesets(family: str, rulesets: Mapping[str, RulesetRecord]) -> None:
    """Add a family's rulesets: its mapping name -> record (see the module docstring).  A name
    another family already uses raises :class:`~mahjong_core.errors.RulesetError`."""
    for name, record in rulesets.items():
        if record.name != name or record.family != family:
            raise RulesetError(f"ruleset record {name!r} must carry name={name!r} and family={family!r}")
        for other, mapping in _RULESETS.items():
            if other != family and name in mapping:
                raise RulesetError(f"ruleset {name!r} is already registered by family {other!r}")
    _RULESETS[family] = rulesets


def _lookup(name: str) -> RulesetRecord | None:
    for mapping in _RULESETS.values():
        record = mapping.get(name)
        if record is not None:
            return record
    return None


def register_family(family: Family) -> None:
    """Add a family; its rulesets are the registered records whose ``family`` is its name."""
    if family.name in _FAMILIES and _FAMILIES[family.name] is not family:
        raise RulesetError(f"family {family.name!r} is already registered")
    _FAMILIES[family.name] = family


def ruleset_names(family: "str | None" = None) -> tuple[str, ...]:
    """Names of the registered rulesets (of one family), in registration order."""
    return tuple(n for f, mapping in _RULESETS.items() if family in (None, f) for n in mapping)


def get_ruleset(ruleset: Any) -> RulesetRecord:
    """The registered record of a ruleset name (or of a registered record itself)."""
    if isinstance(ruleset, str):
        record = _lookup(ruleset)
    else:
        name = getattr(ruleset, "name", None)
        record = _lookup(name) if isinstance(name, str) else None
        if record is not None and record != ruleset:
            record = None
    if record is None:
        raise RulesetError(f"unknown ruleset {short_repr(ruleset)}; expected one of {', '.join(ruleset_names())}")
    return record


def require_family(ruleset: Any, family: str, capability: str) -> RulesetRecord:
    """The record of ``ruleset`` for an entry point (``capability``: its name, e.g. ``"Hand"``)
    that only the family ``family`` offers.  A ruleset registered by another family is an
    :class:`~mahjong_core.errors.UnsupportedError` naming that family and the capability; anything
    no family registered is a :class:`~mahjong_core.errors.RulesetError` "unknown ruleset" listing
    the rulesets of ``family`` (the ones the entry point takes)."""
    try:
        record = get_ruleset(ruleset)
    except RulesetError:
        raise RulesetError(f"unknown ruleset {short_repr(ruleset)}; expected one of "
                           f"{', '.join(ruleset_names(family))}") from None
    if record.family != family:
        raise UnsupportedError(
            f"{capability}: {record.name!r} is not a {family} ruleset but one of the {record.family} family, "
            f"which does not offer {capability} ({family} rulesets: {', '.join(ruleset_names(family))})")
    return record


def hand_hook(ruleset: Any, family: str, name: str, capability: str) -> "Callable[..., Any] | None":
    """The hand-layer entry point ``name`` (a field of :class:`~mahjong_core.families.hooks.HandLayer`)
    that the family of ``ruleset`` registered, for the entry point ``capability`` of the family
    ``family`` (``mj.advise`` of mahjong, say): None when ``ruleset`` is one of ``family``'s own or no
    family knows it (the caller's own checks then answer); an
    :class:`~mahjong_core.errors.UnsupportedError` naming the ruleset's family and ``capability`` when
    that family does not offer it."""
    try:
        record = get_ruleset(ruleset)
    except RulesetError:
        return None
    if record.family == family:
        return None
    layer = get_family(record.family).hand_layer
    hook = getattr(layer, name, None) if layer is not None else None
    if hook is None:
        require_family(ruleset, family, capability)   # raises: the family does not offer it
    return cast("Callable[..., Any]", hook)


def get_family(name: str) -> Family:
    """The registered :class:`Family` called ``name``."""
    try:
        return _FAMILIES[name]
    except (KeyError, TypeError):
        raise RulesetError(f"unknown game family {name!r}; expected one of {', '.join(_FAMILIES)}") from None


def family_of(ruleset: Any) -> Family:
    """The :class:`Family` a ruleset (name or record) belongs to."""
    return get_family(get_ruleset(ruleset).family)


def families() -> tuple[Family, ...]:
    """The registered families, in registration order (the command line composes its commands,
    options, help and examples from their ``cli`` hooks in this order)."""
    return tuple(_FAMILIES.values())
