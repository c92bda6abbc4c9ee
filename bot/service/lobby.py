"""Challenges: named or open, accepted (the roles are settled then), declined, taken back or
expired. Acceptance opens the setup phase (``setup``)."""

from __future__ import annotations

from dataclasses import replace

from rules import Side
from storage import ChannelBusy, Hosted

from .context import Context, Mail
from .endings import ended
from .errors import NotAllowed, Refused
from .models import Place, Reply, User, is_robot
from .phases import CHALLENGE, DECLINED, EXPIRED, SETUP, WITHDRAWN
from .ports import Stamp
from .setup_phase import FORM, asks_setup, begin, setup_prompt
from .table import Table
from .terms import LONGEST_TURN, SHORTEST_TURN, Terms
from .texts import duration, escape, plural


# ---- challenges ----------------------------------------------------------------------------
async def check_challenge(
    ctx: Context,
    place: Place,
    user: User,
    opponent: User | None,
    terms: Terms,
    expires_in: float | None,
) -> float:
    """Refuse a challenge that cannot be made, before anything is opened for it (a thread):
    its terms, its expiry, and the caps on challenges waiting in the server. Returns how
    long it stays open."""
    terms.check()
    if opponent is not None and opponent.id == user.id:
        raise Refused(
            "You cannot challenge yourself: name another player, or name nobody for an open "
            "challenge anyone here may accept."
        )
    expiry = ctx.settings.challenge_seconds if expires_in is None else expires_in
    if not SHORTEST_TURN <= expiry <= LONGEST_TURN:
        raise Refused(
            f"A challenge stays open between {duration(SHORTEST_TURN)} and "
            f"{duration(LONGEST_TURN)}; {duration(expiry)} is not."
        )
    mine, everyone = await ctx.store.hosting.in_phase(place.guild_id, CHALLENGE, user.id)
    settings = ctx.settings
    if mine >= settings.user_challenges:
        raise Refused(
            f"You already have {plural(mine, 'challenge')} waiting for an answer in this "
            f"server, the most one player may have. Take one back with {ctx.cmd('decline')} "
            "in its channel, or wait until one is accepted or expires."
        )
    if everyone >= settings.guild_challenges:
        raise Refused(
            f"This server already has {plural(everyone, 'challenge')} waiting for an answer, "
            "the most it may have at once. Accept one of them, or try again when some have "
            "been answered or have expired."
        )
    return expiry


async def challenge(
    ctx: Context,
    place: Place,
    user: User,
    opponent: User | None,
    terms: Terms,
    expiry: float,
) -> tuple[Table, Reply]:
    """Post a challenge that ``check_challenge`` allowed."""
    for person in (user, opponent):
        if person is not None:
            await ctx.store.save_player(person.id, person.name)
    now = ctx.now()
    new = Hosted(
        0,
        place.guild_id,
        place.channel_id,
        user.id,
        None if opponent is None else opponent.id,
        terms.to_json(),
        CHALLENGE,
        due_at=now + expiry,
    )
    mail = Mail(place.channel_id)
    answer = f"accept with {ctx.cmd('accept')}"
    if opponent is None:
        mail.public(
            f"{escape(user.name)} posts an open challenge to a match of {terms.title}: "
            f"{terms.describe()}. "
            f"Anyone here may {answer}. The challenge expires in {duration(expiry)}.",
            buttons=("accept",),
        )
    else:
        mail.public(
            f"{escape(user.name)} challenges {escape(opponent.name)} to a match of {terms.title}: "
            f"{terms.describe()}. "
            f"{escape(opponent.name)}, {answer} or decline with {ctx.cmd('decline')}. "
            f"The challenge expires in {duration(expiry)}.",
            mentions=(opponent.id,),
            buttons=("accept", "decline"),
        )
    try:
        hosted = await ctx.store.hosting.create(new, mail.posts)
    except ChannelBusy:
        raise Refused(busy_text()) from None
    ctx.changed(bool(mail.posts), True)
    names = {user.id: user.name} | ({} if opponent is None else {opponent.id: opponent.name})
    table = Table(hosted, terms, names)
    return table, Reply(
        f"Your challenge is posted; it expires in {duration(expiry)}. You can take it back "
        f"with {ctx.cmd('decline')} until it is accepted.",
        stamp=Stamp(hosted.id, 0),
    )


def busy_text() -> str:
    return (
        "This channel already hosts a match or a challenge: one at a time per channel or "
        "thread. Start a thread here for another one."
    )


