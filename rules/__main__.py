"""``python -m rules replay FILE`` and ``python -m rules legal FILE`` (see README)."""

from __future__ import annotations

import argparse
import sys

from .actions import Action
from .game import Game
from .geometry import name
from .pieces import Side
from .record import RecordError, ReplayError, replay
from .view import View


def position_lines(view: View) -> list[str]:
    """One line per piece ``viewer`` may see, sorted as text: ``<C|O> <letter> v<V>h<H>``
    and its marks (a hidden Assassin appears only in its owner's view)."""
    lines = []
    for piece in view.pieces:
        marks = [
            mark
            for mark, present in (
                ("defend", piece.defending),
                ("unready", piece.kind == "C" and not piece.ready),
                ("doomed", piece.doomed),
            )
            if present
        ]
        lines.append(" ".join([piece.side.letter, piece.letter, name(piece.sq), *marks]))
    return sorted(lines)


def status_lines(game: Game) -> list[str]:
    outcome = game.outcome()
    c, o = game.scores()
    return [
        f"status: {'ongoing' if outcome is None else outcome}",
        f"score: C {c} O {o}",
        f"to act: {game.side.letter}, actions left {game.actions_left}",
    ]


def visible_actions(game: Game, viewer: Side | None) -> list[Action]:
    """The legal actions, less those of a hidden Assassin unless its owner is asking."""
    if viewer == game.side:
        return game.legal_actions()
    own = game.pos.hidden_assassin(game.side)
    return [a for a in game.legal_actions() if own is None or a.origin != own.sq or a.letter != "X"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for command, text in (
        ("replay", "replay a record and print the final position"),
        ("legal", "print the legal actions at the end of a record"),
    ):
        cmd = sub.add_parser(command, help=text)
        cmd.add_argument("file", help="a game record (R50); - for standard input")
        cmd.add_argument(
            "--as",
            dest="viewer",
            choices=("C", "O"),
            help="see it as that player: with their hidden Assassin (R40)",
        )
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        game = replay(text)
    except RecordError as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    except ReplayError as exc:
        print(f"illegal: {exc}")
        return 1
    viewer = None if args.viewer is None else Side.from_letter(args.viewer)
    if args.command == "legal":
        lines = [game.notation(action) for action in visible_actions(game, viewer)]
    else:
        lines = position_lines(game.view_for(viewer)) + status_lines(game)
    try:
        sys.stdout.write("".join(line + "\n" for line in lines))
    except BrokenPipeError:  # a reader like `head` stopped early: not an error
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
