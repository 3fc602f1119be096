"""Skill against luck and what a rule is worth: paired estimates on shared deals.

The report's "How much skill matters" and "What each rule is worth" figures play the same deals
twice (two strategies with their seats swapped, a rule on and off), so each figure here is a
paired estimate with the deal as the unit:

* :func:`mean_ci`, :func:`sd_ci`, :func:`sd_change`: a mean, an SD and the change of an SD
  from per-deal values, with 95% CIs (the SDs by the delta method);
* :func:`games_to_lead`, :func:`games_to_lead_ci`: the games until the better of two players
  is ahead with 95% probability, N = (1.645 SD / edge)²;
* :func:`duel`: two strategies at one table, each deal played twice with their seats swapped;
* :func:`seat_settings`, :func:`best_response`, :func:`perfect_information`: the most a seat
  gains over its own setting when it sees the other seats' set hands (every legal split of its
  cards, and its best special, scored against them);
* :func:`fixed_play_total`: a game's settings re-scored with one rule switched off
  (:func:`simkit.variants.transforms.without`), today's play kept.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simkit.arrange import legal_splits
from simkit.errors import SimkitError
from simkit.score import score
from simkit.specials import best_special, detect_specials
from simkit.splits import split_positions
from simkit.summary import Z95
from simkit.variants import Variant, has_banker

#: One-sided 95% normal quantile: the sum of N games is ahead with 95% probability when
#: N·edge ≥ 1.645·SD·√N.
Z_LEAD = 1.644854
#: The score component (:data:`simkit.score.COMPONENTS` or a phase's payment) that carries
#: each rule's points (:func:`simkit.variants.transforms.rules_of`).
COMPONENT_OF = {
    "transform:scoop": "scoops",
    "transform:home-run": "home_run",
    "transform:t-formula": "t_formula",
    "transform:horse": "horse",
    "specials": "specials",
    "phase:exchange": "exchange",
    "phase:pass": "pass",
    "phase:bidding": "bidding",
    "phase:negotiation": "negotiation",
    "phase:surrender": "surrender",
}
#: The payments of the phases a game may carry beside the scorer's components.
PHASE_PAYMENTS = ("exchange", "bidding", "negotiation", "surrender")


# --------------------------------------------------------------------------- paired estimates


def mean_ci(x: np.ndarray) -> dict[str, float]:
    """Mean of per-deal values with a 95% CI: ``{"mean", "se", "ci_low", "ci_high"}``."""
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(x.size))
    return {"mean": m, "se": se, "ci_low": m - Z95 * se, "ci_high": m + Z95 * se}


def sd_ci(first: np.ndarray, second: np.ndarray) -> dict[str, float]:
    """SD of a score from per-deal first and second moments (``first[g]``, ``second[g]``: the
    mean and mean square over the deal's seats or games), with a 95% CI: ``{"sd", "sd_se",
    "sd_ci_low", "sd_ci_high"}``.  SD = √(E[x²] − E[x]²); its SE by the delta method with the
    deal as the unit (the influence of deal g is (second[g] − E[x²]) / 2SD −
    E[x]·(first[g] − E[x]) / SD)."""
    m1, m2 = float(first.mean()), float(second.mean())
    sd = math.sqrt(max(m2 - m1 * m1, 0.0))
    if sd == 0.0:
        return {"sd": 0.0, "sd_se": 0.0, "sd_ci_low": 0.0, "sd_ci_high": 0.0}
    influence = (second - m2) / (2.0 * sd) - m1 * (first - m1) / sd
    se = float(influence.std(ddof=1) / math.sqrt(first.size))
    z = Z95
    return {"sd": sd, "sd_se": se, "sd_ci_low": sd - z * se, "sd_ci_high": sd + z * se}


def sd_change(
    first_a: np.ndarray, second_a: np.ndarray, first_b: np.ndarray, second_b: np.ndarray
) -> dict[str, float]:
    """SD_b − SD_a of a score from paired per-deal first and second moments of games a and b
    (as :func:`sd_ci` takes them), with a 95% CI: the
    delta method on the difference of the two SDs' per-deal influences."""

    def influence(first: np.ndarray, second: np.ndarray) -> tuple[float, np.ndarray]:
        m1, m2 = float(first.mean()), float(second.mean())
        sd = math.sqrt(max(m2 - m1 * m1, 0.0))
        if sd == 0.0:
            return 0.0, np.zeros_like(first)
        return sd, (second - m2) / (2.0 * sd) - m1 * (first - m1) / sd

    sd_a, inf_a = influence(first_a, second_a)
    sd_b, inf_b = influence(first_b, second_b)
    se = float((inf_b - inf_a).std(ddof=1) / math.sqrt(first_a.size))
    d = sd_b - sd_a
    return {"mean": d, "se": se, "ci_low": d - Z95 * se, "ci_high": d + Z95 * se}


