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
    Each player passes the three cards it can best spare by the value the strategy in play
    sets its hand by (:func:`~simkit.phases.hand_value.spare_order`); ``"lowest"`` passes the
    three lowest.

The banker's policy (a reading: 001 says the banker decides, not how).  The banker knows its
own hand only, so it values each option by its expectation, with the strategy in play's value
of its own hand at the end (:mod:`simkit.phases.hand_value`); no pass is valued exactly.  The
policy values the banker's own hand only: it does not weigh that the pass changes the players'
hands too.

Options alike.  The banker sees none of the other hands, so which seat an imagined hand sits
at does not change what the banker expects: the other hands are exchangeable.  What reaches
the banker after an option depends only on its *kind* (:func:`option_kind`): one round (any
direction); or two rounds, told apart by whether the second round's giver is the first's
(same direction) and whether it was fed in the first round by the banker (across twice; two
different directions that undo each other) or by another player.  Options of one kind are
worth the same to the banker, so each kind is valued once, on the same
:data:`BANKER_SAMPLES` imagined deals of the cards it does not see (39; 91 with two decks) to
the other seats (common random numbers for every kind), and the banker plays a direction of
the chosen kind drawn uniformly (it is indifferent among them).

Choosing without the winner's curse.  The best of several noisy means is biased upward: set
against the exact value of no pass, it would lean toward passing.  So the value of passing is
cross-fitted (the double estimator): the kind that is best on one half of the imagined deals
is valued on the other half, and the two halves swap; the banker passes where that value
beats no pass (no pass on a tie), and plays the kind of the largest mean over all the deals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.cards import HAND_SIZE
from simkit.deal import MAX_PLAYERS_PER_DECK, pass_cards, pass_chosen, pass_shift
from simkit.errors import SimkitError
from simkit.phases.hand_value import Valuer, hand_values, spare_order, unseen_hands
from simkit.variants import Variant

#: Imagined deals of the other cards on which the banker values each kind of option (even: half
#: of them choose a kind, the other half value it, and the other way round).
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


def chosen_cards(hands: np.ndarray, cards: str, valuer: Valuer) -> np.ndarray:
    """``int64 (..., 3)``: the positions of the three cards each hand ``(..., 13)`` passes."""
    return _spare3(hands, cards, valuer)[0]


def _spare3(
    hands: np.ndarray, cards: str, valuer: Valuer, values: bool = False
) -> tuple[np.ndarray, np.ndarray | None]:
    """Each hand's three cards to pass (positions ``(..., 3)``) and, where ``values`` or the
    search finds it anyway, its value ``(...)``."""
    if cards == "lowest":
        lowest = np.broadcast_to(np.arange(PASS_SIZE), (*hands.shape[:-1], PASS_SIZE))
        return lowest, (hand_values(hands, valuer) if values else None)
    order, found = spare_order(hands, valuer)
    return order[..., :PASS_SIZE], found


