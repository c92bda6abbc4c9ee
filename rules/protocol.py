"""The game seam: what every hosted game offers the layers above the rules core.

A game is a package (``rules/tora``, ``rules/torishogi``, ``rules/torii``, or one of the
tests') that exports one ``GameType``, registered in ``rules.registry``; the type makes
``GameState`` objects. Storage, render, the service, the ladders and the Discord layer speak
only these protocols, never a game's internals.

The turn model is the same for every game. The side to act stages actions with ``apply``
(validated at once, nothing public yet), may take them back with ``undo`` or ``take_back``, and
ends the turn with ``end_turn``. A one-move game stages exactly one action (``actions_left``
drops to 0) and ``end_turn`` confirms it, so a mis-click costs nothing. A game may hand the
decision to the other side between turns (Torii's Monkey, TI15): ``side`` is always who must
decide now. Hidden information leaves a game only through ``view_for``.

Refusals are the three errors of ``rules.errors``: ``MalformedAction`` (not notation at all),
``IllegalAction`` (names the ruling that forbids it) and ``AmbiguousAction``.

Texts meant for players (refusals, labels, prompts, actions in words, summaries) are
``rules.words.Text`` where a game has been converted: a ``str`` holding the English, that also
carries its message id and parameters, for the layers above to word in the reader's language
(``bot.i18n.word``); a plain ``str`` is shown as it is.

The protocols are generic over a game's own types: ``GameState[A, E, T, V]`` plays actions
``A``, whose events are ``E``, finishes turns ``T`` and shows views ``V``; ``GameType[G]`` makes
games ``G``. Without their parameters they stand for any game: what the layers above hold.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

from .hosting import Agreement, Answered, Scoring
from .sides import Outcome, Side

if TYPE_CHECKING:
    from typing_extensions import TypeVar
else:
    from typing import TypeVar as _TypeVar

    def TypeVar(name: str, *args: Any, default: Any = None, **kwargs: Any) -> Any:  # noqa: N802
        """A type parameter's default (PEP 696) is only the type checker's business, and
        Python 3.11's TypeVar takes none."""
        return _TypeVar(name, *args, **kwargs)


FORFEIT = "forfeit"  # Outcome.reason of a game lost on missed turns
# The last word of a turn cut short by the opponent's resignation: played as far as it went,
# never ended (TORA's R26); a record line ending in it is not a finished turn.
UNFINISHED = "unfinished"
DESCRIPTION = 100  # characters of a setup option's description (a menu option's limit)


# How an action touches a square (``Touch.role``), for the pictures and boards that show it.
FROM = "from"  # where the acting piece stands
TO = "to"  # where it ends: a move's landing square, a drop's square
VIA = "via"  # a square it passes on its way
HIT = "hit"  # a square it attacks, shoots or captures on without moving there
WITH = "with"  # a piece that supports it (a Cannon's supporters)
BUILD = "build"  # a square it builds on (a Torii)
ROLES = (FROM, TO, VIA, HIT, WITH, BUILD)


@dataclass(frozen=True)
class Touch:
    """One square an action touches and how (``role``, one of ``ROLES``). ``square`` is in
    the game's notation for squares (``v5h7``, ``d2``, ``c3``), or the game's name for a
    place off the board that a piece comes from (ToriShogi's hand, as its drops write it:
    ``S@``)."""

    square: str
    role: str


@dataclass(frozen=True)
class Choice:
    """One legal action, as a menu offers it.

    ``notation`` is the canonical text ``apply`` takes. ``label`` says it in plain words
    ("move to v4h6 and shoot v3h6", "drop on d4"), at most 100 characters; the labels of one
    group differ. ``path`` is the menu path below the group, each step at most 100
    characters, the last one the choice itself: ``("move to v4h6", "and shoot v3h6")`` puts
    the choice under "move to v4h6" beside the other shots after that move; ``(label,)`` for
    a flat list. Choices sharing a first step are shown together under it when a group holds
    more than a menu fits. ``touches`` are the squares the action touches, in the order it
    touches them; ``warning`` says, before it is staged, what the rules will hold against it
    (``GameState.warnings``: a command piece that could not end the turn there, R30), empty
    when nothing or not asked. ``final`` marks an action the rules never take back once it
    is staged (TORA's search, R10), for the menu to say so before it is picked.
    """

    notation: str
    label: str
    path: tuple[str, ...]
    group: str  # the key of its ChoiceGroup
    touches: tuple[Touch, ...] = ()
    warning: str = ""
    final: bool = False  # once staged, never taken back, nor what was staged before it (R10)

    @property
    def spot(self) -> str | None:
        """The square a player points at to choose this action: where it ends, else what it
        hits, else what it builds on, else where the piece stands (an action in place)."""
        for role in (TO, HIT, BUILD, FROM):
            for touch in self.touches:
                if touch.role == role:
                    return touch.square
        return None


