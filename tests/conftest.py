"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, the number of
shipped variants (a test asserts it, so that a variant cannot drop out silently), the
clause tests' way of writing one game's hands."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from simkit.cards import parse_cards

N_VARIANTS = 9  # shipped variant files in simkit/variants/

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True, scope="session")
def _cache_in_a_temporary_folder(tmp_path_factory):
    """Results that simkit caches on disk (simkit.setting_scores) go to a folder of the test
    session, never to the user's cache."""
    os.environ["SIMKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("simkit-cache"))
    # building a variant's missing win tables takes a minute: the suite's variants of their own
    # take the labelled fallback; tests/test_tables_cache.py sets "build" where it builds
    os.environ.setdefault("SIMKIT_TABLES", "fallback")


def table(*hands: str, decks: int = 1) -> np.ndarray:
    """One game: each hand 'front | middle | back' → int8 (1, n_players, 13)."""
    rows = []
    for hand in hands:
        front, middle, back = (parse_cards(part, decks=decks) for part in hand.split("|"))
        assert (len(front), len(middle), len(back)) == (3, 5, 5), hand
        rows.append(np.concatenate([front, middle, back]))
    out = np.array([rows], dtype=np.int8)
    if decks == 1:
        assert len(np.unique(out)) == out.size, "a card is dealt twice"
    return out
