"""The best ways to set one hand, as text: what ``simkit arrange`` prints.

Two numbers per split.  ``score`` is the split's expected points per game for this seat under
the variant's full rules, against opponents playing the default strategy: measured by seeded
rollouts on random deals of the other cards, with its standard error
(:func:`simkit.setting_scores.expected_scores`; the variant's phases are not played, and the
text says which it has).  ``model`` is the default strategy's own value of the split
(:func:`simkit.arrange.split_values`: its win tables, duns priced as independent), the number
it ranks splits by, which is not on the score's scale.  The splits shown are the ``top`` the
model rates highest, best score first.  ``rollouts=N`` adds an independent rollout estimate on
N deals of the ``seed`` stream, with its 95% CI.

>>> lines = describe_splits(
...     "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s", "western-2-4", 2, top=1,
...     max_deals=4000, cache=False)
>>> for line in lines:
...     print(line)
2♥ 3♥ 4♦ 5♣ 7♠ 9♣ 9♦ 9♥ T♠ J♠ Q♠ K♠ A♠  (western-2-4, 2 players, 19267 legal splits)
score: this seat's expected points per game under western-2-4's full rules, on 4,000 random
       deals of the other cards to 1 opponent playing expected-score-rerank (± standard error);
       phases: none in this variant
model: expected-score-rerank's own value of the split (win tables, duns priced as
       independent): what it ranks splits by, not the expected score
 1. score  +... ± 0.0...   model  +...
      front  9♣ 9♦ 9♥         TRIPS 9
      middle 2♥ 3♥ 4♦ 5♣ A♠   STRAIGHT 5
      back   7♠ T♠ J♠ Q♠ K♠   FLUSH K-Q-J-T-7
special hands: none
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simkit.errors import SimkitError

DEFAULT_TOP = 5
Z95 = 1.959963984540054


@dataclass(frozen=True)
class BestSplits:
    """The splits of one hand that :func:`describe_splits` shows, with their numbers.

    ``settings``: int8 ``(k, 13)`` [front 3 | middle 5 | back 5], best ``score`` first (the
    model's order where no score is measured); ``ranks``: int32 ``(k, 3)`` their dun ranks;
    ``model``: float64 ``(k,)``, the default strategy's own value of each (what it ranks
    splits by, not on the score's scale); ``score``, ``score_se``: float64 ``(k,)``, the
    seat's expected points per game under the full rules and its standard error
    (:func:`simkit.setting_scores.expected_scores`, on ``deals`` deals; None at 5-8 players).
    ``qualifies``: indices into ``variant.specials.rules`` of the specials the hand qualifies
    for; ``declares``: the one the strategy declares (-1: none); ``declaring``: the special
    scored as declared (``declares``, else the best the hand qualifies for; -1: none), whose
    ``declaring_score`` and ``declaring_se`` these are.  ``best_model``: the largest model
    value over all legal splits; ``legal``: how many legal splits the hand has; ``own``:
    int8 ``(13,)``, the strategy's own setting (declaring scores it with these cards).
    """

    cards: np.ndarray
    variant: Any
    n_players: int
    seat: str
    legal: int
    settings: np.ndarray
    ranks: np.ndarray
    model: np.ndarray
    score: np.ndarray | None
    score_se: np.ndarray | None
    deals: int
    qualifies: tuple[int, ...]
    declares: int
    declaring: int
    declaring_score: float | None
    declaring_se: float | None
    best_model: float
    own: np.ndarray

    def rows(self) -> list[dict[str, Any]]:
        """One record per split shown: its duns as text, model value, score and SE."""
        from simkit.cards import format_cards

        out = []
        for k, setting in enumerate(self.settings):
            out.append(
                {
                    "front": format_cards(setting[:3]),
                    "middle": format_cards(setting[3:8]),
                    "back": format_cards(setting[8:]),
                    "model": float(self.model[k]),
                    "score": None if self.score is None else float(self.score[k]),
                    "score_se": None if self.score_se is None else float(self.score_se[k]),
                }
            )
        return out


def _hand_cards(hand: str | Iterable[str] | npt.ArrayLike) -> np.ndarray:
    from simkit.cards import format_cards, parse_cards

    if isinstance(hand, str):
        cards = parse_cards(hand)
    else:
        given = np.asarray(list(hand) if isinstance(hand, Iterable) else hand)
        cards = parse_cards(given.tolist()) if given.dtype.kind in "UO" else given.astype(np.int8)
    if cards.shape != (13,):
        raise SimkitError(f"a hand has 13 cards, got {cards.size}: {format_cards(cards)!r}")
    return np.sort(cards)


def decision_keys(ranks: npt.ArrayLike) -> np.ndarray:
    """What a split decides, per dun: its category and the ranks that make it, kickers
    dropped, as ``int64`` of the shape of ``ranks``.

    A dun rank's kicker digits come most significant first (:mod:`simkit.evaluate`); the
    made part is none of them for a high card or a flush (its cards are all side cards: which
    go where is a kicker choice), the first digit for a pair, trips or quads, the first two
    for two pair and a full house; a straight, straight flush or five of a kind has no
    kickers and keeps its whole rank.  Splits with equal keys in all three duns differ only
    in which side cards go where.
    """
    from simkit.evaluate import CATEGORY_SHIFT, KICKER_BASE, KICKER_DIGITS, Category

    r = np.asarray(ranks, dtype=np.int64)
    category = r >> CATEGORY_SHIFT
    made = np.ones_like(r)
    made[(category == Category.HIGH_CARD) | (category == Category.FLUSH)] = 0
    made[(category == Category.TWO_PAIR) | (category == Category.FULL_HOUSE)] = 2
    made[category >= Category.STRAIGHT_FLUSH] = KICKER_DIGITS
    made[category == Category.STRAIGHT] = KICKER_DIGITS
    place = np.asarray(KICKER_BASE, dtype=np.int64) ** (KICKER_DIGITS - made)
    return (r - (r & ((1 << CATEGORY_SHIFT) - 1)) % place).astype(np.int64)


def best_splits(
    hand: str | Iterable[str] | npt.ArrayLike,
    variant: Any = None,
    n_players: int = 4,
    top: int = DEFAULT_TOP,
    *,
    seat: str = "player",
    target_se: float | None = None,
    max_deals: int | None = None,
    cache: bool = True,
    progress: Callable[[int, float], None] | None = None,
) -> BestSplits:
    """The numbers :func:`describe_splits` prints, as arrays (see :class:`BestSplits`).

    The splits are the ``top`` the default strategy's model rates highest, one per decision
    (splits that differ only in kickers or suits, :func:`decision_keys`, show the one the
    model rates best), plus declaring where the hand qualifies; each is scored under the
    full rules by :func:`simkit.setting_scores.expected_scores` (``seat``, ``target_se``,
    ``max_deals``, ``cache``, ``progress``: its arguments, None its defaults; 2-4 players).

    >>> b = best_splits("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s", "western-2-4", 2, top=2,
    ...                 max_deals=4000, cache=False)
    >>> b.settings.shape, b.deals, bool(b.score[0] >= b.score[1]), b.declaring
    ((2, 13), 4000, True, -1)
    """
    from simkit.arrange import arrange, as_strategy, horse_copies, legal_splits, split_values
    from simkit.setting_scores import MAX_DEALS, OPPONENTS, TARGET_SE, expected_scores
    from simkit.specials import best_special, detect_specials
    from simkit.splits import split_positions
    from simkit.variants import resolve_variant

    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise SimkitError(f"top must be at least 1, got {top}")
    v = resolve_variant(variant)
    cards = _hand_cards(hand)
    strategy = as_strategy(OPPONENTS)
    solver = strategy.hand_solver(cards, v, n_players)  # type: ignore[attr-defined]
    ids, ranks = legal_splits(cards, v)
    arranged = cards[split_positions(ids).astype(np.int64)]
    horse = horse_copies(arranged, solver.horse_card) if solver.horse_card >= 0 else None
    values = split_values(ranks, solver, horse)
    order = np.lexsort((-ranks[:, 0], -ranks[:, 1], -ranks[:, 2], -values))
    decisions = decision_keys(ranks)
    seen: set[tuple[int, int, int]] = set()
    shown: list[int] = []
    for i in order.tolist():
        key = (int(decisions[i, 0]), int(decisions[i, 1]), int(decisions[i, 2]))
        if key in seen:  # the same made hands with other kickers or suits: a row above
            continue
        seen.add(key)
        shown.append(i)
        if len(shown) == top:
            break
    mask = int(detect_specials(cards, v))
    qualifies = tuple(i for i in range(len(v.specials.rules)) if mask >> i & 1)
    own, declared = arrange(cards, v, strategy, n_players=n_players)
    d = int(declared)
    decl = (
        d if d >= 0 else int(best_special(np.array([mask], dtype=np.uint32))[0])
    )  # declaring, if it qualifies
    candidates = np.concatenate([arranged[shown]] + ([own[None]] if decl >= 0 else []))
    cand_decl = [-1] * len(shown) + ([decl] if decl >= 0 else [])
    score = score_se = None
    decl_score = decl_se = None
    deals = 0
    picked = np.array(shown)
    if 2 <= n_players <= 4:
        found = expected_scores(
            cards,
            candidates,
            v,
            n_players,
            seat=seat,
            declared=cand_decl,
            target_se=TARGET_SE if target_se is None else target_se,
            max_deals=MAX_DEALS if max_deals is None else max_deals,
            cache=cache,
            progress=progress,
        )
        deals = found.deals
        # best score first (the model's order among equal scores)
        by_score = np.argsort(-found.mean[: len(shown)], kind="stable")
        picked = picked[by_score]
        score, score_se = found.mean[by_score], found.se[by_score]
        if decl >= 0:
            decl_score, decl_se = float(found.mean[-1]), float(found.se[-1])
    return BestSplits(
        cards=cards,
        variant=v,
        n_players=n_players,
        seat=seat,
        legal=len(ids),
        settings=arranged[picked].astype(np.int8),
        ranks=ranks[picked],
        model=values[picked],
        score=score,
        score_se=score_se,
        deals=deals,
        qualifies=qualifies,
        declares=d,
        declaring=decl,
        declaring_score=decl_score,
        declaring_se=decl_se,
        best_model=float(values[order[0]]),
        own=np.asarray(own, dtype=np.int8),
    )


def _rollout_text(mean: float, se: float) -> str:
    """A rollout estimate with its 95% CI."""
    return f"rollouts {mean:+.3f} (95% CI {mean - Z95 * se:+.3f} to {mean + Z95 * se:+.3f})"


def _rollout_lines(
    b: BestSplits, v: Any, n_players: int, rollouts: int, seed: int, seat: str
) -> list[str]:
    """Each shown split's (and declaring's, where the hand qualifies) rollout mean and 95%
    CI against the default's opponents, as :func:`describe_splits` prints it."""
    from simkit.regret import rollout_values
    from simkit.setting_scores import OPPONENTS

    declaring = [b.own[None]] if b.declaring >= 0 else []
    mean, se = rollout_values(
        b.cards,
        np.concatenate([b.settings, *declaring]),
        v,
        n_players,
        rollouts=rollouts,
        seed=seed,
        seat=seat,
        opponents=OPPONENTS,
        declared=[-1] * len(b.settings) + ([b.declaring] if b.declaring >= 0 else []),
    )
    return [_rollout_text(float(m), float(s)) for m, s in zip(mean, se, strict=True)]


