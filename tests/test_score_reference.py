"""A slow reference scorer, one game at a time in plain Python from the rule text, and its
agreement with the vectorized :func:`simkit.score.score` on random games of every variant.

The reference keeps a ledger: for every pair that compares, what the first player wins from the
second, component by component; table-wide rules (t-formula, even-split home run, the §4.3 place
settlement) write per-player amounts.  Nothing is shared with the kernel except the hand ranks.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import N_VARIANTS

from simkit.cards import DECK_SIZE
from simkit.deal import deal
from simkit.evaluate import rank3, rank5, top_three
from simkit.score import COMPONENTS, score
from simkit.variants import load_variant, variant_names
from simkit.variants.scoring_rules import CATEGORY_KEYS


def dun_ranks(hand: list[int], variant) -> tuple[int, int, int]:
    return (
        int(rank3(np.array(hand[:3], dtype=np.int8), variant)),
        int(rank5(np.array(hand[3:8], dtype=np.int8), variant)),
        int(rank5(np.array(hand[8:], dtype=np.int8), variant)),
    )


def is_fouled(ranks: tuple[int, int, int], variant) -> bool:
    """倒水: the dun order of the variant is broken."""
    foul = variant.scoring.foul
    front, middle, back = ranks
    if foul.front_middle == "<top-three":  # below the middle's top three (evaluate.top_three)
        ok_front = front < int(top_three(np.int32(middle)))
    else:
        ok_front = front < middle if foul.front_middle == "<" else front <= middle
    ok_back = middle < back if foul.middle_back == "<" else middle <= back
    return not (ok_front and ok_back)


def dun_worth(position: int, rank: int, variant) -> float:
    """What winning this dun is worth: the table's total, or 1 plus the table's addition."""
    duns = variant.scoring.duns
    table = (duns.front, duns.middle, duns.back)[position]
    category = CATEGORY_KEYS[rank >> 20]
    if duns.mode == "total":
        return float(table.get(category, 1.0))
    return 1.0 + float(table.get(category, 0.0))


def place_payments(keys: dict[int, float], t: float) -> dict[int, float]:
    """Places paid (q-1-2k)t, best key first; tied players share the mean of their places."""
    q = len(keys)
    ordered = sorted(keys, key=lambda i: -keys[i])
    pay_of_place = [(q - 1 - 2 * k) * t for k in range(q)]
    out = {}
    for i in keys:
        places = [k for k, j in enumerate(ordered) if keys[j] == keys[i]]
        out[i] = sum(pay_of_place[k] for k in places) / len(places)
    return out


def pivot_payments(keys: dict[int, float], t: float) -> dict[int, float]:
    """000/002 §4.3 second method, best key first: place m = q/2 (from 1) scores 0, a place k
    below it pays (k - m)t, the places above share that in proportion to m - k; tied players
    share the mean of their places."""
    q = len(keys)
    m = q / 2
    below = [k - m for k in range(1, q + 1) if k > m]
    above = [m - k for k in range(1, q + 1) if k < m]
    pay_of_place = []
    for k in range(1, q + 1):
        if k > m:
            pay_of_place.append(-(k - m) * t)
        elif k == m:
            pay_of_place.append(0.0)
        else:
            pay_of_place.append(sum(below) * t * (m - k) / sum(above))
    ordered = sorted(keys, key=lambda i: -keys[i])
    out = {}
    for i in keys:
        places = [k for k, j in enumerate(ordered) if keys[j] == keys[i]]
        out[i] = sum(pay_of_place[k] for k in places) / len(places)
    return out


def reference_score(hands, variant, declared=None, banker=0, horse_card=None, skipped=()) -> dict:
    """Scores of one game: ``{component: [points per player]}``; ``skipped``: the pairs
    ``(i, j)`` that skip the comparison (谈判, 抛牌), left out of every rule below."""
    s = variant.scoring
    p = len(hands)
    hands = [list(map(int, h)) for h in hands]
    declared = [-1] * p if declared is None else [int(d) for d in declared]
    rules = variant.specials.rules
    ranks = [dun_ranks(h, variant) for h in hands]
    fouled = [is_fouled(r, variant) for r in ranks]
    special = [d >= 0 for d in declared]
    normal = [not special[i] and not fouled[i] for i in range(p)]
    payout = [rules[d].payout if d >= 0 else 0.0 for d in declared]

    if s.topology == "banker":
        pairs = [(banker, j) for j in range(p) if j != banker]
    else:
        pairs = [(i, j) for i in range(p) for j in range(i + 1, p)]
    pairs = [(i, j) for i, j in pairs if (i, j) not in skipped and (j, i) not in skipped]
    ledger: dict[tuple[int, int], dict[str, float]] = {}
    per_player = {c: [0.0] * p for c in COMPONENTS}

    def pay(comp: str, winner: int, loser: int, amount: float) -> None:
        ledger.setdefault((winner, loser), dict.fromkeys(COMPONENTS, 0.0))
        ledger.setdefault((loser, winner), dict.fromkeys(COMPONENTS, 0.0))
        ledger[(winner, loser)][comp] += amount
        ledger[(loser, winner)][comp] -= amount

    def pair_total(i: int, j: int) -> float:
        return sum(ledger.get((i, j), {}).values())

    biggest = max(
        [dun_worth(d, ranks[i][d], variant) for i in range(p) if normal[i] for d in range(3)],
        default=1.0,
    )
    biggest = max(biggest, 1.0)
    wins: dict[tuple[int, int], list[int]] = {}  # +1 / 0 / -1 per dun, from the first's side
    for i, j in pairs:
        if special[i] or special[j]:
            if special[i] and special[j]:
                if s.specials.versus == "banker-pays" and s.topology == "banker":
                    player = j if i == banker else i
                    pay("specials", player, banker, payout[player])
                elif declared[i] < declared[j]:
                    pay("specials", i, j, payout[i])
                elif declared[j] < declared[i]:
                    pay("specials", j, i, payout[j])
            elif special[i]:
                pay("specials", i, j, payout[i])
            else:
                pay("specials", j, i, payout[j])
            continue
        if fouled[i] and fouled[j]:
            continue
        if fouled[i] or fouled[j]:
            f, o = (i, j) if fouled[i] else (j, i)
            if s.foul.penalty == "lose-all":
                if s.majority.enabled and s.majority.replaces_duns:
                    amount = s.majority.points
                else:
                    amount = sum(dun_worth(d, ranks[o][d], variant) for d in range(3))
                    if s.majority.enabled:
                        amount += s.majority.points
            elif s.foul.penalty == "fixed":
                amount = s.foul.amount
            else:
                sized_by = [k for k in range(p) if normal[k]]
                if s.foul.biggest_of == "all-hands":
                    sized_by += [k for k in range(p) if fouled[k] and not special[k]]
                amount = max(
                    [s.foul.amount, 1.0]
                    + [dun_worth(d, ranks[k][d], variant) for k in sized_by for d in range(3)]
                )
            if ranks[f][0] > ranks[f][1] > ranks[f][2]:  # both orders broken
                amount *= s.foul.severe_factor
            pay("fouls", o, f, amount)
            continue
        result = []
        for d in range(3):
            if s.compare == "top-card":
                # category first, then only the highest card's rank
                cut = slice([0, 3, 8][d], [3, 8, 13][d])
                a = (ranks[i][d] >> 20, max(c >> 2 for c in hands[i][cut]))
                b = (ranks[j][d] >> 20, max(c >> 2 for c in hands[j][cut]))
                if a == b and s.topology == "banker":
                    result.append(1 if i == banker else -1)
                    continue
            else:
                a, b = ranks[i][d], ranks[j][d]
            result.append((a > b) - (a < b))
        wins[(i, j)] = result
        wins[(j, i)] = [-r for r in result]
        replaced = s.majority.enabled and s.majority.replaces_duns
        for d, r in enumerate(result):
            if replaced or r == 0:
                continue
            winner, loser = (i, j) if r > 0 else (j, i)
            pay("duns", winner, loser, 1.0)
            pay("bonuses", winner, loser, dun_worth(d, ranks[winner][d], variant) - 1.0)
        if s.majority.enabled:
            n_win, n_lose = result.count(1), result.count(-1)
            if s.majority.rule == "two-wins":
                outcome = 1 if n_win >= 2 else (-1 if n_lose >= 2 else 0)
            else:
                outcome = (n_win > n_lose) - (n_win < n_lose)
            if outcome:
                winner, loser = (i, j) if outcome > 0 else (j, i)
                pay("majority", winner, loser, s.majority.points)

    by_places = s.specials.all_special == "places" or (s.specials.all_special == "pivot" and p >= 4)
    if by_places and all(special):
        for key in ledger:
            ledger[key]["specials"] = 0.0
        paid = pivot_payments if s.specials.all_special == "pivot" else place_payments
        places = paid({i: -declared[i] for i in range(p)}, max(payout))
        for i in range(p):
            per_player["specials"][i] += places[i]

    for i in range(p):  # 通杀 of a special: it collected from every other player
        multiplier = (
            s.specials.sweep.get(variant.specials.ids[declared[i]], 1.0) if special[i] else 1.0
        )
        others = [j for j in range(p) if j != i]
        if multiplier > 1 and all(
            (i, j) in ledger and ledger[(i, j)]["specials"] > 0 for j in others
        ):
            for j in others:
                pay("specials", i, j, (multiplier - 1) * ledger[(i, j)]["specials"])

    def scoops(i: int, j: int) -> bool:
        result = wins.get((i, j))
        if result is None:
            return False
        if s.scoop.with_ties:
            return -1 not in result and 1 in result
        return result == [1, 1, 1]

    for transform in s.transforms:
        if transform == "scoop":
            if s.scoop.requires_no_specials and any(special):
                continue
            for i, j in list(wins):
                if not scoops(i, j):
                    continue
                row = ledger[(i, j)]
                if s.scoop.mode == "add":
                    pay("scoops", i, j, s.scoop.points[p - 2])
                elif s.scoop.doubles == "all":
                    pay("scoops", i, j, row["duns"] + row["bonuses"] + row["majority"])
                else:
                    pay("scoops", i, j, row["duns"])
        elif transform == "home-run":
            hr = s.home_run
            if p < hr.min_players:
                continue

            def beaten(i: int, j: int, hr=hr) -> bool:
                if scoops(i, j):
                    return True
                compared = (i, j) in pairs or (j, i) in pairs
                return (
                    hr.fouled == "beaten"
                    and compared
                    and fouled[j]
                    and not fouled[i]
                    and not special[i]
                    and not special[j]
                )

            runners = [
                i
                for i in range(p)
                if all(beaten(i, j) for j in range(p) if j != i)
                and any(scoops(i, j) for j in range(p))
            ]
            if not runners:
                continue
            (r,) = runners
            factor = float(p - 1) if hr.factor == "p-minus-1" else float(hr.factor)
            extra = hr.extra_two_players if p == 2 else hr.extra_per_opponent

            def multiplied(j: int, r: int = r, hr=hr) -> float:
                if hr.doubles == "all":
                    return pair_total(r, j)
                # the dun count, and the scoop's doubling of it when the scoop doubles
                row = ledger[(r, j)]
                doubled = s.scoop.mode == "double" and row["scoops"] != 0.0
                return row["duns"] * (2.0 if doubled else 1.0)

            if hr.split == "pairs":
                for j in range(p):
                    if j != r:
                        pay("home_run", r, j, (factor - 1) * multiplied(j) + extra)
            else:
                own = sum(multiplied(j) for j in range(p) if j != r)
                if hr.doubles == "all":
                    own += sum(per_player[c][r] for c in COMPONENTS)
                gain = (factor - 1) * own + extra * (p - 1)
                per_player["home_run"][r] += gain
                for j in range(p):
                    if j != r:
                        per_player["home_run"][j] -= gain / (p - 1)
        elif transform == "t-formula":
            members = [i for i in range(p) if normal[i]]
            if len(members) < s.t_formula.min_players:
                continue
            keys = {}
            for i in members:
                keys[i] = sum(
                    ledger[(i, j)]["duns"] + ledger[(i, j)]["bonuses"] + ledger[(i, j)]["majority"]
                    for j in members
                    if j != i and (i, j) in ledger
                )
            for i, amount in place_payments(keys, biggest).items():
                per_player["t_formula"][i] += amount
            for i in members:
                for j in members:
                    if (i, j) in ledger:
                        for c in ("duns", "bonuses", "majority"):
                            ledger[(i, j)][c] = 0.0
        elif transform == "horse":
            card = s.horse.card_int if horse_card is None else horse_card
            held = [h.count(card) for h in hands]
            if s.horse.counts == "winning-dun":
                if s.majority.enabled and s.majority.replaces_duns:
                    continue  # the duns score nothing
                for i, j in pairs:
                    for d, r in enumerate(wins.get((i, j), [])):
                        if r == 0:
                            continue
                        winner, loser = (i, j) if r > 0 else (j, i)
                        cut = slice([0, 3, 8][d], [3, 8, 13][d])
                        copies = hands[winner][cut].count(card)
                        if copies:
                            worth = dun_worth(d, ranks[winner][d], variant)
                            pay("horse", winner, loser, (s.horse.multiplier**copies - 1) * worth)
                continue
            for i, j in pairs:
                copies = held[i] + held[j]
                if copies:
                    factor = s.horse.multiplier**copies
                    pay("horse", i, j, (factor - 1) * pair_total(i, j))

    out = {c: list(per_player[c]) for c in COMPONENTS}
    for (i, _j), row in ledger.items():
        for c, amount in row.items():
            out[c][i] += amount
    return out


def shuffled_arrangements(n_games: int, n_players: int, rng: np.random.Generator) -> np.ndarray:
    """Dealt hands with each hand's 13 cards in random order: fouls are frequent."""
    hands = deal(n_games, n_players, rng=rng)
    keys = rng.random(hands.shape)
    return np.take_along_axis(hands, np.argsort(keys, axis=2), axis=2)


