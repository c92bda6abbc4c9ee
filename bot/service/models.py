"""What callers pass in and get back."""

from __future__ import annotations

from dataclasses import dataclass

from rules.protocol import Choice, ChoiceGroup

from .ports import Attachment, Stamp

# The host's AI players, one per strength: negative ids, as Discord's are positive (storage
# rates their matches on the AI ladders by that sign). Nothing is ever sent to them.
AI_IDS = {"easy": -1, "normal": -2, "hard": -3, "master": -4}


def is_robot(user_id: int | None) -> bool:
    return user_id in AI_IDS.values()


@dataclass(frozen=True)
class User:
    """A person as the front end knows them; ``name`` is how messages call them."""

    id: int
    name: str


@dataclass(frozen=True)
class Place:
    """The channel or thread a command was given in, and its server."""

    guild_id: int
    channel_id: int


@dataclass(frozen=True)
class Reply:
    """The answer to a command, for the user who gave it. ``private``: show it only to them
    (it may hold their staged actions or their hidden Assassin). ``stamp`` names the match
    and turn the command left: pass it back as ``expect`` with a later command (e.g. from a
    button on this reply) to have that command refused once that turn is over. ``buttons``
    are the verbs of the buttons this reply offers for that same turn (a hint's "Play
    this"). ``menu``: the Play panel's menu after the command, when it was asked for;
    ``title``: the match as the player's panels name it (``Menu.title``), when asked for."""

    text: str
    files: tuple[Attachment, ...] = ()
    private: bool = True
    stamp: Stamp | None = None
    buttons: tuple[str, ...] = ()
    menu: Menu | None = None
    title: str = ""


@dataclass(frozen=True)
class Menu:
    """What a Play panel shows the player to act, for them alone: ``title`` names the
    match and the opponent, ``staged`` their turn so far, ``groups`` their legal actions by
    piece, ``choices`` those of the group asked for (if any, those shown with their
    ``warning``), ``actions_left`` how many more they may stage. With a group, ``picture``
    frames its piece and letters the squares its actions go to (``pointing``)."""

    stamp: Stamp
    title: str
    staged: tuple[str, ...]
    groups: tuple[ChoiceGroup, ...]
    choices: tuple[Choice, ...]
    actions_left: int
    to_act: str = ""  # what is left to do, in the game's words ("2 actions in round 3")
    prompt: str = ""  # what the menu of groups asks for ("Choose a piece")
    one_move: bool = False  # a turn is one move: a new one replaces the one staged
    # the turn asks no move but a decision (Torii's Monkey, TI15) or its only legal action, a
    # pass (TI8): nothing for the picture to letter
    decision: bool = False
    letters: tuple[tuple[str, str], ...] = ()  # (square, letter), as ``picture`` shows them
    # Undo would take an action back: one is staged and no search holds it (R10)
    undoable: bool = False
    # what the player may do now and at no other time, in the game's words (TORA: the free
    # take of the Assassin their search has just revealed, R43)
    hints: tuple[str, ...] = ()
    picture: Attachment | None = None  # the player's board, the group's piece pointed out
