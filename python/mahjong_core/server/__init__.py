"""The reference game server and web table (``mahjong-core serve``; ``pip install "mahjong-core[server]"``).

It puts the engine's parts together the way a hosted game does: rooms with entry limits
(:mod:`mahjong_core.settlement`), tables whose empty seats bots may fill, one WebSocket per
player carrying that seat's redacted event stream (:mod:`.protocol`), a match with settlement
after every round in one ledger, the escape rules on real clocks and connections, and SQLite
persistence from which every table resumes after a restart (:mod:`.store`).

It plays every game family the registry holds whose ruleset has a preset room, a match and bots
(:mod:`.games`: the server names no family); a family may add its side of the tables and its own
web-table drawing (``Family.server``).

The modules: :mod:`.settings` (every limit and clock), :mod:`.games` (what the server needs of a
family, through the registry), :mod:`.table` (one table, synchronous),
:mod:`.lobby` (accounts, joining, the clocks), :mod:`.store` (SQLite), :mod:`.protocol` (the
messages, checked), :mod:`.limits` (connections and joins per address and in total),
:mod:`.app` (the Starlette app and its uvicorn configuration; the only module needing the
``server`` extra) and :mod:`.cli` (the command).  ``static/`` holds the web table (HTML, CSS, JS).
"""

from .settings import DEFAULT_HOST, DEFAULT_PORT, ServerSettings

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "ServerSettings"]
