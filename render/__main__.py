"""Command line: golden images, README examples, and replays of records.

python -m render goldens [--refresh]     compare (or rewrite) tests/golden/*.png
python -m render examples [DIR]          write the README's images (docs/images)
python -m render replay RECORD OUT.gif   an animated replay of a record of any game
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .replays import replay_of
from .tora import examples, goldens


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    golden = commands.add_parser("goldens", help="compare the golden images, or --refresh them")
    golden.add_argument("--refresh", action="store_true", help="rewrite the stored images")
    golden.add_argument("--dir", type=Path, default=goldens.GOLDEN_DIR)
    example = commands.add_parser("examples", help="write the README's example images")
    example.add_argument("dir", type=Path, nargs="?", default=Path("docs/images"))
    replay = commands.add_parser("replay", help="render a game record as an animated GIF")
    replay.add_argument("record", type=Path)
    replay.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "goldens":
        return _goldens(args.dir, args.refresh)
    if args.command == "examples":
        for path in examples.write(args.dir):
            print(f"wrote {path}")
        return 0
    text = args.record.read_text()
    args.out.write_bytes(replay_of(text).gif)
    print(f"wrote {args.out}")
    return 0


def _goldens(directory: Path, refresh: bool) -> int:
    if refresh:
        for path in goldens.refresh(directory):
            print(f"wrote {path}")
        return 0
    failed = 0
    for name, difference in goldens.check(directory).items():
        if difference is None:
            print(f"{name}: no stored image (run with --refresh)")
            failed += 1
        elif not difference.ok:
            print(f"{name}: differs ({difference.differing:.2%} of pixels)")
            failed += 1
        else:
            print(f"{name}: ok ({difference.differing:.3%} of pixels differ)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
