"""Linked accounts: did this play use the cards another account on its address or device
had already seen on this deal?

A shared address alone proves nothing (carrier NAT, a school, a family), so a link never
flags by itself. The evidence is the clairvoyance test (:mod:`.clairvoyance`) restricted
to the linked cards: at each reveal of a card the other account had seen, was it more
useful than the other face-down candidates that account had seen too? An honest player on
a shared address cannot tell those cards apart, so the test keeps its exact 50 % baseline;
a main account that digs where its throwaway saw the needed card does not.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import parse_card

from .clairvoyance import RevealTest, describe, reveal_test
from .replay import Step


def linked_test(steps: Sequence[Step], linked_reveals: frozenset[str]) -> RevealTest:
    linked = frozenset(parse_card(name) for name in linked_reveals)
    return reveal_test(steps, lambda card: card in linked)


def linked_reason(test: RevealTest, linked: int) -> str:
    if not linked:
        return "no other account on this address or device played this deal first"
    return f"{linked} cards seen by a linked account; " + describe(test, "of them")