def _give(hands: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(given (..., 3), kept (..., 10))``: the cards at ``positions`` and the rest."""
    pos = np.asarray(positions, dtype=np.int64)
    given = np.take_along_axis(hands, pos, axis=-1)
    keep = np.ones(hands.shape, dtype=bool)
    np.put_along_axis(keep, pos, False, axis=-1)
    return given, hands[keep].reshape(*hands.shape[:-1], HAND_SIZE - PASS_SIZE)


def _joined(kept: np.ndarray, received: np.ndarray) -> np.ndarray:
    """Hands of ``kept`` and ``received`` cards, sorted ``int8``."""
    return np.sort(np.concatenate([kept, received], axis=-1), axis=-1).astype(np.int8)


def play_rounds(
    hands: np.ndarray,
    rounds: np.ndarray,
    shift: np.ndarray,
    cards: str,
    valuer: Valuer,
    shift2: np.ndarray | None = None,
) -> np.ndarray:
    """Hands after each game's ``rounds`` passes of three cards, ``shift`` seats on (the second
    round ``shift2`` seats on, default ``shift``)."""
    out = hands.copy()
    for r, moved in ((1, shift), (2, shift if shift2 is None else shift2)):
        on = np.flatnonzero(rounds >= r)
        if on.size:
            sub = out[on]
            out[on] = pass_chosen(sub, chosen_cards(sub, cards, valuer), moved[on])
    return out


def banker_after(
    hands: np.ndarray,
    first: np.ndarray,
    shift: int,
    cards: str,
    valuer: Valuer,
    shift2: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The banker's hand value after one round and its hand after two, ``shift`` seats on
    (the second round ``shift2`` seats on, default ``shift``), played out on one deal.

    ``first``: every seat's first pass (positions ``(n, p, 3)``).  Only what reaches the banker
    is played out: in the second round it receives from seat −shift2 alone.  The slow
    reference of :func:`banker_kinds`, option by option.
    """
    p = hands.shape[1]
    once = pass_chosen(hands, first, shift)
    giver = (-(shift if shift2 is None else shift2)) % p
    pair = once[:, [0, giver]]  # (n, 2, 13): the banker and the seat that passes to it
    second, values = _spare3(pair, cards, valuer, values=True)
    assert values is not None
    twice = pass_chosen(pair, second, 1)[:, 0]  # within the pair the giver passes to the banker
    return values[:, 0], twice


#: What reaches the banker after an option: ``(rounds, same_giver, fed_by_banker)`` (see the
#: module; ``(0, False, False)`` is no pass, ``(1, False, False)`` one round).
Kind = tuple[int, bool, bool]


def option_kind(rounds: int, shift: int, shift2: int, n_players: int) -> Kind:
    """The kind of an option: the rounds; for two, whether the second round's giver (seat
    −shift2) is the first's (seat −shift) and whether the banker fed it in the first round
    (seat −shift2 − shift is the banker's)."""
    if rounds < 2:
        return (rounds, False, False)
    return (2, shift == shift2, (-shift - shift2) % n_players == 0)


def imagined_seats(kind: Kind, shift: int, shift2: int, n_players: int) -> dict[int, int]:
    """Where :func:`banker_kinds` seats its imagined hands A, F and C (indices 0, 1, 2 of
    ``others``) for an option of ``kind``: seat → index, the seats that matter to the banker.
    A gives to the banker in the last round; C in the first round when the rounds' givers
    differ; F feeds the second round's giver when the banker does not."""
    rounds, same, fed_by_banker = kind
    if rounds == 0:
        return {}
    if rounds == 1:
        return {(-shift) % n_players: 0}
    seats = {(-shift2) % n_players: 0}
    if not same:
        seats[(-shift) % n_players] = 2
    if not fed_by_banker:
        seats[(-shift - shift2) % n_players] = 1
    return seats


