"""The rules reference (docs/rules/, issue 31): its generated parts are current and its example hands
score the fans they illustrate.

The fan tables, rooms, levels and long-card tables of the pages are written by
``tools/gen_rules_docs.py`` from the ruleset data; this test fails when one of them is stale (run the
script) and scores every example hand with the library, through ``mahjong_core.score``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mahjong_core.families.mahjong.fan_tables import FAN_TABLES
from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


GEN = load_script("tools/gen_rules_docs.py")


def test_generated_blocks_are_current() -> None:
    stale = GEN.stale_pages()
    assert not stale, (f"generated blocks of docs/rules/{', '.join(stale)} are stale: "
                       "run PYTHONPATH=python python tools/gen_rules_docs.py")


def test_check_mode_reports_a_stale_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``--check`` exits 1 and names the page when a block was edited by hand; nothing is written."""
    for page in GEN.blocks():
        (tmp_path / page).write_text((GEN.RULES / page).read_text(encoding="utf-8"), encoding="utf-8")
    page = tmp_path / "public.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("| 88 |", "| 87 |", 1), encoding="utf-8")
    monkeypatch.setattr(GEN, "RULES", tmp_path)
    assert GEN.main(["--check"]) == 1
    assert "docs/rules/public.md" in capsys.readouterr().err
    assert "| 87 |" in page.read_text(encoding="utf-8")
    assert GEN.main([]) == 0 and GEN.main(["--check"]) == 0


def test_every_fan_is_in_its_page_with_its_points() -> None:
    for ruleset, page in GEN.MAHJONG_PAGES.items():
        text = (GEN.RULES / page).read_text(encoding="utf-8")
        for f in FAN_TABLES[ruleset]:
            row = next((line for line in text.splitlines() if f'<a id="fan-{f.id}">' in line), None)
            assert row is not None, f"{page}: no row for {f.id}"
            assert f"| {f.zh} | {f.points}" in row, f"{page}: {f.id} row does not show {f.zh} {f.points}"


def _examples() -> list:
    return [pytest.param(GEN.fan_example(rs, f.id), id=f"{rs}-{f.id}")
            for rs in GEN.MAHJONG_PAGES for f in FAN_TABLES[rs]]


@pytest.mark.parametrize("example", _examples())
def test_example_hand_scores_its_fan(example) -> None:
    """The hand drawn in the fan's row counts that fan when the library scores it."""
    if example.case is None:
        assert example.reason, "a fan without an example names why no hand can score it"
        return
    from tests.fan.test_fan_cases import run_case

    fans, _total = run_case(example.case, "score")
    assert fans.get(example.fan_id, 0) >= 1, f"{example.ruleset} {example.fan_id}: example scored {fans}"


def test_every_fan_has_a_definition() -> None:
    """Each fan of each ruleset has its line in the shared page's definitions (the fan tables link to it),
    so a fan added to a ruleset needs its definition written."""
    text = (GEN.RULES / "mahjong.md").read_text(encoding="utf-8")
    missing = sorted({f.id for rows in FAN_TABLES.values() for f in rows if f'<a id="def-{f.id}">' not in text})
    assert not missing, f"docs/rules/mahjong.md has no definition for {missing}"
