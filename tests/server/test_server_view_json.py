"""The compiled mahjong round writes a seat's view as its JSON (``Round._view_json``, the server's
update frames): the same bytes as the server's encoder gives for ``view(seat)``, at every step of
rounds of every ruleset, without building the view's dict while the round runs."""

from __future__ import annotations

import random
import re
from typing import Any

import mahjong_core as mj
import pytest
from mahjong_core.errors import SeatError
from mahjong_core.families.mahjong.rulesets import RULESETS
from mahjong_core.server.encoding import dumps_utf8


class Encoder:
    """The server's encoder, counting the views it is given."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, value: Any) -> bytes:
        self.calls += 1
        return dumps_utf8(value)


def _walk(ruleset: str, seed: int) -> tuple[int, int, bytes]:
    """Play a round with a policy that claims, kongs and wins often; check every seat's view at
    every step.  (views written while the round ran, encoder calls while it ran, those views)."""
    rnd: Any = mj.Round(ruleset, seed=seed)
    rng = random.Random(seed)
    encode = Encoder()
    written = 0
    views = []
    while not rnd.is_over:
        for k in range(rnd.players):
            views.append(rnd._view_json(k, encode))
            assert views[-1] == dumps_utf8(rnd.view(k))
            written += 1
        seat = rnd.seats_to_act()[0]
        legal = rnd.legal_indices(seat)
        rnd.step(seat, legal[-1] if rng.random() < 0.6 else rng.choice(legal))
    during = encode.calls
    for k in range(rnd.players):   # a finished round's view (its result): the encoder's
        assert rnd._view_json(k, encode) == dumps_utf8(rnd.view(k))
    assert encode.calls == during + rnd.players
    return written, during, b"".join(views)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_view_json_is_the_encoded_view_at_every_step(ruleset):
    for seed in range(12):
        written, encoded, _ = _walk(ruleset, seed)
        assert written > 0 and encoded == 0   # written by the round, not by the encoder


def test_view_json_covers_melds_ready_and_concealed_kongs():
    """The walks above meet chows, pungs, kongs (another seat's concealed one too), ready flags and claims."""
    seen = b"".join(_walk(ruleset, seed)[2] for ruleset in sorted(RULESETS) for seed in range(12))
    missing = [part for part in (b'"kind":"chi"', b'"kind":"pon"', b'"added":false', b'"ckong","tiles":[',
                                 b'"ckong","tiles":null', b'"ready":[', b'"type":"chi","tiles":[',
                                 b'"kind":"exposed"', b'"claim":{"tile":') if part not in seen]
    assert not missing
    # the int lists written in place (_jint_list) with values of one, two and three digits
    legal = re.findall(rb'"legal_indices":\[([0-9,]*)\]', seen)
    widths = {len(v) for lst in legal for v in lst.split(b",") if v}
    assert widths == {1, 2, 3}


def test_view_json_checks_the_seat_as_view_does():
    rnd: Any = mj.Round("two-player", seed=1)
    for bad in (2, -1, "0", 1.0):
        with pytest.raises(SeatError):
            rnd.view(bad)
        with pytest.raises(SeatError):
            rnd._view_json(bad, dumps_utf8)
