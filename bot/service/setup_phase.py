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

from bot.i18n import _, speaking, word
from rules import GameView, Side
from storage import NewMatch, SetupChoice, Spec

from . import announce, questions, timing
from .context import Context, Mail, soonest
from .endings import ended
from .errors import Refused
from .models import Reply, User
from .notify import notify_of
from .phases import LAPSED, PLAYING
from .table import Table, player_side
from .terms import Terms
from .texts import duration, escape, listing, moment

FORM = "setup"  # the verb of a setup prompt's components (a front end shows the form)


def setup_prompt(ctx: Context, table: Table, side: Side) -> str:
    """What a player is asked to choose, each answer with what it means, in the current
    language."""
    terms = table.terms
    params = {
        "game": terms.title,
        "other": table.who(side.other),
        "command": ctx.cmd("setup", localized=True),
    }
    if side == Side.CHALLENGER:
        head = _(
            "Your match of {game} against {other}: you play the Challenger and move first. "
            "Choose your setup privately, with the buttons or menus below or with {command}; "
            "your opponent sees your choices only when the game starts:",
            **params,
        )
    else:
        head = _(
            "Your match of {game} against {other}: you play the Opposition. Choose your setup "
            "privately, with the buttons or menus below or with {command}; your opponent sees "
            "your choices only when the game starts:",
            **params,
        )
    lines = [head, *questions.prompt_lines(terms, side)]
    lines.append(_("You have until {deadline} to choose.", deadline=choose_by(ctx, table)))
    return "\n".join(lines)


def choose_by(ctx: Context, table: Table) -> str:
    """When the setup phase ends, as Discord timestamps (``texts.moment``: the posts and
    prompts that say it stay, and read true later), in the current language."""
    hosted, now = table.hosted, ctx.now()
    due = now + table.terms.turn_seconds if hosted.due_at is None else hosted.due_at
    return moment(due, now, localized=True)


def complete(terms: Terms, choice: SetupChoice) -> bool:
    return not questions.missing(terms, choice.given)


async def choose(ctx: Context, table: Table, user: User, given: Mapping[str, str]) -> Reply:
    """A player's setup answers by question name (TORA's ``strategy``, ``ruler`` and
    ``assassin``, Torii's ``spirit``): any of them at a time; refused once the game began,
    and whatever the phase in a game that has no setup (ToriShogi)."""
    hosted = table.hosted
    if hosted.phase == PLAYING or not asks_setup(table.terms):
        raise Refused(_settled(ctx, table.terms))
    side = player_side(table, user)
    before = await ctx.store.hosting.private_setup_choice(hosted.id, side) or SetupChoice()
    if not given:
        raise Refused(_unanswered(ctx, table, side, before))
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
        with speaking(await ctx.server_language(hosted.guild_id)) as language:
            mail.public(
                _(
                    "{player} has finished setting up; waiting for {other}.",
                    player=escape(user.name),
                    other=table.side_name(side.other),
                ),
                language=language,
            )
    await ctx.update(table, changed, mail, choice=(side, choice))
    return Reply(note + _summary(table.terms, choice, side.letter in ready, table, side))


def _settled(ctx: Context, terms: Terms) -> str:
    """Why a setup answer comes too late: the setup is over, or the match never had one
    (ToriShogi), which "the setup can no longer change" would deny."""
    command = ctx.cmd("board", localized=True)
    if not asks_setup(terms):
        return _(
            "This match of {game} has no setup: nothing is chosen before its first turn, and "
            "{command} shows the board.",
            game=terms.title,
            command=command,
        )
    return _(
        "The game has begun, so the setup can no longer change: {command} shows your own board.",
        command=command,
    )


def _unanswered(ctx: Context, table: Table, side: Side, before: SetupChoice) -> str:
    """A setup command that answers nothing: what the player chose so far and what is
    left (not every question again, as if they had chosen nothing), and how to answer."""
    command = ctx.cmd("setup", localized=True)
    if not before.given:
        wanted = listing(questions.missing(table.terms, {}), localized=True)
        return _(
            "Tell me what you choose ({wanted}) with {command}.", wanted=wanted, command=command
        )
    done = complete(table.terms, before)
    summary = _summary(table.terms, before, done, table, side)
    return _("{summary} Answer with {command} and its options.", summary=summary, command=command)