def blocked_arrangements(n_games: int, n_players: int, rng: np.random.Generator) -> np.ndarray:
    """Hands dealt from a deck ordered by rank blocks (quads, trips and full houses abound),
    split at random, the middle and back swapped when the middle is the bigger: bonuses, scoops
    and home runs occur often."""
    out = np.empty((n_games, n_players, 13), dtype=np.int8)
    for g in range(n_games):
        order = rng.permutation(13)
        deck = np.concatenate([4 * r + rng.permutation(4) for r in order])
        for i in range(n_players):
            hand = deck[13 * i : 13 * i + 13].copy()
            rng.shuffle(hand)
            if int(rank5(hand[3:8])) > int(rank5(hand[8:])):
                hand[3:8], hand[8:] = hand[8:].copy(), hand[3:8].copy()
            out[g, i] = hand
    return out


def random_declared(n_games, n_players, n_specials, rng, rate) -> np.ndarray:
    declared = np.full((n_games, n_players), -1, dtype=np.int8)
    if n_specials:
        on = rng.random((n_games, n_players)) < rate
        declared[on] = rng.integers(0, n_specials, size=int(on.sum()))
    return declared


def test_registry_count() -> None:
    assert len(variant_names()) == N_VARIANTS


def check_agreement(variant, hands, declared, banker, horse=None, skipped=None) -> None:
    total, comps = score(
        hands,
        variant,
        declared=declared,
        banker=banker,
        horse=horse,
        breakdown=True,
        skipped=skipped,
    )
    for g in range(hands.shape[0]):
        pairs_skipped = () if skipped is None else set(zip(*np.nonzero(skipped[g]), strict=True))
        ref = reference_score(hands[g], variant, declared[g], banker, horse, pairs_skipped)
        for c in COMPONENTS:
            np.testing.assert_allclose(
                comps[c][g],
                ref[c],
                atol=1e-9,
                err_msg=f"{variant.name} game {g} component {c}: hands {hands[g].tolist()} "
                f"declared {declared[g].tolist()}",
            )
        np.testing.assert_allclose(total[g], np.sum([ref[c] for c in COMPONENTS], axis=0))


