"""Every strategy's splits, values and declared specials on a fixed set of hands, as digests.

A digest hashes what :func:`~simkit.arrange.arrangements` returns for 64 hands (16 deals of
4 players, seeded) of each shipped variant and deck option: the split ids, the strategy's
values (where it has them) and the declared specials.  The digests were taken before the
strategies were restructured; a refactor that moves any split or value by one bit fails here.

``SPECS`` names each strategy as a command line did when the digests were taken; a strategy
that became an option of another is named by that option today (``NOW``) and keeps its
digest.  To print the digests of the current
code (after a change that is meant to move numbers): ``SIMKIT_PRINT_DIGESTS=1 pytest
tests/arrange/test_strategy_digest.py -s``.
"""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest

from simkit.arrange import arrangements, strategy_from_name
from simkit.deal import deal
from simkit.variants import deck_option_names, load_variant, variant_names

GAMES, PLAYERS, SEED = 16, 4, 20261207

#: Strategies by the command-line spec their digests were taken with, each with the variants
#: it is digested on (None: all).  The hand's own card removal by the shipped model fits
#: guangxi and guangxi-regional only.
SPECS: dict[str, tuple[str, ...] | None] = {
    "max-ev": None,
    "greedy": None,
    "random-legal": None,
    "expected-score": None,
    "expected-score-places": None,
    "expected-score-home": None,
    "expected-score-hand:conditioning=model": ("guangxi", "guangxi-regional"),
    "expected-score-rerank": None,
}
#: What each spec is named today where the name changed: the research variants became options
#: of expected-score (None: retired, its digests kept as the record of what it played).
NOW: dict[str, str | None] = {
    "expected-score-places": "expected-score:places=true",
    "expected-score-home": None,
    "expected-score-hand:conditioning=model": "expected-score:places=true,conditioning=model",
}

VARIANTS = (*variant_names(), *deck_option_names())


def digest(spec: str, variant_name: str) -> str:
    """The sha256 (first 16 hex digits) of ``spec``'s arrangements of the fixed hands."""
    v = load_variant(variant_name)
    gen = np.random.default_rng((SEED, VARIANTS.index(variant_name)))
    hands = deal(GAMES, PLAYERS, rng=gen, deck=v.deck_for(PLAYERS)).reshape(-1, 13)
    (found,) = arrangements([hands], [v], strategy_from_name(spec), n_players=PLAYERS, rng=7)
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(found.split_ids, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(found.declared, dtype=np.int8).tobytes())
    if found.value is not None:
        h.update(np.ascontiguousarray(found.value, dtype=np.float64).tobytes())
    return h.hexdigest()[:16]


CASES = [
    (spec, name)
    for spec, only in SPECS.items()
    for name in VARIANTS
    if (only is None or name in only) and NOW.get(spec, spec) is not None
]