@dataclass(frozen=True)
class ChoiceGroup:
    """The legal actions of one acting piece (or one kind of decision: a drop, a tile).

    ``key`` is unique in the position and at most 20 characters (it goes into a component's
    custom id); ``label`` names it ("Archer v5h7", "Swallow in hand"); ``description`` sums
    it up ("4 moves, 2 shots"); ``category`` groups groups when there are more than a menu
    holds (a piece kind, "drops"), at most 20 characters; ``size`` counts its actions, which
    ``GameState.choices(key)`` lists. Every legal action is in exactly one group.
    ``origin`` is where the acting piece is (a square, or a hand as in ``Touch``), "" for a
    decision no piece makes. ``aliases`` are other words a player may know its piece by (the
    letter the rule book and the FEN give it, another name: ToriShogi's Phoenix is "K", the
    "king"), for finding its actions from what they type.
    """

    key: str
    label: str
    description: str
    category: str
    size: int
    origin: str = ""  # where its piece stands, as ``Touch.square``; "" when nothing stands
    aliases: tuple[str, ...] = ()


@runtime_checkable
class GameEvent(Protocol):
    """What one staged action did. ``text`` is its full notation; ``public()`` is the form
    the opponent and spectators may see (the same object when nothing is hidden)."""

    @property
    def side(self) -> Side: ...

    @property
    def text(self) -> str: ...

    @property
    def hidden(self) -> bool: ...

    @property
    def note(self) -> str: ...

    def public(self) -> Self: ...

    def words(self, names: Sequence[str]) -> str:
        """The action in plain words, players called by ``names`` (Challenger's first):
        "ann's Archer moves v5h7-v4h6 and shoots bob's Soldier on v3h6"."""
        ...


E_co = TypeVar("E_co", bound=GameEvent, covariant=True, default=GameEvent)  # a game's event
Seen_co = TypeVar("Seen_co", covariant=True, default=Any)  # the events a view shows


@runtime_checkable
class GameTurn(Protocol):
    """A finished turn: who played it, and its actions' notations (as in the record)."""

    @property
    def side(self) -> Side: ...

    @property
    def texts(self) -> list[str]: ...


@runtime_checkable
class GameView(Protocol[Seen_co]):
    """What ``viewer`` (None: a spectator) may know: the input of every image and text.

    ``staged`` holds the viewer's own staged actions (only when they are to act);
    ``last_turn`` the previous finished turn in the forms the viewer may see, both as the
    game's events ``Seen_co``.
    """

    @property
    def game(self) -> str:
        """The GameType id."""

    @property
    def viewer(self) -> Side | None: ...

    @property
    def side(self) -> Side:
        """Who must decide now."""

    @property
    def deciding(self) -> bool:
        """``side`` answers a question in the opponent's turn (Torii's Monkey)."""

    @property
    def decision(self) -> str:
        """What is decided then, in words for anyone ("" when not ``deciding``)."""

    @property
    def forced_pass(self) -> bool:
        """``side``'s turn has no choice: its only legal action is a pass (Torii's TI8). The
        host plays it at once (``GameState.legal_actions`` holds that one action)."""

    @property
    def actions_left(self) -> int: ...

    @property
    def staged(self) -> tuple[Seen_co, ...]: ...

    @property
    def last_turn(self) -> tuple[Seen_co, ...]: ...

    @property
    def outcome(self) -> str | None: ...

    @property
    def winner(self) -> Side | None: ...

    def summary(self, names: Sequence[str]) -> str:
        """One line on the state for messages: the score, material in hand, supplies..."""
        ...


