"""Speed and size targets: ``python -m benchmarks`` prints each figure beside its target."""