async def accept(ctx: Context, table: Table, user: User) -> Reply:
    hosted = table.hosted
    if hosted.phase != CHALLENGE:
        raise Refused("This challenge has already been accepted; the match is under way.")
    if user.id == hosted.issuer_id:
        raise NotAllowed(
            f"You cannot accept your own challenge. To take it back, use {ctx.cmd('decline')}."
        )
    if hosted.invitee_id is not None and user.id != hosted.invitee_id:
        raise NotAllowed(
            f"This challenge is for {table.name(hosted.invitee_id)}; only they can accept it."
        )
    await ctx.store.save_player(user.id, user.name)
    table.names[user.id] = user.name
    issuer_side = Side.CHALLENGER
    if table.terms.roles == "random":
        issuer_side = ctx.rng.choice([Side.CHALLENGER, Side.OPPOSITION])
    elif table.terms.roles == "opposition":
        issuer_side = Side.OPPOSITION
    players = {issuer_side: hosted.issuer_id, issuer_side.other: user.id}
    changed = replace(
        ctx.new_clock(hosted, table.terms.turn_seconds),
        phase=SETUP,
        invitee_id=user.id,
        challenger_id=players[Side.CHALLENGER],
        opposition_id=players[Side.OPPOSITION],
    )
    staged = Table(changed, table.terms, table.names)
    drawn = " (drawn at random)" if table.terms.roles == "random" else ""
    lead = f"{escape(user.name)} accepts {table.name(hosted.issuer_id)}'s challenge."
    if not asks_setup(table.terms):
        drawn_text = " The roles were drawn at random." if drawn else ""
        await begin(ctx, staged, lead + drawn_text)
        table.hosted, table.match = staged.hosted, staged.match
        return Reply("You accepted the challenge: the game begins.")
    mail = setup_mail(
        ctx,
        staged,
        f"{escape(user.name)} accepts {table.name(hosted.issuer_id)}'s challenge.",
        drawn,
    )
    await ctx.update(table, changed, mail)
    return Reply(
        "You accepted the challenge. Choose your setup now: I am sending you the choices in a "
        "private message (here, seen only by you, if your direct messages are closed)."
    )


async def decline(ctx: Context, table: Table, user: User) -> Reply:
    """The invited player declines; the challenger takes the challenge back."""
    hosted = table.hosted
    if user.id == hosted.issuer_id:
        ending, text = WITHDRAWN, f"{escape(user.name)} takes the challenge back."
    elif hosted.invitee_id is not None and user.id == hosted.invitee_id:
        ending, text = (
            DECLINED,
            f"{escape(user.name)} declines {table.name(hosted.issuer_id)}'s challenge.",
        )
    elif hosted.invitee_id is None:
        raise NotAllowed(
            "An open challenge needs no answer: leave it, and it expires by itself. Only "
            f"{table.name(hosted.issuer_id)} can take it back."
        )
    else:
        raise NotAllowed(
            f"This challenge is between {table.name(hosted.issuer_id)} and "
            f"{table.name(hosted.invitee_id)}; only they can answer it."
        )
    mail = Mail(table.channel_id)
    mail.public(text, mentions=(hosted.issuer_id,) if ending == DECLINED else ())
    await ctx.update(table, ended(hosted, ending), mail)
    return Reply("Done: the challenge is off.")


async def expire(ctx: Context, table: Table) -> None:
    hosted = table.hosted
    mail = Mail(table.channel_id)
    nobody = (
        "nobody accepted it"
        if hosted.invitee_id is None
        else (f"{table.name(hosted.invitee_id)} did not answer")
    )
    mail.public(
        f"{table.name(hosted.issuer_id)}'s challenge has expired: {nobody} in time.",
        mentions=(hosted.issuer_id,),
    )
    await ctx.update(table, ended(hosted, EXPIRED), mail)


def setup_mail(ctx: Context, staged: Table, lead: str, drawn: str = "") -> Mail:
    """The start of the setup phase: who plays which side, in the channel, and each player's
    private list of what to choose."""
    hosted, terms = staged.hosted, staged.terms
    players = (hosted.player(Side.CHALLENGER), hosted.player(Side.OPPOSITION))
    mail = Mail(staged.channel_id)
    people = [side for side in Side if not is_robot(hosted.player(side))]
    who = (
        "Both now choose their setup privately: I have sent each of you a private message."
        if len(people) == 2
        else f"{staged.side_name(people[0])} chooses their setup privately: I have sent you a "
        "private message."
        if people
        else "Both choose their setup."
    )
    mail.public(
        f"{lead} {staged.who(Side.CHALLENGER)} moves first{drawn}; "
        f"{staged.who(Side.OPPOSITION)} answers. {who} You have "
        f"{duration(terms.turn_seconds)} to choose.",
        mentions=players,
    )
    for side in Side:
        mail.private(hosted.player(side), setup_prompt(ctx, staged, side), buttons=(FORM,))
    return mail


# ---- matches both players agreed to elsewhere (ladder pairings, tournament games) -----------
async def open_agreed(
    ctx: Context, place: Place, challenger: User, opposition: User, terms: Terms, intro: str
) -> Table:
    """Host a match whose players and roles are already settled: straight to the setup."""
    terms.check()
    if challenger.id == opposition.id:
        raise Refused("A match needs two different players.")
    for person in (challenger, opposition):
        await ctx.store.save_player(person.id, person.name)
    new = Hosted(
        0,
        place.guild_id,
        place.channel_id,
        challenger.id,
        opposition.id,
        terms.to_json(),
        phase=SETUP,
        challenger_id=challenger.id,
        opposition_id=opposition.id,
    )
    new = ctx.new_clock(new, terms.turn_seconds)
    names = {challenger.id: challenger.name, opposition.id: opposition.name}
    setup = asks_setup(terms)
    mail = setup_mail(ctx, Table(new, terms, names), intro) if setup else Mail(place.channel_id)
    try:
        hosted = await ctx.store.hosting.create(new, mail.posts)
    except ChannelBusy:
        raise Refused(busy_text()) from None
    ctx.changed(bool(mail.posts), True)
    table = Table(hosted, terms, names)
    if not setup:  # a crash before the start leaves the setup timers to start it
        await begin(ctx, table, intro)
    return table