async def offered(ctx: Context, table: Table, user: User, name: str, typed: str) -> list[str]:
    """The answers the player's free-text question ``name`` may take now (TORA's Assassin:
    the free squares of their home edge under the strategy they chose, then ``none``) that
    start with ``typed``, as the game offers them; refused to anyone else, and in a match
    that does not ask it (as the setup form's ``name`` is). None of them starting so while
    the game waits for another answer (the strategy, which decides the squares) is refused
    with the form's why. Only ever shown to that player."""
    side = player_side(table, user)
    if all(question.name != name for question in questions.questions(table.terms)):
        raise questions.unasked(name)
    choice = await ctx.store.hosting.private_setup_choice(table.hosted.id, side) or SetupChoice()
    terms = table.terms
    options, waiting = terms.kind.offered(terms.checked, side, choice.given, name)
    found = [option for option in options if option.startswith(typed.strip().lower())]
    if waiting and not found:
        raise Refused(word(waiting))
    return found


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
    if parts:
        text = _("Your setup so far: {answers}.", answers=listing(parts, localized=True))
    else:
        text = _("Nothing chosen yet.")
    if done:
        return _(
            "{summary} That is all; the game starts when {other} has chosen too. You may still "
            "change your choices until then.",
            summary=text,
            other=table.side_name(side.other),
        )
    return _(
        "{summary} Still to choose: {missing}.",
        summary=text,
        missing=listing(questions.missing(terms, choice.given), localized=True),
    )


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
    ctx.changed(mail.posts, True, soonest(table.hosted))
    ctx.touched(table.hosted.id)  # the open pages see the game begin
    return Reply(note + _("Your setup is complete, and so is your opponent's: the game begins."))


async def setup_reminder(ctx: Context, table: Table) -> None:
    if not asks_setup(table.terms):  # a crash came between the agreement and the start
        await begin(ctx, table)
        return
    hosted = table.hosted
    mail = Mail(table.channel_id)
    for side in Side:
        user = hosted.player(side)
        if side.letter in hosted.ready:
            continue
        if not (await notify_of(ctx.store, user, hosted.guild_id)).any_reminder:
            continue  # they chose no reminders (``/tora settings``)
        with speaking(await ctx.player_language(user)) as language:
            text = _reminder_text(ctx, table, side)
        mail.private(user, text, language=language)
    await ctx.update(table, replace(hosted, remind_at=None), mail)


def _reminder_text(ctx: Context, table: Table, side: Side) -> str:
    """``side``'s reminder to choose their setup: what its lapse costs them (a forfeit in a
    competition's game once the opponent has chosen, T17 and E5; else the match is off)."""
    words = {
        "other": table.who(side.other),
        "left": duration((table.hosted.due_at or ctx.now()) - ctx.now(), localized=True),
        "command": ctx.cmd("setup", localized=True),
    }
    if not table.terms.competition:
        return _(
            "Reminder: choose your setup for the match against {other} within {left}, "
            "or the match is called off: with the buttons or menus of the message that "
            "asked for it, or with {command}.",
            **words,
        )
    if side.other.letter in table.hosted.ready:
        return _(
            "Reminder: choose your setup for the game against {other} within {left}, or you "
            "lose this game by forfeit: with the buttons or menus of the message that asked "
            "for it, or with {command}.",
            **words,
        )
    return _(
        "Reminder: choose your setup for the game against {other} within {left}: if only "
        "your opponent has chosen by then, you lose this game by forfeit. Choose with the "
        "buttons or menus of the message that asked for it, or with {command}.",
        **words,
    )


async def setup_lapsed(ctx: Context, table: Table) -> None:
    if not asks_setup(table.terms):  # a crash came between the agreement and the start
        await begin(ctx, table)
        return
    hosted = table.hosted
    late = [table.side_name(side) for side in Side if side.letter not in hosted.ready]
    mail = Mail(table.channel_id)
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        text = _lapse_text(table.terms, listing(late, localized=True))
    players = (hosted.player(Side.CHALLENGER), hosted.player(Side.OPPOSITION))
    mail.public(text, mentions=players, language=language)
    await ctx.update(table, ended(hosted, LAPSED), mail, drop_choices=True)


def _lapse_text(terms: Terms, late: str) -> str:
    """The channel's post on a setup that lapsed, ``late`` naming who had not chosen."""
    if terms.competition:  # its competition posts the result it scores (T17)
        return _(
            "The setup was not finished in time ({players} had not chosen), so this game is over.",
            players=late,
        )
    return _(
        "The setup was not finished in time ({players} had not chosen), so the match is off. "
        "Nothing is recorded.",
        players=late,
    )
