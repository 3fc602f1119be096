"""The section "Decks": what two decks, a fifth suit and jokers change in the default variant.

Reads the study folder's ``decks/exact-<deck>.csv`` (exact probabilities per deck,
``experiments/pipelines/exact_decks.py``) and ``decks/volatility.json`` (the score's SD per deck,
``experiments/pipelines/deck_volatility.py``).  Shown only on a page that holds the default variant.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from simkit.report.format import NEVER, est, markdown_table, names
from simkit.report.page import Page
from simkit.variants import DEFAULT_VARIANT

#: The decks compared, in the order shown, and what each is.
DECK_LABELS = {
    "1d": "one deck",
    "2d": "two decks",
    "1d-5s": "one deck + 5th suit",
    "1d-1j": "one deck + 1 joker",
    "1d-2j": "one deck + 2 jokers",
}
DECKS_EXACT_COMMAND = "python -m experiments.pipelines.exact_decks --variant guangxi"
DECKS_VOLATILITY_COMMAND = (
    "python -m experiments.pipelines.deck_volatility --batches 20 --batch-games 2048 --seed 0"
)


def deck_exact(folder: Path) -> tuple[dict[str, pl.DataFrame], list[str]]:
    """``exact-<deck>.csv`` of ``folder`` for the decks of :data:`DECK_LABELS` that are there,
    and what could not be read."""
    found: dict[str, pl.DataFrame] = {}
    problems: list[str] = []
    for deck in DECK_LABELS:
        path = folder / f"exact-{deck}.csv"
        if not path.is_file():
            continue
        try:
            frame = pl.read_csv(path)
            missing = {"table", "entry", "probability"} - set(frame.columns)
            if missing:
                raise ValueError(f"no column {', '.join(sorted(missing))}")
            found[deck] = frame
        except (OSError, ValueError, pl.exceptions.PolarsError) as exc:
            problems.append(f"`{path.name}` could not be read ({exc})")
    return found, problems


def _merged_entries(frames: Sequence[pl.DataFrame], table: str) -> list[str]:
    """The entries of ``table`` over every deck, each deck's order kept (a category only one
    deck has, 五同 or 五彩同花顺, goes after the entry it follows there)."""
    order: list[str] = []
    for frame in frames:
        previous = None
        for entry in frame.filter(pl.col("table") == table)["entry"].to_list():
            if entry not in order:
                order.insert(order.index(previous) + 1 if previous else 0, entry)
            previous = entry
    return order


def _probability_rows(exact: dict[str, pl.DataFrame], table: str, column: str) -> list[list[str]]:
    rows = []
    for entry in _merged_entries(list(exact.values()), table):
        cells = [f"`{entry}`" if table == "specials" else entry]
        for frame in exact.values():
            hit = frame.filter((pl.col("table") == table) & (pl.col("entry") == entry))
            value = hit[column][0] if hit.height and column in hit.columns else None
            cells.append(NEVER if value is None else ("0" if value == 0 else f"{value:.3g}"))
        rows.append(cells)
    return rows


def _exact_lines(exact: dict[str, pl.DataFrame]) -> list[str]:
    decks = [f"{DECK_LABELS[d]} (`{d}`)" for d in exact]
    return [
        f"The default variant ({DEFAULT_VARIANT}) with each deck, exactly: every probability "
        "below is a count over all sets of physical cards of the deck, by combinatorics "
        "(`simkit.exact.exact_tables`), never sampled.  Two decks serve 5 to 8 players (and "
        "any table with `guangxi-two-decks`), the fifth suit (加一色) up to 5, jokers (wild) "
        f"up to 4.  {NEVER}: the deck has no such category or the table is not counted for "
        "it.\n",
        "**Specials**: the probability that a 13-card hand has each special as its best (what "
        "it would declare).\n",
        markdown_table(
            ["special", *decks], _probability_rows(exact, "specials", "best_probability")
        )
        + "\n",
        "**5-card duns** (any 5 cards of the deck): the probability of each category.\n",
        markdown_table(["category", *decks], _probability_rows(exact, "five_card", "probability"))
        + "\n",
        "**3-card fronts** (any 3 cards): the probability of each category.\n",
        markdown_table(["category", *decks], _probability_rows(exact, "three_card", "probability"))
        + "\n",
        "Each deck's counts in full (exact integers, P(qualifies) beside P(best), the 13-card "
        "contains table, and the other packs `[deck]` accepts: two decks with a fifth suit or "
        "jokers): `results/decks/exact-<deck>.md` in the repository; reproduce with "
        f"`{DECKS_EXACT_COMMAND} --decks {' '.join(exact)}`.\n",
    ]


def decks_section(page: Page, folder: Path | None = None) -> list[str]:
    """Exact special and category probabilities per deck and the score's SD per deck (the
    study folder's ``decks/``, or ``folder``); nothing on a page without the default
    variant."""
    if DEFAULT_VARIANT not in page.names:
        return []
    folder = page.studies / "decks" if folder is None else folder
    lines = ["## Decks: what two decks, a fifth suit and jokers change\n"]
    exact, problems = deck_exact(folder) if folder.is_dir() else ({}, [])
    absent = [d for d in DECK_LABELS if d not in exact]
    if exact:
        lines += _exact_lines(exact)
    if absent or problems:
        why = "; ".join(problems)
        lines.append(
            (f"Not shown: {why}.  " if why else "")
            + (
                f"No exact table of {names([f'`{d}`' for d in absent])} in the study folder: "
                f"make {'it' if len(absent) == 1 else 'them'} in the repository with "
                f"`{DECKS_EXACT_COMMAND} --decks {' '.join(absent)}` (combinatorics: seconds "
                "a deck, minutes with jokers).\n"
                if absent
                else "\n"
            )
        )
    lines += _volatility_lines(folder / "volatility.json", page.provenance["strategy"])
    return lines


def _volatility_lines(path: Path, strategy: str) -> list[str]:
    """The score's SD per deck (``volatility.json``), named by the strategy that played it
    (``strategy``: the page's, said when the two differ)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        meta, rows = dict(data["meta"]), list(data["rows"])
        table = [
            [
                r["variant"],
                r["players"],
                r["deck"],
                f"{r['games']:,}",
                est(r["sd"], r["sd_se"]),
                f"{r['sd_ci_low']:.2f} to {r['sd_ci_high']:.2f}",
                est(r["mean_abs"], r["mean_abs_se"]),
                f"{r['declared']['rate']:.2%} ± {r['declared']['se']:.2%}",
                "guangxi's (fallback)" if r["win_tables"] == "fallback" else "its own",
            ]
            for r in rows
        ]
    except FileNotFoundError:
        return [
            "How volatile the game is with each deck (the SD of a player's score per game) is "
            f"not shown: no `decks/{path.name}` in the study folder.  Make it in the "
            f"repository with `{DECKS_VOLATILITY_COMMAND}` (a few minutes on one core).\n"
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"`{path.name}` could not be read ({exc}).\n"]
    header = [
        "variant",
        "players",
        "deck",
        "games",
        "score SD",
        "SD 95% CI",
        "mean abs score",
        "declares a special",
        "win tables",
    ]
    played = meta["strategy"]
    return [
        f"**Volatility.**  Each deck played by `{played}`"
        + (f" (this page's hands: `{strategy}`)" if played != strategy else "")
        + f", {meta['batches']} independent runs of {meta['batch_games']:,} deals a row.  "
        "Every deck is dealt its own deals, so the rows are independent samples, **not "
        "paired**: a difference between two rows has the SE √(SE₁² + SE₂²).  `score SD`: the "
        "SD of a player's score per game (every seat pooled) ± its SE by batch means, with its "
        "95% CI; `mean abs score` the mean |score| ± SE; `declares a special`: the share of "
        "hands declared as a special; `win tables`: whose trained win tables set the hands "
        "(`its own`: trained on that deck's own pack; `guangxi's (fallback)`: none was "
        "trained for that pack).  guangxi at 5 deals its usual two decks, and "
        "`guangxi-two-decks` at 6 is the deck guangxi plays at 6.\n",
        markdown_table(header, table) + "\n",
        "Specials declared one by one and the category shares of the back, middle and front: "
        f"`results/decks/{path.with_suffix('.md').name}` in the repository; reproduce with "
        f"`python {meta['command']}`.\n",
    ]
