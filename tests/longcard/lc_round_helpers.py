"""Scripted stocks for the long-card round tests: hands per seat, then the next cards in order."""

from __future__ import annotations

from mahjong_core.families.longcard.cards import CAISHEN, COPIES, N_FACES, parse_cards
from mahjong_core.families.longcard._ref.round import Round


def make_stock(hands: dict[int, str], banker: int = 0, front: str = "", last: str | None = None,
               caishen_count: int = 0, fill: dict[int, str] | None = None) -> list[int]:
    """A stock that deals ``hands[seat]`` (20 cards each; a seat not given gets the lowest leftover
    cards, or ``fill[seat]`` first), then ``front`` in order, the rest ascending, ``last`` at the end."""
    left = [COPIES] * N_FACES + [caishen_count]
    dealt: dict[int, list[int]] = {}
    for seat, cards in hands.items():
        dealt[seat] = parse_cards(cards)
        for c in dealt[seat]:
            left[c] -= 1
    front_cards = parse_cards(front)
    last_cards = parse_cards(last) if last else []
    for c in front_cards + last_cards:
        left[c] -= 1
    for seat, cards in (fill or {}).items():
        dealt[seat] = parse_cards(cards)
        for c in dealt[seat]:
            left[c] -= 1
    assert min(left) >= 0, left
    rest = [c for c in range(N_FACES + 1) for _ in range(left[c])]
    for seat in range(3):
        d = dealt.setdefault(seat, [])
        while len(d) < 20:
            d.append(rest.pop(0))
        assert len(d) == 20, (seat, len(d))
    order = [(banker + k) % 3 for k in range(3)]
    stock = [c for seat in order for c in dealt[seat]] + front_cards + rest + last_cards
    assert len(stock) == 105 + caishen_count
    return stock


def scripted(hands: dict[int, str], banker: int = 0, front: str = "", last: str | None = None,
             fill: dict[int, str] | None = None, **options) -> Round:
    options.setdefault("caishen_count", 0)
    stock = make_stock(hands, banker, front, last, options["caishen_count"], fill)
    return Round(banker=banker, stock=stock, options=options)


def do(r: Round, seat: int, action) -> None:
    """Step with an action id or a short text: 'qi', 'pass', 'fold', 'peng', 'sha', 'hu', 'd 26', 'chi 15 15'."""
    from mahjong_core.families.longcard.round_actions import Action, chi_id
    if isinstance(action, str):
        parts = action.split()
        if parts[0] == "d":
            action = Action("discard", face=parse_cards(parts[1])[0])
        elif parts[0] == "chi":
            a, b = sorted(parse_cards(" ".join(parts[1:])))
            action = Action.from_id(chi_id(a, b))
        else:
            action = Action(parts[0])
    r.step(seat, action)


def ids(r: Round, seat: int) -> set[str]:
    return {str(a) for a in r.legal_actions(seat)}


CAISHEN_ID = CAISHEN
