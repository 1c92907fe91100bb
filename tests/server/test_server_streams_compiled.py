"""The table path's compiled loops (``mahjong_core._streams``, the compiled ``round_redact_shared``)
give what the Python they replaced gave: the same stream texts, digests, pending rows and stored
log texts at every step of seeded rounds of every ruleset, the same update frame bytes, the same
redaction, the same text of a client's frame; and they refuse sizes they cannot index."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from mahjong_core._streams import append_events, log_texts, text_frame, update_frame
from mahjong_core.families.mahjong.round_views import redact_shared
from mahjong_core.families.mahjong.rulesets import RULESETS
from mahjong_core.server.encoding import dumps, fast_utf8
from mahjong_core.server.stream_digest import digest_text, extend_digest
from websockets.utils import apply_mask

import mahjong_core as mj

from .harness import played_round


@dataclass
class Seat:
    stream: list[str] = field(default_factory=list)
    history: int = 0


def python_append(events, known, redact, seats, pending, round_start=None):
    """The table's loop before it was compiled (table.py, main 619c942), word for word."""
    pairs = []
    for ev in events:
        text = dumps(ev)
        pair = known[id(ev)] = (ev, text, text.encode("utf-8", "surrogatepass"))
        pairs.append(pair)
    for s, seat in enumerate(seats):
        stream = seat.stream
        if round_start is not None:
            stream.append(round_start)
            seat.history = extend_digest(round_start.encode("utf-8", "surrogatepass"), seat.history)
            pending.append((s, len(stream), round_start))
        for ev, text, utf8 in pairs:
            seen = redact(ev, s)
            if seen is not None:
                if seen is not ev and (round_start is not None or seen != ev):
                    text = dumps(seen)
                    utf8 = text.encode("utf-8", "surrogatepass")
                stream.append(text)
                seat.history = extend_digest(utf8, seat.history)
                pending.append((s, len(stream), text))


def python_frame(stream, start, history, tail, players, view):
    """The update frame as the table's Python joined it (main 619c942)."""
    n = len(stream)
    events = ",".join(f'{{"id":{i + 1},"event":{stream[i]}}}' for i in range(start, n))
    return b"".join((b'{"type":"update","events":[', events.encode(), b'],"state":{"last_id":%d,"history":"' % n,
                     digest_text(history).encode(), b'",', tail, b',"players":', players, b',"view":', view, b"}}"))


def _play(ruleset: str, seed: int) -> int:
    """A round streamed by both loops (a policy that claims and kongs often); the steps compared."""
    rnd: Any = mj.Round(ruleset, seed=seed)
    rng = random.Random(seed)
    redact = type(rnd)._redact_shared
    ours = [Seat() for _ in range(rnd.players)]
    theirs = [Seat() for _ in range(rnd.players)]
    known_ours: dict[int, Any] = {}
    known_theirs: dict[int, Any] = {}
    start = dumps({"type": "round_start", "round": 1, "dealer": rnd.dealer, "名": "东风"})
    pending_ours: list[Any] = []
    pending_theirs: list[Any] = []
    append_events(rnd.log, known_ours, redact, ours, pending_ours, dumps, extend_digest, start, fast_utf8)
    python_append(rnd.log, known_theirs, redact_shared, theirs, pending_theirs, start)
    steps = 0
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        legal = rnd.legal_indices(seat)
        events = rnd.step(seat, legal[-1] if rng.random() < 0.6 else rng.choice(legal))
        append_events(events, known_ours, redact, ours, pending_ours, dumps, extend_digest, None, fast_utf8)
        python_append(events, known_theirs, redact_shared, theirs, pending_theirs)
        steps += 1
        for a, b in zip(ours, theirs):
            assert a.stream == b.stream and a.history == b.history
            cut = rng.randrange(len(a.stream) + 1)
            tail, players, view = b'"status":"playing"', '[{"name":"东"}]'.encode(), b'{"seat":0}'
            assert update_frame(a.stream, cut, a.history, tail, players, view) == \
                python_frame(b.stream, cut, b.history, tail, players, view)
        assert pending_ours == pending_theirs
        assert {k: v[1:] for k, v in known_ours.items()} == {k: v[1:] for k, v in known_theirs.items()}
        cut = rng.randrange(len(rnd.log) + 1)
        assert log_texts(rnd.log, cut, known_ours, dumps) == [dumps(ev) for ev in rnd.log[cut:]]
    return steps


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_compiled_streams_are_the_python_loops_at_every_step(ruleset):
    assert sum(_play(ruleset, seed) for seed in range(6)) > 0


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_compiled_redaction_is_the_python_one(ruleset):
    """Every event of seeded rounds, for every seat: the same value, and the event itself exactly
    where the Python gives the event itself (the streams encode it once for those seats)."""
    redact = type(mj.Round(ruleset, seed=0))._redact_shared
    kinds = set()
    for seed in range(6):
        rnd = played_round(ruleset, seed)
        for ev in rnd.log:
            for k in range(rnd.players):
                a, b = redact(ev, k), redact_shared(ev, k)
                assert a == b and (a is ev) == (b is ev)
                kinds.add((ev["type"], a is None, a is ev))
    assert ("header", False, False) in kinds and ("draw", False, False) in kinds
    assert ("action", True, False) in kinds and ("discard", False, True) in kinds


def _frame(payload: bytes, mask: bytes = b"\x01\x82\x43\xc4", b0: int = 0x81) -> bytes:
    n = len(payload)
    head = bytes((b0, 0x80 | n)) if n < 126 else bytes((b0, 0x80 | 126)) + n.to_bytes(2, "big")
    return head + mask + apply_mask(payload, mask)


def test_text_frame_reads_one_whole_text_frame_and_leaves_the_rest():
    for text in ('{"type":"act","index":3}', "", "东" * 200, "x" * 125, "y" * 126):
        assert text_frame(_frame(text.encode()), 1 << 16) == text
    one = _frame(b'{"type":"act","index":3}')
    assert text_frame(one[:-1], 1 << 16) is None             # not whole
    assert text_frame(one + one, 1 << 16) is None            # two frames
    assert text_frame(_frame(b"ping", b0=0x89), 1 << 16) is None   # a control frame
    assert text_frame(_frame(b"part", b0=0x01), 1 << 16) is None   # a fragment
    assert text_frame(_frame(b"\xff\xfe"), 1 << 16) is None   # not UTF-8: the general reader closes (1007)
    assert text_frame(_frame(b"x" * 200), 199) is None        # too large: the protocol refuses it (1009)
    assert text_frame(bytes((0x81, 3)) + b"abc", 1 << 16) is None   # not masked
    assert text_frame(b"", 1 << 16) is None


def test_compiled_entry_points_refuse_sizes_they_cannot_index():
    with pytest.raises(ValueError, match="start 3"):
        update_frame(["{}", "{}"], 3, 0, b"", b"", b"")
    with pytest.raises(ValueError, match="start -1"):
        update_frame(["{}"], -1, 0, b"", b"", b"")
    with pytest.raises(ValueError, match="32-bit"):
        update_frame(["{}"], 0, 1 << 32, b"", b"", b"")
    with pytest.raises(ValueError, match="not a str"):
        update_frame([b"{}"], 0, 0, b"", b"", b"")
    with pytest.raises(ValueError, match="negative"):
        log_texts([{}], -1, {}, dumps)
    assert log_texts([{}], 5, {}, dumps) == []
    assert update_frame(["{}"], 1, 0xDEADBEEF, b"", b"", b"") == python_frame(["{}"], 1, 0xDEADBEEF, b"", b"", b"")
