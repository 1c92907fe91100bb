"""``mahjong-core botzone-bot``: one of our bots as a Botzone program of Chinese Standard Mahjong
(:func:`.wrapper.serve`), reading Botzone's input on standard input."""

from __future__ import annotations

import argparse

from ...registry import ruleset_names
from ..bots import BUILTIN_BOTS
from .protocol import BOTZONE_RULESET

__all__ = ["add_arguments", "cmd_botzone_bot"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot", default="greedy", choices=tuple(BUILTIN_BOTS), help="the bot that decides")
    p.add_argument("--ruleset", default=BOTZONE_RULESET, choices=ruleset_names(),
                   help=f"the four-player ruleset our bot plays by (default {BOTZONE_RULESET})")
    p.add_argument("--seed", type=int, default=0, help="the random or search bot's seed")
    p.add_argument("--json", action="store_true", help="Botzone's JSON interaction (default: simple interaction)")
    p.add_argument("--no-keep-running", dest="keep_running", action="store_false",
                   help="answer one request and exit (default: stay alive between requests)")
    p.add_argument("--requests", nargs="+", metavar="REQUEST", default=None,
                   help="instead of reading standard input, answer these requests in turn (the bot's own "
                        "answers make the history) and print the answer to the last")
    p.set_defaults(func=cmd_botzone_bot)


def cmd_botzone_bot(args: argparse.Namespace) -> int:
    from .wrapper import make_bot, respond, serve
    bot = make_bot(args.bot, args.seed)
    if args.requests is None:
        return serve(bot, args.ruleset, use_json=args.json, keep_running=args.keep_running)
    responses: list[str] = []
    notes: list[str] = []
    for k in range(1, len(args.requests) + 1):
        responses.append(respond(args.requests[:k], responses, bot, args.ruleset, notes))
    print(responses[-1])
    for note in notes:
        print(note)
    return 0
