"""The Botzone protocol of Chinese Standard Mahjong (国标麻将): external bot programs as seats of
our rounds (:class:`BotzoneBot`, :func:`play_game`) and our bots as Botzone programs
(:func:`serve`, ``mahjong-core botzone-bot``).  See :mod:`.protocol` for the protocol's facts and
their sources."""

from .adapter import FORFEIT_SCORES, BotzoneBot, BotzoneForfeit, Decision, GameOutcome, play_game
from .protocol import BotzoneProtocolError, parse_response, tile_code, tile_index
from .wrapper import make_bot, respond, serve

__all__ = ["BotzoneBot", "BotzoneForfeit", "Decision", "GameOutcome", "play_game", "FORFEIT_SCORES",
           "BotzoneProtocolError", "parse_response", "tile_code", "tile_index", "make_bot", "respond", "serve"]
