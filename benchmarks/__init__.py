"""The benchmark suite of issue 6: ``python -m benchmarks`` (or ``make bench``).

See ``benchmarks/run.py`` for what is measured and ``docs/performance.md`` for the results.
"""
