"""Re-scoring kept games under another variant file (issue 51.3).

Scores are a function of the set hands, so a run's kept games (:mod:`simkit.kept`) can be
scored under any other payout table without playing again: the hands stay as the run's
strategy set them (fixed play), and the other file's scoring decides what they pay: dun
points and bonuses, scoops, home runs, specials' payouts, the t-formula, the horse card, and
the phases after setting (played again on the kept hands).  The hands' duns are ranked and
their specials detected again under the other file, and each game is scored by
:func:`simkit.score.score` in numba over a batch of blocks (no Python loop per game).

What kept games cannot express is refused before any work (:func:`rescore_refusal`): another
deck, another ranking, other phases before setting (they would have changed the hands), a
table size the file does not serve, and a special the kept games declare that the file does not
know.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange import Arrangement
from simkit.errors import SimkitError
from simkit.kept import KeptGames, kept_arrangement, open_kept
from simkit.parallel import run_ordered
from simkit.phases import add_payments
from simkit.phases.settle import settle_payments
from simkit.score import score
from simkit.simulate import SimulationResult, make_config, provenance, trace_points
from simkit.statistics import convergence_rows, record_blocks
from simkit.summary import BlockOutput, Summary
from simkit.tables import build_tables
from simkit.variants import Variant, resolve_variant
from simkit.variants.schema import to_plain

#: Blocks scored in one call of the scorer (about 130,000 games at 4 players): large enough
#: that per-call overheads vanish, small enough that memory stays a few tens of MB.
BATCH_BLOCKS = 64


def run_variant(kept: KeptGames, source: str | None = None) -> tuple[int, Variant]:
    """The index and rules of the variant whose kept games are re-scored: ``source`` (a name of
    the run's variants) or the run's only one.  The rules are read from the file the run
    played and must still have the run's key (the file has not changed since)."""
    entries = kept.provenance["variants"]
    names = [e["name"] for e in entries]
    if source is None:
        if len(names) > 1:
            raise SimkitError(
                f"the run kept games of {len(names)} variants ({', '.join(names)}); choose one "
                "with --from NAME"
            )
        index = 0
    elif source in names:
        index = names.index(source)
    else:
        raise SimkitError(f"the run kept no games of {source!r}; it has {', '.join(names)}")
    entry = entries[index]
    where = entry.get("file") or entry["name"]
    try:
        variant = resolve_variant(where if Path(where).exists() else entry["name"])
    except SimkitError as exc:
        raise SimkitError(f"cannot read the run's variant {entry['name']!r}: {exc}") from None
    if variant.key != entry["key"]:
        raise SimkitError(
            f"the run's variant file {where} has changed since the run (its rules key is "
            f"{variant.key}, the run's {entry['key']}); the kept declarations cannot be read"
        )
    return index, variant


def rescore_refusal(played: Variant, other: Variant, n_players: int) -> str | None:
    """Why the games kept under ``played`` cannot be re-scored under ``other``, or None.

    Kept hands stand for the deal, the ranking the strategy set them by, and the phases before
    setting; a change there would have changed the hands themselves.  Rules are compared
    without their ``source`` citations, as the variant key compares them.
    """
    try:
        deck = other.deck_for(n_players)
    except SimkitError as exc:
        return f"{other.name!r} does not serve the run's {n_players} players: {exc}"
    if to_plain(deck, sources=False) != to_plain(played.deck_for(n_players), sources=False):
        return (
            f"{other.name!r} deals {deck.describe()}, the run "
            f"{played.deck_for(n_players).describe()}: the deck changes the hands dealt"
        )
    if to_plain(other.ranking, sources=False) != to_plain(played.ranking, sources=False):
        return (
            f"{other.name!r} ranks hands differently from {played.name!r} ([ranking]): the "
            "strategy would set the hands otherwise"
        )
    if to_plain(other.deal, sources=False) != to_plain(played.deal, sources=False):
        return (
            f"{other.name!r} plays other phases before setting ([deal]) than {played.name!r}: "
            "they change the hands that are set"
        )
    known = {rule.name for rule in other.specials.rules}
    lost = [rule.name for rule in played.specials.rules if rule.name not in known]
    if lost:
        return (
            f"{other.name!r} has no special {lost[0]!r}, which the kept games may declare "
            f"under {played.name!r}"
        )
    return None


def _declared_map(played: Variant, other: Variant) -> np.ndarray:
    """``int8``: a declared index under ``played`` (shifted by one, -1 → 0) → under ``other``."""
    index = {rule.name: i for i, rule in enumerate(other.specials.rules)}
    return np.array([-1] + [index[rule.name] for rule in played.specials.rules], dtype=np.int8)


def _batches(kept: KeptGames, first: int, stop: int) -> Iterator[list[dict[str, np.ndarray]]]:
    batch: list[dict[str, np.ndarray]] = []
    for arrays in kept.blocks(first, stop):
        batch.append(arrays)
        if len(batch) == BATCH_BLOCKS:
            yield batch
            batch = []
    if batch:
        yield batch


def scored_batches(
    kept: KeptGames,
    index: int,
    played: Variant,
    other: Variant,
    strategy: str,
    first: int = 0,
    stop: int | None = None,
) -> Iterator[tuple[Arrangement, Any, list[int]]]:
    """Kept blocks ``first .. stop - 1`` (None: to the end) under ``other``, up to
    :data:`BATCH_BLOCKS` blocks at a time: ``(play, (total, components), sizes)``, the
    batch's :class:`~simkit.arrange.Arrangement` under ``other``, its scores as
    :func:`simkit.score.score` with ``breakdown=True`` gives them (the phases' payments added),
    and the number of games of each of its blocks, the blocks one after the other."""
    p = kept.n_players
    remap = _declared_map(played, other)
    for batch in _batches(kept, first, kept.n_blocks if stop is None else stop):
        sizes = [len(b["banker"]) for b in batch]
        cat = {
            name: np.concatenate([b[name] for b in batch])
            for name in batch[0]
            if name.endswith(str(index)) or f"{index}:" in name
        }
        declared = remap[cat[f"declared{index}"].astype(np.int64) + 1]
        play = kept_arrangement(
            cat[f"cards{index}"], declared, other, p, value=cat.get(f"value{index}")
        )
        scored = score(
            play.cards,
            other,
            declared=play.declared,
            ranks=play.ranks,
            special_masks=play.special_masks,
            breakdown=True,
        )
        paid = {
            name.split(":", 1)[1]: arr
            for name, arr in cat.items()
            if name.startswith(f"paid{index}:")
        }
        if paid:
            scored = add_payments(scored, paid)
        scored = add_payments(scored, settle_payments(play, other, p, strategy))
        yield play, scored, sizes


def scored_blocks(
    kept: KeptGames,
    index: int,
    played: Variant,
    other: Variant,
    strategy: str,
    first: int = 0,
    stop: int | None = None,
) -> Iterator[tuple[Any, Any, Any]]:
    """Per kept block ``first .. stop - 1`` (None: to the end), in order: ``(play, (total,
    components), n)`` under ``other``: :func:`scored_batches` cut into its blocks."""
    for play, (total, components), sizes in scored_batches(
        kept, index, played, other, strategy, first, stop
    ):
        start = 0
        for n in sizes:
            rows = slice(start, start + n)
            start += n
            part = Arrangement(
                cards=play.cards[rows],
                declared=play.declared[rows],
                split_ids=play.split_ids[rows],
                ranks=play.ranks[rows],
                special_masks=play.special_masks[rows],
                best=play.best[rows],
                value=None if play.value is None else play.value[rows],
            )
            yield part, (total[rows], {k: c[rows] for k, c in components.items()}), n


def _record_blocks(
    kept: KeptGames,
    index: int,
    played: Variant,
    other: Variant,
    strategy: str,
    first: int,
    stop: int,
) -> BlockOutput:
    """One task: blocks ``first .. stop - 1`` re-scored and recorded: their counts merged (exact
    in any order) and their sums block by block (what :class:`~simkit.summary.Summary`
    folds)."""
    counts = Summary()
    block_sums: list[dict[Any, np.ndarray]] = []
    sizes: list[int] = []
    for play, scored, batch_sizes in scored_batches(
        kept, index, played, other, strategy, first, stop
    ):
        for block_counts, sums in record_blocks([other], [play], [scored], batch_sizes):
            counts.add_counts(block_counts)
            block_sums.append(sums)
        sizes += batch_sizes
    return BlockOutput(
        first_block=first, n_games=sizes, counts=counts.counts, block_sums=block_sums
    )


def rescore(
    run: str | Path,
    variant: str | Path | Variant,
    *,
    source: str | None = None,
    n_jobs: int = 1,
) -> SimulationResult:
    """The tables of ``simulate`` for the kept games of run folder ``run`` scored under
    ``variant`` (fixed play: the hands as the run set them).

    Under the run's own variant the tables equal the run's.  ``source``: which of the run's
    variants' kept games (needed when it kept several).  Raises
    :class:`~simkit.errors.SimkitError` before any work when ``run`` kept no games or when the
    change cannot be expressed on kept hands (:func:`rescore_refusal`).  ``n_jobs``: local
    worker processes (-1 every core), each taking :data:`BATCH_BLOCKS` blocks at a time; the
    tables are the same for any ``n_jobs``.
    """
    kept = open_kept(run)
    index, played = run_variant(kept, source)
    other = resolve_variant(variant)
    p = kept.n_players
    reason = rescore_refusal(played, other, p)
    if reason is not None:
        raise SimkitError(f"cannot re-score the kept games under {other.name!r}: {reason}")
    prov = kept.provenance
    config = make_config(other, kept.n_games, p, prov["strategy"], seed=prov["seed"])
    points = trace_points(config.n_blocks)
    summary = Summary()
    trace: list[dict[str, Any]] = []
    tasks = (
        (kept, index, played, other, prov["strategy"], b, min(b + BATCH_BLOCKS, kept.n_blocks))
        for b in range(0, kept.n_blocks, BATCH_BLOCKS)
    )
    for output in run_ordered(_record_blocks, tasks, n_jobs=n_jobs):
        summary.add_counts(output.counts)
        for sums, n in zip(output.block_sums, output.n_games, strict=True):
            summary.fold_sums(sums)
            summary.n_games += n
            summary.n_blocks += 1
            if summary.n_blocks in points:
                trace.extend(convergence_rows(summary, config.variants, p))
    tables = build_tables(summary, config.variants, p, trace)
    rescored_prov = provenance(config) | {
        "rescored_from": {"run": str(Path(run)), "variant": played.name, "key": played.key},
    }
    return SimulationResult(provenance=rescored_prov, tables=tables, summary=summary, config=config)


def game_scores(run: str | Path, source: str | None = None) -> tuple[Variant, np.ndarray]:
    """The run's variant and each kept game's scores under it, ``float64 (n_games, p)`` (each
    seat's total, phases included), for per-game statistics such as :mod:`simkit.par`."""
    kept = open_kept(run)
    index, played = run_variant(kept, source)
    totals = [
        scored[0]
        for _, scored, _ in scored_blocks(kept, index, played, played, kept.provenance["strategy"])
    ]
    return played, np.concatenate(totals).astype(np.float64)


def rederived_gain(
    run: str | Path,
    variant: str | Path | Variant,
    *,
    source: str | None = None,
    sample: int = 1000,
    seed: int = 0,
) -> dict[str, float | int | str]:
    """What the strategy re-derived for ``variant`` gains over the kept play, points a game.

    On the first ``sample`` kept games, each seat in turn sets its 13 cards anew with the run's
    strategy under ``variant`` (the others keep their kept hands), and the gain is its score
    under ``variant`` minus its score with the kept hand; the per-game gain is the mean over the
    seats (banker variants mix the banker's and the players' gains).  Scores are the scorer's
    (:func:`simkit.score.score`), without the phases after setting.  Returns ``games``,
    ``strategy``, ``gain``, ``se`` and the 95% interval ``ci_low`` / ``ci_high``, the game as
    the independent unit.  A gain near zero says the fixed-play figures of :func:`rescore`
    stand; a large one says the play would change under the new payouts.
    """
    from simkit.arrange import arrange

    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 2:
        raise SimkitError(f"sample must be a whole number of at least 2 games, got {sample!r}")
    kept = open_kept(run)
    index, played = run_variant(kept, source)
    other = resolve_variant(variant)
    p = kept.n_players
    reason = rescore_refusal(played, other, p)
    if reason is not None:
        raise SimkitError(f"cannot re-score the kept games under {other.name!r}: {reason}")
    cards_parts, declared_parts, have = [], [], 0
    for arrays in kept.blocks():
        cards_parts.append(arrays[f"cards{index}"])
        declared_parts.append(arrays[f"declared{index}"])
        have += len(arrays["banker"])
        if have >= sample:
            break
    cards = np.concatenate(cards_parts)[:sample]
    declared = _declared_map(played, other)[
        np.concatenate(declared_parts)[:sample].astype(np.int64) + 1
    ]
    strategy = kept.provenance["strategy"]
    base = score(cards, other, declared=declared)
    re_cards, re_declared = arrange(
        cards, other, strategy, n_players=p, rng=np.random.default_rng(seed)
    )
    gains = np.zeros(len(cards))
    for seat in range(p):
        mixed, mixed_declared = cards.copy(), declared.copy()
        mixed[:, seat] = re_cards[:, seat]
        mixed_declared[:, seat] = re_declared[:, seat]
        gains += score(mixed, other, declared=mixed_declared)[:, seat] - base[:, seat]
    gains /= p
    mean = float(gains.mean())
    se = float(gains.std(ddof=1) / np.sqrt(len(gains)))
    return {
        "games": len(gains),
        "strategy": strategy,
        "gain": mean,
        "se": se,
        "ci_low": mean - 1.96 * se,
        "ci_high": mean + 1.96 * se,
    }