@dataclass(frozen=True)
class Placed:
    """What stands on a square, for whatever shows a board without knowing its game (the
    generic drawing, a web board): its side, a letter or two, and its name in words."""

    side: Side
    letter: str  # at most 2 characters: "S", "Fa"
    name: str  # "Soldier", "Falcon"


@dataclass(frozen=True)
class SquareMap:
    """A rectangular board as anyone may show it. ``files`` are the file labels left to
    right and ``ranks`` the rank labels bottom to top, as the Challenger sees the board;
    ``squares`` names every square in the game's notation, rank after rank from the bottom,
    each rank left to right (so square ``rank * len(files) + file``); ``pieces`` says what
    stands where, by square name (empty squares left out); ``touched`` the squares to mark
    as the last turn's (in the acting player's own view, their staged actions')."""

    files: tuple[str, ...]
    ranks: tuple[str, ...]
    squares: tuple[str, ...]
    pieces: Mapping[str, Placed] = field(default_factory=dict)
    touched: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.squares) != len(self.files) * len(self.ranks):
            raise ValueError("a square map names every square: files times ranks")

    def name(self, file: int, rank: int) -> str:
        """The square of ``file`` and ``rank``, both counted from 0."""
        return self.squares[rank * len(self.files) + file]

    def at(self, square: str) -> Placed | None:
        return self.pieces.get(square)


@runtime_checkable
class Mapped(Protocol):
    """A view that says its board as a ``SquareMap`` (what the viewer may see of it): what a
    game without a drawing of its own is drawn from (``render``'s generic drawing)."""

    def square_map(self) -> SquareMap: ...


A = TypeVar("A", default=Any)  # a game's action
T = TypeVar("T", default=Any)  # its finished turn (a ``GameTurn``)
V_co = TypeVar("V_co", bound=GameView[Any], covariant=True, default=GameView[Any])  # its view


