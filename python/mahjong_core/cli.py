"""Command line: ``mahjong-core <command> ...``.

Commands
--------
``hand TILES [--ruleset R] [--json]``
    Analyse a concealed hand: tile count, whether it is complete (3k+2 tiles),
    its shanten per form and overall, and its waiting tiles (3k+1 tiles).

User errors (bad tiles, wrong sizes, unknown rulesets) print one line on
stderr and exit with status 2; there is no traceback for a user error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from . import __version__
from .errors import MahjongError
from .hand import FORMS, form_shanten, is_win, shanten, waits
from .rulesets import RULESET_NAMES, get_ruleset
from .tiles import format_tiles, parse_hand, tile_glyph, tile_name, tile_short


def _hand_report(text: str, ruleset: str) -> dict:
    rs = get_ruleset(ruleset)
    counts = parse_hand(text)
    n = int(counts.sum())
    report: dict = {
        "hand": format_tiles([i for i in range(34) for _ in range(counts[i])]),
        "ruleset": rs.name,
        "tiles": n,
        "shanten": shanten(counts, ruleset=rs),
    }
    forms = {}
    for form in FORMS:
        if form in ("thirteen_orphans", "honors_knitted", "knitted_straight") and not rs.special_forms:
            continue
        try:
            forms[form] = form_shanten(counts, form, ruleset=rs)
        except MahjongError:
            continue  # the form does not apply to this many tiles
    report["form_shanten"] = forms
    if n % 3 == 2:
        report["complete"] = is_win(counts, ruleset=rs)
    else:
        report["waits"] = waits(counts, ruleset=rs)
    return report


def _print_hand(report: dict) -> None:
    print(f"hand     {report['hand']}  ({report['tiles']} tiles, ruleset {report['ruleset']})")
    print(f"shanten  {report['shanten']}" + ("  (complete)" if report["shanten"] == -1 else
                                             "  (ready)" if report["shanten"] == 0 else ""))
    for form, value in report["form_shanten"].items():
        print(f"  {form:<18} {value}")
    if "waits" in report:
        if report["waits"]:
            shown = ", ".join(
                f"{tile_short(t)} {tile_glyph(t)} {tile_name(t, 'zh')}" for t in report["waits"]
            )
            print(f"waits    {shown}")
        else:
            print("waits    none")
    else:
        print(f"complete {'yes' if report['complete'] else 'no'}")


def _cmd_hand(args: argparse.Namespace) -> int:
    report = _hand_report(args.tiles, args.ruleset)
    if args.json:
        if "waits" in report:
            report["waits"] = [tile_short(t) for t in report["waits"]]
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_hand(report)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-core", description="Fast, exact rules engine for Chinese mahjong."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("hand", help="shanten, waits and win check of a concealed hand")
    p.add_argument("tiles", help='tiles, e.g. "1112345678999m" or "123m456p789sEESS"')
    p.add_argument("--ruleset", default="two-player", choices=RULESET_NAMES)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_hand)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except MahjongError as exc:
        print(f"mahjong-core: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
