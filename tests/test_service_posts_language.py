"""The posts and DMs the service sends outside a command, each in its readers' language
(issue 30): a public post in the server's (its admins' choice), a DM in the player's (their
choice), made once per language; each message carries that language, for its buttons. An
English server and English players read exactly what they read before."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES
from bot.i18n import speaking as bot_speaking
from bot.service import Message, NotAllowed, Place, Refused, Terms, User
from bot.service.guild import GuildSettings, save_guild
from bot.service.languages import LANGUAGE
from bot.service.testing import ONLY_YOU, PRIVATE, Harness
from rules import GameState, game_type

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR, DAY = 3600.0, 86400.0
DISCORD_LIMIT = 2000


async def speaking(h: Harness, server: str, ann: str = "en", bob: str = "en") -> None:
    """The languages chosen: the server's (by its admins) and each player's."""
    await h.store.set_guild_setting(HERE.guild_id, LANGUAGE, server)
    await h.store.set_player_setting(ANN.id, LANGUAGE, ann)
    await h.store.set_player_setting(BOB.id, LANGUAGE, bob)


async def started(h: Harness, **terms: object) -> GameState:
    terms = {"turn_seconds": 10 * HOUR, "game": "torishogi", **terms}
    await h.running.challenge(HERE, ANN, BOB, Terms(**terms))  # type: ignore[arg-type]
    await h.running.accept(HERE, BOB)
    await h.settle()
    return game_type("torishogi").new_game({}, ({}, {}))


async def turn(h: Harness, game: GameState, move: str | None = None) -> None:
    """The player to act plays ``move`` (else their first legal one) and ends their turn."""
    user = ANN if game.side == 0 else BOB
    text = move or game.notation(game.legal_actions()[0])
    await h.running.play(HERE, user, text)
    await h.running.end_turn(HERE, user)
    await h.settle()
    game.apply(text)
    game.end_turn()


def posts(h: Harness) -> list[Message]:
    return h.delivery.channel(HERE.channel_id)


def dms(h: Harness, user: User) -> list[Message]:
    return [d.message for d in h.delivery.user(user.id) if d.kind == PRIVATE]


async def test_a_german_server_posts_in_german_and_a_japanese_player_reads_japanese(
    h: Harness,
) -> None:
    await speaking(h, "de", bob="ja")
    game = await started(h)
    begins = posts(h)[-1]
    assert "Die Partie beginnt: ann (Challenger) gegen bob (Opposition).\n" in begins.text, (
        begins.text
    )
    assert "ann (Challenger) ist am Zug: " in begins.text and ", bis <t:" in begins.text
    assert begins.language == "de"
    assert dms(h, BOB)[-1].text.startswith("ann (Challenger)との対局が始まりました。")
    assert dms(h, BOB)[-1].language == "ja"
    first = dms(h, ANN)[-1]  # ann keeps English, byte for byte
    assert first.text.startswith("Your turn against bob (Opposition): a move, by <t:"), first.text
    assert first.language == "en"

    await turn(h, game, "d2e2")  # ann's Falcon 4f-3f
    post = posts(h)[-1]
    assert post.text.startswith(
        "ann (Challenger) hat den Zug beendet:\n- Falcon von ann zieht 4f-3f"
    )
    assert "bob (Opposition) ist am Zug: " in post.text, post.text
    assert post.language == "de" and post.buttons is not None  # its Give +1 day, in German
    assert post.heading.endswith(" \u00b7 ann gegen bob"), post.heading
    notice = dms(h, BOB)[-1]
    assert notice.text.startswith(
        "ann (Challenger)が手番を終えました：\n- ann の Falcon が 4f-3f に動き"  # noqa: RUF001
    )
    assert "ann (Challenger)との対局であなたの手番です：" in notice.text, notice.text  # noqa: RUF001
    assert notice.language == "ja" and notice.buttons is not None  # Play, End turn, Preview


async def test_a_reminder_and_a_missed_turn_in_their_readers_languages(h: Harness) -> None:
    await speaking(h, "fr", ann="es")
    await started(h, forfeit_after=3)
    await h.advance(8 * HOUR)  # 80 % of ann's turn
    reminder = dms(h, ANN)[-1]
    assert reminder.text.startswith(
        "Recordatorio: tu turno contra bob (Opposition) termina en 2 h"
    ), reminder.text
    assert "1 de 3 turnos perdidos seguidos" in reminder.text
    assert reminder.language == "es" and reminder.buttons is not None  # Away for a day
    await h.advance(2 * HOUR)  # the deadline: ToriShogi cannot pass, the clock starts again
    missed = posts(h)[-1].text
    assert missed.startswith(
        "Le tour de ann a dépassé son échéance sans coup joué (tours manqués d'affilée : 1 sur 3 "
        "avant un forfait). Sa pendule repart.\nAu tour de ann (Challenger) : "
    ), missed


async def test_the_end_of_a_match_in_the_servers_language(h: Harness) -> None:
    await speaking(h, "pt_BR")
    await started(h)
    await h.running.resign(HERE, BOB)
    await h.settle()
    end = posts(h)[-1]
    assert end.text.startswith("bob (Opposition) desiste. ann (Challenger) vence ("), end.text
    assert "O registro completo está anexado. Qualquer um de vocês pode pedir revanche" in end.text
    assert end.language == "pt_BR"


async def test_a_gift_of_time_and_a_cancellation_in_the_servers_language(h: Harness) -> None:
    await speaking(h, "de")
    await started(h)
    await h.running.give_time(HERE, BOB)
    await h.settle()
    assert posts(h)[-1].text.startswith(
        "bob (Opposition) hat ann 1 Tag geschenkt: der Zug endet jetzt <t:"
    ), posts(h)[-1].text
    await h.running.cancel(HERE, User(9, "mod"), admin=True)
    await h.settle()
    assert posts(h)[-1].text.startswith("Ein Admin (mod) hat die Partie abgesagt."), posts(h)[-1]


async def test_an_automatic_away_day_tells_the_channel_and_the_player_in_theirs(
    h: Harness,
) -> None:
    await save_guild(h.store, HERE.guild_id, GuildSettings(auto_away=True))
    await speaking(h, "ja", ann="de")
    await started(h)
    await h.advance(10 * HOUR)  # ann's deadline, nothing played
    assert posts(h)[-1].text.startswith("annが期限までに指さなかったため、不在日を1日使いました")
    told = dms(h, ANN)[-1]
    assert told.text.startswith("Dein Zug gegen bob (Opposition) hat seine Frist erreicht")
    assert "`/tora" in told.text and told.language == "de"


@pytest.mark.parametrize("language", sorted(LOCALES))
async def test_every_post_and_dm_of_a_match_holds_discords_limit(h: Harness, language: str) -> None:
    """A match's posts and DMs, from the challenge to its end, each within Discord's 2000
    characters in every language (names as long as Discord allows)."""
    ann, bob = User(ANN.id, "a" * 32), User(BOB.id, "b" * 32)
    await speaking(h, language, language, language)
    await h.running.challenge(HERE, ann, bob, Terms(turn_seconds=10 * HOUR, game="torishogi"))
    await h.running.accept(HERE, bob)
    await h.settle()
    game = game_type("torishogi").new_game({}, ({}, {}))
    for _ in range(4):
        user = ann if game.side == 0 else bob
        text = game.notation(game.legal_actions()[0])
        await h.running.play(HERE, user, text)
        await h.running.end_turn(HERE, user)
        game.apply(text)
        game.end_turn()
    await h.advance(8 * HOUR)  # a reminder
    await h.running.resign(HERE, ann)
    await h.settle()
    said = [d.message for d in h.delivery.log]
    assert language in {m.language for m in said}
    longest = max(said, key=lambda m: len(m.full_text))
    assert len(longest.full_text) <= DISCORD_LIMIT, longest.full_text


async def test_a_closed_dms_fallback_says_why_in_the_players_language(h: Harness) -> None:
    await speaking(h, "en", ann="fr")
    h.delivery.closed_dms.add(ANN.id)
    await started(h)
    shown = [d.message for d in h.delivery.user(ANN.id) if d.kind == ONLY_YOU]
    assert shown, h.delivery.log
    assert shown[-1].text.endswith(
        "\n\n(Je n'ai pas pu vous envoyer ceci en message privé car vos messages privés me sont "
        "fermés ; je vous le montre donc ici, à vous seul. Pour les recevoir en privé, autorisez "
        "les messages privés des membres du serveur dans les paramètres de confidentialité de ce "
        "serveur.)"
    ), shown[-1].text
    assert shown[-1].text.startswith("À vous de jouer contre bob (Opposition) : un coup, avant <t:")


async def test_a_players_own_turn_answers_in_their_language(h: Harness) -> None:
    """The answers to a player's commands on their turn (made in their language by the
    front end's ``speaking``): staging, taking back, ending the turn, planning."""
    game = await started(h)
    with bot_speaking("de"):
        staged = await h.running.play(HERE, ANN, "d2e2")
        assert staged.text.startswith(
            "Vorgemerkt: Falcon 4f-3f.\nVorgemerkt: Falcon 4f-3f.\n"
            "Beende deinen Zug mit `/tora beenden`"
        ), staged.text
        await h.running.undo(HERE, ANN, None)
        with pytest.raises(Refused, match="Es gibt nichts zurückzunehmen"):
            await h.running.undo(HERE, ANN, None)
    await turn(h, game, "d2e2")
    with bot_speaking("ja"):
        with pytest.raises(NotAllowed, match="bobの手番です。"):
            await h.running.play(HERE, ANN, "d3d4")
        planned = await h.running.plans(HERE, ANN)
        assert planned.text == "予約はありません。"  # a plan is 予約 (test_i18n_terms)