def _split_lines(b: BestSplits, measured: list[str]) -> list[str]:
    """:func:`describe_splits`' lines of each split shown: its scores, then its three duns."""
    from simkit.cards import format_cards
    from simkit.evaluate import describe_rank

    lines: list[str] = []
    for k, setting in enumerate(b.settings):
        head = f"{k + 1:>2}. "
        if b.score is not None and b.score_se is not None:
            head += f"score {b.score[k]:+7.3f} ± {b.score_se[k]:.3f}   "
        head += f"model {b.model[k]:+7.3f}"
        lines.append(head + (f"   {measured[k]}" if measured else ""))
        duns = [setting[:3], setting[3:8], setting[8:]]
        for label, dun, rank in zip(("front ", "middle", "back  "), duns, b.ranks[k], strict=True):
            lines.append(f"      {label} {format_cards(dun):<16} {describe_rank(int(rank))}")
    return lines


def _special_lines(b: BestSplits, specials: Any, measured: list[str]) -> list[str]:
    """:func:`describe_splits`' lines of the special hands the hand qualifies for, what the
    default declares and what declaring scores."""
    from simkit.setting_scores import OPPONENTS

    lines: list[str] = []
    if b.qualifies:
        names = ", ".join(
            f"{specials[i].name} ({specials[i].id}, pays {specials[i].payout:g} a player)"
            for i in b.qualifies
        )
        lines.append(f"special hands: {names}")
        lines.append(
            f"{OPPONENTS} declares "
            + (specials[b.declares].name if b.declares >= 0 else "nothing")
            + f" (best normal model {b.best_model:+.3f})"
        )
        text = f"declaring {specials[b.declaring].name}:"
        if b.declaring_score is not None and b.declaring_se is not None:
            text += f" score {b.declaring_score:+7.3f} ± {b.declaring_se:.3f}"
        if measured:
            text += f"   {measured[-1]}"
        if b.declaring_score is not None or measured:
            lines.append(text)
    else:
        lines.append("special hands: none")
    return lines


