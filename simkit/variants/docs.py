"""Variant documentation generated from the variant files: ``docs/variants.md``.

``simkit variants docs --out docs/variants.md`` writes it; a test checks that the committed file
is current.  Side-by-side tables (one column per shipped variant) of the scoring rules, the dun
worth table and the special-hand payouts, then each variant's rules with their sources.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from simkit.cards import RANK_CHARS
from simkit.variants import deck_option_names, load_variant, variant_names
from simkit.variants.rules import SPECIAL_KINDS, Deal, Deck, Phases, Variant
from simkit.variants.schema import describe_schema, to_plain
from simkit.variants.scoring_rules import CATEGORY_KEYS, Scoring

GENERATED_NOTE = (
    "<!-- Generated from simkit/variants/*.toml by `simkit variants docs --out "
    "docs/variants.md`; do not edit by hand. -->"
)


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(_cell(h) for h in header) + " |"]
    out.append("|" + "|".join("---" for _ in header) + "|")
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def describe_foul(s: Scoring) -> str:
    """The ``[scoring.foul]`` rule in a few words: the dun order a hand must keep and what a
    fouled hand pays."""
    if s.foul.front_middle == "<top-three":
        order = f"front < middle's top three, middle {s.foul.middle_back} back"
    else:
        order = f"front {s.foul.front_middle} middle {s.foul.middle_back} back"
    if s.foul.penalty == "lose-all":
        pay = "loses every dun"
    elif s.foul.penalty == "fixed":
        pay = f"pays {_num(s.foul.amount)} each"
    else:
        of = "all hands'" if s.foul.biggest_of == "all-hands" else "normal hands'"
        pay = f"pays max({_num(s.foul.amount)}, the {of} biggest dun) each"
    return f"{order}; {pay}"


def describe_scoop(s: Scoring, n_players: int = 4) -> str:
    """The ``[scoring.scoop]`` rule in a few words (``–`` for none): the points it adds
    (those at ``n_players``, the size the text names) or what it doubles, and its conditions.
    Raises ``IndexError`` where the added points list no entry for ``n_players``."""
    sc = s.scoop
    if sc.mode == "none":
        return "–"
    if sc.mode == "add":
        text = f"+{_num(sc.points[n_players - 2])} ({n_players} players)"
    else:
        text = "doubles " + ("dun count" if sc.doubles == "base" else "duns + bonuses")
    if sc.with_ties:
        text += ", ties count"
    if sc.requires_no_specials:
        text += ", only without specials"
    return text


def describe_home_run(s: Scoring) -> str:
    """The ``[scoring.home_run]`` rule in a few words (``–`` for none): its extra points,
    its factor, how it is split and the fewest players it needs."""
    hr = s.home_run
    if not hr.enabled:
        return "–"
    parts = []
    if hr.extra_per_opponent:
        parts.append(f"+{_num(hr.extra_per_opponent)} per opponent")
    if hr.extra_two_players:
        parts.append(f"+{_num(hr.extra_two_players)} at 2 players")
    factor = "×(p−1)" if hr.factor == "p-minus-1" else f"×{_num(float(hr.factor))}"
    if hr.doubles == "base":
        factor += " the dun count"
    parts.append(factor + (" per pair" if hr.split == "pairs" else ", others pay evenly"))
    return "; ".join(parts) + f" (≥{hr.min_players} players)"


def describe_t_formula(s: Scoring) -> str:
    """The ``[scoring.t_formula]`` rule in a few words (``–`` for none): the payments at 4
    and 3 players, what ranks the hands and what t is."""
    t = s.t_formula
    if not t.enabled:
        return "–"
    return f"±3t/±t (4), ±2t/0 (3); key {t.rank_by}; t = {t.t}"


def describe_majority(s: Scoring) -> str:
    """The ``[scoring.majority]`` rule in a few words (``–`` for none): its points, the rule
    that wins it and whether it replaces the dun points."""
    m = s.majority
    if not m.enabled:
        return "–"
    text = f"+{_num(m.points)} for {m.rule}"
    return text + (" (replaces duns)" if m.replaces_duns else "")


def describe_horse(s: Scoring) -> str:
    """The ``[scoring.horse]`` rule (马牌) in a few words (``–`` for none): the card, what
    it multiplies and by how much per copy."""
    h = s.horse
    if not h.enabled:
        return "–"
    if h.counts == "winning-dun":
        return f"{h.card}: a winning dun holding it ×{_num(h.multiplier)} per copy"
    return f"{h.card}: the holder's result ×{_num(h.multiplier)} per copy"


def describe_specials(s: Scoring) -> str:
    """How declared specials meet (``[scoring.specials]``) in a few words: against whom
    they are compared, the all-special rule, stacking and the 通杀 sweep factors."""
    sp = s.specials
    text: str = sp.versus
    if sp.all_special != "pairwise":
        text += f"; all special: {sp.all_special}"
    if sp.stack:
        text += "; stack"
    if sp.sweep:
        swept = ", ".join(f"{k} ×{_num(v)}" for k, v in sp.sweep.items())
        text += f"; 通杀: {swept}"
    return text


def _overview(variants: list[Variant]) -> list[str]:
    rows = [
        ("topology", lambda s: s.topology),
        ("comparison", lambda s: s.compare),
        ("foul", describe_foul),
        ("dun bonuses", lambda s: s.duns.mode),
        ("majority", describe_majority),
        ("打枪 scoop", describe_scoop),
        ("全垒打 home run", describe_home_run),
        ("t-formula", describe_t_formula),
        ("马牌 horse", describe_horse),
        ("specials meet", describe_specials),
        ("transforms", lambda s: " → ".join(s.transforms) or "–"),
    ]
    header = ["rule", *[v.name for v in variants]]
    table = [[name, *[fn(v.scoring) for v in variants]] for name, fn in rows]
    table.append(["[deal] 3-card pass", *[describe_pass(v.deal) for v in variants]])
    table.append(["[deal] exchange", *["换牌" if v.deal.exchange.play else "–" for v in variants]])
    table.append(["[phases]", *[describe_phases(v.phases) for v in variants]])
    table.append(["[deck]", *[describe_deck(v.deck) for v in variants]])
    return _table(header, table)


def describe_deck(deck: Deck) -> str:
    """The ``[deck]`` a variant is played with and the table sizes it serves."""
    sizes = ", ".join(map(str, deck.players))
    return f"{deck.describe()}, {sizes} players"


def describe_phases(phases: Phases) -> str:
    """The ``[phases]`` a variant plays, in a few words (``–`` for none)."""
    played = []
    if phases.bidding.enabled:
        played.append(
            "抢庄 "
            + (f"bid {_num(phases.bidding.bid)}" if phases.bidding.bid is not None else "fair bid")
        )
    if phases.negotiation.enabled:
        played.append("谈判")
    if phases.surrender.enabled:
        played.append(f"抛牌 {_num(phases.surrender.cost)} {phases.surrender.when}")
    return ", ".join(played) or "–"


def describe_pass(deal: Deal) -> str:
    """The ``[deal]`` card pass in a few words (``–`` for none): rounds and direction, or
    the banker's choice, and the cards passed."""
    p = deal.passing
    if p.choice == "banker":
        return f"banker's choice, {p.cards} cards"
    return f"{p.rounds} {p.direction}, {p.cards} cards" if p.rounds else "–"


