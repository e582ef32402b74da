"""The release of tablebank this is: ``tablebank --version``, ``GET /api/v1/version`` and the
package's own version (pyproject.toml reads it here)."""

from __future__ import annotations

VERSION = "0.1.0"
