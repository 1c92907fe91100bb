"""The command-line reference of the documentation site, generated from the argparse parsers.

``docs/reference/cli.md`` holds the marker ``<!-- cli-reference -->``; when MkDocs builds the site
this module (a hook named in ``mkdocs.yml``) replaces it with one section per command of
``mahjong_core.cli.build_parser()``: the command's ``--help`` as the program prints it.  Nothing is
copied by hand, so the page cannot fall behind the parsers (a new command or option appears at the
next build).  ``python tools/cli_reference.py`` prints the generated Markdown.

The help is formatted at a fixed width (``COLUMNS``) so that the page does not depend on the
terminal of whoever builds it.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

MARKER = "<!-- cli-reference -->"
WIDTH = "100"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def markdown() -> str:
    """One section per command: its ``--help`` text, in the order the program lists them."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH          # argparse reads the width when it formats
    try:
        from mahjong_core.cli import build_parser

        parser = build_parser()
        out = ["## `mahjong-core`", "", "```text", parser.format_help().rstrip(), "```", ""]
        for name, sub in _subparsers(parser).items():
            out += [f"## `mahjong-core {name}`", "", sub.description or "", "",
                    "```text", sub.format_help().rstrip(), "```", ""]
        return "\n".join(out)
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def on_page_markdown(text: str, page: Any, **_: Any) -> str:
    """MkDocs hook: the generated reference in place of the marker (only the page that has it)."""
    if MARKER not in text:
        return text
    return text.replace(MARKER, markdown())


if __name__ == "__main__":
    print(markdown())
