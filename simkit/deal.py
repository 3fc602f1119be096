"""Dealing: shuffled decks split into 13-card hands, vectorized over games.

One deck serves 2 to 4 players; two decks serve 5 to 8 (then 五同, five of a kind, exists).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simkit.cards import DECK_SIZE, HAND_SIZE

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
    """Raise ``ValueError`` if ``decks`` decks cannot serve ``n_players`` 13-card hands."""
    if isinstance(n_players, bool) or not isinstance(n_players, int | np.integer):
        raise TypeError(f"n_players must be an integer, got {n_players!r}")
    if not 2 <= n_players <= 2 * MAX_PLAYERS_PER_DECK:
        raise ValueError(f"十三水 is played by 2 to 8 players, got n_players={n_players}")
    if decks is None:
        return
    if decks not in (1, 2):
        raise ValueError(f"decks must be 1 or 2, got {decks}")
    if n_players > decks * MAX_PLAYERS_PER_DECK:
        raise ValueError(
            f"{decks} deck(s) of 52 cards serve at most {decks * MAX_PLAYERS_PER_DECK} players "
            f"of 13 cards, got n_players={n_players}; use decks=2 for 5 to 8 players"
        )
    if decks == 2 and n_players <= MAX_PLAYERS_PER_DECK:
        raise ValueError(
            f"two decks are for 5 to 8 players, got n_players={n_players}; use decks=1"
        )


def deal(
    n_games: int,
    n_players: int = 4,
    *,
    rng: RngLike = None,
    decks: int | None = None,
) -> np.ndarray:
    """Deal ``n_games`` games of ``n_players`` 13-card hands.

    Returns an ``int8`` array of shape ``(n_games, n_players, 13)``; each hand is sorted by card
    integer.  ``decks`` defaults to what the player count needs (1 for 2-4, 2 for 5-8).  The same
    seed gives the same deal.  Vectorized: each game's deck order is the argsort of uniform keys.

    >>> deal(2, 4, rng=1).shape
    (2, 4, 13)
    """
    if isinstance(n_games, bool) or not isinstance(n_games, int | np.integer) or n_games < 0:
        raise ValueError(f"n_games must be a non-negative integer, got {n_games!r}")
    if decks is None:
        decks = decks_needed(n_players)
    check_players(n_players, decks)
    gen = as_generator(rng)
    hands = np.empty((n_games, n_players, HAND_SIZE), dtype=np.int8)
    n_dealt = n_players * HAND_SIZE
    # Uniforms come from ``gen`` in blocks small enough to stay in cache; the stream is the
    # same whatever the block size, so the deal depends only on the generator state.
    for start in range(0, n_games, _BLOCK_GAMES):
        stop = min(start + _BLOCK_GAMES, n_games)
        uniforms = gen.random((stop - start, n_dealt))
        _deal_kernel(uniforms, decks * DECK_SIZE, hands[start:stop])
    return hands


_BLOCK_GAMES = 4096


@nb.njit(cache=True)
def _deal_kernel(uniforms, n_cards, out):  # type: ignore[no-untyped-def]
    n_games, n_players, hand_size = out.shape
    deck = np.empty(n_cards, dtype=np.int16)
    owner = np.empty(n_cards, dtype=np.int8)
    filled = np.empty(n_players, dtype=np.int64)
    for g in range(n_games):
        for c in range(n_cards):
            deck[c] = c
            owner[c] = -1
        # Partial Fisher-Yates: position i swaps with a uniform position in [i, n_cards);
        # floor(u * m) of a 53-bit uniform double is uniform on 0..m-1 up to 2**-47.
        for i in range(n_players * hand_size):
            j = i + np.int64(uniforms[g, i] * (n_cards - i))
            deck[i], deck[j] = deck[j], deck[i]
            owner[deck[i]] = i // hand_size
        # Walking the cards in order hands each player its cards already sorted.
        filled[:] = 0
        for c in range(n_cards):
            card = (c % 2) * 52 + c // 2 if n_cards > 52 else c  # both copies of a card together
            p = owner[card]
            if p >= 0:
                out[g, p, filled[p]] = card % 52
                filled[p] += 1
