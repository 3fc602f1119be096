"""Fit the place model of the t-formula for ``expected-score-places``, its weights, and check it.

    python -m experiments.pipelines.fit_places [--rows guangxi:4 guangxi-regional:4] \
        [--games 40000] [--seed 77] [--check 6000 1000] [--write [--always]]

Under the t-formula a hand is paid its place among the hands compared normally times t, the
round's biggest dun worth.  ``expected-score`` prices the duns' points as if they were paid;
``expected-score-places`` (:class:`simkit.arrange.ExpectedScorePlaces`) prices ``τ(m)·h(B)``
(:class:`simkit.arrange.PlaceModel`).  Per row:

1. :func:`simkit.objective.fit_place_model`: on ``--games`` tables set by the default, the
   place payment of every hand against its expected dun points ``B`` (``h``, a tanh fitted by
   least squares, with the mean place per quantile bin of ``B`` beside it) and the chances of
   ``T``, the other hands' biggest worth;
2. with the place model in the row's fine table file, the scoop and home-run weights are fitted
   over it (:func:`simkit.objective.fit_weights` with ``places=True``, its default protocol;
   used where :func:`simkit.objective.worth_shipping`, else 1 and 1);
3. the check: on ``--check HANDS ROLLOUTS`` hands of an independent stream, the split
   ``expected-score-places`` picks against the default's, both scored on the same rollouts
   against opponents who play the default (``experiments/objective_ab.py``'s head to head; 0
   where they agree): the gain per hand and its 95% CI.

With ``--write`` the model and its weights stay in the file's ``meta["place_model"]``
(``simkit/data/<variant>-<p>p-fine.npz``, arrays unchanged; the default's weights untouched)
where the check's gain is positive beyond its CI (with ``--always``, in every row: the check
measures the places alone against the default, and a strategy that adds more to them, such as
``expected-score-hand:places=true``, is measured by its own regret); elsewhere the file is put
back as it was, and without ``--write`` always.  The table goes to
``results/strategy/places.md`` and ``.json`` (rows not fitted again are kept there).
About 5 minutes a row on one core.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from experiments.support import forget_shipped_tables, head_to_head, set_meta
from simkit.arrange import (
    ExpectedScore,
    default_fine_tables,
    objective_weights,
    plays_t_formula,
    shipped_table_path,
)
from simkit.arrange.wintables import PLACE_KEY
from simkit.objective import (
    HANDS,
    PLACE_GAMES,
    PLACE_SEED,
    ROLLOUTS,
    TOP,
    fit_place_model,
    fit_weights,
    worth_shipping,
)
from simkit.variants import load_variant

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "strategy"
ROWS = ("guangxi:4", "guangxi-regional:4")
CHECK_SEED = 11


def _rows(specs: list[str]) -> list[tuple[str, int]]:
    rows = []
    for spec in specs:
        name, _, players = spec.partition(":")
        v = load_variant(name)  # a clear error for a misspelt variant, before any work
        if not players.isdigit() or not 3 <= int(players) <= 4:
            raise SystemExit(f"--rows: {spec!r} is not VARIANT:PLAYERS with 3-4 players")
        if not plays_t_formula(v, int(players)):
            raise SystemExit(f"--rows: {name} does not play the t-formula at {players} players")
        rows.append((name, int(players)))
    return rows


def fit_row(name: str, players: int, args: argparse.Namespace) -> dict[str, Any]:
    start = time.perf_counter()
    v = load_variant(name)
    path = shipped_table_path(name, players, fine=True)
    backup = Path(tempfile.mkdtemp()) / path.name
    shutil.copy2(path, backup)
    keep = False
    try:
        set_meta(path, {PLACE_KEY: None})
        # the population plays the default (expected-score, which prices no places)
        place = fit_place_model(v, players, games=args.games, seed=args.seed)
        meta = place.as_meta()
        if args.always:  # how the file's entry is made again
            meta["command"] += " --always"
        set_meta(path, {PLACE_KEY: meta})
        weights = fit_weights(
            name, players, hands=args.hands, rollouts=args.rollouts, top=TOP, places=True
        )
        shipped_weights = worth_shipping(weights)
        entry = {**weights.as_meta(), "command": meta["command"]}
        if not shipped_weights:
            entry.update(scoop=1.0, home_run=1.0)
        set_meta(path, {PLACE_KEY: {**meta, "weights": entry}})
        default = ExpectedScore()
        check = head_to_head(
            default, ExpectedScore(places=True), v, players, hands=args.check[0],
            rollouts=args.check[1], seed=CHECK_SEED, opponents=default,
        )  # fmt: skip
        keep = args.write and (args.always or check["gain"] - check["ci95"] > 0.0)
        if keep:
            gain = {
                "check_gain": round(check["gain"], 5), "check_ci95": round(check["ci95"], 5),
                "check_hands": args.check[0], "check_rollouts": args.check[1],
            }  # fmt: skip
            set_meta(path, {PLACE_KEY: {**meta, "weights": entry, **gain}})
    finally:
        if not keep:
            shutil.copy2(backup, path)
            forget_shipped_tables()
        shutil.rmtree(backup.parent)
    return {
        "variant": name, "players": players, "games": args.games, "seed": args.seed,
        "model": place.model.as_meta(), "curve_se": list(place.curve_se),
        "hands_fitted": place.hands, "bins": place.bins.tolist(),
        "weights_default": list(objective_weights(default_fine_tables(v, players))),
        "weights": [entry["scoop"], entry["home_run"]],
        "weights_fitted": list(weights.weights),
        "weights_ci": [list(c) for c in weights.weights_ci],
        "weights_shipped": shipped_weights, "weights_held_out_gain": weights.held_out_gain,
        "weights_held_out_ci": list(weights.held_out_ci),
        "check_hands": args.check[0], "check_rollouts": args.check[1],
        "check_seed": CHECK_SEED, "gain": check["gain"], "gain_ci95": check["ci95"],
        "differ": check["differ"], "shipped": keep, "command": meta["command"],
        "seconds": round(time.perf_counter() - start),
    }  # fmt: skip


def render(rows: list[dict[str, Any]]) -> str:
    lines = [
        "# The t-formula's places in the objective: expected-score-places",
        "",
        "Under the t-formula (guangxi and guangxi-regional at 3 and more players) a hand is paid "
        "`t·Σ_j sign(N_me − N_j)`: its place among the hands compared normally, ranked by net "
        "waters, times t, the worth of the round's biggest dun.  The default, expected-score, "
        "prices the net waters `B` as if they were paid.  `expected-score-places` prices "
        "`τ(m)·h(B)`: `h(B) = A·tanh((B − c)/s)` the expected place payment of a hand whose "
        "duns expect `B` points, and `τ(m) = E[max(m, T)]` the expected t when the split's "
        "biggest dun is worth `m` and the other hands' biggest is `T` "
        "(`simkit.arrange.PlaceModel`, `simkit.objective.fit_place_model`).  A hand expected "
        "to place first gains by raising t and little by more points; one expected to place "
        "last loses by raising t.  Its scoop and home-run weights are fitted over it "
        "(`simkit.objective.fit_weights`, `places=True`).",
        "",
        "The check: its split against the default's on hands of an independent stream (seed "
        f"{CHECK_SEED}), both scored on the same rollouts against opponents who play the "
        "default; gain per hand (0 where the two agree), 95% CI.  The model ships (in the fine "
        "table file's `meta`) where the gain is positive beyond its CI"
        + (
            ", and with `--always` in every row: the check measures the places alone, and "
            "`expected-score-hand:places=true`, which adds each hand's own card removal to "
            "them, is measured by its own regret (`regret-hand-4p-2000.md`)"
            if any("--always" in r["command"] for r in rows)
            else ""
        )
        + "; elsewhere `expected-score-places` plays as expected-score.",
        "",
        *dict.fromkeys(f"    {r['command']}" for r in rows),
        "",
        "| variant | players | h: A, c, s (SE) | T: level (chance) | weights scoop, home run "
        "(the default's) | check: gain | picks differ | shipped |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        m, se = r["model"], r["curve_se"]
        h = (
            f"{m['amplitude']:.3f} ({se[0]:.3f}), {m['centre']:+.3f} ({se[1]:.3f}), "
            f"{m['scale']:.3f} ({se[2]:.3f})"
        )
        t = ", ".join(f"{lv:g} ({c:.1%})" for lv, c in zip(m["levels"], m["chances"], strict=True))
        w = (
            f"{r['weights'][0]:.3f}, {r['weights'][1]:.3f} "
            f"({r['weights_default'][0]:.3f}, {r['weights_default'][1]:.3f})"
        )
        lines.append(
            f"| {r['variant']} | {r['players']} | {h} | {t} | {w} "
            f"| {r['gain']:+.4f} ± {r['gain_ci95']:.4f} ({r['check_hands']:,} hands, "
            f"{r['check_rollouts']:,} rollouts) | {r['differ']:.1%} "
            f"| {'yes' if r['shipped'] else 'no'} |"
        )
    for r in rows:
        lines += [
            "",
            f"## {r['variant']}, {r['players']} players: the place payment against B",
            "",
            f"{r['hands_fitted']:,} hands of {r['games']:,} tables set by the default (seed "
            f"{r['seed']}) where every hand was compared normally; per twentieth of them by "
            "B, the mean place payment (before t) with its standard error and the fitted "
            "curve at the bin's mean B.",
            "",
            "| mean B | mean place | SE | h(B) |",
            "|---|---|---|---|",
        ]
        lines += [f"| {b:+.2f} | {y:+.3f} | {s:.3f} | {f:+.3f} |" for b, y, s, f in r["bins"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", nargs="+", default=list(ROWS), help="VARIANT:PLAYERS")
    ap.add_argument("--games", type=int, default=PLACE_GAMES)
    ap.add_argument("--seed", type=int, default=PLACE_SEED)
    ap.add_argument("--hands", type=int, default=HANDS, help="fit_weights' hands")
    ap.add_argument("--rollouts", type=int, default=ROLLOUTS, help="fit_weights' rollouts")
    ap.add_argument("--check", type=int, nargs=2, default=(6000, 1000), metavar=("HANDS", "R"))
    ap.add_argument("--write", action="store_true", help="keep what ships in simkit/data")
    ap.add_argument(
        "--always",
        action="store_true",
        help="with --write: keep the model in every row, whatever the places-alone check says",
    )
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rows = _rows(args.rows)
    if args.always and not args.write:
        raise SystemExit("--always keeps what --write writes: give --write too")
    if args.games < 100 or min(args.check) < 2:
        raise SystemExit("--games must be ≥ 100 and --check's numbers ≥ 2")
    args.out.mkdir(parents=True, exist_ok=True)
    done = []
    for name, players in rows:
        r = fit_row(name, players, args)
        print(
            f"{name} {players}p: h = {r['model']['amplitude']:.3f}·tanh((B "
            f"{-r['model']['centre']:+.3f})/{r['model']['scale']:.3f}); weights "
            f"{r['weights'][0]:.3f}, {r['weights'][1]:.3f}; check gain {r['gain']:+.4f} ± "
            f"{r['gain_ci95']:.4f}; {'shipped' if r['shipped'] else 'not shipped'}; "
            f"{r['seconds']} s",
            flush=True,
        )
        done.append(r)
    # rows fitted before and not again this time stay in the table (each row carries how it
    # was made: its ``shipped`` and the file's meta command)
    previous = args.out / "places.json"
    fitted = {(r["variant"], r["players"]) for r in done}
    kept = [
        r
        for r in (json.loads(previous.read_text()) if previous.exists() else [])
        if (r["variant"], r["players"]) not in fitted
    ]
    order = {row: k for k, row in enumerate(ROWS)}  # the usual rows first, in their order
    done = sorted(kept + done, key=lambda r: order.get(f"{r['variant']}:{r['players']}", len(ROWS)))
    previous.write_text(json.dumps(done, indent=1, default=str) + "\n")
    (args.out / "places.md").write_text(render(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