async def test_a_planned_reply_and_a_digest_in_the_players_language(h: Harness) -> None:
    await speaking(h, "de", ann="pt_BR", bob="ja")
    await h.running.records.set_notify(BOB, "digest", "9")  # Friday 08:00: at 09:00
    game = await started(h)
    await turn(h, game, "c3c4")
    with bot_speaking("pt_BR"):
        await h.running.plans(HERE, ANN, add="c5c4 > a3a4")
    await turn(h, game, "c5c4")
    assert dms(h, ANN)[-1].text == (
        "bob jogou c5c4: sua resposta planejada a3a4 foi jogada. Resta 0 plano."  # CLDR: 0 is one
    )
    assert dms(h, ANN)[-1].language == "pt_BR"
    await h.advance(HOUR)
    digest = dms(h, BOB)[-1]
    assert digest.text.startswith(
        "1局であなたの手番です（期限の近い順）：\n- 対局1 · ToriShogi（相手：ann）：期限 <t:"  # noqa: RUF001
    )
    assert digest.language == "ja"


async def test_a_forfeit_in_the_servers_language(h: Harness) -> None:
    await speaking(h, "de")
    await started(h, forfeit_after=1)
    await h.advance(10 * HOUR)  # ann's deadline, nothing played: she forfeits
    end = posts(h)[-1].text
    assert end.startswith(
        "ann (Challenger) verliert kampflos: 1 Zug in Folge endete an der Frist ohne gespielte "
        "Aktion. bob (Opposition) gewinnt kampflos.\n"
    ), end


async def test_a_language_chosen_during_a_match_is_the_next_posts_and_dms(h: Harness) -> None:
    """The service keeps the languages it has read (issue 26); a choice made in settings
    (``records``) is the very next post's and DM's, not one a while later."""
    game = await started(h)
    await turn(h, game, "d2e2")
    assert posts(h)[-1].language == "en" and dms(h, ANN)[-1].language == "en"
    await h.running.records.choose_server_language(HERE.guild_id, "de")
    await h.running.records.choose_player_language(ANN, "ja")
    await turn(h, game)  # bob's turn: the channel is told, and ann that it is hers
    assert posts(h)[-1].text.startswith("bob (Opposition) hat den Zug beendet:"), posts(h)[-1]
    assert dms(h, ANN)[-1].language == "ja"
    assert "bob (Opposition)との対局であなたの手番です" in dms(h, ANN)[-1].text