@runtime_checkable
class GameState(Protocol[A, E_co, T, V_co]):
    """One game in progress (the judge's copy: it may hold hidden state): it plays actions
    ``A`` (``legal_actions``, ``apply``), whose events are ``E_co``, into turns ``T``, and shows
    views ``V_co``."""

    turns: list[T]  # finished turns in order

    @property
    def game_type(self) -> str:
        """Its ``GameType`` id."""

    @property
    def side(self) -> Side: ...

    @property
    def actions_left(self) -> int: ...

    def legal_actions(self) -> list[A]:
        """Every legal action of ``side`` now, in the game's own type, fixed order."""
        ...

    def notation(self, action: A) -> str: ...

    def menu(self) -> tuple[ChoiceGroup, ...]:
        """The legal actions grouped for menus (see ``ChoiceGroup``), without the actions
        themselves: a menu of pieces is built without working out every action's text."""
        ...

    def prompt(self) -> str:
        """What the menu of ``menu()``'s groups asks for, in the game's words: "Choose a
        piece", "Choose a tile, or a power first", "Choose the Monkey's flip"."""
        ...

    def choices(self, key: str | None = None) -> tuple[Choice, ...]:
        """The actions of the group ``key`` (empty for an unknown key), or of every group
        (None). Within a group, each first step of the paths holds at most 25 choices, and
        so does the list of first steps."""
        ...

    def menu_and_choices(self) -> tuple[tuple[ChoiceGroup, ...], tuple[Choice, ...]]:
        """``menu()`` and ``choices()`` (of every group) at once, worked out from one list of
        the legal actions: what autocomplete and the web board read whole."""
        ...

    def warnings(self, notations: Sequence[str]) -> tuple[str, ...]:
        """What the rules will hold against each of these legal actions of ``side`` if it
        is staged now, as far as ``side`` can know ("" for nothing): TORA warns of a command
        piece the turn could not end with where the action leaves it (R30), ToriShogi of a
        move that would lose by repetition (TS10). It may cost a search per action, so
        menus ask for the actions they show."""
        ...

    def parse_action(self, text: str) -> A:
        """The legal action ``text`` names; raises one of the three errors."""
        ...

    def apply(self, action: A | str) -> E_co:
        """Stage one action (text or the game's action object) of ``side``."""
        ...

    def undo(self) -> str:
        """Take back the last staged action; returns its notation."""
        ...

    def can_undo(self) -> bool:
        """Whether ``undo`` would take an action back now (something is staged, and no
        action the rules never take back holds it: TORA's search, R10)."""
        ...

    def take_back(self, index: int) -> str:
        """Take back staged action ``index`` (from 0), replaying the later ones."""
        ...

    def staged(self) -> list[str]: ...

    def publish(self) -> None:
        """Make public, where the game stands, what it keeps hidden until it ends (TORA's
        Assassin records, R44): the host ends the match there without a result (an abort,
        a cancellation). Idempotent; a game that hides nothing does nothing."""
        ...

    def check_takeback(self) -> None:
        """Refuse (``IllegalAction``, naming the ruling) to take back the last finished
        turn, as the players may agree to, when it holds an action the rules never take
        back (TORA's search, R10); nothing otherwise."""
        ...

    def check_discard(self) -> None:
        """Refuse (``IllegalAction``, naming the ruling) to drop the running turn's staged
        actions while the game goes on (its player accepts a takeback of the turn before),
        when one of them is never taken back (TORA's search, R10); nothing otherwise."""
        ...

    def end_turn(self, deadline: bool = False) -> T:
        """End the turn of ``side`` (at its deadline with ``deadline``: a game may then drop
        staged actions it would otherwise refuse to end on)."""
        ...

    def resign(self, side: Side) -> E_co: ...

    def forfeit(self, side: Side) -> E_co:
        """``side`` loses on missed turns (reason ``FORFEIT``); staged actions are dropped."""
        ...

    def agreements(self, proposer: Side | None = None) -> tuple[str, ...]:
        """What the players may agree on now besides resigning: ``("draw",)``, TORA's
        ``("draw", "reset")`` in a series; with ``proposer``, what that player may propose
        (TORA's reset: only a player down to one action, R28)."""
        ...

    def agree(self, kind: str) -> E_co:
        """Both players agreed to ``kind`` (one of ``agreements()``); staged actions are
        dropped."""
        ...

    def view_for(self, viewer: Side | None) -> V_co: ...

    def outcome(self) -> Outcome | None: ...

    def is_over(self) -> bool: ...

    @property
    def round(self) -> int:
        """TORA's round (R11); elsewhere the move number (1 until both sides have moved)."""
        ...

    def scores(self) -> tuple[int, int]:
        """Points booked (TORA, R27); (0, 0) in games that keep none."""
        ...

    def discard_turn(self) -> list[str]:
        """Drop every staged action (the turn never ended, so nothing of it is played);
        returns their notations. The host does it before ending a match otherwise."""
        ...

    def key(self) -> tuple[object, ...]:
        """Everything that tells two games apart, hidden state included: equal keys mean
        equal games (storage's integrity checks)."""
        ...

    def quiet_rounds(self) -> int:
        """Whole rounds (a turn of each side) finished since a turn last removed a piece, as
        the game defines a removal (TORA: a piece removed by an attack, a search or at a
        round's end; ToriShogi: a capture; Torii: a Torii built, its one step never undone),
        counted from the start when none has. Finished turns only, and only what both
        players saw: what draw offers in a game going nowhere go by."""
        ...

    def for_player(self, side: Side) -> Self:
        """A copy holding only what ``side`` may know (TORA: without the opponent's hidden
        Assassin), on which ``side``'s legal actions and turn ends are those of the game:
        what an engine plays on."""
        ...

    def copy(self) -> Self: ...

    def fen(self) -> str:
        """The position in the game's exchange format (FEN for ToriShogi)."""
        ...


class NoPoints:
    """What a game that keeps no points offers for ``round`` and ``scores`` (it has
    ``turns``): the move number, and (0, 0); and, as its rules hold nothing against a legal
    action before it is staged, no ``warnings``."""

    turns: Sequence[object]

    @property
    def round(self) -> int:
        """The move number: 1 until both sides have played a turn, then 2..."""
        return len(self.turns) // 2 + 1

    def scores(self) -> tuple[int, int]:
        return 0, 0

    def warnings(self, notations: Sequence[str]) -> tuple[str, ...]:
        return ("",) * len(notations)


def rounds_since(
    turns: Sequence[T],
    removes: Callable[[T], bool],
    counts: Callable[[T], bool] = lambda _turn: True,
) -> int:
    """``quiet_rounds`` for a game whose ``turns`` say, each, whether it ``removes`` a piece
    (``counts``: whether a turn is one of a round's two, not a decision owed inside one)."""
    quiet = 0
    for turn in reversed(turns):
        if removes(turn):
            break
        quiet += counts(turn)
    return quiet // 2


