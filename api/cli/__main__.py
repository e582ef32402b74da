"""``python -m api.cli ...`` runs ``tablebank ...``."""

import sys

from api.cli import main

sys.exit(main())
