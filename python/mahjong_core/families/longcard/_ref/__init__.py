"""The long-card family's pure-Python references (the oracles the compiled core is held to):
:mod:`.hand` (win check, waits, fan), :mod:`.distance` (the cards-to-a-win distance) and :mod:`.round` (the reference engine of a hand of play).

The naming rule of every family: the reference of a concern is ``<family>/_ref/<concern>.py``."""