@dataclass(frozen=True)
class SetupQuestion:
    """A choice each player makes privately before the first turn (TORA's strategy, Torii's
    Spirit). ``options`` lists the allowed answers (empty: free text the game checks, such as
    TORA's Assassin square). ``descriptions``, when given, says what each option means, in
    the order of ``options``, at most 100 characters each (a menu shows it beside the
    option): a player chooses knowing what they choose (a Spirit's power). Every answer is
    private until the game starts; a ``secret`` one stays so after (TORA's Assassin square,
    R41: storage keeps it apart, never public). ``wanted`` names a missing answer in texts
    ("your Assassin's start square (or `none`)"; default "your <name>")."""

    name: str
    prompt: str
    options: tuple[str, ...]
    required: bool = True
    descriptions: tuple[str, ...] = ()
    secret: bool = False
    wanted: str = ""

    def __post_init__(self) -> None:
        if self.descriptions and len(self.descriptions) != len(self.options):
            raise ValueError(f"{self.name}: one description per option, or none")
        if any(len(text) > DESCRIPTION for text in self.descriptions):
            raise ValueError(f"{self.name}: a description is at most {DESCRIPTION} characters")

    def description(self, option: str) -> str:
        """What ``option`` means ("" when the game says nothing of it)."""
        if not self.descriptions or option not in self.options:
            return ""
        return self.descriptions[self.options.index(option)]

    @property
    def missing(self) -> str:
        """How texts name this answer while it is missing."""
        return self.wanted or f"your {self.name}"


@dataclass(frozen=True)
class Ladder:
    """A ladder a game's rated matches count on. ``id`` is unique among every game's ladders
    (stored with each result; at most 16 lower-case letters, digits and hyphens); ``name``
    says it in texts ("short-board", "ToriShogi"); ``options`` are the match options that
    put a match on it (a match whose checked options hold them all), and that a match paired
    on it is played with. A game of one ladder names it after itself, with no options."""

    id: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def holds(self, options: Mapping[str, Any]) -> bool:
        """Whether a match with these (checked) options counts on this ladder."""
        return all(options.get(key) == value for key, value in self.options.items())


G = TypeVar("G", bound=GameState, default=GameState)  # the games a game type makes