def banker_kinds(
    banker: np.ndarray,
    others: np.ndarray,
    kinds: list[Kind],
    cards: str,
    valuer: Valuer,
    banker_pass: np.ndarray | None = None,
) -> dict[Kind, tuple[np.ndarray, np.ndarray]]:
    """The banker's hand after each kind of option and its value, on imagined deals.

    ``banker``: its hand ``int8 (m, 13)``; ``others``: imagined hands ``int8 (m, k, 13)``, k ≥ 1
    (A, F, C at indices 0, 1 and 2, or the last where fewer; see :func:`imagined_seats`);
    ``banker_pass``: the positions ``(m, 3)`` of the banker's first pass where known.  Returns
    kind → ``(hand int8 (m, 13), value float64 (m,))``.  Every hand that passes is searched
    once, and all the hands of a stage in one call of the valuer.
    """
    k = others.shape[1]
    twice = [kd for kd in kinds if kd[0] == 2]
    index = {"a": 0, "f": min(1, k - 1), "c": min(2, k - 1)}
    needed = {"a"} | {"f" for kd in twice if not kd[2]} | {"c" for kd in twice if not kd[1]}
    # stage 1: the imagined hands' first passes (and the banker's, unless given)
    searched = sorted({index[x] for x in needed})
    pos, _ = _spare3(others[:, searched], cards, valuer)
    given_at, kept_at = _give(others[:, searched], pos)
    given = {x: given_at[:, searched.index(index[x])] for x in needed}
    a_kept = kept_at[:, searched.index(0)]
    if banker_pass is None:
        banker_pass = _spare3(banker, cards, valuer)[0]
    b_given, b_kept = _give(banker, banker_pass)
    # stage 2: the banker after one round (from A, or from C), the second round's givers
    hands2 = {("once", "a"): _joined(b_kept, given["a"])}
    if "c" in needed:
        hands2["once", "c"] = _joined(b_kept, given["c"])
    if any(kd[2] for kd in twice):
        hands2["giver", "b"] = _joined(a_kept, b_given)
    if "f" in needed:
        hands2["giver", "f"] = _joined(a_kept, given["f"])
    names = list(hands2)
    pos, values = _spare3(np.stack([hands2[x] for x in names], axis=1), cards, valuer, True)
    assert values is not None
    given2, kept2 = _give(np.stack([hands2[x] for x in names], axis=1), pos)
    at = {name: i for i, name in enumerate(names)}
    out: dict[Kind, tuple[np.ndarray, np.ndarray]] = {}
    if (1, False, False) in kinds:
        out[1, False, False] = hands2["once", "a"], values[:, at["once", "a"]]
    if not twice:
        return out
    # stage 3: the banker after two rounds
    hands3 = np.stack(
        [
            _joined(
                kept2[:, at["once", "a" if same else "c"]],
                given2[:, at["giver", "b" if fed else "f"]],
            )
            for _, same, fed in twice
        ],
        axis=1,
    )
    found = hand_values(hands3, valuer)
    for i, kd in enumerate(twice):
        out[kd] = hands3[:, i], found[:, i]
    return out


