"""What the two state machines share (``test_state_machine.py``, ``test_variant_machine.py``):
the classic board's figures from docs/rules.md (section 1 and the appendix), a weighted choice,
and the machines' settings.

Imported as ``from machines import ...`` (pytest puts ``tests/ledger`` on the path).
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from profiles import examples, steps

# -- the figures of docs/rules.md (section 1 and the appendix) ---------------------------------

STARTING_CASH = 1500
SALARY = 200
JAIL_FINE = 50
LUXURY_TAX = 75
INCOME_TAX_FLAT = 200
HOUSES = 32
HOTELS = 12
RAILROAD_RENTS = (25, 50, 100, 200)
UTILITY_FACTORS = (4, 10)

# slug: (group, price, rents bare / 1-4 houses / hotel, house price = hotel price)
STREETS: dict[str, tuple[str, int, tuple[int, ...], int]] = {
    "mediterranean-avenue": ("brown", 60, (2, 10, 30, 90, 160, 250), 50),
    "baltic-avenue": ("brown", 60, (4, 20, 60, 180, 320, 450), 50),
    "oriental-avenue": ("light-blue", 100, (6, 30, 90, 270, 400, 550), 50),
    "vermont-avenue": ("light-blue", 100, (6, 30, 90, 270, 400, 550), 50),
    "connecticut-avenue": ("light-blue", 120, (8, 40, 100, 300, 450, 600), 50),
    "st-charles-place": ("pink", 140, (10, 50, 150, 450, 625, 750), 100),
    "states-avenue": ("pink", 140, (10, 50, 150, 450, 625, 750), 100),
    "virginia-avenue": ("pink", 160, (12, 60, 180, 500, 700, 900), 100),
    "st-james-place": ("orange", 180, (14, 70, 200, 550, 750, 950), 100),
    "tennessee-avenue": ("orange", 180, (14, 70, 200, 550, 750, 950), 100),
    "new-york-avenue": ("orange", 200, (16, 80, 220, 600, 800, 1000), 100),
    "kentucky-avenue": ("red", 220, (18, 90, 250, 700, 875, 1050), 150),
    "indiana-avenue": ("red", 220, (18, 90, 250, 700, 875, 1050), 150),
    "illinois-avenue": ("red", 240, (20, 100, 300, 750, 925, 1100), 150),
    "atlantic-avenue": ("yellow", 260, (22, 110, 330, 800, 975, 1150), 150),
    "ventnor-avenue": ("yellow", 260, (22, 110, 330, 800, 975, 1150), 150),
    "marvin-gardens": ("yellow", 280, (24, 120, 360, 850, 1025, 1200), 150),
    "pacific-avenue": ("green", 300, (26, 130, 390, 900, 1100, 1275), 200),
    "north-carolina-avenue": ("green", 300, (26, 130, 390, 900, 1100, 1275), 200),
    "pennsylvania-avenue": ("green", 320, (28, 150, 450, 1000, 1200, 1400), 200),
    "park-place": ("dark-blue", 350, (35, 175, 500, 1100, 1300, 1500), 200),
    "boardwalk": ("dark-blue", 400, (50, 200, 600, 1400, 1700, 2000), 200),
}
RAILROADS = ("reading-railroad", "pennsylvania-railroad", "b-o-railroad", "short-line")
UTILITIES = ("electric-company", "water-works")

GROUP: dict[str, str] = {slug: g for slug, (g, *_rest) in STREETS.items()}
GROUP.update({s: "railroad" for s in RAILROADS})
GROUP.update({s: "utility" for s in UTILITIES})
PRICE: dict[str, int] = {slug: price for slug, (_g, price, *_rest) in STREETS.items()}
PRICE.update({s: 200 for s in RAILROADS})
PRICE.update({s: 150 for s in UTILITIES})
DEEDS = tuple(PRICE)
GROUPS: dict[str, tuple[str, ...]] = {}
for _slug, _group in GROUP.items():
    GROUPS.setdefault(_group, ())
    GROUPS[_group] += (_slug,)
STREET_GROUPS = tuple(g for g in GROUPS if g not in ("railroad", "utility"))
DECKS = ("chance", "community_chest")


def bucket(data: st.DataObject, *weights: int) -> int:
    """Index of a weighted choice (shrinks towards the first)."""
    roll = data.draw(st.integers(0, sum(weights) - 1))
    for i, weight in enumerate(weights):
        if roll < weight:
            return i
        roll -= weight
    raise AssertionError  # pragma: no cover


# The settings of every state machine: 40 walks of up to 40 steps in CI (``tests/profiles.py``
# scales both).
MACHINE_SETTINGS = settings(max_examples=examples(40), stateful_step_count=steps())
