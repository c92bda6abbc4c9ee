"""The operator's tools behind ``python -m storage``: ``backup`` and ``check``
(``maintenance``), and ``copy`` between the backends (``transfer``); and ``statements``, the
benchmarks' count of what a process sends to PostgreSQL."""
