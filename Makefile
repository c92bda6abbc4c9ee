# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run demo test soak lint format bench compiled pure goldens catalogs check-catalogs activity-sdk clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

# The bot, configured from the environment (see the README); without a token it says how to
# get one and exits.
run: $(VENV)/.installed-run
	@$(BIN)/python -m bot

# A scripted match against a local Discord emulator (no token): demo-out/transcript.md, then
# the web board's addresses of a rematch, served until Ctrl-C.
demo: $(VENV)/.installed-run
	@$(BIN)/python -m harness.demo --out demo-out --serve

# The suite runs in two processes a core (pytest-xdist): it spends most of its time waiting
# on subprocesses, sockets, timers and the disk (about 6 minutes of CPU in a 10-minute run
# with one process a core). `pytest` alone runs it in one process.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))

test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=15

# mypy reads what to check from pyproject.toml ([tool.mypy]).
# The slow soaks and long search comparisons that make test leaves out (CI runs them too).
soak: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal -m slow

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks

# Optional: the rules' hot modules compiled with mypyc (needs a C compiler and the Python
# headers; without them it says so and the rules stay pure) into .build/compiled, from a copy
# of the sources. `python -m bot`, `benchmarks` and `ai` use it while every source is as it
# was built; `make test` stays pure (docs/RULES.md, "The compiled build"). `make pure` removes it.
compiled: $(VENV)/.installed-test
	$(BIN)/python -m rules.compiled_build

pure:
	rm -rf .build/compiled .build/compiled.new

# After an intended change to the board images: redraw tests/golden/*.png (then look at them).
goldens: $(VENV)/.installed-test
	$(BIN)/python -m render goldens --refresh
	$(BIN)/python -m bot.goldens --refresh

# The Discord Embedded App SDK for the web board's Activity mode, built again from the pinned
# packages of web-sdk/ (needs Node and npm). bot/web/static/discord-sdk.js is committed, so
# `make run` and `make test` never need this nor the network.
activity-sdk:
	web-sdk/build.sh

# After changing a text the bot shows (or a command): extract the texts into
# bot/i18n/tora.pot and bring every language's catalog up to it (docs/TRANSLATING.md).
catalogs: $(VENV)/.installed-run
	$(BIN)/python -m bot.catalogs update

# What a translator runs: every catalog complete, placeholders and plurals right, the
# commands' texts within Discord's rules (`make check-catalogs LANGS=de` for one language).
check-catalogs: $(VENV)/.installed-run
	$(BIN)/python -m bot.catalogs check $(LANGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .build
