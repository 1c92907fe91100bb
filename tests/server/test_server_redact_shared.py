"""The redaction the server's streams use (``redact_shared``): what ``redact_one`` gives every seat
for every event of whole rounds, but an event the seat sees as it is is the log's event itself (no
copy made, then compared with it, per seat and event)."""

from __future__ import annotations

import pytest
from mahjong_core.families.mahjong.round_views import redact_one, redact_shared
from mahjong_core.families.mahjong.rulesets import RULESETS

from .harness import played_round


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_redact_shared_is_redact_one_without_the_copies(ruleset):
    kept = copied = 0
    for seed in range(4):
        rnd = played_round(ruleset, seed)
        assert rnd._redact_shared(rnd.log[-1], 0) is rnd.log[-1]   # the round end: public
        for ev in rnd.log:
            for s in range(rnd.players):
                shared, one = redact_shared(ev, s), redact_one(ev, s)
                assert shared == one
                if shared is ev:
                    kept += 1
                    assert one is not ev          # redact_one's callers get a copy, as before
                elif shared is not None:
                    copied += 1
                if ev.get("seat") in (s, None) and ev.get("type") != "header":
                    assert shared is ev           # the seat's own and the public events: the event itself
    assert kept > copied > 0
