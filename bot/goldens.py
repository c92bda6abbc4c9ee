"""``python -m bot.goldens [--refresh]``: the golden images in every shipped language
(issue 30's proof that the images speak each one, Japanese included, and that nothing
overflows in the longest): for each language a long board mid-game, the Challenger's
private preview, the score card and a ladder page, under ``tests/golden/languages/<code>/``.
``render`` draws them with the catalogs' words (``bot.i18n.words.Language``); it cannot
reach the catalogs itself, which is why this tool lives in the bot's wiring. ``make
goldens`` refreshes them with the English ones; look at them before committing."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from bot.i18n import LOCALES, _, speaking
from bot.i18n.words import Language
from bot.service.texts import duration
from render import ladder_png, score_card_png
from render.showcase import PLAYERS, write_images
from render.tora.board import board_png, private_png
from render.tora.examples import LADDER
from render.tora.goldens import Difference, compare
from render.tora.samples import mid_game, private_preview, short_start

LANGUAGE_DIR = Path("tests/golden/languages")
HOURS = 11  # the samples' deadline: due in 11 hours, as the service words it


def deadline(code: str) -> str:
    """The samples' deadline in language ``code``, as a board image's status says it."""
    with speaking(code):
        return _("due in {time}", time=duration(HOURS * 3600, localized=True))


def rendered() -> dict[str, bytes]:
    """Every language's images, rendered now: ``<code>/<name>.png`` -> PNG bytes."""
    out = {}
    board, preview = mid_game(), private_preview()
    # a second game's card with every note: one point, and a full card with points beyond it
    card = replace(short_start(), game_number=2, round=3, score=(104, 1), pending=(0, 4))
    for code in LOCALES:
        words = Language(code)
        info = replace(PLAYERS, deadline=deadline(code), words=words)
        out[f"{code}/board.png"] = board_png(board, info)
        out[f"{code}/preview.png"] = private_png(preview, info)
        out[f"{code}/score-card.png"] = score_card_png(card, info)
        out[f"{code}/ladder.png"] = ladder_png(LADDER, None, words)
    return out


def check(directory: Path = LANGUAGE_DIR) -> dict[str, Difference | None]:
    """Each image's difference from its stored one (None: none stored)."""
    results: dict[str, Difference | None] = {}
    for name, data in rendered().items():
        path = directory / name
        results[name] = compare(path.read_bytes(), data) if path.exists() else None
    return results


def refresh(directory: Path = LANGUAGE_DIR) -> list[Path]:
    written = []
    for code in LOCALES:
        mine = {k.partition("/")[2]: v for k, v in rendered().items() if k.startswith(code + "/")}
        written += write_images(directory / code, mine)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.goldens", description=__doc__)
    parser.add_argument("--refresh", action="store_true", help="rewrite the stored images")
    parser.add_argument("--dir", type=Path, default=LANGUAGE_DIR)
    args = parser.parse_args(argv)
    if args.refresh:
        for path in refresh(args.dir):
            print(f"wrote {path}")
        return 0
    failed = 0
    for name, difference in check(args.dir).items():
        ok = difference is not None and difference.ok
        failed += not ok
        print(f"{name}: {'ok' if ok else 'differs or missing (run with --refresh)'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
