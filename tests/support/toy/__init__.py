"""A minimal game family registered from this folder alone: the template of a new family.

The "race": three seats, each dealt a secret card 1-3; in turn (the dealer first) a seat moves
one step, or two if its card is not 1; the first to reach :data:`GOAL` wins and deals next.  Its
round (:mod:`.round`) implements every hook of :class:`mahjong_core.game.round_base.RoundBase`, its
result (:mod:`.result`) the common fields of :class:`mahjong_core.game.contract.Result`, its bots
(:mod:`.bots`) the bot protocol, :mod:`.hidden_worlds` re-deals the cards a seat cannot see
(``Family.hidden_worlds``), and :mod:`.family` registers them as any family does (no
simulation, no command line: the shared layers refuse those by the family's name).  It passes the
conformance suite (:mod:`mahjong_core.testing`) with no shared file changed for it.

:func:`registered` registers it with the registry for the duration of a ``with`` block.
"""

from .bots import FirstLegal
from .family import FAMILY_NAME, RULESET, registered
from .result import RaceResult
from .round import GOAL, Move, RaceMatch, RaceRound

__all__ = ["FAMILY_NAME", "RULESET", "GOAL", "Move", "RaceRound", "RaceMatch", "RaceResult", "FirstLegal",
           "registered"]
