"""Linked accounts: did this play use the cards another account on its address or device
had already seen on this deal?

A shared address alone proves nothing (carrier NAT, a school, a family), so a link never
flags by itself. The evidence is the clairvoyance test (:mod:`.clairvoyance`) restricted
to the linked cards: at each reveal of a card the other account had seen, was it more
useful than the other face-down candidates that account had seen too? An honest player on
a shared address cannot tell those cards apart, so the test keeps its exact 50 % baseline;
a main account that digs where its throwaway saw the needed card does not.

A main account that had the throwaway reveal the deck and then plays the solver's line on
it shows its knowledge another way: it walks the full-information par line
(:mod:`.par_line`). With a link, that counts here too, so the reviewer sees the link and the
benefit together; without a link it is the clairvoyance detector's alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import parse_card

from .clairvoyance import RevealTest, describe, reveal_test
from .par_line import ParFollow
from .replay import Step


def linked_test(steps: Sequence[Step], linked_reveals: frozenset[str]) -> RevealTest:
    linked = frozenset(parse_card(name) for name in linked_reveals)
    return reveal_test(steps, lambda card: card in linked)


def linked_score(test: RevealTest, follow: ParFollow, linked: int) -> float:
    return max(test.score, follow.score) if linked else 0.0


def linked_reason(test: RevealTest, follow: ParFollow, linked: int) -> str:
    if not linked:
        return "no other account on this address or device played this deal first"
    return (
        f"{linked} cards seen by a linked account; "
        + describe(test, "of them")
        + "; "
        + follow.describe()
    )
