"""Matches: the action log every game is rebuilt from (``log``, the one dispatcher of the
live path and the replay), the snapshots that shorten a load (``codec``), what storage keeps
of each game of the registry (``games``), the loader's checks (``loader``), game records
(``records``), and the matches' own reads and write jobs."""
