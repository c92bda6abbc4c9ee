"""``python -m rules replay FILE``, ``python -m rules legal FILE`` (any game: its record's
``[Game "..."]`` header names it, none means TORA) and ``python -m rules perft GAME DEPTH``
(see README)."""

from __future__ import annotations

import argparse
import sys

from .protocol import GameState, GameType
from .records import RecordError, ReplayError, game_of
from .registry import DEFAULT, GAMES, game_type
from .sides import Side

MAX_RECORD = 4 << 20  # characters: a record is read whole, and the games cap lines themselves


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "perft":
            return _perft(args)
        return _record(args)
    except BrokenPipeError:  # a reader like `head` stopped early: not an error
        sys.stderr.close()
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for command, text in (
        ("replay", "replay a record and print the final position"),
        ("legal", "print the legal actions at the end of a record"),
    ):
        cmd = sub.add_parser(command, help=text)
        cmd.add_argument("file", help="a game record; - for standard input")
        cmd.add_argument(
            "--as",
            dest="viewer",
            choices=("C", "O"),
            help="see it as that player: with their hidden Assassin (TORA, R40)",
        )
    perft = sub.add_parser("perft", help="count the leaf positions DEPTH plies ahead")
    perft.add_argument("game", choices=sorted(GAMES), help="the game")
    perft.add_argument("depth", type=int, help="plies: TORA actions, ToriShogi moves, Torii turns")
    perft.add_argument("--fen", help="start from this position instead (TORA: a full record)")
    perft.add_argument("--board", choices=("short", "long"), default="short", help="TORA's board")
    perft.add_argument(
        "--spirits", help="Torii: the two Spirits, e.g. Deer,Kitsune (with powers; none without)"
    )
    return parser


def _record(args: argparse.Namespace) -> int:
    text = _read(args.file)
    if text is None:
        return 2
    try:
        kind = game_type(game_of(text, DEFAULT))
    except ValueError as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    try:
        game = kind.read_record(text)
    except RecordError as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    except ReplayError as exc:
        print(f"illegal: {exc}")
        return 1
    viewer = None if args.viewer is None else Side.from_letter(args.viewer)
    if args.command == "legal":
        lines = kind.visible_actions(game, viewer)
    else:
        lines = kind.describe(game, viewer)
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


def _read(path: str) -> str | None:
    try:
        if path == "-":
            text = sys.stdin.read(MAX_RECORD + 1)
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(MAX_RECORD + 1)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return None
    if len(text) > MAX_RECORD:
        print(f"{path}: a record has at most {MAX_RECORD:,} characters", file=sys.stderr)
        return None
    return text


def _perft(args: argparse.Namespace) -> int:
    if args.depth < 0:
        print("the depth is 0 or more", file=sys.stderr)
        return 2
    kind = game_type(args.game)
    try:
        game = _start(kind, args)
    except (ValueError, RecordError, ReplayError) as exc:
        print(f"cannot set up {kind.title}: {exc}", file=sys.stderr)
        return 2
    print(kind.perft(game, args.depth))
    return 0


def _start(kind: GameType, args: argparse.Namespace) -> GameState:
    """The start position: ``--fen``, or the game's sample setup (``GameType.sample_setup``)
    with the settings the flags give (TORA reads the board, Torii the Spirits)."""
    if args.fen:
        return kind.from_fen(args.fen, {})
    flags = (("board", args.board), ("spirits", args.spirits))
    options, answers = kind.sample_setup({key: value for key, value in flags if value is not None})
    return kind.new_game(options, answers)


if __name__ == "__main__":
    sys.exit(main())
