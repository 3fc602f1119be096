"""菲律宾 passing (001 菲律宾玩法): the banker's three-card pass, played before the hands are set.

001: "庄家有权要求”换三张牌”。“换三张牌”由庄家决定次数,包括: 不换,换一次,换两次。交换次序由庄家
决定,包括:顺时针,逆时针,与对家交换。"  The ``[deal.passing]`` table of a variant says how it is
played (:class:`~simkit.variants.rules.CardPass`):

``choice = "banker"``
    The banker (seat 0) chooses 0, 1 or 2 rounds and one direction for all of them, from the
    directions the table has: clockwise, counter-clockwise and, at an even table, across (对家;
    at 2 players all three are one).  ``choice = "fixed"`` plays the file's ``rounds`` and
    ``direction`` in every game.
``cards = "chosen"``
    Each player passes the three cards it can best spare by the max-ev value of its hand
    (:func:`~simkit.phases.hand_value.spare_order`); ``"lowest"`` passes the three lowest.

The banker's policy (a reading: 001 says the banker decides, not how).  The banker knows its
own hand only, so it values each option by its expectation: for each of
:data:`BANKER_SAMPLES` deals of the cards it does not see (39; 91 with two decks) to the
other seats (the same imagined deals for every option, so options are compared on common
deals), the option is played out (every player passing by the ``cards`` rule, the banker
included), and the banker's own hand at the end is valued by max-ev; no pass is valued
exactly.  It takes the option of the largest mean, no pass on a tie.  The policy values the
banker's own hand only: it does not weigh that the pass changes the players' hands too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.arrange import Solver
from simkit.deal import MAX_PLAYERS_PER_DECK, pass_cards, pass_chosen, pass_shift
from simkit.phases.hand_value import hand_values, spare_order, unseen_hands
from simkit.variants import Variant

#: Imagined deals of the other cards on which the banker values each option.
BANKER_SAMPLES = 4
#: Three cards a pass (001 "换三张牌").
PASS_SIZE = 3


@dataclass(frozen=True)
class Passing:
    """What the pass did in each game: the hands after it and the option played."""

    #: ``int8 (n, p, 13)``: the hands after passing, each sorted.
    hands: np.ndarray
    #: ``int64 (n,)``: rounds passed (0, 1 or 2).
    rounds: np.ndarray
    #: ``int64 (n,)``: seats each card moved on (seat s passes to s + shift mod p).
    shift: np.ndarray
    #: ``int64 (n,)``: the second round's shift (``shift`` unless the rounds go different ways).
    shift2: np.ndarray | None = None


def _old_shift(direction: str, n_players: int) -> int:
    """The shift :func:`~simkit.deal.pass_cards` moves cards by (across: p // 2 at any table)."""
    return {"clockwise": 1, "counter-clockwise": n_players - 1, "across": n_players // 2}[direction]


def directions(n_players: int) -> tuple[int, ...]:
    """The distinct seat shifts of 001's three directions at ``n_players``: clockwise,
    counter-clockwise, then across (对家) at an even table."""
    names = ["clockwise", "counter-clockwise"] + (["across"] if n_players % 2 == 0 else [])
    return tuple(dict.fromkeys(pass_shift(name, n_players) for name in names))


def chosen_cards(hands: np.ndarray, cards: str, solver: Solver) -> np.ndarray:
    """``int64 (n, p, 3)``: the positions of the three cards each player passes."""
    if cards == "lowest":
        return np.broadcast_to(np.arange(PASS_SIZE), (*hands.shape[:2], PASS_SIZE))
    order, _ = spare_order(hands, solver)
    return order[..., :PASS_SIZE]


def play_rounds(
    hands: np.ndarray,
    rounds: np.ndarray,
    shift: np.ndarray,
    cards: str,
    solver: Solver,
    shift2: np.ndarray | None = None,
) -> np.ndarray:
    """Hands after each game's ``rounds`` passes of three cards, ``shift`` seats on (the second
    round ``shift2`` seats on, default ``shift``)."""
    out = hands.copy()
    for r, moved in ((1, shift), (2, shift if shift2 is None else shift2)):
        on = np.flatnonzero(rounds >= r)
        if on.size:
            sub = out[on]
            out[on] = pass_chosen(sub, chosen_cards(sub, cards, solver), moved[on])
    return out


def _passes_and_values(
    hands: np.ndarray, cards: str, solver: Solver
) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's three cards to pass (positions ``(..., 3)``) and its value ``(...)``."""
    if cards == "lowest":
        lowest = np.broadcast_to(np.arange(PASS_SIZE), (*hands.shape[:-1], PASS_SIZE))
        return lowest, hand_values(hands, solver)
    order, values = spare_order(hands, solver)
    return order[..., :PASS_SIZE], values


def banker_after(
    hands: np.ndarray,
    first: np.ndarray,
    shift: int,
    cards: str,
    solver: Solver,
    shift2: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The banker's hand value after one round and its hand after two, ``shift`` seats on
    (the second round ``shift2`` seats on, default ``shift``).

    ``first``: every seat's first pass (positions ``(n, p, 3)``).  Only what reaches the banker
    is played out: in the second round it receives from seat −shift alone, so the other seats'
    second passes are not needed (the same hands as :func:`play_rounds`, with fewer searches).
    """
    p = hands.shape[1]
    once = pass_chosen(hands, first, shift)
    giver = (-(shift if shift2 is None else shift2)) % p
    pair = once[:, [0, giver]]  # (n, 2, 13): the banker and the seat that passes to it
    second, values = _passes_and_values(pair, cards, solver)
    twice = pass_chosen(pair, second, 1)[:, 0]  # within the pair the giver passes to the banker
    return values[:, 0], twice


def banker_option_values(
    hands: np.ndarray,
    cards: str,
    solver: Solver,
    rng: np.random.Generator,
    decks: int | None = None,
    each_round: bool = False,
) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """The banker's value of each option: ``(values float64 (n, k), options [(rounds, shift,
    second shift)])``; ``each_round``: two rounds may go different ways.

    Option 0 is no pass (the banker's hand as dealt, valued exactly); the others are means over
    :data:`BANKER_SAMPLES` imagined deals of the cards the banker does not see (module note),
    from a pack of ``decks`` plain decks (default: what the table size deals).
    """
    n, p = hands.shape[:2]
    shifts = directions(p)
    options = [(0, 0, 0)] + [(r, s, s) for r in (1, 2) for s in shifts]
    mixed = [(s, t) for s in shifts for t in shifts if s != t] if each_round else []
    options += [(2, s, t) for s, t in mixed]
    values = np.zeros((n, len(options)))
    values[:, 0] = hand_values(hands[:, 0], solver)
    if decks is None:
        decks = 1 if p <= MAX_PLAYERS_PER_DECK else 2
    for _ in range(BANKER_SAMPLES):
        others = unseen_hands(hands[:, 0], rng.random((n, 52 * decks - 13)))[:, : 13 * (p - 1)]
        imagined = np.concatenate([hands[:, :1], others.reshape(n, p - 1, 13)], axis=1)
        imagined = np.sort(imagined, axis=2)
        first = chosen_cards(imagined, cards, solver)
        for i, s in enumerate(shifts):
            once_value, twice = banker_after(imagined, first, s, cards, solver)
            values[:, 1 + i] += once_value / BANKER_SAMPLES
            values[:, 1 + len(shifts) + i] += hand_values(twice, solver) / BANKER_SAMPLES
        for k, (s, t) in enumerate(mixed):
            _, twice = banker_after(imagined, first, s, cards, solver, t)
            values[:, 1 + 2 * len(shifts) + k] += hand_values(twice, solver) / BANKER_SAMPLES
    return values, options


def play_passing(
    hands: np.ndarray, variant: Variant, solver: Solver, rng: np.random.Generator
) -> Passing:
    """The ``[deal.passing]`` phase of ``variant`` on dealt hands ``int8 (n, p, 13)``."""
    rules = variant.deal.passing
    n, p = hands.shape[:2]
    if rules.choice == "fixed" and rules.cards == "lowest" and rules.second == "same":
        # the fixed pass of the three lowest cards, as simkit always played it (same numbers)
        rounds = np.full(n, rules.rounds, dtype=np.int64)
        shift = np.full(n, _old_shift(rules.direction, p) if rules.rounds else 0, np.int64)
        return Passing(pass_cards(hands, rules.rounds, rules.direction), rounds, shift)
    if rules.choice == "banker":
        decks = variant.deck_for(p).decks  # the pack the banker imagines the unseen cards of
        values, options = banker_option_values(
            hands, rules.cards, solver, rng, decks, each_round=rules.second == "any"
        )
        best = np.argmax(values, axis=1)  # the first of equals: no pass on a tie
        table = np.array(options, dtype=np.int64)
        rounds, shift, shift2 = table[best, 0], table[best, 1], table[best, 2]
    else:
        rounds = np.full(n, rules.rounds, dtype=np.int64)
        shift = np.full(n, pass_shift(rules.direction, p) if rules.rounds else 0, dtype=np.int64)
        second = rules.direction if rules.second == "same" else rules.second
        shift2 = np.full(n, pass_shift(second, p) if rules.rounds else 0, dtype=np.int64)
    hands_after = play_rounds(hands, rounds, shift, rules.cards, solver, shift2)
    return Passing(hands_after, rounds, shift, shift2)
