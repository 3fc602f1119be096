"""What an opponent's home run costs a split, measured: the figures behind
expected-score-rerank's home rate (``simkit.arrange.strategies.RERANK_HOME_RATE``).

The model prices the home run against a split as the chance an opponent scoops it times the
table's scoop rate for each other player.  Two measurements of that:

1. **Self-play** (``--games`` deals of 4 hands set by expected-score, the hands that declare
   no special): the chance a hand scoops a given other hand, and the chance it scoops all three
   when it scoops one.  A scoop counts as the scorer counts it (the variant's
   ``scoring.scoop.with_ties``: none of the three duns lost and one won, or all three won).
2. **The hands the re-ranking lost most on** (the three guangxi-regional hands of
   ``tests/test_rerank.py``, from the rerank probe): each set as expected-score-rerank sets it
   with the home rate (the aces in front) and without it (the full house behind), both scored
   on the same ``--rollouts`` deals of the other cards to expected-score opponents: the chance
   an opponent scoops the split, the chance one who does scoops the table (a home run), and
   the split's mean points under the full rules, without the home run, and without the scoop
   and the home run (the same variant with those transforms dropped).

    PYTHONPATH=. python experiments/home_rate_check.py [--games 20000] [--rollouts 4000]

Writes results/strategy/home-rate-check.md and .json.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from simkit.arrange import ExpectedScoreRerank, arrangements
from simkit.cards import format_cards, parse_cards
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.regret import Z95, _rollout_hands
from simkit.score import score
from simkit.splits import split_positions
from simkit.variants import Variant, load_variant, resolve_variant
from simkit.variants.compiled import compile_rules

ROOT = Path(__file__).resolve().parents[1]
ROWS = ("guangxi", "guangxi-regional")
#: tests/test_rerank.py's TRIPS_AND_PAIRS
HANDS = (
    "3d 3h 3s Th Ts Jc Js Ad Ah 4s 5h 7d 8h",
    "4c 4d 4s 7s 8c 5d 5s 9c 9s Tc Kh Ac As",
    "2c 2s 5c 5d 5h 7d Td Ts 4h Qh Kc Ac Ad",
)
#: the rules the points are scored under: (label, transforms kept; None: as shipped)
RULES = (
    ("full rules", None),
    ("no home run", ("scoop", "t-formula")),
    ("no scoop nor home run", ("t-formula",)),
)


def _scoops(ranks: np.ndarray, v: Variant) -> np.ndarray:
    """``bool (n, p, p)``: player i scoops player j, by the scorer's rule for ``v``
    (:func:`simkit.score._scoops` on the duns won and lost)."""
    won = (ranks[:, :, None, :] > ranks[:, None, :, :]).sum(-1)
    lost = (ranks[:, :, None, :] < ranks[:, None, :, :]).sum(-1)
    if compile_rules(v, ranks.shape[1]).scoop_with_ties:
        return (lost == 0) & (won >= 1)
    return won == 3


def self_play(variant: str, games: int) -> dict:
    v = resolve_variant(variant)
    hands = deal(games, 4, rng=11).reshape(-1, 13)
    (a,) = arrangements([hands], [v], "expected-score", n_players=4, rng=0)
    normal = (a.declared.reshape(-1, 4) < 0).all(axis=1)
    beats = _scoops(a.ranks.reshape(-1, 4, 3)[normal], v)
    home = beats.sum(axis=2) == 3
    n_scoops = int(beats.sum())
    return {
        "variant": variant,
        "games": int(normal.sum()),
        "scoop_rate": n_scoops / (beats.shape[0] * 12),
        "home_given_scoop": float(home.sum() * 3 / n_scoops),
    }


def _variant_without(base: str, kept: tuple[str, ...], folder: Path):
    path = folder / f"{base}-{len(kept)}.toml"
    path.write_text(
        f'[variant]\nname = "{base}-check-{len(kept)}"\nextends = "{base}"\n'
        f'title = "{base} with transforms {kept}"\nsummary = "home_rate_check.py"\n'
        f'sources = ["000"]\n[scoring]\ntransforms = {json.dumps(list(kept))}\n',
        encoding="utf-8",
    )
    with warnings.catch_warnings():  # its tables are the base's
        warnings.simplefilter("ignore")
        return load_variant(path)


def _show(cards: np.ndarray) -> str:
    return " / ".join(format_cards(d, ascii=True) for d in (cards[:3], cards[3:8], cards[8:]))


def hand_check(rollouts: int) -> list[dict]:
    v = resolve_variant("guangxi-regional")
    rows = np.sort(np.stack([parse_cards(t) for t in HANDS]), axis=1)
    new, _ = ExpectedScoreRerank().choose_splits(rows, v, n_players=4)
    old, _ = ExpectedScoreRerank(home_rate=0.0).choose_splits(rows, v, n_players=4)
    out = []
    with tempfile.TemporaryDirectory() as folder:
        rules = {
            label: v if kept is None else _variant_without(v.name, kept, Path(folder))
            for label, kept in RULES
        }
        for k, row in enumerate(rows):
            splits = np.stack(
                [row[split_positions(ids[None].astype(np.int64))[0]] for ids in (old[k], new[k])]
            )
            opponents = _rollout_hands(row, 4, rollouts, np.random.default_rng(100 + k))
            dealt = opponents.reshape(-1, 13)
            (o,) = arrangements([dealt], [v], "expected-score", n_players=4, rng=0)
            normal = (o.declared.reshape(rollouts, 3) < 0).all(axis=1)
            opp_ranks = o.ranks.reshape(rollouts, 3, 3)[normal]
            entry = {"hand": HANDS[k], "splits": []}
            for split in splits:
                mine = np.broadcast_to(dun_ranks(split[None], v)[0], (opp_ranks.shape[0], 1, 3))
                beats = _scoops(np.concatenate([mine, opp_ranks], axis=1), v)
                scooped = beats[:, 1:, 0]
                home = beats[:, 1:].sum(axis=2) == 3  # an opponent scoops all three
                entry["splits"].append({
                    "split": _show(split),
                    "scooped": float(scooped.mean()),
                    "home_given_scooped": float(home[scooped].mean()) if scooped.any() else None,
                    "opponent_home_run": float(home.any(axis=1).mean()),
                    "points": {},
                })  # fmt: skip
            # the opponents as they set their cards under the variant, scored under each rules
            opp_cards = o.cards.reshape(rollouts, 3, 13)
            opp_decl = o.declared.reshape(rollouts, 3)
            games = np.empty((2, rollouts, 4, 13), dtype=np.int8)
            games[:, :, 0] = splits[:, None]
            games[:, :, 1:] = opp_cards[None]
            declared = np.full((2, rollouts, 4), -1, dtype=np.int8)
            declared[:, :, 1:] = opp_decl[None]
            for label, rv in rules.items():
                points = score(games.reshape(-1, 4, 13), rv, declared=declared.reshape(-1, 4))[
                    :, 0
                ].reshape(2, rollouts)
                diff = points[1] - points[0]
                for split_entry, p in zip(entry["splits"], points, strict=True):
                    split_entry["points"][label] = float(p.mean())
                entry.setdefault("gain", {})[label] = {
                    "mean": float(diff.mean()),
                    "ci95": Z95 * float(diff.std(ddof=1) / np.sqrt(diff.size)),
                }
            out.append(entry)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--rollouts", type=int, default=4000)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "strategy")
    a = ap.parse_args()
    if a.games < 100 or a.rollouts < 100:
        raise SystemExit("--games and --rollouts must be at least 100")
    start = time.perf_counter()
    play = [self_play(v, a.games) for v in ROWS]
    hands = hand_check(a.rollouts)
    elapsed = time.perf_counter() - start
    command = f"python experiments/home_rate_check.py --games {a.games} --rollouts {a.rollouts}"
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "home-rate-check.json").write_text(
        json.dumps({"command": command, "self_play": play, "hands": hands}, indent=2) + "\n",
        encoding="utf-8",
    )
    lines = [
        "# What an opponent's home run costs a split",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        f"`{command}` ({elapsed / 60:.1f} min here).",
        "",
        "| variant | games (no special) | scoop rate (a hand scoops a given other) | scoops all "
        "three, when it scoops one | the model's default: the scoop rate squared |",
        "|---|---|---|---|---|",
        *(
            f"| {p['variant']} | {p['games']:,} | {p['scoop_rate']:.4f} | "
            f"{p['home_given_scoop']:.4f} | {p['scoop_rate'] ** 2:.4f} |"
            for p in play
        ),
        "",
        "Guangxi-regional's hands, each split on the same deals (the first: without the home "
        "rate; the second: with it).  Points per hand; the gain is the second's over the "
        "first, 95% CI, paired.",
        "",
        "| hand | split | an opponent scoops it | a home run, when one does | some opponent's "
        "home run | points, full rules | no home run | no scoop nor home run |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for h in hands:
        for s in h["splits"]:
            p = s["points"]
            lines.append(
                f"| {h['hand']} | {s['split']} | {s['scooped']:.3f} | "
                f"{s['home_given_scooped']:.2f} | {s['opponent_home_run']:.3f} | "
                f"{p['full rules']:+.3f} | {p['no home run']:+.3f} | "
                f"{p['no scoop nor home run']:+.3f} |"
            )
        g = h["gain"]
        lines.append(
            "| | gain | | | | " + " | ".join(
                f"{g[label]['mean']:+.3f} ± {g[label]['ci95']:.3f}" for label, _ in RULES
            ) + " |"
        )  # fmt: skip
    lines.append("")
    (a.out / "home-rate-check.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
