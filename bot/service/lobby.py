"""Challenges: named or open, accepted (the roles are settled then), declined, taken back or
expired. Acceptance opens the setup phase (``setup``)."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import _, ngettext, speaking, word
from rules import Side
from rules.words import msg
from storage import ChannelBusy, Hosted

from .context import Context, Mail, soonest
from .endings import ended
from .errors import NotAllowed, Refused
from .models import Place, Reply, User, is_robot
from .notify import notify_of
from .phases import CHALLENGE, DECLINED, EXPIRED, SETUP, WITHDRAWN
from .ports import Stamp
from .setup_phase import FORM, asks_setup, begin, choose_by, setup_prompt
from .table import Table, player_side
from .terms import LONGEST_TURN, SHORTEST_TURN, Terms
from .texts import duration, escape, moment


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
            _(
                "You cannot challenge yourself: name another player, or name nobody for an "
                "open challenge anyone here may accept."
            )
        )
    expiry = ctx.settings.challenge_seconds if expires_in is None else expires_in
    if not SHORTEST_TURN <= expiry <= LONGEST_TURN:
        raise Refused(
            _(
                "A challenge stays open between {shortest} and {longest}; {given} is not.",
                shortest=duration(SHORTEST_TURN, localized=True),
                longest=duration(LONGEST_TURN, localized=True),
                given=duration(expiry, localized=True),
            )
        )
    mine, everyone = await ctx.store.hosting.in_phase(place.guild_id, CHALLENGE, user.id)
    settings = ctx.settings
    if mine >= settings.user_challenges:
        raise Refused(
            ngettext(
                "You already have {n} challenge waiting for an answer in this server, the most "
                "one player may have. Take one back with {command} in its channel, or wait "
                "until one is accepted or expires.",
                "You already have {n} challenges waiting for an answer in this server, the "
                "most one player may have. Take one back with {command} in its channel, or "
                "wait until one is accepted or expires.",
                mine,
                command=ctx.cmd("decline", localized=True),
            )
        )
    if everyone >= settings.guild_challenges:
        raise Refused(
            ngettext(
                "This server already has {n} challenge waiting for an answer, the most it may "
                "have at once. Accept one of them, or try again when some have been answered "
                "or have expired.",
                "This server already has {n} challenges waiting for an answer, the most it may "
                "have at once. Accept one of them, or try again when some have been answered "
                "or have expired.",
                everyone,
            )
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
    with speaking(await ctx.server_language(place.guild_id)) as language:
        _post_challenge(ctx, mail, user, opponent, terms, now + expiry, language)
    try:
        hosted = await ctx.store.hosting.create(new, mail.posts)
    except ChannelBusy:
        raise Refused(busy_text()) from None
    ctx.changed(mail.posts, True, soonest(hosted))
    names = {user.id: user.name} | ({} if opponent is None else {opponent.id: opponent.name})
    table = Table(hosted, terms, names)
    return table, Reply(
        _(
            "Your challenge is posted; it expires in {expiry}. You can take it back with "
            "{command} until it is accepted.",
            expiry=duration(expiry, localized=True),
            command=ctx.cmd("decline", localized=True),
        ),
        stamp=Stamp(hosted.id, 0),
    )


def _post_challenge(
    ctx: Context,
    mail: Mail,
    user: User,
    opponent: User | None,
    terms: Terms,
    expires_at: float,
    language: str,
) -> None:
    """The challenge's post in its channel, in ``language`` (the server's, the current
    one). It stays there: when it expires is a Discord timestamp, which reads true later."""
    params = {
        "player": escape(user.name),
        "game": terms.title,
        "terms": terms.describe(localized=True),
        "accept": ctx.cmd("accept", localized=True),
        "expiry": moment(expires_at, ctx.now(), localized=True),
    }
    if opponent is None:
        mail.public(
            _(
                "{player} posts an open challenge to a match of {game}: {terms}. Anyone here "
                "may accept with {accept}. The challenge expires {expiry}.",
                **params,
            ),
            buttons=("accept",),
            language=language,
        )
        return
    mail.public(
        _(
            "{player} challenges {opponent} to a match of {game}: {terms}. {opponent}, accept "
            "with {accept} or decline with {decline}. The challenge expires {expiry}.",
            opponent=escape(opponent.name),
            decline=ctx.cmd("decline", localized=True),
            **params,
        ),
        mentions=(opponent.id,),
        buttons=("accept", "decline"),
        language=language,
    )


def busy_text() -> str:
    return _(
        "This channel already hosts a match or a challenge: one at a time per channel or "
        "thread. Start a thread here for another one."
    )


def not_accepted(ctx: Context, table: Table, user: User) -> str:
    """Why ``user`` may not play yet in a match still a challenge: who may accept it."""
    hosted = table.hosted
    if user.id != hosted.issuer_id and hosted.invitee_id in (None, user.id):
        return _(
            "The match has not been accepted yet. To play it, accept it with {command}.",
            command=ctx.cmd("accept", localized=True),
        )
    if hosted.invitee_id is None:
        return _("The match has not been accepted yet: it begins once someone accepts it.")
    return _(
        "The match has not been accepted yet: it begins once {player} accepts it.",
        player=table.name(hosted.invitee_id),
    )


async def accept(ctx: Context, table: Table, user: User) -> Reply:
    hosted = table.hosted
    if hosted.phase != CHALLENGE:
        raise Refused(_("This challenge has already been accepted; the match is under way."))
    if user.id == hosted.issuer_id:
        raise NotAllowed(
            _(
                "You cannot accept your own challenge. To take it back, use {command}.",
                command=ctx.cmd("decline", localized=True),
            )
        )
    if hosted.invitee_id is not None and user.id != hosted.invitee_id:
        raise NotAllowed(
            _(
                "This challenge is for {player}; only they can accept it.",
                player=table.name(hosted.invitee_id),
            )
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
        hosted,
        phase=SETUP,
        invitee_id=user.id,
        challenger_id=players[Side.CHALLENGER],
        opposition_id=players[Side.OPPOSITION],
    )
    changed = await ctx.setup_clock(table.terms, changed)  # (the players' time away known)
    staged = Table(changed, table.terms, table.names)
    drawn, setup = table.terms.roles == "random", asks_setup(table.terms)
    # the posts' lead, worded in each reader's language where it is shown
    lead = msg(
        "{player} accepts {issuer}'s challenge.",
        player=escape(user.name),
        issuer=table.name(hosted.issuer_id),
    )
    if drawn and not setup:
        lead = msg("{lead} The roles were drawn at random.", lead=lead)
    if not setup:
        await begin(ctx, staged, lead)
        table.hosted, table.match = staged.hosted, staged.match
        return Reply(_("You accepted the challenge: the game begins."))
    mail = await setup_mail(ctx, staged, lead, drawn)
    await ctx.update(table, changed, mail)
    return Reply(
        _(
            "You accepted the challenge. Choose your setup now: I am sending you the choices in "
            "a private message (here, seen only by you, if your direct messages are closed)."
        )
    )


async def decline(ctx: Context, table: Table, user: User) -> Reply:
    """The invited player declines; the challenger takes the challenge back. Once it is
    accepted (the setup), refused: the match is called off with abort then."""
    hosted = table.hosted
    if hosted.phase == SETUP:
        raise _accepted(ctx, table, user)
    issuer = table.name(hosted.issuer_id)
    if hosted.invitee_id is None and user.id != hosted.issuer_id:
        raise NotAllowed(
            _(
                "An open challenge needs no answer: leave it, and it expires by itself. Only "
                "{player} can take it back.",
                player=issuer,
            )
        )
    if user.id not in (hosted.issuer_id, hosted.invitee_id):
        raise NotAllowed(
            _(
                "This challenge is between {issuer} and {invitee}; only they can answer it.",
                issuer=issuer,
                invitee=table.name(hosted.invitee_id or 0),
            )
        )
    ending = WITHDRAWN if user.id == hosted.issuer_id else DECLINED
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        if ending == WITHDRAWN:
            text = _("{player} takes the challenge back.", player=escape(user.name))
        else:
            text = _(
                "{player} declines {issuer}'s challenge.", player=escape(user.name), issuer=issuer
            )
    mail = Mail(table.channel_id)
    mentions = (hosted.issuer_id,) if ending == DECLINED else ()
    mail.public(text, mentions=mentions, language=language)
    await ctx.update(table, ended(hosted, ending), mail)
    return Reply(_("Done: the challenge is off."))


def _accepted(ctx: Context, table: Table, user: User) -> Refused:
    """Why a player cannot decline an accepted challenge, and how they call it off (a
    bystander is told the match is not theirs)."""
    player_side(table, user)
    return Refused(
        _(
            "The challenge has been accepted, so it can no longer be declined. To call the "
            "match off before its game begins, use {command}.",
            command=ctx.cmd("abort", localized=True),
        )
    )


async def expire(ctx: Context, table: Table) -> None:
    hosted = table.hosted
    mail = Mail(table.channel_id)
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        if hosted.invitee_id is None:
            text = _(
                "{player}'s challenge has expired: nobody accepted it in time.",
                player=table.name(hosted.issuer_id),
            )
        else:
            text = _(
                "{player}'s challenge has expired: {invitee} did not answer in time.",
                player=table.name(hosted.issuer_id),
                invitee=table.name(hosted.invitee_id),
            )
    mail.public(text, mentions=(hosted.issuer_id,), language=language)
    await ctx.update(table, ended(hosted, EXPIRED), mail)


async def setup_mail(ctx: Context, staged: Table, lead: str, drawn: bool = False) -> Mail:
    """The start of the setup phase: who plays which side, in the channel (in the server's
    language, ``lead`` worded in it: a rules text or one already in it), and each player's
    private list of what to choose (in theirs). ``drawn``: the roles were drawn at random."""
    hosted = staged.hosted
    players = (hosted.player(Side.CHALLENGER), hosted.player(Side.OPPOSITION))
    mail = Mail(staged.channel_id)
    closed = {side for side in Side if await _dms_closed(ctx, hosted, side)}
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        who = _who_chooses(ctx, staged, closed)
        post = _setup_post(staged, lead, drawn, who, choose_by(ctx, staged))
        mail.public(post, mentions=players, language=language)
    for side in Side:
        with speaking(await ctx.player_language(hosted.player(side))) as language:
            prompt = setup_prompt(ctx, staged, side)
        mail.private(hosted.player(side), prompt, buttons=(FORM,), language=language)
    return mail


async def _dms_closed(ctx: Context, hosted: Hosted, side: Side) -> bool:
    """Whether ``side``'s player is known to refuse the bot's DMs (``notify.DMS_CLOSED``);
    an AI player is sent none."""
    user = hosted.player(side)
    return not is_robot(user) and (await notify_of(ctx.store, user, hosted.guild_id)).dms_closed


def _who_chooses(ctx: Context, staged: Table, closed: set[Side]) -> str:
    """Who chooses a setup now (the AI players choose theirs at once) and where: in the
    private message sent them, or, for a player whose DMs are ``closed`` to the bot (which
    would never reach them), with the setup command, in the current language."""
    hosted = staged.hosted
    people = [side for side in Side if not is_robot(hosted.player(side))]
    if not people:
        return _("Both choose their setup.")
    if not closed and len(people) == 2:
        return _(
            "Both now choose their setup privately: I have sent each of you a private message."
        )
    if not closed:
        return _(
            "{player}, choose your setup privately: I have sent you a private message.",
            player=staged.side_name(people[0]),
        )
    sent = [side for side in people if side not in closed]
    said = [_("Both now choose their setup privately.")] if len(people) == 2 else []
    said += [_("I have sent {player} a private message.", player=staged.side_name(s)) for s in sent]
    command = ctx.cmd("setup", localized=True)
    said += [
        _(
            "{player}, your direct messages are closed to me, so choose your setup here with "
            "{command}: only you see its answer, with the setup's buttons and menus.",
            player=staged.side_name(side),
            command=command,
        )
        for side in people
        if side in closed
    ]
    return " ".join(said)


def _setup_post(staged: Table, lead: str, drawn: bool, who: str, deadline: str) -> str:
    """Who plays which side, ``who`` chooses a setup now (``_who_chooses``), and by when
    (``deadline``: ``choose_by``), in the current language."""
    params = {
        "lead": word(lead),
        "first": staged.who(Side.CHALLENGER),
        "second": staged.who(Side.OPPOSITION),
        "who": who,
        "deadline": deadline,
    }
    if drawn:
        return _(
            "{lead} {first} moves first (drawn at random); {second} answers. {who} You have "
            "until {deadline} to choose.",
            **params,
        )
    return _(
        "{lead} {first} moves first; {second} answers. {who} You have until {deadline} to choose.",
        **params,
    )


# ---- matches both players agreed to elsewhere (ladder pairings, tournament games) -----------
async def open_agreed(
    ctx: Context, place: Place, challenger: User, opposition: User, terms: Terms, intro: str
) -> Table:
    """Host a match whose players and roles are already settled: straight to the setup.
    What is offered to a new match was checked when it was agreed (an event's creation), so
    an event made before an option was withdrawn still opens its games."""
    terms.check(new=False)
    if challenger.id == opposition.id:
        raise Refused(_("A match needs two different players."))
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
    new = await ctx.setup_clock(terms, new)
    names = {challenger.id: challenger.name, opposition.id: opposition.name}
    setup = asks_setup(terms)
    mail = (
        await setup_mail(ctx, Table(new, terms, names), intro) if setup else Mail(place.channel_id)
    )
    try:
        hosted = await ctx.store.hosting.create(new, mail.posts)
    except ChannelBusy:
        raise Refused(busy_text()) from None
    ctx.changed(mail.posts, True, soonest(hosted))
    table = Table(hosted, terms, names)
    if not setup:  # a crash before the start leaves the setup timers to start it
        await begin(ctx, table, intro)
    return table
