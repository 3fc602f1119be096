"""Dealing: shuffled decks split into 13-card hands, vectorized over games.

One deck serves 2 to 4 players; two decks serve 5 to 8 (then 五同, five of a kind, exists).  A
variant's :class:`~simkit.variants.Deck` (``deal(..., deck=variant.deck_for(p))``) may also add a
fifth suit and jokers (card integers in :mod:`simkit.cards`).
:func:`pass_cards` passes cards between the dealt hands where a variant's rules say so.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simkit.cards import DECK_SIZE, HAND_SIZE, pack_cards
from simkit.errors import SimkitError
from simkit.variants import Deck

RngLike = int | np.random.Generator | np.random.SeedSequence | None

MAX_PLAYERS_PER_DECK = DECK_SIZE // HAND_SIZE  # 4


def as_generator(rng: RngLike) -> np.random.Generator:
    """Normalize an ``rng`` argument (int seed, Generator, SeedSequence or None) once."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, int | np.integer | np.random.SeedSequence):
        return np.random.default_rng(rng)
    raise TypeError(
        f"rng must be an int seed, a numpy Generator, a SeedSequence or None, "
        f"got {type(rng).__name__}"
    )


def decks_needed(n_players: int) -> int:
    """The number of decks the usual rules use for ``n_players`` (1 for 2-4, 2 for 5-8)."""
    check_players(n_players)
    return 1 if n_players <= MAX_PLAYERS_PER_DECK else 2


def check_players(n_players: int, decks: int | None = None) -> None:
    """Raise :class:`~simkit.errors.SimkitError` if ``decks`` decks cannot serve ``n_players``
    13-card hands."""
    if isinstance(n_players, bool) or not isinstance(n_players, int | np.integer):
        raise TypeError(f"n_players must be an integer, got {n_players!r}")
    if not 2 <= n_players <= 2 * MAX_PLAYERS_PER_DECK:
        raise SimkitError(f"十三水 is played by 2 to 8 players, got n_players={n_players}")
    if decks is None:
        return
    if decks not in (1, 2):
        raise SimkitError(f"decks must be 1 or 2, got {decks}")
    if n_players > decks * MAX_PLAYERS_PER_DECK:
        raise SimkitError(
            f"{decks} deck(s) of 52 cards serve at most {decks * MAX_PLAYERS_PER_DECK} players "
            f"of 13 cards, got n_players={n_players}; use decks=2 for 5 to 8 players"
        )
    if decks == 2 and n_players <= MAX_PLAYERS_PER_DECK:
        raise SimkitError(
            f"two decks are for 5 to 8 players, got n_players={n_players}; use decks=1"
        )


def deal(
    n_games: int,
    n_players: int = 4,
    *,
    rng: RngLike = None,
    decks: int | None = None,
    deck: Deck | None = None,
) -> np.ndarray:
    """Deal ``n_games`` games of ``n_players`` 13-card hands.

    Returns an ``int8`` array of shape ``(n_games, n_players, 13)``; each hand is sorted by card
    integer.  The same seed gives the same deal.

    ``decks`` defaults to what the player count needs: one deck of 52 cards for 2 to 4 players,
    two decks shuffled together (104 cards) for 5 to 8.  With two decks a hand can hold both
    copies of a card, so pairs of identical cards and five of a kind (五同) occur; cards keep
    their one-deck integers 0..51 (parse such a hand with ``parse_cards(text, decks=2)``).

    ``deck`` (instead of ``decks``): a variant's :class:`~simkit.variants.Deck`, which must serve
    ``n_players``.  Every physical card of its pack (:func:`~simkit.cards.pack_cards`) is equally
    likely in every seat, exactly: the same partial Fisher-Yates shuffle with exactly uniform
    draws.  One or two plain decks deal the very games of ``decks=1`` / ``decks=2`` from the
    same seed (two plain decks may serve 2 to 4 players here).

    >>> deal(2, 4, rng=1).shape
    (2, 4, 13)
    >>> deal(1, 6, rng=1).shape  # two decks: 78 of the 104 cards dealt
    (1, 6, 13)
    """
    if isinstance(n_games, bool) or not isinstance(n_games, int | np.integer) or n_games < 0:
        raise SimkitError(f"n_games must be a non-negative integer, got {n_games!r}")
    pack: np.ndarray | None = None
    if deck is not None:
        if decks is not None:
            raise SimkitError("deal: give decks or deck, not both")
        check_players(n_players)
        if not deck.serves(n_players):
            raise SimkitError(
                f"deal: the deck ({deck.describe()}) serves "
                f"{', '.join(map(str, deck.players))} players, not {n_players}"
            )
        decks = deck.decks
        if not deck.plain:
            pack = pack_cards(deck.decks, deck.extra_suit, deck.jokers)
    else:
        if decks is None:
            decks = decks_needed(n_players)
        check_players(n_players, decks)
    gen = as_generator(rng)
    hands = np.empty((n_games, n_players, HAND_SIZE), dtype=np.int8)
    n_draws = n_players * HAND_SIZE
    # Each game gets a fixed slice of the generator's raw 64-bit stream: two 32-bit draws per
    # word, plus spare words for the (rare, about 1e-8 per draw) rejections that keep every
    # draw exactly uniform.  The stream does not depend on the block size, so the deal
    # depends only on the generator state.
    words = (n_draws + 1) // 2 + _SPARE_WORDS
    kernel = _deal_one_deck if decks == 1 else _deal_two_decks
    for start in range(0, n_games, _BLOCK_GAMES):
        stop = min(start + _BLOCK_GAMES, n_games)
        raw = gen.bit_generator.random_raw(size=(stop - start) * words).reshape(-1, words)
        if pack is None:
            kernel(raw, decks * DECK_SIZE, hands[start:stop])
        else:
            _deal_pack(raw, pack, hands[start:stop])
    return hands


