"""What a game family hands the learning environments: its :class:`RlHooks`, the registry's
``Family.rl`` (a zero-argument callable giving them, called when an environment first needs them,
so that registering a family imports none of its learning code).

The environments, the observation layouts, the rewards and the vectorised stepping of
:mod:`mahjong_core.rl` are shared code: they name no family and reach one through the registry
(:func:`rl_hooks`).  A family whose ``rl`` is None offers no learning environment: every entry
point refuses its rulesets with an :class:`~mahjong_core.errors.UnsupportedError` naming the family.

The compiled core of a family (its ``RoundCore``) answers, as both families' do:
``seats_to_act()``, ``is_legal(seat, action)`` and ``step(seat, action)``; its batch class (a
``RoundBatch``) takes ``(cores, bots, generators)`` with the bot kinds -1 (the caller acts), 0 (the
family's greedy bot) and 1 (its random bot) and answers ``actor(i)``, ``core(i)``, ``observe()``,
``step(actions)``, ``deal(i, bit_generator, generator)``, ``set_round(i, core, generator)`` and
``step_deal(actions, bit_generator, won)`` (see :mod:`mahjong_core.rl.vector`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import UnsupportedError
from ..families import registry

__all__ = ["EnvRound", "RlHooks", "rl_hooks", "rl_rulesets"]


class EnvRound:
    """A round an environment deals (:attr:`RlHooks.deal`): ``core``, the compiled round the
    environment steps, and ``round``, the family's public round with the same actions (its views,
    log and JSON; built when first asked for if the family's public round does not read the core
    itself, see ``rounds``)."""

    __slots__ = ("_round", "_rebuild", "_steps", "core")

    def __init__(self, core: Any, public: Any = None, rebuild: "Callable[[Any], Any] | None" = None) -> None:
        self.core = core
        self._round = public
        self._rebuild = rebuild
        self._steps = -1

    @property
    def round(self) -> Any:
        """The public round (rebuilt from the core after each step when the family needs it)."""
        if self._rebuild is not None:
            steps = self.core.n_actions
            if self._round is None or steps != self._steps:
                self._round, self._steps = self._rebuild(self.core), steps
        return self._round


@dataclass(frozen=True)
class RlHooks:
    """A family's side of the learning environments (see the module docstring)."""

    action_size: int
    """Entries of the legal-action mask (the family's action ids)."""
    layout: Callable[[str], Any]
    """``layout(ruleset)`` -> the :class:`~mahjong_core.rl.encoding.ObservationLayout` of a ruleset."""
    observe: Callable[[Any, int], tuple[Any, Any]]
    """``observe(core, seat)`` -> ``(obs, mask)``: the compiled encoder (uint8 vector, int8 mask)."""
    deal: Callable[[str, Any, Any], EnvRound]
    """``deal(ruleset, rng, options)`` -> a new :class:`EnvRound` drawn from the NumPy Generator
    ``rng`` (its seed and dealer); bad ``options`` raise the family's error."""
    dealer: Callable[[str, Any], Any]
    """``dealer(ruleset, options)`` -> the vectorised loop's dealer: ``dealer(rng)`` a new compiled
    round from the Generator ``rng``, the same deal as the batch's ``deal(i, rng.bit_generator)``;
    ``dealer.as_round(core)`` the family's round with the core's deal and actions (log, views, JSON)."""
    batch: Callable[..., Any]
    """The family's batch class (a ``RoundBatch``, the module docstring)."""
    settle_keys: Callable[[Any], Any]
    """``settle_keys(core)`` -> a tuple of hashable keys of a finished round's payments (one per
    win or penalty; ``()`` for none), None while it runs."""
    outcome: Callable[[Any, tuple[str, ...]], Any]
    """``outcome(key, names)`` -> the :class:`~mahjong_core.settlement.HandOutcome` of one key."""
    check_key: Callable[[Any, int], None]
    """``check_key(key, players)``: a :class:`~mahjong_core.errors.MahjongError` naming the fault
    of a key that no round gives."""
    table: Callable[[Mapping[str, Any]], str]
    """``table(view)`` -> the text table of one seat's view of the family's public round
    (``round.view(seat)``): what ``render()`` shows."""
    names: Mapping[str, Any] = field(default_factory=dict)
    """Constants of the family that :mod:`mahjong_core.rl` re-exports under their old names."""


_HOOKS: dict[int, tuple[Any, RlHooks]] = {}
"""id(family) -> (family, its hooks): each registered family's hooks, made once."""


def rl_hooks(ruleset: Any) -> RlHooks:
    """The :class:`RlHooks` of a ruleset's family (from the registry); a family that registers none
    raises :class:`~mahjong_core.errors.UnsupportedError` naming it, an unknown ruleset
    :class:`~mahjong_core.errors.RulesetError`."""
    family = registry.family_of(ruleset)
    known = _HOOKS.get(id(family))
    if known is not None and known[0] is family:
        return known[1]
    make = getattr(family, "rl", None)
    if make is None:
        raise UnsupportedError(
            f"the learning environments: {registry.get_ruleset(ruleset).name!r} is a ruleset of the "
            f"{family.name} family, which offers no learning environment (rulesets that do: "
            f"{', '.join(rl_rulesets()) or 'none'})")
    hooks = make()
    if not isinstance(hooks, RlHooks):
        raise UnsupportedError(f"the {family.name} family's rl hook gave {type(hooks).__name__}, not RlHooks")
    _HOOKS[id(family)] = (family, hooks)
    return hooks


def rl_rulesets() -> list[str]:
    """Every registered ruleset whose family offers the learning environments."""
    return [n for n in registry.ruleset_names() if getattr(registry.family_of(n), "rl", None) is not None]
