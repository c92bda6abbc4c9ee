"""Review rC: hidden information in what hints, the AI, records and public pages know."""

from __future__ import annotations

from bot.service import Place, Terms, User
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN = User(1, "ann")
HOUR = 3600.0


def texts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


# ---- a cancelled match's hidden Assassin moves -------------------------------------------------


async def _long_game_with_a_hidden_move(h: Harness) -> tuple[User, User]:
    ann, bob = User(1, "ann"), User(2, "bob")
    service = h.service
    await service.challenge(HERE, ann, bob, Terms(options={"board": "long", "assassins": True}))
    await service.accept(HERE, bob)
    await service.setup(HERE, ann, {"strategy": "aggressive", "ruler": "Q", "assassin": "v3h17"})
    await service.setup(HERE, bob, {"strategy": "defensive", "ruler": "K", "assassin": "v17h1"})
    await h.settle()
    await service.play(HERE, ann, "X v3h17-v4h16")
    await service.end_turn(HERE, ann)
    await h.settle()
    return ann, bob


async def test_a_cancelled_matchs_replay_is_not_refused_as_if_the_match_were_still_running(
    h: Harness,
) -> None:
    """R44: the Assassin's record is published when the game ends. An admin's cancel ends
    the match for good, yet its public record keeps `X ?` for ever, and /tora replay keeps
    refusing with "it can be replayed once the match has ended", which it already has (the
    web page's replay says the same: "opens once the match has ended")."""
    from bot.app.answers import Unusable
    from bot.app.callers import Caller
    from bot.app.lookups import Lookups
    from bot.ladder.desk import LadderDesk
    from bot.service.testing import RecordingThreads
    from test_frontend_actions import Threads
    from bot.app.actions import Actions

    await _long_game_with_a_hidden_move(h)
    admin = User(9, "mod")
    await h.service.cancel(HERE, admin, admin=True)
    await h.settle()
    act = Actions(h.service, Threads())
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    carl = Caller(User(3, "carl"), HERE.guild_id, HERE.channel_id, text_channel=True)
    try:
        await lookups.replay(carl, 1, None)
    except Unusable as exc:
        assert "once the match has ended" not in str(exc), str(exc)


# ---- a series to a target: the next game's Assassins ------------------------------------------


def _series_reset_to_game_two():
    from rules import Side
    from rules.tora import Game, Options

    options = Options(board="long", assassins=True, target=100)
    game = Game(options, assassin_starts=("v3h17", "v17h1"))
    opposition = Side.OPPOSITION
    for piece in [p for p in game.settled.side_pieces(opposition) if p.is_command][:2]:
        game.settled.remove(piece.id)  # the Opposition is down to one action (R28)
    game.settled.start_turn(Side.CHALLENGER)
    assert game.can_reset()
    game.agree_reset()
    assert game.game_number == 2
    return game


def test_the_second_game_of_a_series_does_not_hide_its_assassin_where_the_first_game_published_it():
    """R41/R44: game 1's Assassin records (start squares included) are published when it
    ends; game 2 then deploys each Assassin again on the very same start square, hidden. The
    opponent and every spectator read in the public record where the "hidden" Assassin of the
    new game stands, and the opponent's own copy (an AI's worker payload) carries it."""
    from rules import Side
    from rules.tora.geometry import name
    from rules.tora.record import write_record

    game = _series_reset_to_game_two()
    hidden = game.pos.hidden_assassin(Side.CHALLENGER)
    public = write_record(game, audience=None)
    if hidden is not None:
        assert f'"{name(hidden.sq)}"' not in public, public
    assert game.for_player(Side.OPPOSITION).assassin_starts[Side.CHALLENGER] == 0 or hidden is None
