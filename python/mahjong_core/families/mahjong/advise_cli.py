"""The ``advise`` command: the discard advisor (:func:`~.advise.advise`) on the command line.

``mahjong-core advise TILES [--ruleset R] [--melds M ...] [--visible TILES] [--seat-wind W]
[--round-wind W] [--win any|discard|self_drawn] [--min-fan N] [--max-draws N] [--top N]
[--lang en|zh] [--json]`` prints every distinct discard, best first, with its fan-aware shanten,
plain shanten, effective tiles with their live copies, their total, the number of winning draw
orders and its chance, then the breakdown by target fan after the best discard.  ``cli.py`` registers it.

A ruleset of another family runs that family's ``advise`` command (``CliHooks.commands["advise"]``),
with the options it adds here (``CliHooks.options["advise"]``); the mahjong options are then refused
by that family, and another family's options by this one.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np

from .advise import Advice, advise
from .fan_shanten import DEFAULT_MAX_DRAWS, MAX_DRAWS, WIN_METHODS
from .. import registry
from ..hooks import int_in as _int_in
from .constants import FAMILY_NAME
from .rulesets import DEFAULT_RULESET, MAX_MIN_FAN, get_ruleset
from .tiles import format_counts, format_tiles

__all__ = ["EXAMPLES", "HELP", "add_arguments", "cmd_advise", "render"]

HELP = "rank the discards of a 14-tile hand by fan-aware shanten (何切)"
EXAMPLES = [
    'mahjong-core advise "1234567m1199pEEC" --ruleset public',
    'mahjong-core advise "55789m678p345sSCC" --ruleset public --lang zh --top 3',
    'mahjong-core advise "1112345678999m5m" --visible "1m9m" --json',
]

_TEXT: dict[str, dict[str, Any]] = {
    "en": {
        "head": "hand {hand}{melds}  ({ruleset}, minimum {min_fan} fan{plural}, {unseen} tiles unseen)",
        "melds": " + {melds}",
        "columns": ("discard", "fan-shanten", "shanten", "live", "ways", "chance", "effective tiles (live copies)"),
        "bound": ">={value}",
        "none": "none",
        "targets": "after discarding {tile}, fan-aware shanten toward:",
        "unreached": "-",
        "note": "fan-shanten: draws to a win reaching the minimum, minus one; chance: that the next "
                "fan-shanten+1 unseen tiles finish such a win",
    },
    "zh": {
        "head": "手牌 {hand}{melds}  （{ruleset}，起和 {min_fan} 番，未见 {unseen} 张）",
        "melds": " + {melds}",
        "columns": ("打出", "番向听", "向听", "进张数", "摸法", "概率", "进张（剩余张数）"),
        "bound": "≥{value}",
        "none": "无",
        "targets": "打出{tile}后，各目标番种的番向听：",
        "unreached": "-",
        "note": "番向听：摸到够起和番的和牌所需的最少张数减一；概率：接下来番向听+1张未见牌恰好凑成这样的和牌",
    },
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``advise`` on its sub-parser (the numbers are checked by the command line's own
    integer type, so a bad one is refused naming its option and range)."""
    p.add_argument("tiles", help='the concealed tiles, 14 with the melds (kongs as 3), e.g. "1234567m1199pEEC"')
    # every registered ruleset: another family's is refused naming it (an UnsupportedError), not as unknown
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=registry.ruleset_names(), help="the rules to play")
    p.add_argument("--melds", nargs="*", metavar="MELD", default=None,
                   help='declared groups: "chi 123m", "pon CCC", "kong EEEE", "ckong 9999m" (default: none)')
    p.add_argument("--visible", default=None,
                   help="tiles seen outside the hand and the melds: every discard, the other players' melds "
                        "(flowers are ignored; default: none)")
    p.add_argument("--seat-wind", default=None, help="seat wind E/S/W/N (default: E)")
    p.add_argument("--round-wind", default=None, help="prevalent wind E/S/W/N (default: E)")
    p.add_argument("--win", default="any", choices=tuple(WIN_METHODS),
                   help="how a finished hand is scored: on a discard, self-drawn, or whichever reaches the minimum")
    p.add_argument("--min-fan", type=_int_in(0, MAX_MIN_FAN), default=None,
                   help=f"minimum fan (起和), 0-{MAX_MIN_FAN}; default the ruleset's (8)")
    p.add_argument("--max-draws", type=_int_in(1, MAX_DRAWS), default=DEFAULT_MAX_DRAWS,
                   help=f"search limit in drawn tiles, 1-{MAX_DRAWS}")
    p.add_argument("--top", type=_int_in(1), default=None, help="show only the best N discards (default: all)")
    p.add_argument("--lang", default="en", choices=("en", "zh"), help="language of the text output")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    for flags, kw in _other_options():   # the options other families' advisors add (refused for mahjong)
        p.add_argument(*flags, **kw)
    p.set_defaults(func=cmd_advise)