@pytest.mark.parametrize("name", variant_names())
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_reference_agrees_on_random_games(name: str, n_players: int) -> None:
    """Shuffled hands (fouls), rank-blocked hands (bonuses, scoops, home runs), some declared
    specials: the vectorized scorer matches the reference component by component."""
    variant = load_variant(name)
    rng = np.random.default_rng([n_players, len(name)])
    n = 25
    n_specials = len(variant.specials.rules)
    for hands, rate in (
        (shuffled_arrangements(n, n_players, rng), 0.1),
        (blocked_arrangements(n, n_players, rng), 0.0),
        (blocked_arrangements(n, n_players, rng), 0.15),
    ):
        declared = random_declared(n, n_players, n_specials, rng, rate)
        banker = int(rng.integers(n_players))
        check_agreement(variant, hands, declared, banker)


@pytest.mark.parametrize("name", variant_names())
def test_reference_agrees_with_two_decks(name: str) -> None:
    """Six players, two decks: five of a kind and two copies of the horse card can occur."""
    variant = load_variant(name)
    rng = np.random.default_rng(6)
    hands = deal(20, 6, rng=rng)
    keys = rng.random(hands.shape)
    hands = np.take_along_axis(hands, np.argsort(keys, axis=2), axis=2)
    declared = random_declared(20, 6, len(variant.specials.rules), rng, 0.1)
    check_agreement(variant, hands, declared, banker=2)