def _dun_worths(variants: list[Variant]) -> list[str]:
    rows = []
    for pos in ("front", "middle", "back"):
        cats = [
            c for c in CATEGORY_KEYS if any(c in getattr(v.scoring.duns, pos) for v in variants)
        ]
        for cat in cats:
            row = [f"{pos} {cat}"]
            for v in variants:
                table = getattr(v.scoring.duns, pos)
                if cat not in table:
                    row.append("1" if v.scoring.duns.mode == "total" else "+0")
                elif v.scoring.duns.mode == "total":
                    row.append(_num(table[cat]))
                else:
                    row.append(f"+{_num(table[cat])}")
            rows.append(row)
    return _table(["dun won with", *[v.name for v in variants]], rows)


def _payouts(variants: list[Variant]) -> list[str]:
    rows = []
    for special_id, kind in SPECIAL_KINDS.items():
        if not any(special_id in v.specials.ids for v in variants):
            continue
        row = [f"{kind.name} {special_id}"]
        for v in variants:
            if special_id in v.specials.ids:
                rank = v.specials.ids.index(special_id) + 1
                row.append(f"{_num(v.specials.get(special_id).payout)} (#{rank})")
            else:
                row.append("–")
        rows.append(row)
    return _table(["special", *[v.name for v in variants]], rows)


def _sources(variant: Variant) -> list[str]:
    out = [f"## {variant.name}: {variant.title}", ""]
    if variant.summary:
        out += [variant.summary, ""]
    if variant.sources:
        out += ["Sources: " + ", ".join(variant.sources), ""]
    out += [f"- {note}" for note in variant.notes]
    if variant.notes:
        out.append("")
    s = variant.scoring
    cited = [("deck", variant.deck.source), ("ranking", variant.ranking.source)]
    cited.append(("deal", variant.deal.source))
    cited.append(("deal.passing", variant.deal.passing.source))
    cited.append(("deal.exchange", variant.deal.exchange.source))
    cited.append(("phases", variant.phases.source))
    for f in dataclasses.fields(variant.phases):
        part = getattr(variant.phases, f.name)
        if dataclasses.is_dataclass(part):
            cited.append((f"phases.{f.name}", getattr(part, "source", "")))
    cited.append(("specials", variant.specials.source))
    cited += [(f"specials.{rule.id}", rule.source) for rule in variant.specials.rules]
    cited.append(("scoring", s.source))
    for f in dataclasses.fields(s):  # every [scoring.X] table: a dataclass with its source
        part = getattr(s, f.name)
        if dataclasses.is_dataclass(part):
            cited.append((f"scoring.{f.name}", getattr(part, "source", "")))
    out += _table(["rule", "source"], [[name, src] for name, src in cited if src])
    out.append("")
    return out


