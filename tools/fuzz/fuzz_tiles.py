"""atheris target: the tile parser and the hand functions that take tile text.

Any text must either be refused with a ``MahjongError`` or parse; parsed tiles must format and parse
back to the same tiles in every style (the order may change: ``z`` writes honours in tenhou order); the hand functions (the compiled kernels behind them) must
answer or refuse with a ``MahjongError``.  Run by tools/test_checked_build.sh (MAHJONG_FUZZ_SECONDS).
"""

from __future__ import annotations

import sys

import atheris

from fuzzlib import run

with atheris.instrument_imports(include=["mahjong_core"]):  # coverage of the package only
    import mahjong_core as mj
    from mahjong_core.errors import MahjongError

RULESETS = sorted(mj.RULESET_NAMES)
STYLES = ("compact", "z", "zh", "glyph")
SEEDS = [s.encode() for s in (
    "123m456p789sEESS", "19m19p19sESWNCFP", "147m258p369sESWN", "1112345678999m", "123m EE 5z 1f",
    "一万二万三万 东东 红中 🀇🀈🀉🀄\ufe0f", "5m", "11223344556677z", "1m4m7m2s5s8s3p7p7p9p",
)]


def _hand_calls(text: str, ruleset: str) -> None:
    for call in (lambda: mj.is_win(text, ruleset=ruleset), lambda: mj.waits(text, ruleset=ruleset),
                 lambda: mj.shanten(text, ruleset=ruleset), lambda: mj.score(text, ruleset=ruleset),
                 *(lambda f=f: mj.form_shanten(text, f, ruleset=ruleset) for f in mj.FORMS)):
        try:
            call()
        except MahjongError:
            pass


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    ruleset = RULESETS[fdp.ConsumeIntInRange(0, len(RULESETS) - 1)]
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
    try:
        tiles = mj.parse_tiles(text)
    except MahjongError:
        return
    for style in STYLES:
        back = sorted(mj.parse_tiles(mj.format_tiles(tiles, style=style)))
        if back != sorted(tiles):
            raise AssertionError(f"{text!r}: {style} round trip gave {back}, expected {sorted(tiles)}")
    _hand_calls(text, ruleset)


if __name__ == "__main__":
    run(test_one_input, SEEDS)