@pytest.mark.parametrize(
    "override",
    [
        {"compare": "top-card"},
        {"topology": "all-pairs"},
        {"specials": {"all_special": "places"}},
        {"specials": {"all_special": "pivot"}},
        {"foul": {"penalty": "biggest-hand", "biggest_of": "all-hands"}},
        {"topology": "all-pairs", "specials": {"all_special": "pivot"}},
        {"majority": {"enabled": True, "replaces_duns": True, "rule": "two-wins"}},
        {"foul": {"penalty": "fixed", "amount": 5}},
        {"scoop": {"doubles": "all"}},
        {"home_run": {"doubles": "all"}},
        {"home_run": {"doubles": "base", "split": "even"}},
        {"scoop": {"doubles": "all"}, "home_run": {"doubles": "base"}},
        {"specials": {"sweep": {"dragon": 2, "three-flushes": 3}}},
        {"topology": "all-pairs", "specials": {"sweep": {"dragon": 2, "three-flushes": 3}}},
        {"home_run": {"fouled": "beaten"}},
        {"home_run": {"fouled": "beaten", "doubles": "all"}},
        {"topology": "all-pairs", "home_run": {"fouled": "beaten", "split": "even"}},
        {"foul": {"severe_factor": 2.5}},
        {"foul": {"penalty": "fixed", "amount": 5, "severe_factor": 2}},
    ],
)
def test_reference_agrees_on_options(override: dict, tmp_path) -> None:
    """The options the shipped files leave off (食夹棍, 四人对比, §4.3 places, match-only
    majority...) agree with the reference too."""

    lines = ["[variant]", 'name = "opt"', 'extends = "taiwan"', "[scoring]"]
    tables = []
    for key, value in override.items():
        if isinstance(value, dict):
            tables.append(f"[scoring.{key}]")
            tables += [f"{k} = {_toml(v)}" for k, v in value.items()]
        else:
            lines.append(f"{key} = {_toml(value)}")
    path = tmp_path / "opt.toml"
    path.write_text("\n".join(lines + tables) + "\n", encoding="utf-8")
    variant = load_variant(path)
    rng = np.random.default_rng(11)
    n_specials = len(variant.specials.rules)
    for hands, rate in (
        (shuffled_arrangements(40, 4, rng), 0.1),
        (blocked_arrangements(40, 4, rng), 0.0),
        (blocked_arrangements(20, 4, rng), 0.9),
    ):
        declared = random_declared(len(hands), 4, n_specials, rng, rate)
        check_agreement(variant, hands, declared, banker=int(rng.integers(4)))