def games_to_lead(edge: float, sd: float, z: float = Z_LEAD) -> float:
    """Games N until a player whose score leads another's by ``edge`` a game (SD ``sd`` of
    one game's difference) is ahead with probability Φ(z): N = (z·sd/edge)².  ``inf`` where
    the edge is 0 or below (never, by this rule); 0 where ``sd`` is 0 and the edge positive.
    Raises :class:`~simkit.errors.SimkitError` for a negative or non-finite ``sd``."""
    if not math.isfinite(sd) or sd < 0:
        raise SimkitError(f"games_to_lead: sd must be finite and ≥ 0, got {sd}")
    if not edge > 0:
        return math.inf
    return (z * sd / edge) ** 2


def games_to_lead_ci(
    edge_low: float, edge_high: float, sd_low: float, sd_high: float
) -> tuple[float, float]:
    """A 95% interval of :func:`games_to_lead` from the intervals of the edge and the SD
    (N falls with the edge and rises with the SD): ``(N(edge_high, sd_low),
    N(edge_low, sd_high))``, the upper end ``inf`` where ``edge_low`` ≤ 0."""
    return (
        games_to_lead(edge_high, max(sd_low, 0.0)),
        games_to_lead(edge_low, max(sd_high, 0.0)),
    )


# --------------------------------------------------------------------------- duels


def duel_seats(variant: Variant) -> tuple[int, int]:
    """The two seats a duel's strategies take: players 1 and 2 under a banker, else 0 and 1."""
    return (1, 2) if has_banker(variant) else (0, 1)


def _mixed(
    played: dict[str, tuple[np.ndarray, np.ndarray]], default: str, seats: dict[int, str]
) -> tuple[np.ndarray, np.ndarray]:
    """The default's settings with ``seats[s]``'s settings in seat ``s``."""
    cards, declared = (a.copy() for a in played[default])
    for seat, name in seats.items():
        cards[:, seat] = played[name][0][:, seat]
        declared[:, seat] = played[name][1][:, seat]
    return cards, declared


def duel(
    variant: Variant,
    played: dict[str, tuple[np.ndarray, np.ndarray]],
    default: str,
    a: str,
    b: str,
) -> dict[str, Any]:
    """A against B (module docstring): edge, SD and games to lead, with CIs.  ``played[name]``:
    the ``(cards, declared)`` name set on every deal."""
    s, t = duel_seats(variant)
    cards, declared = _mixed(played, default, {s: a, t: b})
    one = np.asarray(score(cards, variant, declared=declared))
    cards, declared = _mixed(played, default, {s: b, t: a})
    two = np.asarray(score(cards, variant, declared=declared))
    d1 = one[:, s] - one[:, t]
    d2 = two[:, t] - two[:, s]
    edge = mean_ci((d1 + d2) / 2)
    spread = sd_ci((d1 + d2) / 2, (d1 * d1 + d2 * d2) / 2)
    n = games_to_lead(abs(edge["mean"]), spread["sd"])
    low, high = (
        games_to_lead_ci(edge["ci_low"], edge["ci_high"], spread["sd_ci_low"], spread["sd_ci_high"])
        if edge["mean"] >= 0
        else games_to_lead_ci(
            -edge["ci_high"], -edge["ci_low"], spread["sd_ci_low"], spread["sd_ci_high"]
        )
    )
    return {
        "variant": variant.name,
        "a": a,
        "b": b,
        "seats": f"{s},{t}",
        "n_games": int(d1.size),
        "edge": edge["mean"],
        "edge_se": edge["se"],
        "edge_ci_low": edge["ci_low"],
        "edge_ci_high": edge["ci_high"],
        "sd": spread["sd"],
        "sd_se": spread["sd_se"],
        "better": a if edge["mean"] >= 0 else b,
        "n_lead": n,
        "n_lead_ci_low": low,
        "n_lead_ci_high": high,
    }


