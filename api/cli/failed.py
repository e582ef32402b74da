"""A command's known failure: one line on stderr and exit status 1 (``api.cli.main``)."""

from __future__ import annotations


class CommandFailed(Exception):
    """A command that cannot do its work: the message goes to stderr, the exit status is 1."""