#: Seats a card moves in each pass direction of 001 菲律宾玩法, as a function of the table size:
#: the receiver of seat s is seat (s + shift) mod p.
PASS_DIRECTIONS = ("clockwise", "counter-clockwise", "across")


def pass_shift(direction: str, n_players: int) -> int:
    """The seat shift of a pass ``direction`` at ``n_players`` (``across``: p/2, even tables)."""
    if direction == "clockwise":
        return 1
    if direction == "counter-clockwise":
        return n_players - 1
    if direction == "across":
        if n_players % 2:
            raise SimkitError(f"an across pass needs an even table, got {n_players} players")
        return n_players // 2
    raise SimkitError(f"unknown pass direction {direction!r}; choose one of {PASS_DIRECTIONS}")


def pass_chosen(hands: np.ndarray, positions: np.ndarray, shift: int | np.ndarray) -> np.ndarray:
    """One round of passing: every player passes the cards at ``positions`` of its hand to the
    seat ``shift`` places on (per game when ``shift`` is an array), then re-sorts its hand.

    ``hands``: ``int8 (n, p, 13)``; ``positions``: ``int (n, p, k)`` distinct positions in each
    hand; ``shift``: an int or ``int (n,)``.  Vectorized over games; cards are only moved.
    """
    n, p, size = hands.shape
    k = positions.shape[2]
    pos = positions.astype(np.int64)
    passed = np.take_along_axis(hands, pos, axis=2)  # (n, p, k)
    keep = np.ones(hands.shape, dtype=bool)
    np.put_along_axis(keep, pos, False, axis=2)
    kept = hands[keep].reshape(n, p, size - k)
    giver = (np.arange(p)[None, :] - np.reshape(np.asarray(shift), (-1, 1))) % p  # (n or 1, p)
    received = np.take_along_axis(passed, np.broadcast_to(giver, (n, p))[..., None], axis=1)
    return np.sort(np.concatenate([kept, received], axis=2), axis=2)


