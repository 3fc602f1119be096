"""Cards as small integers, and the text notations at the edges.

A card is ``4 * rank + suit`` in an ``int8``: rank 0..12 stands for 2..A and suit 0..3 for
♣ ♦ ♥ ♠.  Inside simkit cards never exist as strings; :func:`parse_cards` and
:func:`format_cards` are the only doors between the two.

The decks beyond the plain one add integers after the 52, so that every one-deck card (and every
result over one or two plain decks) keeps its integer:

- the fifth suit (加一色), written ★ (``*`` in ASCII): the card of rank r is ``52 + r``
  (52..64); its suit is 4;
- the jokers (大小王, wild), written 🃏 (``JK`` in ASCII): 65 and 66.  They are alike in play;
  two integers let a hand hold both while each physical card stays one integer.  A joker has
  rank and suit -1.

Two plain decks repeat the integers 0..51 (a hand may hold a card twice).

>>> format_cards(parse_cards("As Kd 10h 9c ♠Q 7♦"))
'A♠ K♦ T♥ 9♣ Q♠ 7♦'
>>> parse_cards("A* ★2 JK 🃏").tolist()
[64, 52, 65, 66]
>>> format_cards([64, 65], ascii=True)
'A* JK'
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

FIFTH_SUIT = 4  # the suit index of 加一色
FIFTH_SUIT_BASE = DECK_SIZE  # the fifth-suit card of rank r is 52 + r
JOKER_CARDS = (65, 66)  # the two jokers
FIRST_JOKER = JOKER_CARDS[0]
N_CARD_INTS = FIRST_JOKER + len(JOKER_CARDS)  # 67: card integers are 0..66
JOKER_RANK = -1
JOKER_SUIT = -1

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
FIFTH_SUIT_CHAR = "*"
FIFTH_SUIT_SYMBOL = "★"
JOKER_TEXT = "JK"
JOKER_SYMBOL = "🃏"

_RANK_OF_TOKEN = {c: i for i, c in enumerate(RANK_CHARS)} | {"10": 8}
_SUIT_OF_TOKEN = {c: i for i, c in enumerate(SUIT_CHARS)} | {
    s: i for i, s in enumerate(SUIT_SYMBOLS)
}
# Also accept the white (outline) suit symbols people type.
_SUIT_OF_TOKEN |= {"♧": 0, "♢": 1, "♡": 2, "♤": 3}
_SUIT_OF_TOKEN |= {FIFTH_SUIT_CHAR: FIFTH_SUIT, FIFTH_SUIT_SYMBOL: FIFTH_SUIT, "☆": FIFTH_SUIT}
_JOKER_TOKENS = {"jk", "joker", "王", JOKER_SYMBOL}

_RANK_RE = r"(10|[2-9TJQKA])"
_SUIT_RE = r"([CDHS♣♦♥♠♧♢♡♤*★☆])"
_CARD_RE = re.compile(rf"^(?:{_RANK_RE}{_SUIT_RE}|{_SUIT_RE}{_RANK_RE})$", re.IGNORECASE)

# Rank and suit of every card integer (jokers -1), for the decks beyond the plain one.
CARD_RANKS = np.array(
    [c >> 2 for c in range(DECK_SIZE)] + list(range(N_RANKS)) + [JOKER_RANK] * 2, dtype=np.int8
)
CARD_SUITS = np.array(
    [c & 3 for c in range(DECK_SIZE)] + [FIFTH_SUIT] * N_RANKS + [JOKER_SUIT] * 2, dtype=np.int8
)


def make_card(rank: int, suit: int) -> int:
    """The card integer of ``rank`` (0..12 = 2..A) and ``suit`` (0..3 = ♣ ♦ ♥ ♠, 4 = ★)."""
    if not (0 <= rank < N_RANKS and 0 <= suit <= FIFTH_SUIT):
        raise SimkitError(f"rank must be 0..12 and suit 0..4, got rank={rank}, suit={suit}")
    if suit == FIFTH_SUIT:
        return FIFTH_SUIT_BASE + rank
    return N_SUITS * rank + suit


def is_joker(cards: npt.ArrayLike) -> np.ndarray:
    """Whether each card is a joker."""
    return np.asarray(cards) >= FIRST_JOKER


def rank_of(cards: npt.ArrayLike) -> np.ndarray:
    """Rank 0..12 (2..A) of each card (-1 for a joker)."""
    arr = np.asarray(cards)
    if arr.size == 0 or arr.max() < DECK_SIZE:
        return arr >> 2
    return CARD_RANKS[arr]


def suit_of(cards: npt.ArrayLike) -> np.ndarray:
    """Suit 0..3 (♣ ♦ ♥ ♠), 4 (★, the fifth suit) or -1 (a joker) of each card."""
    arr = np.asarray(cards)
    if arr.size == 0 or arr.max() < DECK_SIZE:
        return arr & 3
    return CARD_SUITS[arr]


def _parse_token(token: str, position: int) -> int:
    if token.lower() in _JOKER_TOKENS:
        return FIRST_JOKER
    match = _CARD_RE.match(token)
    if match is None:
        raise SimkitError(
            f"malformed card {token!r} at position {position}: expected a rank "
            f"(2-9, T or 10, J, Q, K, A) and a suit (s h d c or ♠ ♥ ♦ ♣, * or ★ for the fifth "
            f"suit), e.g. 'As', '10h', '♠Q', 'A*', or a joker 'JK' / '🃏'"
        )
    rank_text = match.group(1) or match.group(4)
    suit_text = match.group(2) or match.group(3)
    return make_card(_RANK_OF_TOKEN[rank_text.upper()], _SUIT_OF_TOKEN[suit_text.lower()])


def parse_cards(text: str | Iterable[str], *, decks: int = 1) -> np.ndarray:
    """Parse cards written in the common notations into an ``int8`` array.

    ``text`` is a string of whitespace- or comma-separated tokens, or an iterable of tokens.
    A token is a rank (2-9, T or 10, J, Q, K, A) and a suit (s h d c or ♠ ♥ ♦ ♣, ``*`` or ★
    for the fifth suit), in either order and any case: ``As``, ``10h``, ``♠Q``, ``7♦``, ``A*``;
    or a joker: ``JK``, ``joker``, ``王`` or 🃏 (the first joker written is 65, the second 66).

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
    jokers = np.flatnonzero(cards == FIRST_JOKER)
    if jokers.size > len(JOKER_CARDS):
        raise SimkitError(
            f"{jokers.size} jokers at positions {jokers.tolist()}: a pack holds at most "
            f"{len(JOKER_CARDS)}"
        )
    cards[jokers] = np.array(JOKER_CARDS[: jokers.size], dtype=np.int8)
    counts = np.bincount(cards[cards < FIRST_JOKER].astype(np.int64), minlength=DECK_SIZE)
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

    ``ascii=True`` writes suits as ``c d h s`` (``*`` for the fifth suit, ``JK`` for a joker)
    instead of ♣ ♦ ♥ ♠ (★, 🃏).
    """
    arr = np.asarray(cards).astype(np.int64).ravel()
    if arr.size and (arr.min() < 0 or arr.max() >= N_CARD_INTS):
        bad = int(arr[(arr < 0) | (arr >= N_CARD_INTS)][0])
        raise SimkitError(
            f"not a card integer: {bad} (cards are 0..51, 52..64 the fifth suit, 65-66 jokers)"
        )
    suits = (SUIT_CHARS + FIFTH_SUIT_CHAR) if ascii else (SUIT_SYMBOLS + FIFTH_SUIT_SYMBOL)
    joker = JOKER_TEXT if ascii else JOKER_SYMBOL
    return " ".join(
        joker if c >= FIRST_JOKER else RANK_CHARS[CARD_RANKS[c]] + suits[CARD_SUITS[c]]
        for c in arr.tolist()
    )


def as_card_rows(
    cards: npt.ArrayLike,
    width: int,
    what: str,
    *,
    decks: int | None = None,
    sort: bool = False,
    any_deck: bool = False,
) -> tuple[np.ndarray, tuple]:
    """Check ``cards[..., width]`` (card integers) and flatten it for a kernel.

    Returns the contiguous ``int8`` rows ``(n, width)`` and the leading shape to restore.
    ``what`` names the caller in the error messages.  ``decks``: a row holding a card more
    often than that many decks do is an error naming the card (None: not checked).
    ``sort``: each row comes back sorted (card order, which is rank-major within 0..51).
    ``any_deck``: the fifth suit and the jokers (52..66) are accepted too; otherwise cards are
    0..51.
    """
    rows, lead, _ = card_rows(cards, width, what, decks=decks, sort=sort, any_deck=any_deck)
    return rows, lead


def card_rows(
    cards: npt.ArrayLike,
    width: int,
    what: str,
    *,
    decks: int | None = None,
    sort: bool = False,
    any_deck: bool = False,
) -> tuple[np.ndarray, tuple, bool]:
    """:func:`as_card_rows`, and whether any card is beyond the 52 (a fifth-suit card or a
    joker), found in the same pass that checks the range."""
    arr = np.asarray(cards)
    if arr.ndim == 0 or arr.shape[-1] != width:
        raise SimkitError(
            f"{what} expects cards with a last axis of {width} cards, got shape {arr.shape}"
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{what} expects integer card arrays, got dtype {arr.dtype}")
    limit = N_CARD_INTS if any_deck else DECK_SIZE
    top = int(arr.max()) if arr.size else 0
    beyond = top >= DECK_SIZE
    if arr.size and (arr.min() < 0 or top >= limit):
        raise SimkitError(
            f"{what}: card integers must be 0..51 (4*rank + suit)"
            + (", 52..64 (the fifth suit) or 65-66 (jokers)" if any_deck else "")
        )
    rows = np.ascontiguousarray(arr.reshape(-1, width), dtype=np.int8)
    if sort:
        rows = np.ascontiguousarray(np.sort(rows, axis=1))
    if decks is not None:
        _check_repeats(rows if sort else np.sort(rows, axis=1), decks, what, arr.shape[:-1])
        if any_deck:
            _check_jokers(rows, what)
    return rows, arr.shape[:-1], beyond


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
    raise SimkitError(
        f"{what}: hand{where} holds {format_cards([card])} {times} times; "
        f"{decks} deck(s) hold only {decks} of each card"
    )


def check_plain_deck(rows: np.ndarray, what: str) -> None:
    """Refuse cards outside one plain deck (0-51), for a kernel that indexes by the card:
    ``what`` says who needs them (``"card masks need"``)."""
    if rows.size and (rows.min() < 0 or rows.max() >= DECK_SIZE):
        raise ValueError(f"{what} cards of one plain deck (0-51)")


def _check_jokers(rows: np.ndarray, what: str) -> None:
    """A pack holds each joker once, whatever the number of decks."""
    for joker in JOKER_CARDS:
        twice = np.flatnonzero((rows == joker).sum(axis=1) > 1)
        if twice.size:
            raise SimkitError(f"{what}: hand {int(twice[0])} holds joker {joker} twice")


def full_deck(decks: int = 1) -> np.ndarray:
    """All cards of ``decks`` decks, in card order, as ``int8``."""
    return np.tile(np.arange(DECK_SIZE, dtype=np.int8), decks)


def pack_cards(decks: int = 1, extra_suit: bool = False, jokers: int = 0) -> np.ndarray:
    """Every physical card of a pack, as ``int8`` in card order: ``decks`` copies of the 52
    (and of the 13 fifth-suit cards with ``extra_suit``), then ``jokers`` jokers (one each)."""
    per_deck = np.arange(FIFTH_SUIT_BASE + (N_RANKS if extra_suit else 0), dtype=np.int8)
    return np.concatenate(
        [np.repeat(per_deck, decks), np.array(JOKER_CARDS[:jokers], dtype=np.int8)]
    )
