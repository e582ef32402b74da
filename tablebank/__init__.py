"""``python -m tablebank``: the ``tablebank`` command where its script is not on the PATH (a
virtualenv not activated, Windows); the code lives in ``api``, ``ledger`` and ``schemas``."""
