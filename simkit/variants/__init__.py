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
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from simkit.variants.rules import (
    SPECIAL_KINDS,
    Header,
    Ranking,
    SpecialKind,
    SpecialRule,
    Specials,
    Variant,
    parse_rank_list,
)
from simkit.variants.schema import FrozenMap, VariantError, build, to_plain
from simkit.variants.scoring_rules import Scoring

__all__ = [
    "SPECIAL_KINDS",
    "Ranking",
    "Scoring",
    "SpecialKind",
    "SpecialRule",
    "Specials",
    "Variant",
    "VariantError",
    "load_variant",
    "resolve_variant",
    "variant_key",
    "variant_names",
]

DEFAULT_VARIANT = "guangxi"
_SECTIONS = ("variant", "ranking", "specials", "scoring")


def _builtin_dir() -> Path:
    return Path(str(resources.files("simkit.variants")))


def variant_names() -> list[str]:
    """Names of the shipped variants, sorted."""
    return sorted(p.stem for p in _builtin_dir().glob("*.toml"))


def _locate(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    text = str(name_or_path)
    looks_like_path = text.endswith(".toml") or "/" in text or "\\" in text
    if not looks_like_path:
        path = _builtin_dir() / f"{text}.toml"
        if path.is_file():
            return path
        raise VariantError(
            f"unknown variant {text!r}; shipped variants are: {', '.join(variant_names())} "
            "(or give the path of a .toml file)"
        )
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
    header = raw.get("variant", {})
    base_name = header.get("extends") if isinstance(header, dict) else None
    if base_name is None:
        return raw
    if not isinstance(base_name, str):
        raise VariantError(f"{path.name}: [variant].extends: expected a variant name or path")
    base_path = _locate(base_name, relative_to=path.parent)
    base = _read_raw(base_path, (*chain, path.resolve()))
    # The header is the file's own (a name is never inherited); the rest merges.
    base_header = {k: v for k, v in base.get("variant", {}).items() if k not in ("name",)}
    merged = _deep_merge(base, raw)
    merged["variant"] = {**base_header, **raw.get("variant", {})}
    return merged


def _build_special(special_id: str, table: Any, where: str) -> SpecialRule:
    kind = SPECIAL_KINDS[special_id]
    if not isinstance(table, dict):
        raise VariantError(f"{where}: expected a table with at least 'payout'")
    fixed = {"payout", "source"}
    valid = sorted(fixed | set(kind.options))
    unknown = sorted(set(table) - set(valid))
    if unknown:
        raise VariantError(
            f"{where}: unknown key {unknown[0]!r} for {kind.name} ({special_id}); "
            f"valid keys are: {', '.join(valid)}"
        )
    if "payout" not in table:
        raise VariantError(f"{where}: missing required key 'payout' (waters won per opponent)")
    payout = table["payout"]
    if isinstance(payout, bool) or not isinstance(payout, int | float) or payout < 0:
        raise VariantError(f"{where}.payout: expected a non-negative number, got {payout!r}")
    options: dict[str, Any] = {}
    for opt_name, spec in kind.options.items():
        value = table.get(opt_name, spec.default)
        if opt_name == "ranks":
            options[opt_name] = parse_rank_list(value, f"{where}.ranks")
            continue
        if spec.choices is not None and value not in spec.choices:
            raise VariantError(
                f"{where}.{opt_name}: {value!r} is not valid; choose one of "
                + ", ".join(repr(c) for c in spec.choices)
            )
        options[opt_name] = value
    source = table.get("source", "")
    if not isinstance(source, str):
        raise VariantError(f"{where}.source: expected a string")
    return SpecialRule(
        id=special_id, payout=float(payout), options=FrozenMap(options), source=source
    )


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
    ranking = build(Ranking, raw.get("ranking", {}), f"{fname}: [ranking]")
    specials = _build_specials(raw.get("specials", {}), f"{fname}: [specials]")
    scoring = build(Scoring, raw.get("scoring", {}), f"{fname}: [scoring]")
    return Variant(
        name=header.name,
        title=header.title,
        summary=header.summary,
        sources=header.sources,
        notes=header.notes,
        ranking=ranking,
        specials=specials,
        scoring=scoring,
        path=str(path),
        key=variant_key(header.name, ranking, specials, scoring),
    )


@lru_cache(maxsize=64)
def _load_path(path: Path, mtime_ns: int) -> Variant:
    return _resolve(_read_raw(path), path)


def variant_key(name: str, ranking: Ranking, specials: Specials, scoring: Scoring) -> str:
    """``name@digest``: the digest hashes the resolved rules, so two variants with one key play
    alike whatever their files look like (results record it)."""
    resolved = {
        "ranking": to_plain(ranking),
        "specials": to_plain(specials),
        "scoring": to_plain(scoring),
    }
    digest = hashlib.sha256(
        json.dumps(resolved, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()[:10]
    return f"{name}@{digest}"


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


def has_banker(variant: Variant) -> bool:
    """Whether the variant's players compare only against a banker (seat 0 in a simulation)."""
    return variant.scoring.topology == "banker"


#: What :func:`resolve_variants` accepts: one variant argument, a list or tuple of them, or None.
VariantsLike = (
    str | Path | Variant | list[str | Path | Variant] | tuple[str | Path | Variant, ...] | None
)


def resolve_variants(variants: VariantsLike) -> tuple[Variant, ...]:
    """Variants argument → tuple of :class:`Variant`; ``"all"`` (alone, or as the only item of
    a list, as a command line gives it) or None is every shipped one."""
    if (
        variants is None
        or variants == "all"
        or (isinstance(variants, list | tuple) and list(variants) == ["all"])
    ):
        items: list[str | Path | Variant] = list(variant_names())
    elif isinstance(variants, str | Path | Variant):
        items = [variants]
    else:
        items = list(variants)
    if not items:
        raise ValueError("no variants given")
    resolved = tuple(resolve_variant(v) for v in items)
    names = [v.name for v in resolved]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"variant {dupes[0]!r} is given twice; each variant is played once")
    return resolved
