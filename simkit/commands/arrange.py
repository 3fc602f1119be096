"""``simkit arrange``: the best ways to set one hand, with their expected scores."""

from __future__ import annotations

import argparse
from typing import Any

DEFAULT_TOP = 5


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arrange",
        help="show the best splits of a 13-card hand with their expected scores",
        description="Rank every legal split of a hand by its max-ev expected score (against "
        "opponents playing max-ev, from the shipped win tables) and print the best, with "
        "the special hands it qualifies for and what max-ev declares.",
    )
    parser.add_argument("cards", help='13 cards, e.g. "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"')
    parser.add_argument("--variant", default=None, help="variant name or path (default guangxi)")
    parser.add_argument("--players", type=int, default=4, help="players at the table (2-8)")
    parser.add_argument("--top", type=int, default=DEFAULT_TOP, help="how many splits to show")
    parser.set_defaults(func=handle)


def describe_splits(cards_text: str, variant: Any, n_players: int, top: int) -> list[str]:
    """The lines ``simkit arrange`` prints (one string each)."""
    import numpy as np

    from simkit.arrange import arrange, legal_splits, make_solver, split_values
    from simkit.cards import format_cards, parse_cards
    from simkit.evaluate import describe_rank
    from simkit.specials import detect_specials
    from simkit.splits import FIVE_SUBSETS, THREE_SUBSETS
    from simkit.variants import resolve_variant

    if top < 1:
        raise ValueError(f"--top must be at least 1, got {top}")
    v = resolve_variant(variant)
    hand = parse_cards(cards_text)
    if hand.shape != (13,):
        raise ValueError(f"a hand has 13 cards, got {hand.shape[0]}: {cards_text!r}")
    hand = np.sort(hand)
    solver = make_solver(v, n_players)
    ids, ranks = legal_splits(hand, v)
    values = split_values(ranks, solver)
    order = np.lexsort((-ranks[:, 0], -ranks[:, 1], -ranks[:, 2], -values))
    lines = [
        f"{format_cards(hand)}  ({v.name}, {n_players} players, {len(ids)} legal splits)",
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
        duns = [hand[THREE_SUBSETS[f]], hand[FIVE_SUBSETS[m]], hand[FIVE_SUBSETS[b]]]
        lines.append(f"{shown:>2}. EV {values[i]:+8.3f}")
        for label, dun, rank in zip(("front ", "middle", "back  "), duns, key, strict=True):
            lines.append(f"      {label} {format_cards(dun):<16} {describe_rank(rank)}")
        if shown == top:
            break
    mask = int(detect_specials(hand, v))
    qualifies = [r for i, r in enumerate(v.specials.rules) if mask >> i & 1]
    if qualifies:
        _, declared = arrange(hand, v, "max-ev", n_players=n_players)
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


def handle(args: argparse.Namespace) -> int:
    for line in describe_splits(args.cards, args.variant, args.players, args.top):
        print(line)
    return 0
