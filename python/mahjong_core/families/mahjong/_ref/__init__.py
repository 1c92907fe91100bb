"""Slow, obviously-correct pure-Python reference implementations (test oracles).

Nothing in this package imports compiled code or uses lookup tables; it exists
so that the fast compiled core can be checked against plain, readable code.
"""
