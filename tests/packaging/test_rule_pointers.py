"""Every rule pointer in the code and the docs resolves to an anchor of the rules reference (issue 31).

The code cites the rules by section and open point: ``spec 4.4``, ``OP-28``, ``CP-10``,
``spec changpai.md 8.3``, ``spec rules.md 5.2-5.5``.  The reference in ``docs/rules/`` gives each
of those places an anchor (``{#spec-4-4}``, ``{#op-28}``, ``{#cp-10}``).  How a pointer resolves
(the same rule is written for readers in ``docs/rules/index.md``, "How pointers work"):

* ``OP-n``: anchor ``op-n`` of the mahjong pages (``index.md``, ``mahjong.md`` and the four
  ruleset pages, which share one numbering and never repeat an anchor).
* ``CP-n``: anchor ``cp-n`` of ``changpai-ydr.md``.
* ``spec x.y`` (also ``spec x``, a range ``spec x.y-x.z`` checks both ends): anchor ``spec-x-y``
  of the long-card page when the pointer is in long-card context, otherwise of the mahjong pages.
  Long-card context: ``changpai.md``/``changpai spec`` written next to the number; or a file of the
  long-card family (its path names ``longcard``, ``changpai`` or ``lc``); or the line, or in a
  Markdown file one of the headings the line sits under, names the long-card game (long card,
  长牌, 卯, 陀, 包子, ...).  ``rules.md``/``mahjong spec`` next to the number forces the mahjong
  pages.

A pointer that resolves nowhere fails :func:`test_every_pointer_resolves`, naming file:line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
LONGCARD_PAGE = "changpai-ydr.md"
MAHJONG_PAGES = ("index.md", "mahjong.md", "two-player.md", "two-player-bamboo.md", "public.md", "mcr.md")

SCAN_DIRS = ("python", "src", "tests", "bench", "tools", "docs")
SCAN_FILES = ("README.md", "CHANGELOG.md", "CONTRIBUTING.md")
SCAN_SUFFIXES = {".py", ".pyx", ".pxi", ".pxd", ".pyi", ".md", ".js"}

_NUM = r"\d+(?:\.\d+)?"
SPEC = re.compile(
    rf"(?:(?P<qual>changpai|mahjong)\s+)?\bspec\s+(?:(?P<file>rules|changpai)\.md,?\s+)?"
    rf"(?:sections?\s+)?(?P<a>{_NUM})(?:\s*(?:-|–|\.\.)\s*(?P<b>{_NUM}))?(?![\d.]*\d)"
)
"""``spec 4.4``, ``spec 2.6-2.8``, ``spec changpai.md 8.3``, ``spec rules.md, section 5``."""
BARE_FILE = re.compile(rf"(?<!spec )\b(?P<file>rules|changpai)\.md,?\s+(?:sections?\s+)?(?P<a>{_NUM})"
                       rf"(?:\s*(?:-|–)\s*(?P<b>{_NUM}))?")
"""``changpai.md 2.9`` without the word spec."""
OPEN_POINT = re.compile(r"\b(?P<kind>OP|CP)-(?P<n>\d+)\b")

LONGCARD_PATH = re.compile(r"longcard|changpai|(?:^|[/_])lc(?:_|\.|/|$)")
LONGCARD_WORDS = re.compile(r"long[- ]?cards?|longcard|changpai|长牌|川牌|幺地人|\blc\.|卯|陀|包子|吐火|五门将|梯坎番|番乘番", re.IGNORECASE)
POINTER_ANCHOR = re.compile(r"^(?:spec|op|cp)-\d")
"""The anchors a pointer can lead to."""
HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
ANCHOR_ATTR = re.compile(r"\{[^}]*#([A-Za-z][\w-]*)[^}]*\}\s*$")
ANCHOR_HTML = re.compile(r"<a\s+id=\"([^\"]+)\"")


class Pointer(NamedTuple):
    path: str
    line: int
    text: str
    group: str            # "mahjong" or "longcard"
    anchor: str


def page_anchors(page: Path) -> list[str]:
    """The anchors a page defines: attr_list ids of headings and ``<a id="...">`` targets."""
    out: list[str] = []
    for line in page.read_text(encoding="utf-8").splitlines():
        if HEADING.match(line):
            m = ANCHOR_ATTR.search(line)
            if m:
                out.append(m.group(1))
        out.extend(ANCHOR_HTML.findall(line))
    return out


def anchors_by_group() -> dict[str, dict[str, list[str]]]:
    """``{"mahjong": {anchor: [pages]}, "longcard": {...}}``."""
    groups: dict[str, dict[str, list[str]]] = {"mahjong": {}, "longcard": {}}
    for group, pages in (("mahjong", MAHJONG_PAGES), ("longcard", (LONGCARD_PAGE,))):
        for name in pages:
            path = RULES / name
            if path.exists():
                for a in page_anchors(path):
                    groups[group].setdefault(a, []).append(name)
    return groups


def _files() -> list[Path]:
    out = [ROOT / f for f in SCAN_FILES if (ROOT / f).exists()]
    for d in SCAN_DIRS:
        base = ROOT / d
        if base.exists():
            out += sorted(p for p in base.rglob("*") if p.suffix in SCAN_SUFFIXES and p.is_file()
                          and "site" not in p.relative_to(ROOT).parts[:2] and "__pycache__" not in p.parts)
    return out


def _section_anchor(number: str) -> str:
    return "spec-" + number.replace(".", "-")


def pointers_in(path: Path) -> list[Pointer]:
    """Every rule pointer of one file, with the group and anchor it must resolve to."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return []
    return pointers_in_text(path.relative_to(ROOT).as_posix(), text)


