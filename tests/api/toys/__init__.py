"""Transaction types of a house's own, for the tests that add one (never in a real game)."""
