"""The two backends: a SQLite file (one writer thread, one read-only connection) or a
PostgreSQL database that several bot processes share (writer threads, a pool of readers).
``sql`` is what the store's statements need from a connection on either; ``migrations`` the
numbered schema of both; ``opening`` opens the one a ``Config`` names."""
