"""``python -m tablebank ...`` runs ``tablebank ...`` (api/cli.py)."""

import sys

from api.cli import main

sys.exit(main())