@pytest.mark.parametrize(
    "text",
    [
        '[scoring.horse]\ncounts = "whole-result"',
        "[scoring.horse]\nmultiplier = 3",
        '[scoring]\ncompare = "top-card"\ntopology = "banker"',
        "[scoring.majority]\nreplaces_duns = true",
    ],
)
def test_reference_agrees_on_horse_options(text: str, tmp_path) -> None:
    """马牌 by the winning dun (qiantang's reading) and by the whole result, with 食夹棍 and a
    match-only majority; two decks bring 双马牌."""
    path = tmp_path / "opt.toml"
    path.write_text(f'[variant]\nname = "opt"\nextends = "qiantang"\n{text}\n', encoding="utf-8")
    variant = load_variant(path)
    rng = np.random.default_rng(12)
    n_specials = len(variant.specials.rules)
    for hands, rate in (
        (blocked_arrangements(40, 4, rng), 0.0),
        (shuffled_arrangements(40, 4, rng), 0.05),
    ):
        declared = random_declared(len(hands), 4, n_specials, rng, rate)
        check_agreement(variant, hands, declared, banker=int(rng.integers(4)))
    hands = deal(20, 6, rng=rng)
    hands = np.take_along_axis(hands, np.argsort(rng.random(hands.shape), axis=2), axis=2)
    check_agreement(variant, hands, random_declared(20, 6, n_specials, rng, 0.05), banker=1)


