"""What each rule is worth with the play re-derived: each rule of a variant switched off, the
strategy re-derived for the rules left, the game played again on the same deals.

For each variant and each rule (:func:`simkit.variants.transforms.rules_of`: its transforms,
``specials`` (all of them) or one special, its enabled phases), the variant without the rule
(:func:`simkit.variants.transforms.without`) is played by the default strategy with the win
tables of *its* rules (found or built by the rules' key, :mod:`simkit.tables_cache`), on the
same ``--games`` deals at 4 players as the variant itself, each game as ``simulate`` plays it
(the phases before setting, the arrangement, the scorer, the phases after setting).  With
``--baseline built`` (the default) the variant itself is played on tables built for its rules
by the same procedure (:func:`simkit.tables_cache.build_fine_tables`), not on its shipped
ones, so both sides of a row are re-derived alike and a row measures the rule alone: shipped
tables are trained on a longer schedule and, in guangxi's two variants at 4 players, carry a
card-removal model that no build fits.  ``--baseline shipped`` plays the shipped tables.  Per
role
(``banker`` seat 0 and ``player`` seats 1-3 in a banker variant, ``any`` seat in an all-pairs
one, the deal's mean over the role's seats):

- **edge**: the change of the role's expected score per game, off minus on (paired: the same
  deals; mean ± 1.96 SE, the deal as the unit);
- **SD**: the change of the SD of a seat's score per game (delta method on the per-deal
  moments of both games);
- **skill edge**: the change of what the default gains per game over ``--weaker``
  (``greedy``) in one seat, the others playing the default (each of the role's seats in turn),
  scored by the scorer alone (no phase after setting);
- **fixed play**: the same edge change with today's play kept (the variant's own settings
  re-scored without the rule; a phase's payments dropped), and the rule's score component's
  share of the variance, Cov(component, total) / Var(total), the report's components section
  on these deals (``specials`` for a special, the phase's own payment for a phase).

    python -m experiments.pipelines.rule_worth [--games 1000] [--seed 0]
        [--variants guangxi qiantang] [--rules transform:scoop specials ...] [--each-special]
        [--baseline built|shipped] [--fresh]

Writes results/rules/worth.json, worth.parquet and worth.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import simkit.objective  # noqa: F401  (registers the table builder and its extras' fitters)
from experiments.support import seat_groups
from simkit.arrange import DEFAULT_STRATEGY, arrangements
from simkit.arrange.wintables import WinTables
from simkit.deal import deal
from simkit.phases import add_payments, before_setting
from simkit.phases.settle import settle_payments
from simkit.score import score
from simkit.skill import component_of, fixed_play_total, mean_ci, sd_change, sd_ci
from simkit.tables_cache import build_fine_tables
from simkit.variants import Variant, resolve_variant
from simkit.variants.transforms import rules_of, without

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 4
DEFAULT_VARIANTS = ("guangxi", "qiantang")


def default_rules(variant: Variant, each_special: bool) -> list[str]:
    """The rules measured by default: every rule of :func:`rules_of` but the single specials
    (one table build each), unless ``each_special``."""
    return [r for r in rules_of(variant) if each_special or not r.startswith("special:")]


# --------------------------------------------------------------------------- playing


def play(
    dealt: np.ndarray,
    variant: Variant,
    phase_seed: np.random.SeedSequence,
    play_seed: int,
    tables: WinTables | None = None,
) -> dict[str, Any]:
    """One variant's games on ``dealt`` as ``simulate`` plays them with the default strategy:
    ``{"total": float (n, p), "components": {name: (n, p)}, "cards", "declared", "hands"}``
    (``hands``: after the phases before setting)."""
    hands, paid = before_setting(dealt, variant, tables, phase_seed)
    (arr,) = arrangements(
        [hands], [variant], DEFAULT_STRATEGY, n_players=PLAYERS, tables=[tables], rng=play_seed
    )
    scored = score(arr.cards, variant, declared=arr.declared, ranks=arr.ranks, breakdown=True)
    if paid:
        scored = add_payments(scored, paid)
    total, components = add_payments(scored, settle_payments(arr, variant, PLAYERS))
    return {
        "total": np.asarray(total, dtype=np.float64),
        "components": {k: np.asarray(c, dtype=np.float64) for k, c in components.items()},
        "cards": arr.cards,
        "declared": arr.declared,
        "hands": hands,
    }


def skill_points(variant: Variant, game: dict[str, Any], weaker: str, play_seed: int) -> np.ndarray:
    """Per deal and seat, what the default's setting gains over ``weaker``'s in that seat, the
    other seats at the default, by the scorer: float ``(n, p)``."""
    (arr,) = arrangements([game["hands"]], [variant], weaker, n_players=PLAYERS, rng=play_seed)
    base = np.asarray(score(game["cards"], variant, declared=game["declared"]), dtype=np.float64)
    out = np.empty_like(base)
    for seat in range(PLAYERS):
        cards, declared = game["cards"].copy(), game["declared"].copy()
        cards[:, seat] = arr.cards[:, seat]
        declared[:, seat] = arr.declared[:, seat]
        out[:, seat] = base[:, seat] - np.asarray(score(cards, variant, declared=declared))[:, seat]
    return out


# --------------------------------------------------------------------------- estimates


def var_share(component: np.ndarray, total: np.ndarray) -> float:
    """Cov(component, total) / Var(total) over every seat and game given (0 where the total
    does not vary)."""
    c, t = component.ravel(), total.ravel()
    var = float(t.var())
    return float(np.mean((c - c.mean()) * (t - t.mean())) / var) if var > 0 else 0.0


def role_rows(
    variant: Variant,
    rule: str,
    on: dict[str, Any],
    off: dict[str, Any],
    fixed: np.ndarray,
    skill_on: np.ndarray,
    skill_off: np.ndarray,
) -> list[dict[str, Any]]:
    """One row per role of ``variant`` for ``rule`` switched off (module docstring).
    ``declared``: for a single special, the seats of the role that declared it with the rule
    on (0: the rule never came up, so the row measures only how the tables built for the two
    rule sets differ, a control); -1 for any other rule."""
    rows = []
    component = component_of(rule)
    special = rule.partition(":")[2] if rule.startswith("special:") else None
    for role, seats in seat_groups(variant).items():
        s = list(seats)
        a, b = on["total"][:, s], off["total"][:, s]
        edge = mean_ci(b.mean(axis=1) - a.mean(axis=1))
        sd = sd_change(a.mean(axis=1), (a * a).mean(axis=1), b.mean(axis=1), (b * b).mean(axis=1))
        sd_on = sd_ci(a.mean(axis=1), (a * a).mean(axis=1))
        skill = mean_ci(skill_off[:, s].mean(axis=1) - skill_on[:, s].mean(axis=1))
        skill_base = mean_ci(skill_on[:, s].mean(axis=1))
        kept = mean_ci(fixed[:, s].mean(axis=1) - a.mean(axis=1))
        comp = on["components"].get(component)
        share = var_share(comp[:, s], a) if comp is not None else 0.0
        comp_mean = float(comp[:, s].mean()) if comp is not None else 0.0
        rows.append(
            {
                "variant": variant.name,
                "rule": rule,
                "role": role,
                "n_games": int(a.shape[0]),
                "edge_on": float(a.mean()),
                "edge_change": edge["mean"],
                "edge_change_se": edge["se"],
                "edge_change_ci_low": edge["ci_low"],
                "edge_change_ci_high": edge["ci_high"],
                "sd_on": sd_on["sd"],
                "sd_change": sd["mean"],
                "sd_change_se": sd["se"],
                "sd_change_ci_low": sd["ci_low"],
                "sd_change_ci_high": sd["ci_high"],
                "skill_on": skill_base["mean"],
                "skill_change": skill["mean"],
                "skill_change_se": skill["se"],
                "skill_change_ci_low": skill["ci_low"],
                "skill_change_ci_high": skill["ci_high"],
                "fixed_edge_change": kept["mean"],
                "fixed_edge_change_se": kept["se"],
                "fixed_edge_change_ci_low": kept["ci_low"],
                "fixed_edge_change_ci_high": kept["ci_high"],
                "component": component,
                "component_mean": comp_mean,
                "component_var_share": share,
                "declared": (
                    int((on["declared"][:, s] == variant.specials.ids.index(special)).sum())
                    if special is not None
                    else -1
                ),
            }
        )
    return rows


def measure_variant(
    variant: Variant,
    rules: Sequence[str],
    dealt: np.ndarray,
    weaker: str,
    seeds: tuple[np.random.SeedSequence, int],
    say: Any = print,
    after: Any = None,
    baseline: str = "built",
) -> list[dict[str, Any]]:
    """The rows of ``variant`` with each of ``rules`` switched off, the deals and the streams
    shared by every version (common numbers).  ``after(rule, rows)`` (if given) is called with
    each rule's rows as they are measured.  ``baseline``: the tables ``variant`` itself is
    played on, ``built`` for its rules as every rule-off version's are, or its ``shipped``
    ones (module docstring)."""
    phase_seed, play_seed = seeds
    tables = build_fine_tables(variant, PLAYERS) if baseline == "built" else None
    on = play(dealt, variant, phase_seed, play_seed, tables)
    skill_on = skill_points(variant, on, weaker, play_seed)
    rows = []
    for rule in rules:
        off_variant = without(variant, rule)
        started = time.perf_counter()
        off = play(dealt, off_variant, phase_seed, play_seed)
        skill_off = skill_points(off_variant, off, weaker, play_seed)
        fixed = fixed_play_total(variant, off_variant, rule, on)
        got = role_rows(variant, rule, on, off, fixed, skill_on, skill_off)
        rows += got
        if after is not None:
            after(rule, got)
        for r in got:
            say(
                f"{r['variant']:10s} -{r['rule']:28s} {r['role']:7s} edge {r['edge_change']:+.3f}"
                f" ± {r['edge_change_se']:.3f} (fixed {r['fixed_edge_change']:+.3f}) sd "
                f"{r['sd_change']:+.3f} skill {r['skill_change']:+.3f} "
                f"[{time.perf_counter() - started:.0f} s]"
            )
    return rows


# --------------------------------------------------------------------------- output


def _ci(r: dict[str, Any], key: str, digits: int = 3) -> str:
    return (
        f"{r[key]:+.{digits}f} ({r[key + '_ci_low']:+.{digits}f} to "
        f"{r[key + '_ci_high']:+.{digits}f})"
    )


def markdown(meta: dict[str, Any], rows: Sequence[dict[str, Any]]) -> str:
    lines = [
        "# What each rule is worth with the play re-derived",
        "",
        f"{meta['games']:,} deals of {meta['players']} players (seed {meta['seed']}); each rule "
        f"switched off in turn, the default `{meta['default']}` re-derived for the rules left "
        "(win tables found or built by the rules' key), the same deals played again; "
        + (
            "the variant itself on tables built for its rules by the same procedure (so a row "
            "measures the rule, not the shipped tables' longer training).  "
            if meta.get("baseline", "shipped") == "built"
            else "the variant itself on its shipped tables.  "
        )
        + "Changes "
        "are off minus on per game, paired, with 95% CIs (the deal as the unit).  **edge**: "
        "the role's expected score; **SD**: of a seat's score per game; **skill**: the "
        f"default's gain per game over `{meta['weaker']}` in one seat (scorer points); "
        "**fixed play**: the edge change with today's settings re-scored; **share**: the rule's "
        "component's share of the variance with the rule on (the report's components "
        "section).  `any`: every seat of an all-pairs game, whose mean is 0 by symmetry.",
        "",
        "Reproduce (each command adds its rows to those of the same deals): "
        + "; ".join(f"`python {c}`" for c in meta.get("commands", [meta["command"]]))
        + f" ({meta['seconds'] / 60:.1f} min here in all).",
        "",
        "| variant | rule off | role | edge change | fixed-play edge change | SD change | "
        "skill change | component | share |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    controls = [r for r in rows if r.get("declared") == 0]
    if controls:
        lines[-2:-2] = [
            "**Controls**: a single special that no hand of these deals declared changes "
            "nothing in the game, so its row measures only how the tables built for the two "
            "rule sets differ (their fitted extras are fitted on samples that each rule set's "
            "own play draws): "
            + "; ".join(
                f"{r['variant']} `{r['rule']}` {r['role']}: SD {_ci(r, 'sd_change', 2)}, skill "
                f"{_ci(r, 'skill_change')}"
                for r in controls[:6]
            )
            + (f" (and {len(controls) - 6} more)" if len(controls) > 6 else "")
            + ".  A row whose interval overlaps these is not told apart from that noise.",
            "",
        ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['rule']} | {r['role']} | {_ci(r, 'edge_change')} | "
            f"{_ci(r, 'fixed_edge_change')} | {_ci(r, 'sd_change', 2)} | "
            f"{_ci(r, 'skill_change')} | {r['component']} | {r['component_var_share']:.1%} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000, help="deals per variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS))
    parser.add_argument(
        "--rules", nargs="+", default=None, help="default: rules_of, see --each-special"
    )
    parser.add_argument("--each-special", action="store_true", help="each special on its own too")
    parser.add_argument("--weaker", default="greedy", help="the skill edge's weaker strategy")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "rules")
    parser.add_argument(
        "--baseline", choices=("built", "shipped"), default="built",
        help="the tables the variant itself is played on (module docstring)",
    )  # fmt: skip
    parser.add_argument(
        "--fresh", action="store_true", help="measure every rule again (default: keep the rows "
        "of --out's worth.json measured on the same deals, seed and strategies)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2")
    variants = [resolve_variant(n) for n in args.variants]  # bad names fail before any work
    plan = []
    for v in variants:
        rules = [r for r in args.rules if r in rules_of(v)] if args.rules else None
        rules = rules if rules is not None else default_rules(v, args.each_special)
        for r in rules:
            without(v, r)  # a rule the variant does not play fails here, before any work
        plan.append((v, rules))
    if args.rules and not any(rules for _, rules in plan):
        parser.error(f"--rules: none of {args.rules} is a rule of {args.variants}")

    deal_seed, phase_seed, play_seed = np.random.SeedSequence(args.seed).spawn(3)
    dealt = deal(args.games, PLAYERS, rng=np.random.default_rng(deal_seed))
    seeds = (phase_seed, int(play_seed.generate_state(1)[0]))
    started = time.perf_counter()
    rows, held = ([], {}) if args.fresh else resumed(args)
    done: list[str] = list(held.get("measured", []))
    seconds_before = float(held.get("seconds", 0.0))
    commands = [c for c in held.get("commands", [held.get("command")]) if c]
    if done:
        say(f"rule worth: {len(done)} rules kept from {args.out / 'worth.json'}")

    def record(variant: Variant, rule: str, got: list[dict[str, Any]]) -> None:
        """Keep a rule's rows and write every row so far (a long run keeps what it did)."""
        rows.extend(got)
        done.append(f"{variant.name}:{rule}")
        seconds = seconds_before + time.perf_counter() - started
        write(args.out, _meta(args, done, seconds, commands), rows)

    for v, rules in plan:
        left = [r for r in rules if f"{v.name}:{r}" not in done]
        if left:
            measure_variant(
                v, left, dealt, args.weaker, seeds, say=say,
                after=lambda r, g, v=v: record(v, r, g), baseline=args.baseline,
            )  # fmt: skip
    seconds = time.perf_counter() - started
    print(f"rule worth: {len(rows)} rows in {seconds:.0f} s → {args.out / 'worth.md'}")
    return 0


