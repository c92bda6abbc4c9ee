"""Review rC: hidden information in what hints, the AI, records and public pages know."""

from __future__ import annotations

from bot.service import Place, Terms, User
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN = User(1, "ann")
HOUR = 3600.0


def texts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


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