def test_reference_agrees_with_another_horse_card() -> None:
    variant = load_variant("qiantang")
    rng = np.random.default_rng(4)
    hands = blocked_arrangements(30, 4, rng)
    declared = random_declared(30, 4, len(variant.specials.rules), rng, 0.05)
    for card in (0, 17, DECK_SIZE - 1):
        check_agreement(variant, hands, declared, banker=0, horse=card)


def _toml(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def random_skipped(n_games: int, n_players: int, rng: np.random.Generator, rate: float):
    """Symmetric masks of pairs that skip the comparison, each pair with probability ``rate``."""
    upper = np.triu(rng.random((n_games, n_players, n_players)) < rate, k=1)
    return upper | upper.transpose(0, 2, 1)


@pytest.mark.parametrize("name", ["qiantang", "taiwan", "guangxi", "hongkong", "wiki-points"])
@pytest.mark.parametrize("rate", [0.15, 0.5])
def test_reference_agrees_with_skipped_pairs(name: str, rate: float) -> None:
    """Pairs that skip the comparison (谈判, 抛牌; ``score(skipped=)``): the scorer leaves them out
    of the dun points, 打枪, 全垒打, 通杀 and the horse card exactly as the reference does, on
    hands where home runs are frequent."""
    variant = load_variant(name)
    rng = np.random.default_rng([7, len(name), int(rate * 100)])
    n_specials = len(variant.specials.rules)
    for n_players in (3, 4):
        for hands, special_rate in (
            (blocked_arrangements(40, n_players, rng), 0.0),
            (shuffled_arrangements(30, n_players, rng), 0.1),
            (blocked_arrangements(30, n_players, rng), 0.3),
        ):
            declared = random_declared(len(hands), n_players, n_specials, rng, special_rate)
            skipped = random_skipped(len(hands), n_players, rng, rate)
            check_agreement(variant, hands, declared, banker=0, skipped=skipped)
