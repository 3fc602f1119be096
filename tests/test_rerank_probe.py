"""``experiments/rollout_strategy.py``: a bad case is named before any work.

The tests of the re-ranking probes and studies (``rerank_probe``, ``rerank_top``,
``rerank_wide``, ``rerank_home``, ``home_rate_check``, ``rerank_by_shape``,
``rerank_wide_window``) left with the strategy classes those scripts construct
(``ExpectedScoreRerank``); the scripts' smoke test belongs with experiments/."""

import pytest
from conftest import experiment


def test_rollout_script_names_a_bad_case_before_any_work():
    script = experiment("rollout_strategy")
    assert script.parse_case("guangxi:4") == ("guangxi", 4)
    with pytest.raises(SystemExit, match="2-4 players"):
        script.parse_case("guangxi:6")
    with pytest.raises(ValueError, match="no-such-variant"):
        script.parse_case("no-such-variant:4")
