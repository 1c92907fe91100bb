"""Slow, obviously-correct pure-Python reference implementations (test oracles).

Nothing in this package imports compiled code or uses lookup tables; it exists
so that the fast compiled core can be checked against plain, readable code.

The naming rule of every family: the reference of a concern is ``<family>/_ref/<concern>.py``:
here :mod:`.hand` (win, waits, shanten), :mod:`.fan` (the fan evaluator), :mod:`.round` (the
reference engine of a round), :mod:`.bots` (the built-in bots on it) and :mod:`.fan_shanten`
(the advisor's fan-aware distance).
"""
