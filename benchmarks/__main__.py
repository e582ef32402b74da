"""``python -m benchmarks``: run the suite (see ``benchmarks.run``)."""

import sys

from benchmarks.run import main

sys.exit(main())
