"""The best ways to set one hand, as text: what ``simkit arrange`` prints.

>>> for line in describe_splits("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s", "guangxi", top=1):
...     print(line)
2♥ 3♥ 4♦ 5♣ 7♠ 9♣ 9♦ 9♥ T♠ J♠ Q♠ K♠ A♠  (guangxi, 4 players, 19267 legal splits)
 1. EV  +32.878
      front  9♣ 9♦ 9♥         TRIPS 9
      middle 2♥ 3♥ 4♦ 5♣ A♠   STRAIGHT 5-4-3-2-A
      back   7♠ T♠ J♠ Q♠ K♠   FLUSH K-Q-J-T-7
special hands: none
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from simkit.errors import SimkitError

DEFAULT_TOP = 5


def describe_splits(
    hand: str | Iterable[str] | npt.ArrayLike,
    variant: Any = None,
    n_players: int = 4,
    top: int = DEFAULT_TOP,
) -> list[str]:
    """The ``top`` best splits of a 13-card ``hand`` by max-ev expected score, as lines of text.

    ``hand`` is card text (``"As Ks ..."``, see :func:`simkit.cards.parse_cards`) or 13 card
    integers; ``variant`` a name, path or :class:`~simkit.variants.Variant` (None: the default
    variant).  The expected score is against opponents playing max-ev with the shipped win
    tables at ``n_players``.  Splits that differ only in suits are shown once.  The last lines
    name the special hands the hand qualifies for and what max-ev declares.
    """
    from simkit.arrange import arrange, legal_splits, make_solver, split_values
    from simkit.cards import format_cards, parse_cards
    from simkit.evaluate import describe_rank
    from simkit.specials import detect_specials
    from simkit.splits import FIVE_SUBSETS, THREE_SUBSETS
    from simkit.variants import resolve_variant

    if top < 1:
        raise SimkitError(f"top must be at least 1, got {top}")
    v = resolve_variant(variant)
    if isinstance(hand, str):
        cards = parse_cards(hand)
    else:
        given = np.asarray(list(hand) if isinstance(hand, Iterable) else hand)
        cards = parse_cards(given.tolist()) if given.dtype.kind in "UO" else given.astype(np.int8)
    if cards.shape != (13,):
        raise SimkitError(f"a hand has 13 cards, got {cards.size}: {format_cards(cards)!r}")
    cards = np.sort(cards)
    solver = make_solver(v, n_players)
    ids, ranks = legal_splits(cards, v)
    values = split_values(ranks, solver)
    order = np.lexsort((-ranks[:, 0], -ranks[:, 1], -ranks[:, 2], -values))
    lines = [
        f"{format_cards(cards)}  ({v.name}, {n_players} players, {len(ids)} legal splits)",
    ]
    seen: set[tuple[int, int, int]] = set()
    shown = 0
    for i in order.tolist():
        key = (int(ranks[i, 0]), int(ranks[i, 1]), int(ranks[i, 2]))
        if key in seen:  # the same duns with other suits
            continue
        seen.add(key)
        shown += 1
        f, m, b = (int(x) for x in ids[i])
        duns = [cards[THREE_SUBSETS[f]], cards[FIVE_SUBSETS[m]], cards[FIVE_SUBSETS[b]]]
        lines.append(f"{shown:>2}. EV {values[i]:+8.3f}")
        for label, dun, rank in zip(("front ", "middle", "back  "), duns, key, strict=True):
            lines.append(f"      {label} {format_cards(dun):<16} {describe_rank(rank)}")
        if shown == top:
            break
    mask = int(detect_specials(cards, v))
    qualifies = [r for i, r in enumerate(v.specials.rules) if mask >> i & 1]
    if qualifies:
        _, declared = arrange(cards, v, "max-ev", n_players=n_players)
        names = ", ".join(f"{r.name} ({r.id}, pays {r.payout:g} a player)" for r in qualifies)
        lines.append(f"special hands: {names}")
        d = int(declared)
        lines.append(
            "max-ev declares "
            + (v.specials.rules[d].name if d >= 0 else "nothing")
            + f" (best normal EV {values[order[0]]:+.3f})"
        )
    else:
        lines.append("special hands: none")
    return lines
