"""Ladders and tournaments: their tables' statements, run as one transaction of a
``Tx`` (``areas``), and migration 2's first ladder (``ratings``), kept as it was."""
