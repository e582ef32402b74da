"""Marshmallow schemas: the shapes of what the API reads and writes. No rules, no Flask."""
