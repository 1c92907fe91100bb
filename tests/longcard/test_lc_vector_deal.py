"""The hands a long-card ``RoundBatch`` deals in C (``_new_hand``: the deck shuffled from the bit
stream, the settings' ints copied from a hand of the batch instead of read again from the
RoundSettings) are the hands the checked constructor makes from the same settings, stock and banker:
played to the end by the built-in bots under every flow setting of spec section 6 away from its
default (``FLOW_OPTION_SETS``), they give the same snapshot, events, log and result."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core._lc_round import RoundBatch, RoundCore
from mahjong_core.families.longcard.option_samples import FLOW_OPTION_SETS
from mahjong_core.families.longcard.round_engine import new_core


@pytest.mark.parametrize("options", FLOW_OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_batch_dealt_hands_equal_constructed_hands(options) -> None:
    bots = np.array([[0, 0, 0], [1, 0, 1]])          # rule bots; random and rule bots
    batch = RoundBatch([new_core(0, options=options), new_core(1, options=options)], bots,
                       [None, np.random.PCG64(0)])
    for seed in range(6):
        for row in range(2):
            gen_seed = 100 * seed + row
            actor = batch.deal(row, np.random.PCG64(seed), None if row == 0 else np.random.PCG64(gen_seed))
            dealt = batch.core(row)
            assert actor == -1 and dealt.result is not None      # the bots played it out
            twin = RoundCore(dealt.settings, dealt.stock, dealt.banker)
            kinds = ("rule",) * 3 if row == 0 else ("random", "rule", "random")
            rng = np.random.Generator(np.random.PCG64(gen_seed))
            twin.play(kinds, [rng if k == "random" else None for k in kinds])
            assert twin.snapshot() == dealt.snapshot()
            assert twin.events() == dealt.events() and twin.log == dealt.log