def pointers_in_text(rel: str, text: str) -> list[Pointer]:
    """The pointers of ``text``, read as the file ``rel`` (a path from the repository root)."""
    lc_file = bool(LONGCARD_PATH.search(rel))
    markdown = rel.endswith(".md")
    headings: list[str] = []
    out: list[Pointer] = []
    lines = text.splitlines()
    fence = False
    for no, line in enumerate(lines, 1):
        if markdown:
            if line.lstrip().startswith("```"):
                fence = not fence
            h = HEADING.match(line)
            if h and not fence:
                level = len(h.group(1))
                headings = headings[: level - 1] + [""] * max(0, level - 1 - len(headings)) + [h.group(2)]
        lc_context = lc_file or bool(LONGCARD_WORDS.search(line)) or (
            markdown and any(LONGCARD_WORDS.search(t) for t in headings))
        for m in OPEN_POINT.finditer(line):
            group = "longcard" if m["kind"] == "CP" else "mahjong"
            out.append(Pointer(rel, no, m.group(0), group, f"{m['kind'].lower()}-{m['n']}"))
        for rx in (SPEC, BARE_FILE):
            for m in rx.finditer(line):
                qual = m.groupdict().get("qual") or m["file"]
                if qual in ("changpai",):
                    group = "longcard"
                elif qual in ("mahjong", "rules"):
                    group = "mahjong"
                else:
                    group = "longcard" if lc_context else "mahjong"
                for number in (m["a"], m["b"]):
                    if number:
                        out.append(Pointer(rel, no, m.group(0), group, _section_anchor(number)))
    return out


def all_pointers() -> list[Pointer]:
    out: list[Pointer] = []
    for path in _files():
        if path.is_relative_to(RULES) or path == Path(__file__).resolve():
            continue        # the reference's own pages (their links are the site build's); this file's examples
        out += pointers_in(path)
    return out


def test_the_reference_exists() -> None:
    for name in (*MAHJONG_PAGES, LONGCARD_PAGE):
        assert (RULES / name).is_file(), f"docs/rules/{name} is missing"


def test_anchors_are_unique_per_group() -> None:
    """A pointer must lead to one place: no pointer anchor (``spec-*``, ``op-*``, ``cp-*``) twice in the
    mahjong pages, nor in the long-card page.  (Page-local anchors such as ``fan-<id>`` or ``rooms``
    repeat across the ruleset pages; no pointer form leads to them.)"""
    for group, anchors in anchors_by_group().items():
        dup = {a: pages for a, pages in anchors.items() if len(pages) > 1 and POINTER_ANCHOR.match(a)}
        assert not dup, f"{group} anchors defined more than once: {dup}"


def test_every_pointer_resolves() -> None:
    groups = anchors_by_group()
    pointers = all_pointers()
    assert len(pointers) > 500, f"only {len(pointers)} pointers found: is the scanner broken?"
    bad = unresolved(pointers, groups)
    assert not bad, "rule pointers that resolve to no anchor of docs/rules/:\n" + "\n".join(bad)


def test_every_anchor_kind_is_used_the_way_it_is_written() -> None:
    """The open points and sections the reference names exist in both numberings (sanity of the pages)."""
    groups = anchors_by_group()
    assert {f"op-{n}" for n in range(1, 54)} <= set(groups["mahjong"])
    assert {f"cp-{n}" for n in range(1, 64)} <= set(groups["longcard"])


def unresolved(pointers: list[Pointer], groups: dict[str, dict[str, list[str]]]) -> list[str]:
    """``file:line: pointer -> #anchor in page`` for every pointer without its anchor."""
    page = {"mahjong": "the mahjong pages", "longcard": LONGCARD_PAGE}
    return [f"{p.path}:{p.line}: {p.text!r} -> #{p.anchor} in {page[p.group]}"
            for p in pointers if p.anchor not in groups[p.group]]


