"""The bot on the local emulator: the stage for the end-to-end tests, the benchmarks and the
demo (``python -m harness.demo``). The emulator (``emulator/``) is Discord alone; this package
puts the bot on it and acts as its users."""