def describe_splits(
    hand: str | Iterable[str] | npt.ArrayLike,
    variant: Any = None,
    n_players: int = 4,
    top: int = DEFAULT_TOP,
    *,
    rollouts: int | None = None,
    seat: str = "player",
    seed: int = 0,
    target_se: float | None = None,
    max_deals: int | None = None,
    cache: bool = True,
    progress: Callable[[int, float], None] | None = None,
) -> list[str]:
    """The ``top`` best splits of a 13-card ``hand``, with their expected scores, as text.

    ``hand`` is card text (``"As Ks ..."``, see :func:`simkit.cards.parse_cards`) or 13 card
    integers; ``variant`` a name, path or :class:`~simkit.variants.Variant` (None: the default
    variant).  The splits shown are the ``top`` the default strategy's model rates highest
    (one per decision: splits that differ only in kickers or suits show the one the model
    rates best, see :func:`decision_keys`), each with ``score``, its expected
    points per game under the full rules (see the module; ``seat``: ``"banker"`` or
    ``"player"`` in a banker variant; ``target_se``, ``max_deals``, ``cache``, ``progress``:
    those of :func:`simkit.setting_scores.expected_scores`; 2-4 players, elsewhere the
    model only), and ``model``, the strategy's own value.  The last lines name the special
    hands the hand qualifies for, what the strategy declares and what declaring scores.
    :func:`best_splits` returns the same numbers as arrays.

    ``rollouts``: also score each split shown (and declaring, where the hand qualifies) on
    that many random deals of the ``seed`` stream, against the same opponents: the mean and
    its 95% CI (:func:`simkit.regret.rollout_values`), independent of ``score``'s deals.
    """
    from simkit.arrange import ExpectedScore, as_strategy
    from simkit.cards import format_cards
    from simkit.setting_scores import OPPONENTS, phases_not_played

    if rollouts is not None and (isinstance(rollouts, bool) or rollouts < 2):
        raise SimkitError(f"rollouts must be at least 2, got {rollouts}")
    if rollouts is not None and not 2 <= n_players <= 4:
        raise SimkitError(f"rollouts deal one deck (2-4 players), got {n_players}")
    b = best_splits(
        hand,
        variant,
        n_players,
        top,
        seat=seat,
        target_se=target_se,
        max_deals=max_deals,
        cache=cache,
        progress=progress,
    )
    v = b.variant
    banker_variant = v.scoring.topology == "banker"
    specials = v.specials.rules
    measured = [] if rollouts is None else _rollout_lines(b, v, n_players, rollouts, seed, seat)
    opp = n_players - 1
    skipped = phases_not_played(v)
    lines = [
        f"{format_cards(b.cards)}  ({v.name}, {n_players} players"
        f"{f', {seat} seat' if banker_variant else ''}, {b.legal} legal splits)",
    ]
    if b.score is not None:
        where = ""
        if banker_variant:
            where = (
                "seat: the banker; " if seat == "banker" else "seat: a player, facing the banker; "
            )
        lines += [
            f"score: this seat's expected points per game under {v.name}'s full rules, on "
            f"{b.deals:,} random",
            f"       deals of the other cards to {opp} opponent{'s' if opp > 1 else ''} playing "
            f"{OPPONENTS} (± standard error);",
        ]
        phases = (
            "not played: " + ", ".join(skipped) + " (their payments are not in the score)"
            if skipped
            else "none in this variant"
        )
        lines += textwrap.wrap(
            f"{where}phases: {phases}", 92, initial_indent=" " * 7, subsequent_indent=" " * 7
        )
    else:
        lines.append(f"score: not measured at {n_players} players (rollouts deal one deck)")
    # the default values a hand by its own tables and the places where a removal model fits
    strategy = as_strategy(OPPONENTS)
    own_tables = isinstance(strategy, ExpectedScore) and (
        strategy.removal_model(v, n_players) is not None
    )
    basis = (
        "win tables conditioned on the hand's own cards, the t-formula's places"
        if own_tables
        else "win tables"
    )
    lines += textwrap.wrap(
        f"model: {OPPONENTS}'s own value of the split ({basis}, duns priced as independent): "
        "what it ranks splits by, not the expected score",
        92,
        subsequent_indent=" " * 7,
    )
    lines += _split_lines(b, measured)
    lines += _special_lines(b, specials, measured)
    if measured:
        lines += [
            f"rollouts: mean points per game against the same opponents on {rollouts:,} other",
            f"          random deals, the same for every setting (seed {seed}), and its 95% CI",
        ]
    return lines