#: Taken on the code before the strategies were restructured (see the module docstring).
DIGESTS: dict[tuple[str, str], str] = {
    ("max-ev", "fujian"): "1bee63364b32d23f",
    ("max-ev", "guangxi"): "fa1646797df9f4bd",
    ("max-ev", "guangxi-regional"): "7cc05c2df88e7910",
    ("max-ev", "hongkong"): "99274a5c9d27a1ea",
    ("max-ev", "philippines"): "45d0d1fa7c6d2002",
    ("max-ev", "qiantang"): "d9e582f02cad550c",
    ("max-ev", "taiwan"): "0d17051f807f4398",
    ("max-ev", "western-2-4"): "26f5e6aeb129e96d",
    ("max-ev", "wiki-points"): "ec8c78f491940976",
    ("max-ev", "guangxi-five-suits"): "546feca0ba3c9e66",
    ("max-ev", "guangxi-jokers"): "f8e253689a2f4bc4",
    ("max-ev", "guangxi-two-decks"): "c9caef9f991b5c6b",
    ("max-ev", "qiantang-five-suits"): "5c14b1746cab235b",
    ("greedy", "fujian"): "7677b0adf3c079f2",
    ("greedy", "guangxi"): "36b64521d6231e29",
    ("greedy", "guangxi-regional"): "ffb02628a733026e",
    ("greedy", "hongkong"): "35a62bb0e825b8c4",
    ("greedy", "philippines"): "a48e59be3c80c105",
    ("greedy", "qiantang"): "a3cacc63408f672d",
    ("greedy", "taiwan"): "67012fcb25338a5e",
    ("greedy", "western-2-4"): "fce68f131c2208c5",
    ("greedy", "wiki-points"): "67c48606b4eab2ca",
    ("greedy", "guangxi-five-suits"): "2d2b36bee13917b0",
    ("greedy", "guangxi-jokers"): "7b4c4dced60c7e3c",
    ("greedy", "guangxi-two-decks"): "8f9ee6b1c6c936fb",
    ("greedy", "qiantang-five-suits"): "954e4172180071b9",
    ("random-legal", "fujian"): "9033f5526706be2c",
    ("random-legal", "guangxi"): "dbef4783ab837670",
    ("random-legal", "guangxi-regional"): "70f361c59b596e48",
    ("random-legal", "hongkong"): "2d1347a2598c26e4",
    ("random-legal", "philippines"): "99735db3159f84ca",
    ("random-legal", "qiantang"): "5b7be04af3ba2314",
    ("random-legal", "taiwan"): "73bcbd8691f1db99",
    ("random-legal", "western-2-4"): "1d5764c58680b0e6",
    ("random-legal", "wiki-points"): "ed4d74886e2f9f33",
    ("random-legal", "guangxi-five-suits"): "50f7bdf7c01de621",
    # issue 52.2: a joker named by its holder makes more splits legal to draw from
    ("random-legal", "guangxi-jokers"): "80dbbc3fb9949533",
    ("random-legal", "guangxi-two-decks"): "f5ea70851d085d11",
    ("random-legal", "qiantang-five-suits"): "cfc2a4e061bfa4d2",
    ("expected-score", "fujian"): "9982c145397712a6",
    ("expected-score", "guangxi"): "7eef85fd6ed843da",
    ("expected-score", "guangxi-regional"): "f34d37713e9fd207",
    ("expected-score", "hongkong"): "981443eb9e331502",
    ("expected-score", "philippines"): "052a82b483cb848b",
    ("expected-score", "qiantang"): "997222b0e72eefaf",
    ("expected-score", "taiwan"): "4037c550c1d31347",
    ("expected-score", "western-2-4"): "6475b913e38f182b",
    ("expected-score", "wiki-points"): "77f250e525fbab3b",
    ("expected-score", "guangxi-five-suits"): "6e7a6828bcc9bbf7",
    ("expected-score", "guangxi-jokers"): "fafa2fc51d8d0bec",
    ("expected-score", "guangxi-two-decks"): "a4170a99c8505840",
    ("expected-score", "qiantang-five-suits"): "a5d8d59d68afb826",
    ("expected-score-places", "fujian"): "9982c145397712a6",
    ("expected-score-places", "guangxi"): "a1c6a67d46122801",
    ("expected-score-places", "guangxi-regional"): "f9d4bdd53d6bdae1",
    ("expected-score-places", "hongkong"): "981443eb9e331502",
    ("expected-score-places", "philippines"): "052a82b483cb848b",
    ("expected-score-places", "qiantang"): "997222b0e72eefaf",
    ("expected-score-places", "taiwan"): "4037c550c1d31347",
    ("expected-score-places", "western-2-4"): "6475b913e38f182b",
    ("expected-score-places", "wiki-points"): "77f250e525fbab3b",
    ("expected-score-places", "guangxi-five-suits"): "6e7a6828bcc9bbf7",
    ("expected-score-places", "guangxi-jokers"): "fafa2fc51d8d0bec",
    ("expected-score-places", "guangxi-two-decks"): "a4170a99c8505840",
    ("expected-score-places", "qiantang-five-suits"): "a5d8d59d68afb826",
    ("expected-score-home", "fujian"): "9982c145397712a6",
    ("expected-score-home", "guangxi"): "745746751c7afe3f",
    ("expected-score-home", "guangxi-regional"): "a5a6de7fab62b292",
    ("expected-score-home", "hongkong"): "981443eb9e331502",
    ("expected-score-home", "philippines"): "052a82b483cb848b",
    ("expected-score-home", "qiantang"): "997222b0e72eefaf",
    ("expected-score-home", "taiwan"): "4037c550c1d31347",
    ("expected-score-home", "western-2-4"): "6475b913e38f182b",
    ("expected-score-home", "wiki-points"): "77f250e525fbab3b",
    ("expected-score-home", "guangxi-five-suits"): "6e7a6828bcc9bbf7",
    ("expected-score-home", "guangxi-jokers"): "fafa2fc51d8d0bec",
    ("expected-score-home", "guangxi-two-decks"): "a4170a99c8505840",
    ("expected-score-home", "qiantang-five-suits"): "a5d8d59d68afb826",
    ("expected-score-hand:conditioning=model", "guangxi"): "e9a8ce72f1bfc636",
    ("expected-score-hand:conditioning=model", "guangxi-regional"): "d95898871bd98c80",
    ("expected-score-rerank", "fujian"): "9982c145397712a6",
    ("expected-score-rerank", "guangxi"): "d46dfbd10e1e2c01",
    ("expected-score-rerank", "guangxi-regional"): "a7f4699cba40615c",
    ("expected-score-rerank", "hongkong"): "981443eb9e331502",
    ("expected-score-rerank", "philippines"): "052a82b483cb848b",
    ("expected-score-rerank", "qiantang"): "997222b0e72eefaf",
    ("expected-score-rerank", "taiwan"): "4037c550c1d31347",
    ("expected-score-rerank", "western-2-4"): "6475b913e38f182b",
    ("expected-score-rerank", "wiki-points"): "77f250e525fbab3b",
    ("expected-score-rerank", "guangxi-five-suits"): "6e7a6828bcc9bbf7",
    ("expected-score-rerank", "guangxi-jokers"): "fafa2fc51d8d0bec",
    ("expected-score-rerank", "guangxi-two-decks"): "a4170a99c8505840",
    ("expected-score-rerank", "qiantang-five-suits"): "a5d8d59d68afb826",
}


@pytest.mark.parametrize(("spec", "variant_name"), CASES)
def test_strategy_digest(spec: str, variant_name: str) -> None:
    now = NOW.get(spec, spec)
    assert now is not None
    got = digest(now, variant_name)
    if os.environ.get("SIMKIT_PRINT_DIGESTS"):
        print(f"    ({spec!r}, {variant_name!r}): {got!r},")
        return
    assert got == DIGESTS[spec, variant_name]
