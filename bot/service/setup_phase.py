"""The setup phase: in TORA each player privately chooses a strategy, a Ruler (long board)
and where their Assassin starts, or not to field one (R41). Choices stay private until the
game starts, which happens as soon as both players are done; the Assassin's square stays
secret after that too. A game that asks no setup questions (ToriShogi) starts as soon as the
challenge is accepted."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from rules import GameView
from rules.tora import (
    STRATEGIES,
    TORA,
    IllegalAction,
    Side,
    check_assassin_start,
    home_row,
    name,
    start_squares,
)
from storage import MatchOptions, NewMatch, SetupChoice, new_game

from . import announce, questions
from .context import Context, Mail
from .endings import ended
from .errors import Refused
from .models import Reply, User
from .phases import LAPSED, PLAYING
from .table import Table, player_side
from .terms import Terms
from .texts import TITLES, duration, escape, listing, quote

NONE = "none"
FORM = "setup"  # the verb of a setup prompt's components (a front end shows the form)
RULERS = {"k": "K", "king": "K", "q": "Q", "queen": "Q"}


def setup_prompt(ctx: Context, table: Table, side: Side) -> str:
    """What a player is asked to choose, each answer with what it means."""
    terms = table.terms
    other = table.who(side.other)
    lines = [
        f"Your match of {terms.title} against {other}: you play the {TITLES[side]}"
        f"{' and move first' if side == Side.CHALLENGER else ''}. Choose your setup "
        f"privately, with the buttons or menus below or with {ctx.cmd('setup')}; your "
        "opponent sees your choices only when the game starts:",
    ]
    asked = questions.questions(terms)
    tora = terms.game == TORA.id  # TORA words the Assassin's question with the home edge
    lines += questions.prompt_lines(tuple(q for q in asked if q.options or not tora))
    if tora and terms.assassins:
        edge = home_row(side, 17)
        lines.append(
            f"- assassin: a free square of your home edge (h{edge}) where it starts hidden, "
            "or `none` not to field one (once your strategy is chosen: it decides which "
            "squares are free)"
        )
    lines.append(f"You have {duration(terms.turn_seconds)} to choose.")
    return "\n".join(lines)


def complete(terms: Terms, choice: SetupChoice) -> bool:
    if terms.game != TORA.id:
        return not questions.missing(terms, choice)
    return (
        choice.strategy is not None
        and (terms.board != "long" or choice.ruler is not None)
        and (not terms.assassins or choice.assassin is not None)
    )


def missing(terms: Terms, choice: SetupChoice) -> list[str]:
    if terms.game != TORA.id:
        return questions.missing(terms, choice)
    left = []
    if choice.strategy is None:
        left.append("your strategy")
    if terms.board == "long" and choice.ruler is None:
        left.append("your Ruler")
    if terms.assassins and choice.assassin is None:
        left.append("your Assassin's start square (or `none`)")
    return left


async def choose(
    ctx: Context,
    table: Table,
    user: User,
    strategy: str | None,
    ruler: str | None,
    assassin: str | None,
    answers: Mapping[str, str] | None = None,
) -> Reply:
    """A player's setup choices: TORA's ``strategy``, ``ruler`` and ``assassin``, another
    game's ``answers`` to its questions (Torii: ``spirit``); TORA's may come among the
    answers too, by question name (as a setup form's components give them)."""
    hosted = table.hosted
    side = player_side(table, user)
    answers = {name: text for name, text in (answers or {}).items() if text is not None}
    tora = {"strategy": strategy, "ruler": ruler, "assassin": assassin}
    tora |= {name: answers.pop(name) for name in list(answers) if name in tora}
    given = Given(tora["strategy"], tora["ruler"], tora["assassin"], answers)
    if given.empty:
        wanted = listing(missing(table.terms, SetupChoice()))
        raise Refused(f"Tell me what you choose ({wanted}) with {ctx.cmd('setup')}.")
    applying, ignored = _applying(table.terms, given)
    before = await ctx.store.hosting.private_setup_choice(hosted.id, side) or SetupChoice()
    if table.terms.game != TORA.id:
        if applying.empty:
            raise Refused(
                f"A strategy, a Ruler and an Assassin are TORA's; {table.terms.title} asks "
                f"for {listing(missing(table.terms, SetupChoice()))}."
            )
        choice, note = questions.merged(table.terms, before, applying.answers), ""
    elif applying.empty and given.answers:
        raise Refused(f"TORA asks for {listing(missing(table.terms, SetupChoice()))}, not that.")
    else:
        choice, note = _merged(table.terms, side, before, given if applying.empty else applying)
    if ignored:
        note = f"Ignored: {listing(ignored)}.\n{note}"
    ready = set(hosted.ready) - {side.letter}
    if complete(table.terms, choice):
        ready.add(side.letter)
    if ready == {"C", "O"}:
        other = await ctx.store.hosting.private_setup_choice(hosted.id, side.other)
        if other is None:
            raise RuntimeError(
                f"hosted match {hosted.id}: {side.other.letter} is ready without choices"
            )
        choices = {side: choice, side.other: other}
        return await start(ctx, table, choices, note)
    changed = replace(hosted, ready="".join(sorted(ready)))
    mail = Mail(table.channel_id)
    if side.letter in ready and side.letter not in hosted.ready:
        mail.public(
            f"{escape(user.name)} has finished setting up; waiting for "
            f"{table.side_name(side.other)}."
        )
    await ctx.update(table, changed, mail, choice=(side, choice))
    return Reply(note + _summary(table.terms, choice, side.letter in ready, table, side))


@dataclass(frozen=True)
class Given:
    """What one ``setup`` request answers: TORA's three, another game's by question."""

    strategy: str | None = None
    ruler: str | None = None
    assassin: str | None = None
    answers: Mapping[str, str] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return (
            self.strategy is None
            and self.ruler is None
            and self.assassin is None
            and (not self.answers)
        )


def _applying(terms: Terms, given: Given) -> tuple[Given, list[str]]:
    """The answers that apply to this match, and the others named with why they do not (a
    player who answers too much has the rest taken, not everything refused)."""
    ignored = []
    if terms.game != TORA.id:
        tora = [
            what
            for what, text in (
                ("your strategy", given.strategy),
                ("your Ruler", given.ruler),
                ("your Assassin", given.assassin),
            )
            if text is not None
        ]
        if tora:
            ignored.append(f"{listing(tora)} (TORA's)")
        return Given(answers=given.answers), ignored
    strategy, ruler, assassin = given.strategy, given.ruler, given.assassin
    if ruler is not None and terms.board != "long":
        ignored.append("your Ruler (only the long board has one)")
        ruler = None
    if assassin is not None and not terms.assassins:
        ignored.append("your Assassin (this match is played without Assassins)")
        assassin = None
    ignored += [f"your {name} (not TORA's)" for name in given.answers]
    return Given(strategy, ruler, assassin), ignored


def _merged(terms: Terms, side: Side, before: SetupChoice, given: Given) -> tuple[SetupChoice, str]:
    """The choice after this request, checked, and a note on anything it undid. An answer
    that does not apply to this match is refused, saying why (``_applying`` sets such
    answers aside whenever another one applies)."""
    strategy, ruler, assassin = given.strategy, given.ruler, given.assassin
    choice, note = before, ""
    if strategy is not None:
        chosen = strategy.strip().lower()
        if chosen not in STRATEGIES:
            raise Refused(f"Your strategy is `aggressive` or `defensive`, not {quote(strategy)}.")
        choice = replace(choice, strategy=chosen)
        if choice.assassin not in (None, NONE) and assassin is None:
            try:
                _square(terms, side, choice, choice.assassin)
            except Refused:
                choice = replace(choice, assassin=None)
                note = (
                    f"Your Assassin's square {before.assassin} is not free with the "
                    f"{chosen} setup, so choose its square again.\n"
                )
    if ruler is not None:
        if terms.board != "long":
            raise Refused(
                "Only the long board has a Ruler; on the short board there is none to choose."
            )
        letter = RULERS.get(ruler.strip().lower())
        if letter is None:
            raise Refused(f"Your Ruler is `K` (King) or `Q` (Queen), not {quote(ruler)}.")
        choice = replace(choice, ruler=letter)
    if assassin is not None:
        if not terms.assassins:
            raise Refused("This match is played without Assassins, so there is none to place.")
        text = assassin.strip().lower()
        if text in (NONE, "no"):
            choice = replace(choice, assassin=NONE)
        else:
            if choice.strategy is None:
                raise Refused(
                    "Choose your strategy first: it decides which squares of your home edge "
                    "are free for the Assassin."
                )
            choice = replace(choice, assassin=_square(terms, side, choice, text))
    return choice, note


def _square(terms: Terms, side: Side, choice: SetupChoice, text: str) -> str:
    """The Assassin's start square, checked against the player's own setup (R41)."""
    try:
        return name(check_assassin_start(terms.options(_setups(side, choice)), side, text))
    except IllegalAction as exc:
        raise Refused(exc.message) from None


def _setups(side: Side, choice: SetupChoice) -> tuple[str, str]:
    """Both strategies for checking ``side``'s own squares: the other side's does not matter
    (it never stands on this home edge)."""
    own = choice.strategy or "aggressive"
    return (own, "aggressive") if side == Side.CHALLENGER else ("aggressive", own)


async def assassin_squares(ctx: Context, table: Table, user: User) -> list[str]:
    """Where the player may start their Assassin (R41): the free squares of their home edge
    under the strategy they chose, then `none`; only `none` until the strategy is chosen,
    and nothing for anyone else or without Assassins. Only ever shown to that player."""
    side = table.hosted.side_of(user.id)
    if side is None or not table.terms.assassins:
        return []
    choice = await ctx.store.hosting.private_setup_choice(table.hosted.id, side)
    if choice is None or choice.strategy is None:
        return [NONE]
    options = table.terms.options(_setups(side, choice))
    return [name(square) for square in start_squares(options, side)] + [NONE]


async def form(ctx: Context, table: Table, user: User) -> questions.SetupForm:
    """The player's setup as a form: each question with what may be picked now (TORA's
    Assassin: the free squares under their strategy, and ``none``) and what they chose."""
    side = player_side(table, user)
    choice = await ctx.store.hosting.private_setup_choice(table.hosted.id, side) or SetupChoice()
    offered: dict[str, tuple[tuple[str, ...], str]] = {}
    if table.terms.game == TORA.id and table.terms.assassins:
        squares = tuple(await assassin_squares(ctx, table, user))
        waiting = "" if choice.strategy else "choose your strategy first: it decides the squares"
        offered["assassin"] = (squares, waiting)
    return questions.SetupForm(
        table.stamp,
        setup_prompt(ctx, table, side),
        questions.fields(table.terms, choice, offered),
        side.letter in table.hosted.ready,
        preview(table.terms, side, choice),
    )


def preview(terms: Terms, side: Side, choice: SetupChoice) -> GameView | None:
    """The start as ``side``'s player would see it with what they chose so far (their
    Assassin on its square), every other answer the game's first: a board to answer a
    square's question on. Their opponent's choices are theirs alone until the start, so the
    other side is drawn as the first answers make it, never as chosen. None when no question
    asks a square (Torii's Spirit): a picture would then only show the opponent made-up
    answers (a Spirit they may not choose) as theirs."""
    if all(q.options for q in questions.questions(terms)):
        return None
    if terms.game == TORA.id:
        choices = {side: choice, side.other: SetupChoice()}
        options, _starts = _game_setup(terms, choices)
        own = None if choice.assassin in (None, NONE) else choice.assassin
        starts = (own, None) if side == Side.CHALLENGER else (None, own)
        return new_game(terms.game, options, starts).view_for(side)
    firsts = {q.name: q.options[0] for q in questions.questions(terms) if q.options}
    mine = firsts | {name: text for name, text in choice.answers}
    answers = (mine, firsts) if side == Side.CHALLENGER else (firsts, mine)
    return new_game(terms.game, terms.spec(answers)).view_for(side)


def _summary(terms: Terms, choice: SetupChoice, done: bool, table: Table, side: Side) -> str:
    parts = questions.summary(choice)
    if choice.strategy:
        parts.append(f"strategy {choice.strategy}")
    if choice.ruler:
        parts.append(f"Ruler {choice.ruler}")
    if choice.assassin == NONE:
        parts.append("no Assassin")
    elif choice.assassin:
        parts.append(f"Assassin starts on {choice.assassin}")
    text = f"Your setup so far: {listing(parts)}." if parts else "Nothing chosen yet."
    if done:
        return (
            f"{text} That is all; the game starts when {table.side_name(side.other)} has "
            "chosen too. You may still change your choices until then."
        )
    return f"{text} Still to choose: {listing(missing(terms, choice))}."


def drawn_setup(
    terms: Terms, side: Side, rng: random.Random
) -> tuple[str | None, str | None, str | None, dict[str, str]]:
    """An AI player's setup, drawn at random among the allowed choices (the engines judge
    positions, not setups): TORA's strategy, Ruler and Assassin square (fielded four times
    in five), another game's answers."""
    if terms.game != TORA.id:
        return None, None, None, {q.name: rng.choice(q.options) for q in questions.questions(terms)}
    strategy = rng.choice(STRATEGIES)
    ruler = rng.choice(("K", "Q")) if terms.board == "long" else None
    assassin = None
    if terms.assassins:
        options = terms.options(_setups(side, SetupChoice(strategy=strategy)))
        squares = start_squares(options, side)
        assassin = name(rng.choice(squares)) if squares and rng.random() < 0.8 else NONE
    return strategy, ruler, assassin, {}


def asks_setup(terms: Terms) -> bool:
    """Whether the players choose anything before the first turn."""
    return terms.game == TORA.id or bool(questions.questions(terms))


async def begin(ctx: Context, table: Table, lead: str = "") -> None:
    """Start a game that asks no setup questions (``table.hosted`` is the accepted challenge
    or the agreed match, in any phase before playing); ``lead`` opens the public post."""
    await start(ctx, table, {}, "", lead)


async def start(
    ctx: Context, table: Table, choices: dict[Side, SetupChoice], note: str, lead: str = ""
) -> Reply:
    """Both players have chosen (or there was nothing to choose): the game begins."""
    terms, hosted = table.terms, table.hosted
    options, starts = _game_setup(terms, choices)
    changed = replace(ctx.new_clock(hosted, terms.turn_seconds), phase=PLAYING, ready="CO", turn=1)
    new = NewMatch(
        hosted.guild_id,
        hosted.channel_id,
        hosted.player(Side.CHALLENGER),
        hosted.player(Side.OPPOSITION),
        options,
        starts,
        {
            "Challenger": table.side_name(Side.CHALLENGER),
            "Opposition": table.side_name(Side.OPPOSITION),
        },
        deadline=changed.due_at,
        game=terms.game,
    )
    staged = Table(changed, terms, table.names)
    mail = await announce.game_start(ctx, staged, options, starts, lead)
    table.hosted, table.match = await ctx.store.hosting.start(changed, new, mail.posts)
    ctx.changed()
    ctx.touched(table.hosted.id)  # the open pages see the game begin
    return Reply(note + "Your setup is complete, and so is your opponent's: the game begins.")


def _game_setup(
    terms: Terms, choices: dict[Side, SetupChoice]
) -> tuple[MatchOptions, tuple[str | None, str | None]]:
    """The game's options and secret Assassin squares from both players' choices."""
    if terms.game != TORA.id:
        if not questions.questions(terms):
            return terms.spec(), (None, None)
        return terms.spec(questions.answers_of(choices)), (None, None)
    c, o = choices[Side.CHALLENGER], choices[Side.OPPOSITION]
    options = terms.options(
        (c.strategy or STRATEGIES[0], o.strategy or STRATEGIES[0]), (c.ruler or "K", o.ruler or "K")
    )
    starts = tuple(None if ch.assassin in (None, NONE) else ch.assassin for ch in (c, o))
    return options, (starts[0], starts[1])


async def setup_reminder(ctx: Context, table: Table) -> None:
    if not asks_setup(table.terms):  # a crash came between the agreement and the start
        await begin(ctx, table)
        return
    hosted = table.hosted
    mail = Mail(table.channel_id)
    for side in Side:
        if side.letter not in hosted.ready:
            left = duration((hosted.due_at or ctx.now()) - ctx.now())
            mail.private(
                hosted.player(side),
                f"Reminder: choose your setup for the match against {table.who(side.other)} "
                f"within {left}, or the match is called off: with the buttons or menus of "
                f"the message that asked for it, or with {ctx.cmd('setup')}.",
            )
    await ctx.update(table, replace(hosted, remind_at=None), mail)


async def setup_lapsed(ctx: Context, table: Table) -> None:
    if not asks_setup(table.terms):  # a crash came between the agreement and the start
        await begin(ctx, table)
        return
    hosted = table.hosted
    late = [table.side_name(side) for side in Side if side.letter not in hosted.ready]
    mail = Mail(table.channel_id)
    mail.public(
        f"The setup was not finished in time ({listing(late)} had not chosen), so the match "
        "is off. Nothing is recorded.",
        mentions=(hosted.player(Side.CHALLENGER), hosted.player(Side.OPPOSITION)),
    )
    await ctx.update(table, ended(hosted, LAPSED), mail, drop_choices=True)