def _schema() -> list[str]:
    rows = []
    sections: list[tuple[str, Any]] = []
    defaults = (("deck", Deck()), ("deal", Deal()), ("phases", Phases()), ("scoring", Scoring()))
    for name, default in defaults:
        sections.append((name, default))
        for f in dataclasses.fields(default):
            value = getattr(default, f.name)
            if dataclasses.is_dataclass(value):
                sections.append((f"{name}.{f.name}", value))
    for section, obj in sections:
        plain = to_plain(obj)
        for key, type_name in describe_schema(type(obj)):
            value = plain[key]
            if isinstance(value, dict) and key not in ("front", "middle", "back"):
                continue  # a sub-table: its own rows
            rows.append([f"[{section}]", key, type_name, _value(value)])
    return _table(["section", "key", "type", "default"], rows)


def _deck_options() -> list[str]:
    rows = []
    for name in deck_option_names():
        v = load_variant(name)
        five = v.ranking.five_suit_straight
        rows.append([name, describe_deck(v.deck), "–" if five == "off" else f"五彩同花顺 {five}"])
    return _table(["deck option", "deck", "ranking"], rows)


def render_variants_doc() -> str:
    """The whole ``docs/variants.md`` text, from the shipped variant files."""
    variants = [load_variant(name) for name in variant_names()]
    lines = [
        GENERATED_NOTE,
        "",
        "# Variants",
        "",
        "Each shipped variant is a TOML file under `simkit/variants/`; a file of your own can",
        'start from one (`[variant] extends = "guangxi"`) and change any key.',
        "`simkit variants show NAME` prints a variant's resolved rules.",
        "",
        "## Scoring rules",
        "",
        *_overview(variants),
        "",
        "## What a dun won is worth",
        "",
        "Totals (`1`: a plain dun) or, in `added` mode, `+n` on top of the dun's 1, paid by the "
        "loser.",
        "",
        *_dun_worths(variants),
        "",
        "## Special hands: payout per opponent (order in the variant)",
        "",
        *_payouts(variants),
        "",
        "## Deck options",
        "",
        "Shipped variants played with another pack (`simkit/variants/decks/`; they load by name "
        "like a variant).  A variant serves other table sizes than its `[deck]` names with the "
        "usual pack: two decks for 5 to 8 players.",
        "",
        *_deck_options(),
        "",
        "## The `[deck]`, `[deal]`, `[phases]` and `[scoring]` keys",
        "",
        "What each key means is documented on its dataclass in `simkit/variants/rules.py` "
        "(`[deal]`) and `simkit/variants/scoring_rules.py` (`[scoring]`); an unknown key is an "
        "error that lists the valid ones.  `[scoring].transforms` alone puts a transform in "
        "play (in its order); the tables `scoop`, `home_run`, `t_formula` and `horse` hold its "
        "parameters.",
        "",
        *_schema(),
        "",
    ]
    for v in variants:
        lines += _sources(v)
    return "\n".join(lines).rstrip("\n") + "\n"


def render_variant(variant: Variant) -> str:
    """A variant's resolved rules as TOML-like text (``simkit variants show``)."""
    lines = [f"# {variant.key}  ({variant.path})", "", "[variant]"]
    lines += [f"name = {variant.name!r}", f"title = {variant.title!r}"]
    if variant.summary:
        lines.append(f"summary = {variant.summary!r}")
    lines += ["", "[ranking]"]
    lines += _plain_lines(to_plain(variant.ranking))
    lines += ["", *_section_lines("deal", to_plain(variant.deal))]
    lines += ["", "[specials]", f"order = {list(variant.specials.ids)!r}"]
    for rule in variant.specials.rules:
        lines += ["", f"[specials.{rule.id}]  # {rule.name}", f"payout = {_num(rule.payout)}"]
        options = to_plain(rule.options)
        if "ranks" in options:  # stored as rank ints; show them as written in the files
            options["ranks"] = [RANK_CHARS[r] for r in options["ranks"]]
        lines += _plain_lines(options)
        if rule.source:
            lines.append(f"source = {rule.source!r}")
    lines += ["", *_section_lines("scoring", to_plain(variant.scoring))]
    if variant.phases.any_enabled:
        lines += ["", *_section_lines("phases", to_plain(variant.phases))]
    return "\n".join(lines) + "\n"


def _plain_lines(table: dict[str, Any]) -> list[str]:
    return [
        f"{k} = {_value(v)}"
        for k, v in table.items()
        if not isinstance(v, dict) or not v or not all(isinstance(x, dict) for x in v.values())
    ]


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return _num(v)
    if isinstance(v, dict) and not v:
        return "{}"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return repr(v)


def _section_lines(name: str, table: dict[str, Any]) -> list[str]:
    out = [f"[{name}]"]
    subsections = []
    for key, value in table.items():
        if isinstance(value, dict) and key not in ("front", "middle", "back"):
            subsections.append((key, value))
        elif value is not None:  # an absent optional key (a bid left to the fair bid)
            out.append(f"{key} = {_value(value)}")
    for key, value in subsections:
        out += ["", *_section_lines(f"{name}.{key}", value)]
    return out
