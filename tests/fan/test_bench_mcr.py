"""bench/bench_mcr.py runs (a tiny run): a row for every hand set, the batch, every shanten form and
k = 0-4 declared groups, each with a positive rate, and, with PyMahjongGB installed, its rates,
ratios and the agreement of totals and shanten values.  The ratios themselves are not asserted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import bench_mcr  # noqa: E402


def _rows(text: str, title: str) -> dict[str, list[str]]:
    """The rows of the table headed `title`, by name (the first column, which may hold blanks)."""
    lines = text.split("\n\n")
    block = next(b for b in lines if b.startswith(title))
    out = {}
    for line in block.splitlines()[1:]:
        name, _, rest = line.partition("  ")
        out[name.strip()] = rest.split()
    return out


def test_the_mcr_bench_reports_every_row():
    import mahjong_core

    here = str(Path(mahjong_core.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p))
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_mcr.py"), "--hands", "40", "--repeat", "1",
                           "--ruleset", "public"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "ruleset 'public'" in out and "load average" in out
    score = _rows(out, "score per call")
    assert set(score) == set(bench_mcr.CATEGORIES), out
    batch = _rows(out, "score_batch")
    assert set(batch) == set(bench_mcr.CATEGORIES) and all(float(r[0].replace(",", "")) > 0 for r in batch.values())
    shanten = _rows(out, "shanten per call")
    assert set(shanten) == set(bench_mcr.FORMS) | {f"overall, {k} declared" for k in range(5)}, out
    for row in list(score.values()) + list(shanten.values()):
        assert float(row[0].replace(",", "")) > 0, out
    if bench_mcr.gb is not None:
        for row in score.values():
            assert float(row[2].replace(",", "")) > 0 and float(row[3]) > 0, out
        assert all(row[3] == "0" for row in shanten.values()), out   # the same shanten on every hand
        agree = _rows(out, "totals equal")
        assert set(agree) >= set(bench_mcr.CATEGORIES), out


def test_hand_sets_are_what_they_say():
    for cat, n_melds in (("plain", {0}), ("melds3", {3}), ("melds4", {4})):
        hands = bench_mcr.winning_hands(20, cat, "public")
        assert {len(h.melds) for h in hands} == n_melds
        assert all(h.n_flowers == 0 for h in hands)
    kongs = bench_mcr.winning_hands(20, "kongs", "public")
    assert all(any(m.split()[0] in ("kong", "ckong") for m in h.melds) for h in kongs)
    assert any(m.startswith("ckong") for h in kongs for m in h.melds)
    flowers = bench_mcr.winning_hands(20, "flowers", "public")
    assert all(1 <= h.n_flowers <= 8 for h in flowers)
    # the same hands on every run (a fixed seed), every one a winning hand of the ruleset
    again = bench_mcr.winning_hands(20, "kongs", "public")
    assert [h.text for h in kongs] == [h.text for h in again]
    assert all(h.ours("public").total > 0 for h in kongs + flowers)


def test_the_call_workload_runs_every_set_once():
    """tools/mcr_call_workload.py's child (what callgrind counts, here without it): every set prepared
    and run, ours and PyMahjongGB's, with the digest of our results a line per set."""
    import mahjong_core

    here = str(Path(mahjong_core.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p))
    impls = ["ours", "gb"] if bench_mcr.gb is not None else ["ours"]
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "mcr_call_workload.py"), "--child",
                           *bench_mcr.CATEGORIES, "--impl", *impls, "--hands", "20"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    for cat in bench_mcr.CATEGORIES:
        assert any(line.startswith(f"{cat} 20 hands, results sha1 ") for line in lines), proc.stdout
        for impl in impls:
            assert f"run {cat} {impl}" in lines, proc.stdout
