"""Cards as small integers, and the text notations at the edges.

A card is ``4 * rank + suit`` in an ``int8``: rank 0..12 stands for 2..A and suit 0..3 for
♣ ♦ ♥ ♠.  Inside simkit cards never exist as strings; :func:`parse_cards` and
:func:`format_cards` are the only doors between the two.

>>> format_cards(parse_cards("As Kd 10h 9c ♠Q 7♦"))
'A♠ K♦ T♥ 9♣ Q♠ 7♦'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from simkit.errors import SimkitError

N_RANKS = 13
N_SUITS = 4
DECK_SIZE = N_RANKS * N_SUITS
HAND_SIZE = 13

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"

_RANK_OF_TOKEN = {c: i for i, c in enumerate(RANK_CHARS)} | {"10": 8}
_SUIT_OF_TOKEN = {c: i for i, c in enumerate(SUIT_CHARS)} | {
    s: i for i, s in enumerate(SUIT_SYMBOLS)
}
# Also accept the white (outline) suit symbols people type.
_SUIT_OF_TOKEN |= {"♧": 0, "♢": 1, "♡": 2, "♤": 3}

_RANK_RE = r"(10|[2-9TJQKA])"
_SUIT_RE = r"([CDHS♣♦♥♠♧♢♡♤])"
_CARD_RE = re.compile(rf"^(?:{_RANK_RE}{_SUIT_RE}|{_SUIT_RE}{_RANK_RE})$", re.IGNORECASE)


def make_card(rank: int, suit: int) -> int:
    """The card integer of ``rank`` (0..12 = 2..A) and ``suit`` (0..3 = ♣ ♦ ♥ ♠)."""
    if not (0 <= rank < N_RANKS and 0 <= suit < N_SUITS):
        raise SimkitError(f"rank must be 0..12 and suit 0..3, got rank={rank}, suit={suit}")
    return N_SUITS * rank + suit


def rank_of(cards: npt.ArrayLike) -> np.ndarray:
    """Rank 0..12 (2..A) of each card."""
    return np.asarray(cards) >> 2


def suit_of(cards: npt.ArrayLike) -> np.ndarray:
    """Suit 0..3 (♣ ♦ ♥ ♠) of each card."""
    return np.asarray(cards) & 3


def _parse_token(token: str, position: int) -> int:
    match = _CARD_RE.match(token)
    if match is None:
        raise SimkitError(
            f"malformed card {token!r} at position {position}: expected a rank "
            f"(2-9, T or 10, J, Q, K, A) and a suit (s h d c or ♠ ♥ ♦ ♣), e.g. 'As', '10h', '♠Q'"
        )
    rank_text = match.group(1) or match.group(4)
    suit_text = match.group(2) or match.group(3)
    return make_card(_RANK_OF_TOKEN[rank_text.upper()], _SUIT_OF_TOKEN[suit_text.lower()])


def parse_cards(text: str | Iterable[str], *, decks: int = 1) -> np.ndarray:
    """Parse cards written in the common notations into an ``int8`` array.

    ``text`` is a string of whitespace- or comma-separated tokens, or an iterable of tokens.
    A token is a rank (2-9, T or 10, J, Q, K, A) and a suit (s h d c or ♠ ♥ ♦ ♣), in either
    order and any case: ``As``, ``10h``, ``♠Q``, ``7♦``.

    Raises :class:`~simkit.errors.SimkitError` (a ``ValueError``) naming the token and its
    (0-based) position when a token is malformed, and naming the card when it appears more
    often than ``decks`` decks allow (``decks=2`` for the two-deck game of 5 to 8 players).

    >>> parse_cards("As Kd 10h").tolist()
    [51, 45, 34]
    """
    if decks < 1:
        raise SimkitError(f"decks must be at least 1, got {decks}")
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    tokens = [t for t in tokens if t != ""]
    cards = np.array([_parse_token(t, i) for i, t in enumerate(tokens)], dtype=np.int8)
    counts = np.bincount(cards.astype(np.int64), minlength=DECK_SIZE)
    over = np.flatnonzero(counts > decks)
    if over.size:
        card = int(over[0])
        positions = [i for i, c in enumerate(cards.tolist()) if c == card]
        raise SimkitError(
            f"duplicate card {format_cards([card])} at positions {positions}: "
            f"{decks} deck(s) hold only {decks} of each card"
        )
    return cards


def format_cards(cards: npt.ArrayLike, *, ascii: bool = False) -> str:
    """Write cards as text, the inverse of :func:`parse_cards`.

    ``ascii=True`` writes suits as ``c d h s`` instead of ♣ ♦ ♥ ♠.
    """
    arr = np.asarray(cards).astype(np.int64).ravel()
    if arr.size and (arr.min() < 0 or arr.max() >= DECK_SIZE):
        bad = int(arr[(arr < 0) | (arr >= DECK_SIZE)][0])
        raise SimkitError(f"not a card integer: {bad} (cards are 0..51)")
    suits = SUIT_CHARS if ascii else SUIT_SYMBOLS
    return " ".join(RANK_CHARS[c >> 2] + suits[c & 3] for c in arr.tolist())


def as_card_rows(
    cards: npt.ArrayLike, width: int, what: str, *, decks: int | None = None, sort: bool = False
) -> tuple[np.ndarray, tuple]:
    """Check ``cards[..., width]`` (card integers) and flatten it for a kernel.

    Returns the contiguous ``int8`` rows ``(n, width)`` and the leading shape to restore.
    ``what`` names the caller in the error messages.  ``decks``: a row holding a card more
    often than that many decks do is an error naming the card (None: not checked).
    ``sort``: each row comes back sorted (card order, which is rank-major).
    """
    arr = np.asarray(cards)
    if arr.ndim == 0 or arr.shape[-1] != width:
        raise SimkitError(
            f"{what} expects cards with a last axis of {width} cards, got shape {arr.shape}"
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{what} expects integer card arrays, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= DECK_SIZE):
        raise SimkitError(f"{what}: card integers must be 0..51 (4*rank + suit)")
    rows = np.ascontiguousarray(arr.reshape(-1, width), dtype=np.int8)
    if sort:
        rows = np.ascontiguousarray(np.sort(rows, axis=1))
    if decks is not None:
        _check_repeats(rows if sort else np.sort(rows, axis=1), decks, what, arr.shape[:-1])
    return rows, arr.shape[:-1]


def _check_repeats(ordered: np.ndarray, decks: int, what: str, lead: tuple[int, ...]) -> None:
    """Raise ``ValueError`` naming the first card a row of ``ordered`` (each row sorted) holds
    more than ``decks`` times."""
    if decks >= ordered.shape[1]:
        return
    over = ordered[:, decks:] == ordered[:, :-decks]  # decks + 1 equal cards in a row
    if not over.any():
        return
    row, col = (int(i) for i in np.argwhere(over)[0])
    card = int(ordered[row, col])
    times = int((ordered[row] == card).sum())
    where = f" {tuple(int(i) for i in np.unravel_index(row, lead))}" if lead else ""
    raise ValueError(
        f"{what}: hand{where} holds {format_cards([card])} {times} times; "
        f"{decks} deck(s) hold only {decks} of each card"
    )


def full_deck(decks: int = 1) -> np.ndarray:
    """All cards of ``decks`` decks, in card order, as ``int8``."""
    return np.tile(np.arange(DECK_SIZE, dtype=np.int8), decks)
