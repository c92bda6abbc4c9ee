"""Ladders and tournaments: their tables' statements, each change one transaction of a
``Tx`` (``areas``); and the tables of migration 2's ladder (``ratings``), which the bot's
ladders do not use."""
