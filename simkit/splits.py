"""The constant tables of how 13 cards split into a 3-card front and two 5-card duns.

Positions are indices 0..12 into a (sorted) 13-card hand.  Every split is named by three
subset ids: a front id into :data:`THREE_SUBSETS` (C(13,3) = 286 rows) and a middle and a back
id into :data:`FIVE_SUBSETS` (C(13,5) = 1,287 rows), so a solver ranks each subset once per
hand and then reads split ranks by gathering.

- :data:`SPLIT_IDS` ``int16 (72072, 3)``: every ordered split (front, middle, back),
  C(13,3)·C(10,5) = 72,072, in the order back (C(13,5)) → middle (C(8,5)) → front.
- :data:`DISTINCT_IDS` ``int16 (36036, 3)``: (front, five A, five B) with the two 5-card duns
  unordered: only the stronger of A and B can be the back, so half the ordered splits are the
  same split seen twice (Hankin 2015).
- :data:`BACK_REST` ``int16 (1287, 56, 2)``: for back id ``b``, the 56 (middle id, front id)
  pairs that the other 8 cards allow.
- :data:`BACK_MIDDLE`, :data:`BACK_FRONT` ``uint16 (1287, 56)``: the same middle and front ids,
  each contiguous and unsigned (a kernel indexing with them needs no negative-index check, so
  its loops vectorize; 16 bits keep both tables in L2).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

HAND = 13
N_FIVE = 1287  # C(13, 5): 5-card subsets of a hand
N_THREE = 286  # C(13, 3): 3-card subsets of a hand
N_SPLITS = 72072
N_DISTINCT = 36036


def _subsets(k: int) -> tuple[np.ndarray, dict[tuple[int, ...], int]]:
    rows = list(combinations(range(HAND), k))
    return np.array(rows, dtype=np.int8), {r: i for i, r in enumerate(rows)}


THREE_SUBSETS, _THREE_ID = _subsets(3)
FIVE_SUBSETS, _FIVE_ID = _subsets(5)


def _build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    split_ids = np.empty((N_SPLITS, 3), dtype=np.int16)
    back_rest = np.empty((len(FIVE_SUBSETS), 56, 2), dtype=np.int16)
    i = 0
    for b, back in enumerate(map(tuple, FIVE_SUBSETS.tolist())):
        rest = [p for p in range(HAND) if p not in back]
        for j, middle in enumerate(combinations(rest, 5)):
            front = tuple(p for p in rest if p not in middle)
            m, f = _FIVE_ID[middle], _THREE_ID[front]
            split_ids[i] = (f, m, b)
            back_rest[b, j] = (m, f)
            i += 1
    distinct = np.empty((N_DISTINCT, 3), dtype=np.int16)
    i = 0
    for f, front in enumerate(map(tuple, THREE_SUBSETS.tolist())):
        rest = [p for p in range(HAND) if p not in front]
        # Each unordered pair of 5-sets once: five A holds the lowest remaining position.
        for tail in combinations(rest[1:], 4):
            a = (rest[0], *tail)
            b_set = tuple(p for p in rest if p not in a)
            distinct[i] = (f, _FIVE_ID[a], _FIVE_ID[b_set])
            i += 1
    return split_ids, distinct, back_rest


SPLIT_IDS, DISTINCT_IDS, BACK_REST = _build()
BACK_MIDDLE = np.ascontiguousarray(BACK_REST[:, :, 0], dtype=np.uint16)
BACK_FRONT = np.ascontiguousarray(BACK_REST[:, :, 1], dtype=np.uint16)
#: For each hand position, the 5-card and 3-card subsets that hold it ``(13, 495)`` and
#: ``(13, 66)``: a hand holding one 马牌 marks only those.
FIVE_WITH = np.array([np.flatnonzero((FIVE_SUBSETS == i).any(axis=1)) for i in range(HAND)])
THREE_WITH = np.array([np.flatnonzero((THREE_SUBSETS == i).any(axis=1)) for i in range(HAND)])
#: Each 5-card subset's hand positions as a 13-bit mask ``uint16 (1287,)``.
FIVE_MASKS = (np.int64(1) << FIVE_SUBSETS.astype(np.int64)).sum(axis=1).astype(np.uint16)
for _table in (
    THREE_SUBSETS,
    FIVE_SUBSETS,
    FIVE_MASKS,
    FIVE_WITH,
    THREE_WITH,
    SPLIT_IDS,
    DISTINCT_IDS,
    BACK_REST,
    BACK_MIDDLE,
    BACK_FRONT,
):
    _table.setflags(write=False)


def split_positions(split_ids: np.ndarray) -> np.ndarray:
    """Hand positions ``int8 (..., 13)`` [front 3 | middle 5 | back 5] of ``(..., 3)`` split ids."""
    ids = np.asarray(split_ids)
    return np.concatenate(
        [THREE_SUBSETS[ids[..., 0]], FIVE_SUBSETS[ids[..., 1]], FIVE_SUBSETS[ids[..., 2]]],
        axis=-1,
    )