# --------------------------------------------------------------------------- perfect information


def seat_settings(hand: np.ndarray, variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """Every setting a seat may make of ``hand`` (13 card ints): each legal split as arranged
    cards ``int8 (c, 13)`` (front, middle, back) declaring nothing, then each split again
    declaring the hand's best special where it qualifies; and the special each declares
    ``int8 (c,)`` (-1 for none)."""
    hand = np.sort(np.asarray(hand)).astype(np.int8)
    ids, _ = legal_splits(hand, variant)
    cards = hand[split_positions(ids).astype(np.int64)].astype(np.int8)
    declared = np.full(len(cards), -1, dtype=np.int8)
    best = (
        int(best_special(detect_specials(hand[None], variant))[0]) if len(variant.specials) else -1
    )
    if best >= 0:
        cards = np.concatenate([cards, cards[:1]])
        declared = np.concatenate([declared, np.array([best], dtype=np.int8)])
    return cards, declared


def best_response(
    cards: np.ndarray, declared: np.ndarray, variant: Variant, seat: int
) -> tuple[float, np.ndarray, np.ndarray]:
    """The best ``seat`` can score in one game whose other seats are set as in ``cards``
    ``(p, 13)`` / ``declared`` ``(p,)``, over :func:`seat_settings` of its cards:
    ``(points, its cards (13,), its declared special)``."""
    options, decl = seat_settings(cards[seat], variant)
    games = np.repeat(cards[None], len(options), axis=0)
    games[:, seat] = options
    declares = np.repeat(declared[None], len(options), axis=0)
    declares[:, seat] = decl
    points = np.asarray(score(games, variant, declared=declares))[:, seat]
    k = int(np.argmax(points))
    return float(points[k]), options[k], decl[k]


def perfect_information(
    variant: Variant, cards: np.ndarray, declared: np.ndarray, seat: int
) -> dict[str, Any]:
    """The perfect-information bound of ``seat`` on the games ``cards`` ``(n, p, 13)`` /
    ``declared`` ``(n, p)`` (set by the default): mean of best − own with its 95% CI, and the
    share of deals where the best beats the own setting.  Raises
    :class:`~simkit.errors.SimkitError` if a deal's best falls below the own score (the
    search missed the default's setting)."""
    own = np.asarray(score(cards, variant, declared=declared))[:, seat]
    best = np.array(
        [best_response(c, d, variant, seat)[0] for c, d in zip(cards, declared, strict=True)]
    )
    if np.any(best < own - 1e-9):
        raise SimkitError(f"{variant.name}: the best setting scored below the default's own")
    gain = mean_ci(best - own)
    return {
        "variant": variant.name,
        "seat": ("banker" if seat == 0 else "player") if has_banker(variant) else "any",
        "n_deals": int(own.size),
        "own": float(own.mean()),
        "bound": gain["mean"],
        "bound_se": gain["se"],
        "bound_ci_low": gain["ci_low"],
        "bound_ci_high": gain["ci_high"],
        "share_better": float(np.mean(best > own + 1e-9)),
    }


# --------------------------------------------------------------------------- rule worth


def component_of(rule: str) -> str:
    """The component carrying ``rule``'s points (a single special's: ``specials``)."""
    return "specials" if rule.startswith("special:") else COMPONENT_OF[rule]


def fixed_play_total(base: Variant, off: Variant, rule: str, game: dict[str, Any]) -> np.ndarray:
    """The base game's settings re-scored under ``off`` (a removed special's declarations
    dropped: the hand plays its set cards), with the phases' payments of the base game that
    ``off`` still plays added: float ``(n, p)``."""
    declared = np.asarray(game["declared"]).astype(np.int8, copy=True)
    if rule.startswith("special") and len(base.specials):
        kept = {r.id: i for i, r in enumerate(off.specials.rules)}
        remap = np.array([kept.get(r.id, -1) for r in base.specials.rules] + [-1], dtype=np.int8)
        declared = remap[declared]  # -1 indexes the trailing -1
    total = np.asarray(score(game["cards"], off, declared=declared), dtype=np.float64)
    for name in PHASE_PAYMENTS:
        if name in game["components"] and COMPONENT_OF.get(rule) != name:
            total = total + game["components"][name]
    return total