def pass_cards(hands: np.ndarray, rounds: int, direction: str) -> np.ndarray:
    """The fixed Philippine pass (001 菲律宾): each player passes its three lowest cards,
    ``rounds`` times.

    Each player passes their three lowest cards (by rank, then suit) to the next seat
    (``clockwise``: seat s → s + 1; ``counter-clockwise``: s → s − 1; ``across``: s → s + p/2,
    an exchange with the seat opposite, 与对家交换); hands are re-sorted after each round.
    Vectorized over games.  An odd table (3, 5, 7 players) has no seat opposite, so ``across``
    is refused there rather than read as some other pass.  The banker's choice of rounds and
    direction, and each player's choice of cards, are :mod:`simkit.phases.passing`.
    """
    out = hands
    p = hands.shape[1]
    if direction == "across" and p % 2:
        raise SimkitError(
            f"pass direction 'across' (与对家交换) exchanges with the seat opposite, which a "
            f"table of {p} players does not have; use clockwise or counter-clockwise"
        )
    shift = {"clockwise": 1, "counter-clockwise": -1, "across": p // 2}[direction]
    for _ in range(rounds):
        passed = out[:, :, :3]
        received = np.roll(passed, shift, axis=1)  # seat s receives from seat s - shift
        out = np.sort(np.concatenate([out[:, :, 3:], received], axis=2), axis=2)
    return out


def undealt(hands: np.ndarray) -> np.ndarray:
    """The cards of one deck that nobody holds: ``int8 (n, 52 - 13 p)``, sorted.

    ``hands``: one-deck hands ``int8 (n, p, k)``.  The complement of the deal, so no random
    draw is made and the deal stays what :func:`deal` dealt (at 3 players: the 13 cards left).
    """
    n = hands.shape[0]
    n_left = DECK_SIZE - hands.shape[1] * hands.shape[2]
    if n_left < 0:
        raise SimkitError(f"undealt: {hands.shape[1]} hands of one deck, the deck holds 52 cards")
    held = np.zeros((n, DECK_SIZE), dtype=bool)
    np.put_along_axis(held, hands.reshape(n, -1).astype(np.int64), True, axis=1)
    rest = np.nonzero(~held)[1].reshape(n, n_left)  # row by row, each row ascending
    return rest.astype(np.int8)


_BLOCK_GAMES = 16384
_SPARE_WORDS = 4

# ctz of a 64-bit power of two by de Bruijn multiplication: low card index from a hand mask.
_DEBRUIJN64 = np.array(
    [0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36, 53, 51, 43,
     22, 45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44,
     32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6],
    dtype=np.int64,
)  # fmt: skip
_DEBRUIJN_MAGIC = np.uint64(0x03F79D71B4CB0A89)


@nb.njit(cache=True, inline="always")
def _draw_below(raw_row, cursor, bound):
    """Uniform integer in [0, bound) from the 32-bit draws of ``raw_row`` (Lemire's method
    with rejection, so exactly uniform); returns (value, next cursor)."""
    m = np.uint64(bound)
    while True:
        word = raw_row[cursor >> 1]
        r32 = (word >> np.uint64(32)) if (cursor & 1) else (word & np.uint64(0xFFFFFFFF))
        cursor += 1
        product = r32 * m
        low = product & np.uint64(0xFFFFFFFF)
        # The division is needed only when the low half is small (Lemire's nearly divisionless
        # test); rejecting below 2**32 mod bound leaves every value equally likely.
        if low >= m or low >= (np.uint64(2**32) - m) % m:
            return np.int64(product >> np.uint64(32)), cursor
        if cursor >= 2 * raw_row.shape[0]:
            raise RuntimeError("deal: ran out of spare random draws")  # p < 1e-50


@nb.njit(cache=True)
def _deal_one_deck(raw, n_cards, out):
    n_games, n_players, hand_size = out.shape
    deck = np.empty(n_cards, dtype=np.int64)
    masks = np.empty(n_players, dtype=np.uint64)
    n_dealt = n_players * hand_size
    # with every card dealt the last hand is the rest of the deck: no draws for it
    n_drawn = n_dealt - hand_size if n_dealt == n_cards else n_dealt
    full = (np.uint64(1) << np.uint64(n_cards)) - np.uint64(1)
    for g in range(n_games):
        for c in range(n_cards):
            deck[c] = c
        masks[:] = 0
        cursor = 0
        # Partial Fisher-Yates: position i swaps with a uniform position in [i, n_cards); the
        # card then at i is final, so it goes straight into its player's 52-bit hand mask.
        for i in range(n_drawn):
            offset, cursor = _draw_below(raw[g], cursor, n_cards - i)
            j = i + offset
            deck[i], deck[j] = deck[j], deck[i]
            masks[i // hand_size] |= np.uint64(1) << np.uint64(deck[i])
        if n_drawn < n_dealt:
            # A full table: the last player holds exactly the cards nobody else drew.
            rest = full
            for p in range(n_players - 1):
                rest ^= masks[p]
            masks[n_players - 1] = rest
        # Each mask read back lowest card first: hands come out sorted.
        for p in range(n_players):
            mask = masks[p]
            for a in range(hand_size):
                low = mask & (~mask + np.uint64(1))
                out[g, p, a] = _DEBRUIJN64[(low * _DEBRUIJN_MAGIC) >> np.uint64(58)]
                mask ^= low


@nb.njit(cache=True)
def _deal_two_decks(raw, n_cards, out):
    n_games, n_players, hand_size = out.shape
    deck = np.empty(n_cards, dtype=np.int64)
    owner = np.empty(n_cards, dtype=np.int8)
    filled = np.empty(n_players, dtype=np.int64)
    for g in range(n_games):
        for c in range(n_cards):
            deck[c] = c
            owner[c] = -1
        cursor = 0
        for i in range(n_players * hand_size):
            offset, cursor = _draw_below(raw[g], cursor, n_cards - i)
            j = i + offset
            deck[i], deck[j] = deck[j], deck[i]
            owner[deck[i]] = i // hand_size
        # Walking card values in order (both copies of a card together) sorts every hand.
        filled[:] = 0
        for c in range(n_cards):
            card = (c % 2) * 52 + c // 2
            p = owner[card]
            if p >= 0:
                out[g, p, filled[p]] = card % 52
                filled[p] += 1


@nb.njit(cache=True)
def _deal_pack(raw, pack, out):
    """Any pack: ``pack`` holds every physical card, sorted; positions are shuffled, so two
    copies of a card are two positions, each as likely as any other card to land in a seat."""
    n_games, n_players, hand_size = out.shape
    n_cards = pack.shape[0]
    order = np.empty(n_cards, dtype=np.int64)
    owner = np.empty(n_cards, dtype=np.int8)
    filled = np.empty(n_players, dtype=np.int64)
    for g in range(n_games):
        for c in range(n_cards):
            order[c] = c
            owner[c] = -1
        cursor = 0
        for i in range(n_players * hand_size):
            offset, cursor = _draw_below(raw[g], cursor, n_cards - i)
            j = i + offset
            order[i], order[j] = order[j], order[i]
            owner[order[i]] = i // hand_size
        # Walking the sorted pack in order sorts every hand.
        filled[:] = 0
        for c in range(n_cards):
            p = owner[c]
            if p >= 0:
                out[g, p, filled[p]] = pack[c]
                filled[p] += 1
