"""Benchmarks (issue 7): a realistic league generator, page timings, and a load test.

Dev tooling, not part of the product or its wheel:

* ``python -m bench.generate --players N --games G --db URL`` — a league of valid games;
* ``python -m bench.pages`` — p50/p95 and SQL statements of the main pages, 200 vs 20,000 games;
* ``python -m bench.load`` — 20 scorekeepers and some readers against waitress for 60 s.

Results and how to read them: ``docs/PERFORMANCE.md``. No test runs these, and no test
asserts a time.
"""
