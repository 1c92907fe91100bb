"""score_batch's results on bench_mcr's five hand sets stay byte for byte what they were when the
kernel was last changed for speed (issue 29, item 3): the SHA-1 of the totals, the non-flower totals
and the fan count matrix of each set (tools/mcr_batch_workload.py), recorded on main 0cfedbc.

A change to the kernel that should not change any result keeps these; a change of the rules (a fan,
an exclusion) or of bench_mcr's hand generator changes them on purpose, and then the new digests are
written here with the reason (``python tools/mcr_batch_workload.py --hands 1000``).  The hands are
drawn with PyMahjongGB's own checks when it is installed (it refuses a few), so the recorded sets
are those of an installation with it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import mcr_batch_workload

pytest.importorskip("MahjongGB", reason="the recorded hand sets were drawn with PyMahjongGB's checks")

#: 1 000 hands a set, ruleset mcr, one thread (main 0cfedbc)
RECORDED = {
    "plain": "06f7d886b9fe904b",
    "melds3": "dd2a817f192bd97a",
    "melds4": "c35665a050af2b26",
    "kongs": "2ad76536905bb48c",
    "flowers": "c6a599d96a31d71d",
}


@pytest.mark.parametrize("category", sorted(RECORDED))
def test_score_batch_results_are_unchanged(category):
    arrays = mcr_batch_workload.batch_inputs(category, "mcr", 1000)
    assert mcr_batch_workload.digest(arrays, "mcr") == RECORDED[category]