def _tile(t: int, lang: str) -> str:
    return format_tiles([t], style="zh" if lang == "zh" else "compact")


def render(advice: Advice, lang: str = "en", top: int | None = None) -> str:
    """The text output of ``advise`` in English (``en``) or Chinese (``zh``)."""
    text = _TEXT[lang]
    j = advice.to_json()
    melds = text["melds"].format(melds=", ".join(j["melds"])) if j["melds"] else ""
    hand = format_counts(np.array(advice.hand, np.uint8), style="zh" if lang == "zh" else "compact")
    lines = [text["head"].format(hand=hand, melds=melds, ruleset=advice.ruleset, min_fan=advice.min_fan,
                                 plural="" if advice.min_fan == 1 else "s", unseen=advice.unseen)]
    rows: list[tuple[str, ...]] = [text["columns"]]
    for o in advice.options[:top]:
        fan = str(o.fan_shanten) if o.fan_exact else text["bound"].format(value=o.fan_shanten)
        effective = " ".join(f"{_tile(e.tile, lang)}×{e.live}" for e in o.effective) or text["none"]
        rows.append((_tile(o.discard, lang), fan, str(o.shanten), str(o.live_total), str(o.ways),
                     f"{100 * o.probability:.2f}%", effective))
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        lines.append("  ".join(_pad(c, w) for c, w in zip(r, widths)) + "  " + r[-1])
    lines.append(text["targets"].format(tile=_tile(advice.best.discard, lang)))
    name = "zh" if lang == "zh" else "en"
    lines.append("  " + ", ".join(
        f"{getattr(t, name)} {text['unreached'] if t.shanten is None else t.shanten}" for t in advice.targets))
    lines.append(text["note"])
    return "\n".join(lines)


def _width(s: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in s)


def _pad(s: str, width: int) -> str:
    return s + " " * (width - _width(s))


def _other_options() -> list[tuple[tuple[str, ...], Any]]:
    """(flags, keywords) of the ``advise`` options of the other families (``CliHooks.options``)."""
    out: list[tuple[tuple[str, ...], Any]] = []
    for family in registry.families():
        hooks = family.cli
        if family.name == FAMILY_NAME or hooks is None or "advise" not in hooks.options:
            continue
        options = hooks.options["advise"]
        for flags, kw in (options() if callable(options) else options):
            if flags[0] not in {f[0] for f, _ in out}:
                out.append((tuple(flags), kw))
    return out


_OWN_DEFAULTS = {"seat_wind": ("--seat-wind", None), "round_wind": ("--round-wind", None), "win": ("--win", "any"),
                 "min_fan": ("--min-fan", None), "max_draws": ("--max-draws", DEFAULT_MAX_DRAWS)}
"""This family's own ``advise`` options (dest -> flag, default): another family's advisor refuses them."""


def _given_other(args: argparse.Namespace) -> list[str]:
    """The other families' ``advise`` options given on this command line, as typed."""
    given = []
    for flags, kw in _other_options():
        dest = kw.get("dest") or flags[0].lstrip("-").replace("-", "_")
        default = kw.get("default", False if kw.get("action") == "store_true" else None)
        if getattr(args, dest, default) != default:
            given.append(flags[0])
    return given


def cmd_advise(args: argparse.Namespace) -> int:
    from ...cli import EXIT_OK, UsageError
    from ..hooks import Foreign

    family = registry.family_of(args.ruleset)
    if family.name != FAMILY_NAME:   # another family's advisor, through its command-line hooks
        run = family.cli.commands.get("advise") if family.cli is not None else None
        if run is None:
            get_ruleset(args.ruleset, "advise")   # UnsupportedError naming the family
        own = tuple(flag for flag, _ in _OWN_DEFAULTS.values())
        foreign = [Foreign(flag, FAMILY_NAME, registry.ruleset_names(FAMILY_NAME), own)
                   for dest, (flag, default) in _OWN_DEFAULTS.items() if getattr(args, dest) != default]
        return int(run(args, foreign))   # type: ignore[misc]
    other = _given_other(args)
    if other:
        raise UsageError(f"{other[0]}: not an option of --ruleset {args.ruleset} (another family's advisor takes it)")
    advice = advise(args.tiles, ruleset=args.ruleset, melds=args.melds or (), visible=args.visible or None,
                    seat_wind=args.seat_wind, round_wind=args.round_wind, win=args.win, min_fan=args.min_fan,
                    max_draws=args.max_draws)
    if args.json:
        data: dict[str, Any] = advice.to_json()
        if args.top is not None:
            data["options"] = data["options"][: args.top]
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(render(advice, args.lang, args.top))
    return EXIT_OK