@pytest.mark.parametrize("line,path,expect", [
    ("see spec 4.4 case 1", "python/x.py", [("mahjong", "spec-4-4")]),
    ("spec 2.6-2.8", "python/mahjong_core/families/longcard/x.py", [("longcard", "spec-2-6"), ("longcard", "spec-2-8")]),
    ("(spec changpai.md 8.3)", "python/x.py", [("longcard", "spec-8-3")]),
    ("spec rules.md 5.2-5.5, OP-2..OP-12", "python/x.py",
     [("mahjong", "op-2"), ("mahjong", "op-12"), ("mahjong", "spec-5-2"), ("mahjong", "spec-5-5")]),
    ("the 卯 plan (spec 3.11)", "bench/x.py", [("longcard", "spec-3-11")]),
    ("options (CP-28)", "tests/x.py", [("longcard", "cp-28")]),
    ("spec changpai.md, section 1", "python/x.py", [("longcard", "spec-1")]),
    ("spec 5.5: W1 wins", "src/mahjong_core/_lc_hand.pyx", [("longcard", "spec-5-5")]),
    ("tests of changpai.md 2.9, 4.8", "tests/x.py", [("longcard", "spec-2-9")]),
    ("the version 1.2.3 of spec", "python/x.py", []),
])
def test_pointer_forms(line: str, path: str, expect: list) -> None:
    """The scanner reads each written form (and nothing else) the way the module docstring says."""
    got = [(p.group, p.anchor) for p in pointers_in_text(path, line)]
    assert sorted(got) == sorted(expect)


def test_markdown_heading_sets_the_context() -> None:
    text = "# Guide\n## The long-card game\n### Play\nthe mask of spec 8.2\n## Mahjong\nspec 4.4\n"
    got = [(p.group, p.anchor) for p in pointers_in_text("docs/guide/x.md", text)]
    assert got == [("longcard", "spec-8-2"), ("mahjong", "spec-4-4")]


def test_a_dangling_pointer_is_named() -> None:
    """The failure message names the file and line of a pointer without an anchor."""
    text = "x = 1\n# see spec " + "9.99\n"
    msgs = unresolved(pointers_in_text("python/x.py", text), anchors_by_group())
    assert msgs == ["python/x.py:2: 'spec 9.99' -> #spec-9-99 in the mahjong pages"]


def test_the_code_does_not_send_readers_outside_the_repository() -> None:
    """The specification files the code was written against are not part of the repository; the
    library's code names the reference pages instead (tests may still read the files when present)."""
    bad = []
    for d in ("python", "src", "bench", "tools"):
        for p in sorted((ROOT / d).rglob("*")):
            if p.suffix in SCAN_SUFFIXES and p.is_file() and "__pycache__" not in p.parts:
                for no, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
                    if "shared/spec" in line:
                        bad.append(f"{p.relative_to(ROOT)}:{no}: {line.strip()}")
    assert not bad, "references to shared/spec (not in the repository); point at docs/rules/ instead:\n" + \
        "\n".join(bad)


MAHJONG_SECTIONS = ("0", "0.1", "0.2", "0.3", "1", *(f"1.{i}" for i in range(1, 6)), "2",
                    *(f"2.{i}" for i in range(1, 14)), "3", *(f"3.{i}" for i in range(5)), "4",
                    *(f"4.{i}" for i in range(1, 5)), "5", *(f"5.{i}" for i in range(1, 6)), "6")
"""Every section of the mahjong numbering the code cites."""
LONGCARD_SECTIONS = ("0", *(f"0.{i}" for i in range(1, 4)), "1", *(f"1.{i}" for i in range(1, 6)), "2",
                     *(f"2.{i}" for i in range(1, 10)), "3", *(f"3.{i}" for i in range(16)), "4",
                     *(f"4.{i}" for i in range(1, 10)), "5", *(f"5.{i}" for i in range(1, 6)), "6", "7", "8",
                     *(f"8.{i}" for i in range(1, 6)))
"""Every section of the long-card numbering."""


def test_every_section_of_both_numberings_has_its_anchor() -> None:
    """Not only the sections cited today: a new pointer to any section of either numbering resolves."""
    groups = anchors_by_group()
    for group, sections in (("mahjong", MAHJONG_SECTIONS), ("longcard", LONGCARD_SECTIONS)):
        missing = [s for s in sections if _section_anchor(s) not in groups[group]]
        assert not missing, f"{group} sections without an anchor: {missing}"