def cross_fitted(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(best int64 (n,), value float64 (n,))`` from ``samples`` ``(n, K, c)``: each of c
    choices valued on K ≥ 2 deals.  ``best`` has the largest mean; ``value`` is the double
    estimator of choosing by the mean: the choice best on the first half of the deals valued
    on the second, and the other way round, averaged.  Unlike the largest mean (biased upward
    by noise, the winner's curse) its expectation is the true value of a choice so made."""
    n, k, _ = samples.shape
    if k < 2:
        raise SimkitError(f"cross_fitted needs two imagined deals at least, got {k}")
    half = k // 2
    first, second = samples[:, :half].mean(axis=1), samples[:, half:].mean(axis=1)
    rows = np.arange(n)
    value = 0.5 * (second[rows, np.argmax(first, axis=1)] + first[rows, np.argmax(second, axis=1)])
    return np.argmax(samples.mean(axis=1), axis=1), value


@dataclass(frozen=True)
class BankerChoice:
    """The banker's decision in each game and what it rests on."""

    #: ``int64 (n,)``: the option played, an index into ``options``.
    chosen: np.ndarray
    #: ``float64 (n, k)``: the value of each option (no pass exact; the others the mean over
    #: the imagined deals of their kind).
    values: np.ndarray
    #: ``float64 (n,)``: the cross-fitted value of passing (:func:`cross_fitted`).
    pass_value: np.ndarray
    #: ``[(rounds, shift, second shift)]``: the options, no pass first.
    options: list[tuple[int, int, int]]


def banker_options(n_players: int, each_round: bool) -> list[tuple[int, int, int]]:
    """The banker's options ``(rounds, shift, second shift)``, no pass first; ``each_round``:
    two rounds may go different ways."""
    shifts = directions(n_players)
    options = [(0, 0, 0)] + [(r, s, s) for r in (1, 2) for s in shifts]
    if each_round:
        options += [(2, s, t) for s in shifts for t in shifts if s != t]
    return options


def banker_choice(
    hands: np.ndarray,
    cards: str,
    valuer: Valuer,
    rng: np.random.Generator,
    decks: int | None = None,
    each_round: bool = False,
) -> BankerChoice:
    """The banker's option in each game of hands ``int8 (n, p, 13)`` (the module's policy),
    imagining the unseen cards from a pack of ``decks`` plain decks (default: what the table
    size deals)."""
    n, p = hands.shape[:2]
    options = banker_options(p, each_round)
    kinds = list(dict.fromkeys(option_kind(r, s, t, p) for r, s, t in options[1:]))
    if decks is None:
        decks = 1 if p <= MAX_PLAYERS_PER_DECK else 2
    k = BANKER_SAMPLES
    own_pass, no_pass = _spare3(hands[:, 0], cards, valuer, values=True)
    assert no_pass is not None
    banker = np.repeat(hands[:, 0], k, axis=0)  # (n k, 13): deal d of game g at g k + d
    unseen = unseen_hands(banker, rng.random((n * k, 52 * decks - HAND_SIZE)))
    others = np.sort(unseen[:, : HAND_SIZE * min(p - 1, 3)].reshape(n * k, -1, HAND_SIZE), axis=2)
    found = banker_kinds(
        banker, others, kinds, cards, valuer, np.repeat(np.asarray(own_pass), k, axis=0)
    )
    samples = np.stack([found[kd][1].reshape(n, k) for kd in kinds], axis=2)  # (n, k, c)
    best, pass_value = cross_fitted(samples)
    means = samples.mean(axis=1)
    values = np.empty((n, len(options)))
    values[:, 0] = no_pass
    of_kind = [kinds.index(option_kind(r, s, t, p)) for r, s, t in options[1:]]
    values[:, 1:] = means[:, of_kind]
    # a direction of the best kind, drawn uniformly (every game draws, whatever it plays)
    draw = rng.random(n)
    members = np.array(of_kind)[None, :] == best[:, None]  # (n, k - 1)
    count = members.sum(axis=1)
    nth = np.minimum((draw * count).astype(np.int64), count - 1)
    pick = 1 + np.argmax(np.cumsum(members, axis=1) > nth[:, None], axis=1)
    chosen = np.where(pass_value > no_pass, pick, 0)
    return BankerChoice(chosen, values, pass_value, options)


def banker_option_values(
    hands: np.ndarray,
    cards: str,
    valuer: Valuer,
    rng: np.random.Generator,
    decks: int | None = None,
    each_round: bool = False,
) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """The banker's value of each option: ``(values float64 (n, k), options [(rounds, shift,
    second shift)])`` (:func:`banker_choice`'s ``values``)."""
    found = banker_choice(hands, cards, valuer, rng, decks, each_round)
    return found.values, found.options


def play_passing(
    hands: np.ndarray, variant: Variant, valuer: Valuer, rng: np.random.Generator
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
        choice = banker_choice(
            hands, rules.cards, valuer, rng, decks, each_round=rules.second == "any"
        )
        table = np.array(choice.options, dtype=np.int64)
        rounds, shift, shift2 = (table[choice.chosen, i] for i in range(3))
    else:
        rounds = np.full(n, rules.rounds, dtype=np.int64)
        shift = np.full(n, pass_shift(rules.direction, p) if rules.rounds else 0, dtype=np.int64)
        second = rules.direction if rules.second == "same" else rules.second
        shift2 = np.full(n, pass_shift(second, p) if rules.rounds else 0, dtype=np.int64)
    hands_after = play_rounds(hands, rounds, shift, rules.cards, valuer, shift2)
    return Passing(hands_after, rounds, shift, shift2)
