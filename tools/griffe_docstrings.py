"""A griffe extension for the API reference (mkdocstrings, ``mkdocs.yml``): the package's
docstrings are written for ``help()`` and doctest, in reStructuredText habits; this turns the
parts Markdown would garble into Markdown before mkdocstrings renders them.

* A doctest session (``>>>`` lines and their output, up to a blank line) becomes a fenced
  ``pycon`` block: bare, Markdown would read ``>>>`` as nested quotes and ``[...]`` in the output
  as links.
* Sphinx roles (``:func:`name```, ``:class:`~mod.Name```) and double backquotes become code spans.

Only the text the site shows changes; the docstrings themselves (and ``help()``) are untouched.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|exc|obj|const|ref):`~?([^`]+)`")
_DOUBLE = re.compile(r"``([^`]+?)``")


def _fence_doctests(text: str) -> str:
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
                i += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _markdown(text: str) -> str:
    parts = re.split(r"(```pycon\n.*?```)", _fence_doctests(text), flags=re.DOTALL)
    # roles and double backquotes only outside the doctest fences
    return "".join(p if p.startswith("```pycon") else _DOUBLE.sub(r"`\1`", _ROLE.sub(r"`\1`", p)) for p in parts)


class DocstringsToMarkdown(griffe.Extension):
    """Rewrites each object's docstring text as it is loaded (see the module docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and obj.docstring.value:
            obj.docstring.value = _markdown(obj.docstring.value)
