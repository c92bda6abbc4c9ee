"""The setup phase: each player privately answers their game's setup questions (TORA: a
strategy, a Ruler on the long board, and where their Assassin starts, or not to field one,
R41; Torii: a Spirit). Answers stay private until the game starts, which happens as soon as
both players are done; a secret answer (TORA's Assassin square) stays secret after that too.
A game that asks no setup questions (ToriShogi) starts as soon as the challenge is
accepted."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from rules import GameView, Side
from storage import NewMatch, SetupChoice, Spec

from . import announce, questions, timing
from .context import Context, Mail
from .endings import ended
from .errors import Refused
from .models import Reply, User
from .phases import LAPSED, PLAYING
from .table import Table, player_side
from .terms import Terms
from .texts import TITLES, duration, escape, listing

FORM = "setup"  # the verb of a setup prompt's components (a front end shows the form)


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
    lines += questions.prompt_lines(terms, side)
    lines.append(f"You have {duration(terms.turn_seconds)} to choose.")
    return "\n".join(lines)


def complete(terms: Terms, choice: SetupChoice) -> bool:
    return not questions.missing(terms, choice.given)


async def choose(ctx: Context, table: Table, user: User, given: Mapping[str, str]) -> Reply:
    """A player's setup answers by question name (TORA's ``strategy``, ``ruler`` and
    ``assassin``, Torii's ``spirit``): any of them at a time."""
    hosted = table.hosted
    side = player_side(table, user)
    if not given:
        wanted = listing(questions.missing(table.terms, {}))
        raise Refused(f"Tell me what you choose ({wanted}) with {ctx.cmd('setup')}.")
    before = await ctx.store.hosting.private_setup_choice(hosted.id, side) or SetupChoice()
    answers, note = questions.answered(table.terms, side, before.given, given)
    choice = SetupChoice.of(answers)
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


async def offered(ctx: Context, table: Table, user: User, name: str) -> list[str]:
    """The answers the player's free-text question ``name`` may take now (TORA's Assassin:
    the free squares of their home edge under the strategy they chose, then ``none``), as
    the game offers them; nothing for anyone else. Only ever shown to that player."""
    side = table.hosted.side_of(user.id)
    if side is None:
        return []
    choice = await ctx.store.hosting.private_setup_choice(table.hosted.id, side) or SetupChoice()
    terms = table.terms
    options, _waiting = terms.kind.offered(terms.checked, side, choice.given, name)
    return list(options)


async def form(ctx: Context, table: Table, user: User) -> questions.SetupForm:
    """The player's setup as a form: each question with what may be picked now (TORA's
    Assassin: the free squares under their strategy, and ``none``) and what they chose."""
    side = player_side(table, user)
    choice = await ctx.store.hosting.private_setup_choice(table.hosted.id, side) or SetupChoice()
    return questions.SetupForm(
        table.stamp,
        setup_prompt(ctx, table, side),
        questions.fields(table.terms, side, choice.given),
        side.letter in table.hosted.ready,
        preview(table.terms, side, choice),
    )


def preview(terms: Terms, side: Side, choice: SetupChoice) -> GameView | None:
    """The start as ``side``'s player would see it with what they chose so far (their
    Assassin on its square), as the game makes it (``setup_preview``): a board to answer a
    square's question on. The opponent's choices are theirs alone until the start: nothing of
    them is shown. None when no question
    asks a square (Torii's Spirit): a picture would then only show the opponent made-up
    answers (a Spirit they may not choose) as theirs."""
    if all(q.options for q in questions.questions(terms)):
        return None
    return terms.kind.setup_preview(terms.checked, side, choice.given)


def _summary(terms: Terms, choice: SetupChoice, done: bool, table: Table, side: Side) -> str:
    parts = questions.summary(terms, choice.given)
    text = f"Your setup so far: {listing(parts)}." if parts else "Nothing chosen yet."
    if done:
        return (
            f"{text} That is all; the game starts when {table.side_name(side.other)} has "
            "chosen too. You may still change your choices until then."
        )
    return f"{text} Still to choose: {listing(questions.missing(terms, choice.given))}."


def drawn_setup(terms: Terms, side: Side, rng: random.Random) -> dict[str, str]:
    """An AI player's setup, drawn at random among the allowed answers (the engines judge
    positions, not setups), as the game draws it (TORA fields its Assassin four times in
    five)."""
    return terms.kind.draw_setup(terms.checked, side, rng)


def asks_setup(terms: Terms) -> bool:
    """Whether the players choose anything before the first turn."""
    return bool(questions.questions(terms))


async def begin(ctx: Context, table: Table, lead: str = "") -> None:
    """Start a game that asks no setup questions (``table.hosted`` is the accepted challenge
    or the agreed match, in any phase before playing); ``lead`` opens the public post."""
    await start(ctx, table, {}, "", lead)


async def start(
    ctx: Context, table: Table, choices: dict[Side, SetupChoice], note: str, lead: str = ""
) -> Reply:
    """Both players have chosen (or there was nothing to choose): the game begins."""
    terms, hosted = table.terms, table.hosted
    spec = Spec(terms.checked)  # a game that asks nothing (ToriShogi) has no answers
    if choices:
        given = {side: choice.given for side, choice in choices.items()}
        spec = Spec(terms.checked, questions.answers_of(given))
    clocks = replace(hosted, clocks=timing.starting(terms))
    changed = replace(
        await ctx.turn_clock(terms, clocks, Side.CHALLENGER), phase=PLAYING, ready="CO", turn=1
    )
    new = NewMatch(
        hosted.guild_id,
        hosted.channel_id,
        hosted.player(Side.CHALLENGER),
        hosted.player(Side.OPPOSITION),
        spec,
        {
            "Challenger": table.side_name(Side.CHALLENGER),
            "Opposition": table.side_name(Side.OPPOSITION),
        },
        deadline=changed.due_at,
        game=terms.game,
    )
    staged = Table(changed, terms, table.names)
    game = terms.kind.new_game(spec.options, spec.answers)
    mail = await announce.game_start(ctx, staged, game, lead)
    table.hosted, table.match = await ctx.store.hosting.start(changed, new, mail.posts)
    ctx.changed(bool(mail.posts), True)
    ctx.touched(table.hosted.id)  # the open pages see the game begin
    return Reply(note + "Your setup is complete, and so is your opponent's: the game begins.")


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
