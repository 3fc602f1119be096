"""The best ways to set one hand, as text: what ``simkit arrange`` prints.

Splits are ranked by max-ev's own value model (``EV(model)``: win tables per dun, duns priced
as independent), which is an estimate inside that model, not the split's expected score under
the variant's full rules; ``rollouts=N`` adds that expected score, measured on N random deals
of the other cards to opponents who play max-ev (:func:`simkit.regret.rollout_values`).

>>> for line in describe_splits("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s", "guangxi", top=1):
...     print(line)
2♥ 3♥ 4♦ 5♣ 7♠ 9♣ 9♦ 9♥ T♠ J♠ Q♠ K♠ A♠  (guangxi, 4 players, 19267 legal splits)
EV(model): max-ev's own estimate from its win tables, not the expected score under
guangxi's full rules (rollouts measure that: simkit arrange --rollouts N)
 1. EV(model)  +32.878
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
Z95 = 1.959963984540054


def _full_rules(mean: float, se: float) -> str:
    """A rollout estimate with its 95% CI."""
    return (
        f"full rules {mean:+.3f} ± {se:.3f} "
        f"(95% CI {mean - Z95 * se:+.3f} to {mean + Z95 * se:+.3f})"
    )


def describe_splits(
    hand: str | Iterable[str] | npt.ArrayLike,
    variant: Any = None,
    n_players: int = 4,
    top: int = DEFAULT_TOP,
    *,
    rollouts: int | None = None,
    seat: str = "player",
    seed: int = 0,
) -> list[str]:
    """The ``top`` best splits of a 13-card ``hand`` by max-ev's value model, as lines of text.

    ``hand`` is card text (``"As Ks ..."``, see :func:`simkit.cards.parse_cards`) or 13 card
    integers; ``variant`` a name, path or :class:`~simkit.variants.Variant` (None: the default
    variant).  ``EV(model)`` is max-ev's own estimate of the split's score against opponents
    playing max-ev, from the shipped win tables at ``n_players``: the value it ranks splits
    by, not their expected score under the full rules.  Splits that differ only in suits are
    shown once.  The last lines name the special hands the hand qualifies for and what max-ev
    declares.

    ``rollouts``: also score each split shown (and declaring, where the hand qualifies) on
    that many random deals of the other cards to opponents playing max-ev, the same deals for
    every setting, under the variant's full rules: the mean and its 95% CI
    (:func:`simkit.regret.rollout_values`, with ``seat`` and ``seed``; 2-4 players).
    """
    from simkit.arrange import arrange, legal_splits, make_solver, split_values
    from simkit.cards import format_cards, parse_cards
    from simkit.evaluate import describe_rank
    from simkit.specials import best_special, detect_specials
    from simkit.splits import FIVE_SUBSETS, THREE_SUBSETS
    from simkit.variants import resolve_variant

    if top < 1:
        raise SimkitError(f"top must be at least 1, got {top}")
    if rollouts is not None and (isinstance(rollouts, bool) or rollouts < 2):
        raise SimkitError(f"rollouts must be at least 2, got {rollouts}")
    if rollouts is not None and not 2 <= n_players <= 4:
        raise SimkitError(f"rollouts deal one deck (2-4 players), got {n_players}")
    v = resolve_variant(variant)
    banker_variant = v.scoring.topology == "banker"
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
    seen: set[tuple[int, int, int]] = set()
    shown: list[int] = []
    for i in order.tolist():
        key = (int(ranks[i, 0]), int(ranks[i, 1]), int(ranks[i, 2]))
        if key in seen:  # the same duns with other suits
            continue
        seen.add(key)
        shown.append(i)
        if len(shown) == top:
            break
    settings = [
        np.concatenate([cards[THREE_SUBSETS[f]], cards[FIVE_SUBSETS[m]], cards[FIVE_SUBSETS[b]]])
        for f, m, b in (ids[i].tolist() for i in shown)
    ]
    mask = int(detect_specials(cards, v))
    qualifies = [r for i, r in enumerate(v.specials.rules) if mask >> i & 1]
    own, declared = arrange(cards, v, "max-ev", n_players=n_players)
    d = int(declared)
    decl = (
        d if d >= 0 else int(best_special(np.array([mask], dtype=np.uint32))[0])
    )  # declaring, if it qualifies
    measured: list[str] = []
    if rollouts is not None:
        from simkit.regret import rollout_values

        candidates = np.stack(settings + ([own] if decl >= 0 else []))
        mean, se = rollout_values(
            cards,
            candidates,
            v,
            n_players,
            rollouts=rollouts,
            seed=seed,
            seat=seat,
            declared=[-1] * len(settings) + ([decl] if decl >= 0 else []),
        )
        measured = [_full_rules(float(m), float(s)) for m, s in zip(mean, se, strict=True)]
    where = f", {seat} seat" if banker_variant else ""
    lines = [
        f"{format_cards(cards)}  ({v.name}, {n_players} players{where}, {len(ids)} legal splits)",
        "EV(model): max-ev's own estimate from its win tables, not the expected score under",
        f"{v.name}'s full rules (rollouts measure that: simkit arrange --rollouts N)",
    ]
    for k, (i, setting) in enumerate(zip(shown, settings, strict=True)):
        head = f"{k + 1:>2}. EV(model) {values[i]:+8.3f}"
        lines.append(head + (f"   {measured[k]}" if measured else ""))
        key = (int(ranks[i, 0]), int(ranks[i, 1]), int(ranks[i, 2]))
        duns = [setting[:3], setting[3:8], setting[8:]]
        for label, dun, rank in zip(("front ", "middle", "back  "), duns, key, strict=True):
            lines.append(f"      {label} {format_cards(dun):<16} {describe_rank(rank)}")
    if qualifies:
        names = ", ".join(f"{r.name} ({r.id}, pays {r.payout:g} a player)" for r in qualifies)
        lines.append(f"special hands: {names}")
        lines.append(
            "max-ev declares "
            + (v.specials.rules[d].name if d >= 0 else "nothing")
            + f" (best normal EV(model) {values[order[0]]:+.3f})"
        )
        if measured:
            lines.append(f"declaring {v.specials.rules[decl].name}: {measured[-1]}")
    else:
        lines.append("special hands: none")
    if measured:
        lines.append(
            f"full rules: mean points per game against {n_players - 1} max-ev opponents on "
            f"{rollouts:,} random deals of the other cards, the same deals for every setting "
            f"(seed {seed})"
        )
    return lines
