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


#: What :func:`without` switches off, by kind: ``transform:NAME`` (a ``[scoring].transforms``
#: entry: ``scoop``, ``home-run``, ``t-formula``, ``horse``), ``special:ID`` (one special hand),
#: ``specials`` (every special hand), ``phase:NAME`` (a phase after setting: ``bidding``,
#: ``negotiation``, ``surrender``; or one before it: ``exchange``, 换牌, and ``pass``, the
#: card pass of ``[deal.passing]``, the banker's choice or a fixed one).
RULE_KINDS = ("transform", "special", "specials", "phase")
PHASE_NAMES = ("bidding", "negotiation", "surrender")
DEAL_PHASE_NAMES = ("exchange", "pass")


def _deal_phases(variant: Variant) -> list[str]:
    """The phases before setting that ``variant`` plays (:data:`DEAL_PHASE_NAMES`)."""
    rules = variant.deal
    played = {
        "exchange": rules.exchange.play,
        "pass": rules.passing.choice == "banker" or rules.passing.rounds > 0,
    }
    return [p for p in DEAL_PHASE_NAMES if played[p]]


def rules_of(variant: Variant) -> list[str]:
    """Every rule of ``variant`` that :func:`without` can switch off, in the file's order:
    its transforms, its specials one by one, ``specials`` (all of them, where it has any),
    its phases before setting (:data:`DEAL_PHASE_NAMES`), its enabled phases after it."""
    out = [f"transform:{t}" for t in variant.scoring.transforms]
    out += [f"special:{s}" for s in variant.specials.ids]
    out += ["specials"] if len(variant.specials) else []
    out += [f"phase:{p}" for p in _deal_phases(variant)]
    out += [f"phase:{p}" for p in PHASE_NAMES if getattr(variant.phases, p).enabled]
    return out


def without(variant: Variant, rule: str) -> Variant:
    """``variant`` with one rule switched off (``rule`` as :func:`rules_of` names them), named
    ``<name>+no-<rule>`` (``guangxi+no-scoop``, ``qiantang+no-dragon``); its key hashes the
    changed rules.

    Raises :class:`~simkit.variants.schema.VariantError` for a rule of an unknown kind or one
    the variant does not play (the message lists those it does).
    """
    kind, _, name = rule.partition(":")
    if rule not in rules_of(variant):
        raise VariantError(
            f"{variant.name}: cannot switch off {rule!r}: "
            + (
                f"it plays no such rule; its rules: {', '.join(rules_of(variant)) or 'none'}"
                if kind in RULE_KINDS
                else f"a rule is one of {', '.join(k + ':NAME' for k in RULE_KINDS)}"
            )
        )
    label = f"no-{name or kind}"
    if kind == "transform":
        kept = tuple(t for t in variant.scoring.transforms if t != name)
        scoring = dataclasses.replace(variant.scoring, transforms=kept)
        return derive(variant, rule, label, scoring=scoring)
    if kind in ("special", "specials"):
        rules = tuple(r for r in variant.specials.rules if kind == "special" and r.id != name)
        specials = dataclasses.replace(variant.specials, rules=rules)
        ids = {r.id for r in rules}  # a multiplier of a special no longer played goes too
        sweep = {k: x for k, x in variant.scoring.specials.sweep.items() if k in ids}
        settle = dataclasses.replace(variant.scoring.specials, sweep=FrozenMap(sweep))
        scoring = dataclasses.replace(variant.scoring, specials=settle)
        return derive(variant, rule, label, specials=specials, scoring=scoring)
    if name == "exchange":
        exchange = dataclasses.replace(variant.deal.exchange, play=False)
        return derive(
            variant, rule, label, deal=dataclasses.replace(variant.deal, exchange=exchange)
        )
    if name == "pass":
        passing = dataclasses.replace(variant.deal.passing, rounds=0, choice="fixed")
        return derive(variant, rule, label, deal=dataclasses.replace(variant.deal, passing=passing))
    phase = dataclasses.replace(getattr(variant.phases, name), enabled=False)
    phases = dataclasses.replace(variant.phases, **{name: phase})
    return derive(variant, rule, label, phases=phases)
