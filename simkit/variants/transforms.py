"""Rule transforms: functions ``Variant → Variant`` that change some rules of a loaded variant.

As game transforms do in OpenSpiel (a misère game wraps any game), each returns a new frozen
:class:`~simkit.variants.rules.Variant` whose name records the change (``hongkong+top-card``) and
whose key is derived from its rules, so a transformed variant names its results correctly.  They
compose: applying a transform again replaces its earlier change, so
``with_compare(with_compare(v, a), b)`` is ``with_compare(v, b)``.

>>> from simkit.variants import load_variant
>>> twin = with_compare(load_variant("hongkong"), "top-card")
>>> twin.name, twin.scoring.compare
('hongkong+top-card', 'top-card')
>>> with_compare(twin, "full").key == with_compare(load_variant("hongkong"), "full").key
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

from simkit.variants.rules import Variant
from simkit.variants.schema import FrozenMap, VariantError

COMPARES = ("full", "top-card")


def derive(variant: Variant, transform: str, label: str, **sections: Any) -> Variant:
    """``variant`` with the rule sections given (``scoring=…``, ``deal=…``, ``specials=…``,
    ``ranking=…``, ``deck=…``, ``phases=…``) replaced, recording ``transform`` with the
    ``label`` it adds to
    the name.

    A transform applied again keeps its place in the name and takes the new label.
    """
    unknown = sorted(set(sections) - {"ranking", "deck", "deal", "specials", "scoring", "phases"})
    if unknown:
        raise TypeError(f"derive: {unknown[0]!r} is not a rule section of a variant")
    changes = dict(variant.changes)
    changes[transform] = label
    return dataclasses.replace(variant, changes=FrozenMap(changes), **sections)


def with_compare(variant: Variant, compare: str) -> Variant:
    """The variant with its dun comparison set to ``compare`` (``full`` or ``top-card``, 食夹棍).

    Named ``<name>+<compare>``; its key hashes the changed rules like a loaded variant's.
    """
    if compare not in COMPARES:
        raise VariantError(f"compare: {compare!r} is not valid; choose one of {COMPARES}")
    scoring = dataclasses.replace(variant.scoring, compare=compare)  # type: ignore[arg-type]
    return derive(variant, "compare", compare, scoring=scoring)
