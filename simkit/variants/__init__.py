"""Variants: each regional rule set is a TOML file, loaded by one strict loader.

>>> from simkit.variants import load_variant, variant_names
>>> "guangxi" in variant_names()
True
>>> load_variant("qiantang").ranking.wheel
'lowest'

A file may start from another with ``extends = "NAME"`` (a shipped name or a path relative to
the file) in its ``[variant]`` table; its tables are merged key by key over the base, lists and
scalars replacing the base's.  Unknown keys, wrong types and unknown special names are errors
that name the file, the key and the valid choices.

The layer's parts: :mod:`~simkit.variants.schema` (the one strict loader of every table),
:mod:`~simkit.variants.rules` (the sections and the :class:`Variant`, whose name and key are
derived), :mod:`~simkit.variants.scoring_rules` (``[scoring]``),
:mod:`~simkit.variants.special_kinds` (the registry of special hands) and
:mod:`~simkit.variants.transforms` (rule transforms ``Variant → Variant`` such as
:func:`with_compare`).

Files written before ``[deal]`` and before ``[scoring].transforms`` became the one switch keep
loading: ``[scoring] pass_rounds`` / ``pass_direction`` are read as ``[deal.passing] rounds`` /
``direction``, and an ``enabled`` key in a transform's table (``mode = "none"`` for the scoop)
is accepted when it agrees with the list, otherwise an error that names the key and the fix.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from simkit.variants.rules import (
    SPECIAL_KINDS,
    STANDARD_TWO_DECKS,
    CardPass,
    Deal,
    Deck,
    Header,
    Phases,
    Ranking,
    SpecialKind,
    SpecialRule,
    Specials,
    Variant,
    variant_key,
)
from simkit.variants.schema import VariantError, build
from simkit.variants.scoring_rules import TRANSFORM_TABLES, Scoring
from simkit.variants.special_kinds import ExactMethod, SpecialCode
from simkit.variants.transforms import derive, with_compare

__all__ = [
    "DEFAULT_VARIANT",
    "SPECIAL_KINDS",
    "STANDARD_TWO_DECKS",
    "CardPass",
    "Deal",
    "Deck",
    "ExactMethod",
    "Phases",
    "Ranking",
    "Scoring",
    "SpecialCode",
    "SpecialKind",
    "SpecialRule",
    "Specials",
    "Variant",
    "VariantError",
    "deck_option_names",
    "derive",
    "has_banker",
    "load_variant",
    "resolve_variant",
    "resolve_variants",
    "variant_key",
    "variant_names",
    "with_compare",
]

DEFAULT_VARIANT = "guangxi"
_SECTIONS = ("variant", "deck", "ranking", "deal", "specials", "scoring", "phases")
_OLD_DEAL_KEYS = {"pass_rounds": "rounds", "pass_direction": "direction"}


def _builtin_dir() -> Path:
    return Path(str(resources.files("simkit.variants")))


def variant_names() -> list[str]:
    """Names of the shipped variants, sorted."""
    return sorted(p.stem for p in _builtin_dir().glob("*.toml"))


def deck_option_names() -> list[str]:
    """Names of the shipped deck options (``variants/decks/``: a shipped variant played with two
    decks, a fifth suit or jokers), sorted.  They load by name like a variant, but are not
    among :func:`variant_names` (no win tables are trained for them)."""
    return sorted(p.stem for p in (_builtin_dir() / "decks").glob("*.toml"))


def unknown_variant_message(name: str) -> str:
    """The error for a name that is neither a shipped variant nor a deck option: both lists,
    and the closest name where one is close (a typo such as ``guangxy``)."""
    names, decks = variant_names(), deck_option_names()
    close = difflib.get_close_matches(name, [*names, *decks, "all"], n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return (
        f"unknown variant {name!r}; {hint}shipped variants are: {', '.join(names)}; "
        f"deck options (a variant with two decks, a fifth suit or jokers): {', '.join(decks)} "
        "(or give the path of a .toml file)"
    )


def _locate(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    text = str(name_or_path)
    looks_like_path = text.endswith(".toml") or "/" in text or "\\" in text
    if not looks_like_path:
        for path in (_builtin_dir() / f"{text}.toml", _builtin_dir() / "decks" / f"{text}.toml"):
            if path.is_file():
                return path
        raise VariantError(unknown_variant_message(text))
    path = Path(text)
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    if not path.is_file():
        raise VariantError(f"variant file not found: {path}")
    return path


def _deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def _read_raw(path: Path, chain: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The file's tables merged over those of the file it extends (recursively)."""
    if path.resolve() in chain:
        cycle = " -> ".join(p.name for p in (*chain, path.resolve()))
        raise VariantError(f"{path.name}: 'extends' forms a cycle: {cycle}")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{path}: not valid TOML: {exc}") from exc
    unknown = sorted(set(raw) - set(_SECTIONS))
    if unknown:
        raise VariantError(
            f"{path.name}: unknown section [{unknown[0]}]; valid sections are: "
            + ", ".join(f"[{s}]" for s in _SECTIONS)
        )
    _move_old_deal_keys(raw, path.name)
    header = raw.get("variant", {})
    base_name = header.get("extends") if isinstance(header, dict) else None
    if base_name is None:
        return raw
    if not isinstance(base_name, str):
        raise VariantError(f"{path.name}: [variant].extends: expected a variant name or path")
    try:
        base_path = _locate(base_name, relative_to=path.parent)
    except VariantError as exc:  # name the file that says it, not only the missing base
        raise VariantError(f"{path}: [variant].extends = {base_name!r}: {exc}") from None
    base = _read_raw(base_path, (*chain, path.resolve()))
    # The header is the file's own (a name is never inherited); the rest merges.
    base_header = {k: v for k, v in base.get("variant", {}).items() if k not in ("name",)}
    merged = _deep_merge(base, raw)
    merged["variant"] = {**base_header, **raw.get("variant", {})}
    return merged