def resumed(args: argparse.Namespace) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rows and meta of ``--out``'s worth.json where they were measured on the same deals
    (games, seed, players) by the same strategies: this run keeps them, measures only the
    rules they lack, and adds its own rows and command.  So a run stopped part way resumes,
    and runs of other variants or rules add to one table.  An earlier file of other deals or
    strategies is not read (``([], {})``), and is overwritten as the run goes."""
    path = args.out / "worth.json"
    if not path.exists():
        return [], {}
    held = json.loads(path.read_text(encoding="utf-8"))
    meta = held.get("meta", {})
    same = {"games": args.games, "seed": args.seed, "players": PLAYERS}
    same |= {"weaker": args.weaker, "default": DEFAULT_STRATEGY}
    same |= {"baseline": args.baseline}
    if any(meta.get(k) != v for k, v in same.items()):
        return [], {}
    return held.get("rows", []), meta


def say(line: str) -> None:
    print(line, flush=True)


def _meta(
    args: argparse.Namespace, done: list[str], seconds: float, earlier: Sequence[str] = ()
) -> dict[str, Any]:
    """The run's meta: its parameters, the rules measured (``variant:rule``), its command and
    ``commands``: the ``earlier`` runs' whose rows it keeps, then its own."""
    command = f"-m experiments.pipelines.rule_worth --games {args.games} --seed {args.seed}"
    command += " --variants " + " ".join(args.variants)
    if args.rules:
        command += " --rules " + " ".join(args.rules)
    if args.each_special:
        command += " --each-special"
    if args.weaker != "greedy":
        command += f" --weaker {args.weaker}"
    if args.baseline != "built":
        command += f" --baseline {args.baseline}"
    return {
        "default": DEFAULT_STRATEGY,
        "weaker": args.weaker,
        "baseline": args.baseline,
        "games": args.games,
        "players": PLAYERS,
        "seed": args.seed,
        "measured": done,
        "seconds": round(seconds, 1),
        "command": command,
        "commands": [c for c in earlier if c != command] + [command],
    }


def write(out: Path, meta: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """worth.json (``{"meta", "rows"}``), worth.parquet (the rows) and worth.md under ``out``."""
    import polars as pl

    out.mkdir(parents=True, exist_ok=True)
    (out / "worth.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    pl.DataFrame(rows).write_parquet(out / "worth.parquet")
    (out / "worth.md").write_text(markdown(meta, rows), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
