"""Markdown cells and tables of the report: estimates with their uncertainty, pivoted grids."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

#: The cell of a rule a variant does not have, or of something never seen in the run.
NEVER = "–"


def _digits(se: float) -> int:
    """Decimals that show two significant digits of a standard error."""
    if not se or not math.isfinite(se) or se <= 0:
        return 3
    return max(0, min(8, 1 - math.floor(math.log10(se))))


def est(mean: float | None, se: float | None) -> str:
    """``mean ± se`` with the se rounded to two significant digits; :data:`NEVER` for no mean,
    the mean alone (3 significant digits) for no finite se."""
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return NEVER
    if se is None or not math.isfinite(se):
        return f"{mean:.3g}"
    d = _digits(se)
    return f"{mean:.{d}f} ± {se:.{d}f}"


def num(x: Any, fmt: str = ".4g") -> str:
    """``x`` formatted with ``fmt`` if a float, as ``str`` otherwise; :data:`NEVER` for none."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return NEVER
    if isinstance(x, float):
        return format(x, fmt)
    return str(x)


def one_in(x: float | None) -> str:
    """Odds of one in ``x`` as a whole number with thousands separators (``158,753,389,900``),
    3 significant digits below 1,000."""
    if x is None or not math.isfinite(x):
        return NEVER
    return f"{x:,.0f}" if x >= 1000 else f"{x:.3g}"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub Markdown table: ``header`` then one line per row (cells as ``str``)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def grid(
    table: pl.DataFrame,
    row_key: str,
    row_values: Sequence[Any],
    col_key: str,
    col_values: Sequence[str],
    cell: Callable[[dict[str, Any]], str],
    missing: str = "",
) -> list[list[Any]]:
    """Rows of a Markdown table from a long table, pivoted wide: ``cell(row)`` for each (row
    value, column value) pair in the order given, ``missing`` where the long table has no
    such row."""
    cells = table.select(
        pl.col(row_key),
        pl.col(col_key).cast(pl.Utf8),
        pl.Series("cell", [cell(r) for r in table.iter_rows(named=True)], dtype=pl.Utf8),
    )
    wide = cells.pivot(on=col_key, index=row_key, values="cell")
    order = pl.DataFrame({row_key: list(row_values)}, schema={row_key: table.schema[row_key]})
    wide = order.join(wide, on=row_key, how="left", maintain_order="left")
    columns = [
        pl.col(c).fill_null(missing) if c in wide.columns else pl.lit(missing).alias(c)
        for c in col_values
    ]
    return [list(r) for r in wide.select(row_key, *columns).iter_rows()]


def est_of(mean: str, se: str, seen: str | None = None) -> Callable[[dict[str, Any]], str]:
    """The ``est(mean, se)`` cell of a long table's row; :data:`NEVER` where the row's ``seen``
    column is 0 (an event that never happened has no estimate worth a ``0.000 ± 0.000``)."""
    return lambda r: NEVER if seen is not None and not r[seen] else est(r[mean], r[se])


def names(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def figure(name: str, caption: str) -> str:
    """The Markdown of ``figures/<name>.png`` with its caption and a link to the SVG."""
    return f"![{caption}](figures/{name}.png)\n\n*{caption}* ([SVG](figures/{name}.svg))"