def _move_old_deal_keys(raw: dict[str, Any], fname: str) -> None:
    """``[scoring] pass_rounds`` / ``pass_direction`` (the old place) → ``[deal.passing]``.

    Done per file before merging, so a file's own value overrides its base's wherever either
    wrote it; the moved values are checked here, under their old names.
    """
    scoring = raw.get("scoring")
    if not isinstance(scoring, dict) or not set(_OLD_DEAL_KEYS) & set(scoring):
        return
    where = (
        f"{fname}: [scoring] (pass_rounds / pass_direction are [deal.passing] rounds / "
        "direction now)"
    )
    deal = raw.setdefault("deal", {})
    passing = deal.setdefault("passing", {}) if isinstance(deal, dict) else None
    if not isinstance(passing, dict):
        raise VariantError(f"{where}: [deal.passing] must be a table")
    moved = {new: scoring.pop(old) for old, new in _OLD_DEAL_KEYS.items() if old in scoring}
    for new in moved:
        if new in passing:
            raise VariantError(
                f"{where}: both [scoring].pass_{new} and "
                f"[deal.passing].{new} are set; keep only [deal.passing].{new}"
            )
    build(CardPass, moved, where)
    passing.update(moved)


def _check_old_switches(scoring: Any, fname: str) -> Any:
    """The transform tables without their old switches, which must agree with the list.

    ``enabled`` in ``[scoring.home_run]``, ``[scoring.t_formula]`` or ``[scoring.horse]``, and
    ``mode = "none"`` in ``[scoring.scoop]``, said once more what ``[scoring].transforms`` says.
    """
    if not isinstance(scoring, dict):
        return scoring
    listed = scoring.get("transforms", [])
    if not isinstance(listed, list | tuple):
        return scoring  # the schema names the error
    out = dict(scoring)
    where = f"{fname}: [scoring]"
    for name, attr in TRANSFORM_TABLES.items():
        table = out.get(attr)
        if not isinstance(table, dict):
            continue
        table = dict(table)
        if attr == "scoop" and table.get("mode") == "none":
            if name in listed:
                raise VariantError(
                    f"{where}: transforms lists 'scoop' but [scoring.scoop].mode = 'none'; "
                    "set mode to 'add' or 'double' (the list alone puts the scoop in play)"
                )
            del table["mode"]
        if "enabled" in table:
            enabled = table.pop("enabled")
            if not isinstance(enabled, bool):
                raise VariantError(
                    f"{where}.{attr}.enabled: expected true or false, got {enabled!r}"
                )
            if enabled and name not in listed:
                raise VariantError(
                    f"{where}: {name} is enabled but not listed in transforms "
                    f"([scoring.{attr}].enabled = true); [scoring].transforms is the one switch: "
                    f"list {name!r} there and remove 'enabled'"
                )
            if not enabled and name in listed:
                raise VariantError(
                    f"{where}: transforms lists {name!r} but [scoring.{attr}].enabled = false; "
                    f"[scoring].transforms is the one switch: remove 'enabled' (and {name!r} from "
                    "the list to turn it off)"
                )
        out[attr] = table
    return out


def _build_special(special_id: str, table: Any, where: str) -> SpecialRule:
    payout, options, source = SPECIAL_KINDS[special_id].read_table(table, where)
    return SpecialRule(id=special_id, payout=payout, options=options, source=source)


