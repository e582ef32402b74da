"""``python -m tablebank ...`` runs ``tablebank ...`` (api/cli/)."""

import sys

from api.cli import main

sys.exit(main())
