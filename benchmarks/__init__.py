"""Performance measurements: ``python -m benchmarks`` prints one table (never asserted in tests)."""
