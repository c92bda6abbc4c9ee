"""A count of the statements this process sends to PostgreSQL, for the benchmarks that
compare commits by their round trips (``benchmarks.cluster_bench``): asyncpg is storage's
driver, so what counts its queries lives here."""

from __future__ import annotations

from typing import Any

import asyncpg


class Statements:
    """How many statements this process's connections to the server have sent: each
    connection opened after ``count`` notes every query asyncpg runs (asyncpg's query
    loggers), one round trip each."""

    sent = 0

    @classmethod
    def note(cls, _query: Any) -> None:
        cls.sent += 1

    @classmethod
    def count(cls) -> None:
        class Counting(asyncpg.Connection):  # type: ignore[misc]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self.add_query_logger(cls.note)

        connect, create_pool = asyncpg.connect, asyncpg.create_pool

        def counting_connect(*args: Any, **kwargs: Any) -> Any:
            return connect(*args, connection_class=Counting, **kwargs)

        def counting_pool(*args: Any, **kwargs: Any) -> Any:
            return create_pool(*args, connection_class=Counting, **kwargs)

        asyncpg.connect, asyncpg.create_pool = counting_connect, counting_pool
