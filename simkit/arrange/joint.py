"""The joint law of an opponent's three duns: a copula grid that prices scoops and majorities.

A split's chance of winning each dun comes from the win tables, one dun at a time; but a
scoop (打枪), being scooped and the majority match are joint events, and an opponent's three
duns are far from independent (a hand that holds a strong back often has a weak front).
Their dependence is kept here as the copula of the opponent population's duns: each dun of
each hand that played is mapped to its percentile ``U`` among the population's same dun
(uniform on the share of the population strictly below it to the share at or below it, so
that ties split evenly: ``U`` is exactly uniform), and the three percentiles are counted on a
grid of ``JOINT_CELLS``³ cells.

Against my dun with win chance ``w`` and lose chance ``l``, the opponent's dun loses when its
``U < w``, beats mine when ``U > 1 - l`` and ties between, so every joint event of the three
comparisons is a box of the copula: a scoop is ``P(U₀ < w₀, U₁ < w₁, U₂ < w₂)``, the cumulative
distribution at ``w``.  :func:`joint_cdfs` gives the cumulative distributions of ``U`` and of
``1 - U`` at the grid points; :func:`cdf3` and :func:`cdf2` read them between grid points
(trilinear: the copula's density is taken as uniform within a cell, a proper distribution, so
every chance read is monotone in its arguments, which the search's bounds need).  A uniform
grid is the independent copula, and reads exactly the products of the independent model.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simkit.arrange.classes import N_DUNS

#: Cells per axis of the copula grid.
JOINT_CELLS = 16


def dun_percentiles(ranks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``float64 (n, 3)``: each dun's percentile among the ``n`` hands' same dun.

    ``ranks``: ``(n, 3)`` dun ranks of the population.  A dun's percentile is drawn uniformly
    between the share of the population strictly below it and the share at or below it, so
    that it is exactly uniform on [0, 1) whatever the ties, and a dun of share ``w`` below and
    ``l`` above mine sits below ``w`` when it loses, above ``1 - l`` when it wins.
    """
    ranks = np.asarray(ranks)
    if ranks.ndim != 2 or ranks.shape[1] != N_DUNS or ranks.shape[0] < 1:
        raise ValueError(f"dun_percentiles needs ranks of shape (n >= 1, 3), got {ranks.shape}")
    n = ranks.shape[0]
    u = np.empty(ranks.shape, dtype=np.float64)
    jitter = rng.random(ranks.shape)
    for d in range(N_DUNS):
        order = np.sort(ranks[:, d])
        below = np.searchsorted(order, ranks[:, d], "left")
        at_most = np.searchsorted(order, ranks[:, d], "right")
        u[:, d] = (below + jitter[:, d] * (at_most - below)) / n
    return u


def joint_counts(u: np.ndarray, cells: int = JOINT_CELLS) -> np.ndarray:
    """``float64 (cells, cells, cells)``: how many of the percentiles ``u`` ``(n, 3)`` fall in
    each cell of the grid."""
    idx = np.minimum((np.asarray(u) * cells).astype(np.int64), cells - 1)
    flat = np.ravel_multi_index((idx[:, 0], idx[:, 1], idx[:, 2]), (cells,) * 3)
    return np.bincount(flat, minlength=cells**3).astype(np.float64).reshape((cells,) * 3)


def joint_cdfs(mass: np.ndarray) -> np.ndarray:
    """``float64 (2, G + 1, G + 1, G + 1)``: the cumulative distributions at the grid points
    of the copula whose cells hold ``mass`` ``(G, G, G)`` (any scale): ``[0][i, j, k]`` is
    ``P(U₀ < i/G, U₁ < j/G, U₂ < k/G)``, ``[1]`` the same of ``1 - U`` (the chance that all
    three duns sit above ``1 - i/G``, ...).  A uniform ``mass``: the independent copula."""
    mass = np.asarray(mass, dtype=np.float64)
    if mass.ndim != 3 or len(set(mass.shape)) != 1 or (mass < 0).any() or mass.sum() <= 0:
        raise ValueError(f"a copula grid must be a non-negative, non-empty cube, got {mass.shape}")
    g = mass.shape[0]
    out = np.zeros((2, g + 1, g + 1, g + 1))
    for side, cells in enumerate((mass, mass[::-1, ::-1, ::-1])):
        out[side, 1:, 1:, 1:] = cells.cumsum(0).cumsum(1).cumsum(2) / mass.sum()
    return out


