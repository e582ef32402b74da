"""Hypothesis's profiles, set on purpose: ``HYPOTHESIS_PROFILE`` chooses one (``ci`` unless told).

- ``ci`` (``make test`` and CI): each property runs the fixed number of examples it names with
  ``examples(n)``;
- ``fuzz`` (``make fuzz``): ten times as many, and state machines take longer walks;
- ``dev``: a quarter, for a quick look while working.

Every profile has no deadline (a loaded machine is not a slow rule) and prints the blob that
reproduces a failure. Imported as ``from profiles import examples`` (pytest puts ``tests`` on
the path); ``tests/conftest.py`` loads the chosen profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SCALE = {"dev": 0.25, "ci": 1.0, "fuzz": 10.0}
# A state machine's longest walk, by profile.
STEPS = {"dev": 30, "ci": 40, "fuzz": 120}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in SCALE:
    raise RuntimeError(f"HYPOTHESIS_PROFILE={PROFILE!r}: choose one of {', '.join(SCALE)}")


def examples(n: int) -> int:
    """The examples a property runs under this profile, for the ``n`` it runs in CI."""
    return max(1, round(n * SCALE[PROFILE]))


def steps() -> int:
    """The longest walk of a state machine under this profile."""
    return STEPS[PROFILE]


for _name, _scale in SCALE.items():
    settings.register_profile(
        _name,
        max_examples=round(100 * _scale),  # a property that names no number: hypothesis's 100
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        print_blob=True,
    )
settings.load_profile(PROFILE)