def _build_specials(table: Any, where: str) -> Specials:
    if not isinstance(table, dict):
        raise VariantError(f"{where}: expected a table")
    order = table.get("order", [])
    if not isinstance(order, list) or not all(isinstance(s, str) for s in order):
        raise VariantError(f"{where}.order: expected a list of special ids, best first")
    valid = ", ".join(SPECIAL_KINDS)
    for special_id in order:
        if special_id not in SPECIAL_KINDS:
            raise VariantError(
                f"{where}.order: unknown special {special_id!r}; valid specials are: {valid}"
            )
    if len(set(order)) != len(order):
        raise VariantError(f"{where}.order: a special is listed twice: {order}")
    for key, value in table.items():
        if key in ("order", "source"):
            continue
        if key not in SPECIAL_KINDS:
            raise VariantError(
                f"{where}: unknown key {key!r}; valid keys are 'order', 'source' and the "
                f"special ids: {valid}"
            )
        if key not in order:
            raise VariantError(
                f"{where}: special {key!r} is defined but not listed in {where}.order"
            )
        if not isinstance(value, dict):
            raise VariantError(f"{where}.{key}: expected a table")
    rules = tuple(_build_special(s, table.get(s, {}), f"{where}.{s}") for s in order)
    source = table.get("source", "")
    if not isinstance(source, str):
        raise VariantError(f"{where}.source: expected a string")
    return Specials(rules=rules, source=source)


def _resolve(raw: dict[str, Any], path: Path) -> Variant:
    fname = path.name
    header = build(Header, raw.get("variant", {}), f"{fname}: [variant]")
    deck = build(Deck, raw.get("deck", {}), f"{fname}: [deck]")
    ranking = build(Ranking, raw.get("ranking", {}), f"{fname}: [ranking]")
    if ranking.five_suit_straight != "off" and not deck.extra_suit:
        raise VariantError(
            f"{fname}: [ranking].five_suit_straight = {ranking.five_suit_straight!r} needs five "
            "suits: set [deck].extra_suit = true, or five_suit_straight = 'off'"
        )
    deal = build(Deal, raw.get("deal", {}), f"{fname}: [deal]")
    specials = _build_specials(raw.get("specials", {}), f"{fname}: [specials]")
    scoring_table = _check_old_switches(raw.get("scoring", {}), fname)
    scoring = build(Scoring, scoring_table, f"{fname}: [scoring]")
    phases = build(Phases, raw.get("phases", {}), f"{fname}: [phases]")
    return Variant(
        origin=header.name,
        title=header.title,
        summary=header.summary,
        sources=header.sources,
        notes=header.notes,
        ranking=ranking,
        deck=deck,
        deal=deal,
        specials=specials,
        scoring=scoring,
        phases=phases,
        path=str(path),
    )


@lru_cache(maxsize=64)
def _load_path(path: Path, mtime_ns: int) -> Variant:
    return _resolve(_read_raw(path), path)


def load_variant(name_or_path: str | Path = DEFAULT_VARIANT) -> Variant:
    """Load a shipped variant by name, or a variant file by path, into a frozen :class:`Variant`.

    Raises :class:`VariantError` naming the file, the key and the valid choices when the file
    is not valid.
    """
    path = _locate(name_or_path).resolve()
    return _load_path(path, path.stat().st_mtime_ns)


def resolve_variant(variant: str | Path | Variant | None) -> Variant:
    """Normalize a ``variant`` argument: a name, a path, a :class:`Variant` or None (default)."""
    if variant is None:
        return load_variant(DEFAULT_VARIANT)
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str | Path):
        return load_variant(variant)
    raise TypeError(f"variant must be a name, a path or a Variant, got {type(variant).__name__}")


def resolve_variants(
    variants: str | Path | Variant | Sequence[str | Path | Variant] | None,
) -> tuple[Variant, ...]:
    """Variants argument → tuple of :class:`Variant`; ``"all"`` or None is every shipped one.

    In a list, ``"all"`` stands for every shipped variant in its place, and a variant the list
    names again beside ``"all"`` is played once, where it first appears
    (``["guangxi", "all"]``: guangxi, then the others).  Without ``"all"``, a variant given
    twice is an error.
    """
    if variants is None or (isinstance(variants, str) and variants == "all"):
        items: list[str | Path | Variant] = list(variant_names())
    elif isinstance(variants, str | Path | Variant):
        items = [variants]
    else:
        items = list(variants)
        if any(isinstance(v, str) and v == "all" for v in items):
            items = _expand_all(items)
    if not items:
        raise VariantError("no variants given")
    resolved = tuple(resolve_variant(v) for v in items)
    names = [v.name for v in resolved]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise VariantError(f"variant {dupes[0]!r} is given twice; each variant is played once")
    return resolved


def _expand_all(items: list[str | Path | Variant]) -> list[str | Path | Variant]:
    """``items`` with each ``"all"`` replaced by the shipped names, each variant kept once
    (its first place)."""
    out: list[str | Path | Variant] = []
    seen: set[str] = set()
    for item in items:
        for one in variant_names() if isinstance(item, str) and item == "all" else [item]:
            name = resolve_variant(one).name
            if name not in seen:
                seen.add(name)
                out.append(one)
    return out


def has_banker(variant: Variant) -> bool:
    """Whether the variant's players compare only against a banker (seat 0 here)."""
    return variant.scoring.topology == "banker"