@nb.njit(cache=True, inline="always")
def _cell(x, g):
    """The grid cell of ``x`` in [0, 1] on ``g`` cells and its position in it."""
    t = np.float64(x) * g
    if t <= 0.0:
        return 0, 0.0
    if t >= g:
        return g - 1, 1.0
    i = int(t)
    return i, t - i


@nb.njit(cache=True, inline="always")
def _lerp(a, b, f):
    """``a`` to ``b`` at ``f`` in [0, 1]: how the grid's corners are weighed."""
    return a * (1.0 - f) + b * f


@nb.njit(cache=True, inline="always")
def _trilinear(h, i, fx, j, fy, k, fz):
    """``h`` between its grid points: cell (i, j, k), positions (fx, fy, fz) in it."""
    c0 = _lerp(
        _lerp(h[i, j, k], h[i, j, k + 1], fz), _lerp(h[i, j + 1, k], h[i, j + 1, k + 1], fz), fy
    )
    c1 = _lerp(
        _lerp(h[i + 1, j, k], h[i + 1, j, k + 1], fz),
        _lerp(h[i + 1, j + 1, k], h[i + 1, j + 1, k + 1], fz),
        fy,
    )
    return _lerp(c0, c1, fx)


@nb.njit(cache=True, inline="always")
def cdf3(h, x, y, z):
    """The cumulative distribution ``h`` ``(G + 1,)*3`` (:func:`joint_cdfs`) at (x, y, z)."""
    g = h.shape[0] - 1
    i, fx = _cell(x, g)
    j, fy = _cell(y, g)
    k, fz = _cell(z, g)
    return _trilinear(h, i, fx, j, fy, k, fz)


@nb.njit(cache=True, inline="always")
def cdf3_and_pairs(h, x, y, z):
    """:func:`cdf3` at (x, y, z) and the sum of the three pairs' :func:`cdf2`, (x, y) + (x, z)
    + (y, z), to the last bit, the cells found once.

    A pair's distribution is the triple's with the third coordinate at 1: its cell is the last,
    at position 1, where the weight of the cell's lower corner is an exact 0 (the grid is
    finite and non-negative), so the interpolation reduces to :func:`cdf2`'s, operation for
    operation.  The majority of two duns out of three reads all four
    (:func:`~simkit.arrange.value.joint_chances`).
    """
    g = h.shape[0] - 1
    i, fx = _cell(x, g)
    j, fy = _cell(y, g)
    k, fz = _cell(z, g)
    triple = _trilinear(h, i, fx, j, fy, k, fz)
    # each pair on its face of the grid, its third coordinate at 1 (read at g): the corners
    # that the trilinear form weights by an exact 0 are left out, which changes no bit
    xy = _lerp(
        _lerp(h[i, j, g], h[i, j + 1, g], fy), _lerp(h[i + 1, j, g], h[i + 1, j + 1, g], fy), fx
    )
    xz = _lerp(
        _lerp(h[i, g, k], h[i, g, k + 1], fz), _lerp(h[i + 1, g, k], h[i + 1, g, k + 1], fz), fx
    )
    yz = _lerp(
        _lerp(h[g, j, k], h[g, j, k + 1], fz), _lerp(h[g, j + 1, k], h[g, j + 1, k + 1], fz), fy
    )
    pairs = xy + xz
    pairs += yz
    return triple, pairs


@nb.njit(cache=True, inline="always")
def cdf2(h, a, x, y):
    """The cumulative distribution of two duns (all but dun ``a`` of ``h``) at (x, y): the
    chance that both sit below, the third anywhere."""
    g = h.shape[0] - 1
    i, fx = _cell(x, g)
    j, fy = _cell(y, g)
    if a == 0:  # duns 1 and 2
        c0 = h[g, i, j] * (1.0 - fy) + h[g, i, j + 1] * fy
        c1 = h[g, i + 1, j] * (1.0 - fy) + h[g, i + 1, j + 1] * fy
    elif a == 1:  # duns 0 and 2
        c0 = h[i, g, j] * (1.0 - fy) + h[i, g, j + 1] * fy
        c1 = h[i + 1, g, j] * (1.0 - fy) + h[i + 1, g, j + 1] * fy
    else:  # duns 0 and 1
        c0 = h[i, j, g] * (1.0 - fy) + h[i, j + 1, g] * fy
        c1 = h[i + 1, j, g] * (1.0 - fy) + h[i + 1, j + 1, g] * fy
    return c0 * (1.0 - fx) + c1 * fx


def joint_of_population(ranks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The copula grid's counts ``(G, G, G)`` of a population's dun ranks ``(n, 3)``."""
    return joint_counts(dun_percentiles(ranks, rng))