class GameType(Protocol[G]):
    """A hosted game: how to make, read and write its games ``G``."""

    id: str  # "tora", "torishogi", "torii": in records ([Game "..."]) and storage
    title: str  # "TORA", "ToriShogi", "Torii"
    state_version: int  # bumped when a pickled game of this type changes shape
    # A turn is one action that ``end_turn`` confirms (ToriShogi's move, Torii's whole turn):
    # a player who stages another means it instead, so it replaces the last one staged.
    one_move: bool
    # What ``GameState.quiet_rounds`` counts rounds without, as a sentence's start: "No piece
    # has been removed", "No piece has been captured", "No Torii has been built".
    nothing_removed: str
    # The name UCI engines of chess variants (Fairy-Stockfish) know this game by, for an
    # outside engine to play it from its FEN and moves ("torishogi"); None: none knows it.
    uci_variant: str | None
    # Its ladders, the first the default: TORA's boards, else one named after the game.
    ladders: tuple[Ladder, ...]

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The match options (board, terrain, powers...) made complete and checked;
        ValueError names what is wrong."""
        ...

    def setup_questions(self, options: Mapping[str, Any]) -> tuple[SetupQuestion, ...]: ...

    def new_game(
        self, options: Mapping[str, Any], answers: tuple[Mapping[str, str], Mapping[str, str]]
    ) -> G:
        """A new game; ``answers`` are each side's setup answers, by question name."""
        ...

    def from_fen(self, fen: str, options: Mapping[str, Any]) -> G: ...

    def setup_of(self, game: G) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        """The options and the public setup answers ``game`` was made with: ``new_game`` of
        them (plus any secret answers) makes the same game. For storage and imports."""
        ...

    def write_record(
        self,
        game: G,
        audience: Side | str | None,
        extra: Mapping[str, str] | None = None,
    ) -> str:
        """The record (R50 style headers, then a line per finished turn) for ``audience``:
        a side, None for the public, or ``"judge"`` for everything; ``extra`` headers (the
        players' names...) go after the game's own."""
        ...

    def read_record(self, text: str) -> G:
        """Replay a record; raises ``rules.tora.record.RecordError`` or ``ReplayError``."""
        ...

    def perft(self, game: G, depth: int) -> int:
        """Leaf positions ``depth`` plies from ``game``, as the game defines a ply (a move
        in ToriShogi, a whole turn in Torii, a single action in TORA): for testing."""
        ...

    def describe(self, game: G, viewer: Side | None) -> list[str]:
        """The position as ``viewer`` may know it, as text lines (``python -m rules replay``)."""
        ...

    def visible_actions(self, game: G, viewer: Side | None) -> list[str]:
        """The notations of the legal actions ``viewer`` may know of."""
        ...

    # ---- its policies: what the host asks of it besides the turns (``rules.policies``
    # holds a plain game's; a game inherits them and says what differs) ----------------
    # Each match option by name, as a refusal to another game's challenge names it ("a choice
    # of board"); each setup question it may ask, as texts name the answer ("Ruler").
    option_nouns: Mapping[str, str]
    answer_nouns: Mapping[str, str]
    # The longest text a free-text option or answer takes ("terrain_map": 2,000 characters).
    text_bounds: Mapping[str, int]
    # What its players may agree on besides a draw (TORA's reset, R28).
    agreements: tuple[Agreement, ...]
    # Its tournament scoring, when its rule book has one (TORA's chapter 10).
    tournament: Scoring | None

    def refuse_new(self, options: Mapping[str, Any]) -> None:
        """ValueError, naming what is wrong and what is allowed, if checked options a match
        already agreed to still plays with are no longer offered to a new one (TORA: a
        series to a target with Assassins)."""
        ...

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """Checked options in words for a challenge ("long board", "with Assassins")."""
        ...

    def series_words(self, options: Mapping[str, Any]) -> str:
        """How long a match of these checked options runs, when not one game ("a series to
        60 points", R28); "" for a single game."""
        ...

    def option_choices(self, name: str, options: Mapping[str, Any]) -> tuple[str, ...]:
        """What a front end offers while an option or setup answer ``name`` is typed, given
        the options chosen so far (TORA: a board's terrain presets, the strategies)."""
        ...

    def unasked(self, options: Mapping[str, Any], name: str) -> str:
        """Why a question of ``answer_nouns`` is not asked in a match of these options
        ("only the long board has one")."""
        ...

    def answer_setup(
        self,
        options: Mapping[str, Any],
        side: Side,
        before: Mapping[str, str],
        given: Mapping[str, str],
    ) -> Answered:
        """A player's setup after answering ``given`` (questions of ``answer_nouns``) over
        ``before``, each answer checked and written as the game keeps it; ValueError names a
        wrong answer and the allowed ones, fit to show the player."""
        ...

    def answer_words(self, name: str, answer: str) -> str:
        """An answer in a player's summary of their setup ("Assassin starts on v3h17")."""
        ...

    def free_prompt(self, options: Mapping[str, Any], side: Side, question: SetupQuestion) -> str:
        """What ``side`` is asked for a free-text question (TORA's home edge by name)."""
        ...

    def offered(
        self, options: Mapping[str, Any], side: Side, answers: Mapping[str, str], name: str
    ) -> tuple[tuple[str, ...], str]:
        """The answers a free-text question may take now, given ``side``'s answers so far,
        and why there are none yet ("" when there is no reason): TORA's free home-edge
        squares under the strategy chosen, and ``none``."""
        ...

    def draw_setup(
        self, options: Mapping[str, Any], side: Side, rng: random.Random
    ) -> dict[str, str]:
        """A setup drawn at random among the allowed answers (an AI player's)."""
        ...

    def setup_preview(
        self, options: Mapping[str, Any], side: Side, answers: Mapping[str, str]
    ) -> GameView[Any]:
        """The start as ``side``'s player would see it with their ``answers`` so far (the
        rest as the game's first answers make it), showing nothing of the opponent's setup,
        which is secret until the start: a board to answer a square's question on."""
        ...

    def setup_board(self, options: Mapping[str, Any]) -> GameView[Any]:
        """The board as anyone may see it while the players choose their setups: the
        match's own (its size, its terrain), showing none of what a setup chooses."""
        ...

    def sample_setup(
        self, settings: Mapping[str, str]
    ) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        """Options and answers that make a game (``new_game``), for tests and the command
        line, from ``settings`` the game reads as it likes (TORA's ``board``, Torii's
        ``spirits``); ValueError for settings it cannot use."""
        ...

    def heavy(self, game: G) -> bool:
        """Whether ending a turn of ``game`` costs the rules core much as a rule (TORA's long
        board: the R25 and R30 searches, a third of a second at the median): the host runs
        the game's other steps in a thread (a light game's on its event loop), and storage
        snapshots after each turn end."""
        ...

    def searching_turn_end(self, game: G) -> bool:
        """Whether ending a turn of ``game`` may search (TORA's R25 and R30, on either board:
        on the short board mostly a millisecond, but a few hundred at times): the host ends
        such turns in a worker process where it has any, since in a thread of its own they
        would hold the interpreter lock that every other match's requests wait for."""
        ...

    def replaying(self, game: G) -> AbstractContextManager[None]:
        """Inside, ``game`` replays a log its rules judged when it was played, and may skip
        work it does once at the end (TORA's trapped search, R25)."""
        ...

    def replay_turn(self, game: G, texts: Sequence[str]) -> None:
        """Play on ``game`` a finished turn of its record (``GameTurn.texts``) and end it,
        as reading the record would (Torii: a turn left to its deadline, recorded as
        ``pass`` while a tile had a path, ends at its deadline); an ``ActionError`` if it
        does not play."""
        ...

    def series_number(self, game: G) -> int:
        """The game of a series being played (TORA, R28); 1 in a game without series."""
        ...

    def setup_words(self, game: G, side: Side) -> str:
        """``side``'s public setup once the game starts ("aggressive, Ruler K", "Kitsune")."""
        ...

    def to_act(self, view: GameView[Any]) -> str:
        """What the side to act has to do ("2 actions in round 3", "a move")."""
        ...

    def turn_notes(
        self, view: GameView[Any], names: Sequence[str], series_before: int
    ) -> list[str]:
        """What the last finished turn did besides its actions (TORA: Assassins revealed,
        doomed pieces removed, a new game of the series)."""
        ...

    def final_summary(self, view: GameView[Any], names: Sequence[str]) -> str:
        """The state in a line once the game is over ("Final score: ...")."""
        ...

    def square_words(self, view: GameView[Any], names: Sequence[str]) -> dict[str, str]:
        """What stands on each square of ``view`` as its viewer may know it (its pieces,
        promoted or not, its ground), and what each place off the board holds (a hand, as
        ``Touch`` names it), in words by name, nothing for an empty square: what a web board
        says of each square to a screen reader."""
        ...

    def end_notes(self, game: G, names: Sequence[str]) -> list[str]:
        """What the match's end makes public that no turn said (TORA: the record of each
        Assassin still hidden, R44)."""
        ...

    def turn_hints(self, game: G) -> list[str]:
        """For the player to act alone, what they may do now and at no other time (TORA:
        the free take of the Assassin their search has just revealed, R43)."""
        ...

    def private_notes(self, view: GameView[Any]) -> list[str]:
        """What a player's own board adds for them (TORA: their hidden Assassin's record)."""
        ...


def describe(game: GameState) -> list[str]:
    """A position as text for a game without hidden information: its position string, the
    status and who is to act (``python -m rules replay``)."""
    outcome = game.outcome()
    return [
        f"position: {game.fen()}",
        f"status: {'ongoing' if outcome is None else outcome}",
        f"to act: {game.side.letter}, actions left {game.actions_left}",
    ]


__all__ = [
    "BUILD",
    "FORFEIT",
    "FROM",
    "HIT",
    "ROLES",
    "TO",
    "VIA",
    "WITH",
    "Choice",
    "ChoiceGroup",
    "GameEvent",
    "GameState",
    "GameTurn",
    "GameType",
    "GameView",
    "Ladder",
    "Mapped",
    "NoPoints",
    "Outcome",
    "Placed",
    "SetupQuestion",
    "Side",
    "SquareMap",
    "Touch",
    "describe",
    "rounds_since",
]
