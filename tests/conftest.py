"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, and the number of
shipped variants (a test asserts it, so that a variant cannot drop out silently)."""

import os

from hypothesis import HealthCheck, settings

N_VARIANTS = 9  # shipped variant files in simkit/variants/

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
