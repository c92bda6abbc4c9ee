"""A server whose players read another language than English, through a whole match
(issue 30): no English sentence reaches them, in posts, DMs, answers, buttons, menus or
suggestions. German plays each game; every other shipped language one (to keep the suite
short). English is found by its commonest small words (and "Match", which German says
"Partie"), less those that are words of the language read too (Spanish "no"), outside what
stays as it is in every language: code spans (commands, notation), links, mentions,
timestamps, players' names and the rule books' game terms. Japanese, written in no Latin
letters, must also show no run of English words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import _, speaking
from emulator.models import Msg, walk_components
from harness.stage import Stage

ENGLISH = [
    "the",
    "your",
    "you",
    "is",
    "are",
    "to",
    "and",
    "of",
    "with",
    "this",
    "that",
    "turn",
    "Match",
    "move",
    "moves",
    "play",
    "has",
    "have",
    "can",
    "not",
    "for",
    "on",
    "it",
    "at",
    "by",
    "be",
    "or",
    "no",
    "yes",
    "match",
    "strategy",  # (not "spirit": Torii's setup option is named so in every language)
    "wins",
    "resignation",
]
ALSO_THEIRS = {  # English-looking words that are words of the language read too
    "de": set(),
    "fr": {"on", "or", "match"},  # "on joue", "or" (now), "ce match"
    "es": {"no", "has"},  # "no puedes", "has ganado"
    "ja": set(),
    "pt_BR": {"no", "for", "move"},  # "no tabuleiro", "se for", "ele move"
}
KEPT = re.compile(r"`[^`]*`|https?://\S+|<[@#:/!&][^>]*>|\b(ann|bob)\b")
# a run of three words in Latin letters, in a language written in none (Japanese): the rule
# books' game terms are one or two words ("Game Points")
LATIN_RUN = re.compile(r"\b[A-Za-z]+[ ,]+[A-Za-z]+[ ,]+[A-Za-z]+\b")


def english_in(text: str, language: str = "de") -> list[str]:
    """The English words of ``text`` read in ``language``, once what stays as it is in every
    language is out."""
    words = [w for w in ENGLISH if w not in ALSO_THEIRS[language]]
    plain = KEPT.sub(" ", text)
    found = re.findall(rf"\b({'|'.join(words)})\b", plain)
    return found + (LATIN_RUN.findall(plain) if language == "ja" else [])


def shown(msg: Msg) -> list[str]:
    """Everything a message shows its reader: its text, its buttons' and menus' words."""
    said = [msg.text()]
    for part in walk_components(msg.components):
        said += [str(part.get(k, "")) for k in ("label", "placeholder")]
        for option in part.get("options", []):
            said += [str(option.get("label", "")), str(option.get("description", ""))]
    return [s for s in said if s]


def read_by(stage: Stage, name: str) -> list[str]:
    """What ``name`` saw: the channel (their own ephemeral answers included) and their DMs."""
    user = stage.user[name]
    seen = [m for m in stage.emu.messages(stage.channel) if m.ephemeral_to in (None, user)]
    seen += stage.emu.dms(user)
    return [text for msg in seen for text in shown(msg)]


DISCORD = {"de": "de", "fr": "fr", "es": "es-ES", "ja": "ja", "pt_BR": "pt-BR"}


async def stage_in(stage: Stage, language: str) -> None:
    """The server and both players' Discord clients in ``language``."""
    world = stage.emu.world
    world.guilds[stage.guild].preferred_locale = DISCORD[language]
    for name in ("ann", "bob"):
        world.users[stage.user[name]].locale = DISCORD[language]


# what each player answers the game's setup, if it asks
SETUPS: dict[str, dict[str, dict[str, Any]]] = {
    "tora": {"ann": {"strategy": "aggressive"}, "bob": {"strategy": "defensive"}},
    "torishogi": {},
    "torii": {"ann": {"spirit": "Kitsune"}, "bob": {"spirit": "Monkey"}},
}


async def offered(stage: Stage, name: str) -> list[str]:
    """The actions ``/tora act`` suggests to ``name`` (the autocomplete's words checked too)."""
    found = await stage.emu.autocomplete(
        stage.user[name], stage.channel, "tora", "act", focused="action", action=""
    )
    stage.suggested.extend(str(choice["name"]) for choice in found)  # type: ignore[attr-defined]
    return [str(choice["value"]) for choice in found]


PLAYED = [
    *(("de", game) for game in sorted(SETUPS)),
    ("fr", "torii"),
    ("es", "torishogi"),
    ("ja", "tora"),
    ("pt_BR", "tora"),
]


async def resign(stage: Stage, name: str, language: str) -> None:
    """``name`` resigns, confirming it with the button (labelled in ``language``)."""
    await stage.slash(name, "resign")
    with speaking(language):
        await stage.click(name, _("Resign"))
    await stage.quiet()


@pytest.mark.parametrize(("language", "game"), PLAYED)
async def test_a_match_reads_its_language_from_challenge_to_resignation(
    tmp_path: Path, language: str, game: str
) -> None:
    async with Stage(tmp_path) as stage:
        stage.suggested = []  # type: ignore[attr-defined]
        await stage_in(stage, language)
        await stage.slash("ann", "challenge", opponent="bob", game=game, deadline="2h")
        await stage.slash("bob", "accept")
        for name, answers in SETUPS[game].items():
            await stage.slash(name, "setup", **answers)
        await stage.quiet()
        await stage.slash("ann", "play")
        await stage.slash("ann", "act", action=(await offered(stage, "ann"))[0])
        await stage.slash("ann", "end")
        await stage.quiet()
        await stage.slash("bob", "board")
        await stage.slash("bob", "act", action=(await offered(stage, "bob"))[0])
        await stage.slash("bob", "undo")
        await stage.slash("bob", "act", action="zz9")  # a refusal
        await stage.slash("ann", "act", action="a3a4")  # not ann's turn
        await stage.slash("bob", "draw")
        await stage.slash("ann", "games")
        await stage.slash("ann", "help", game=game)
        await stage.slash("ann", "plans")
        await resign(stage, "bob", language)
        await stage.slash("ann", "games")  # the result, its reason
        seen = [*stage.suggested]  # type: ignore[attr-defined]
        for name in ("ann", "bob"):
            seen += read_by(stage, name)
        left = {text: english_in(text, language) for text in seen}
        left = {text: words for text, words in left.items() if words}
        assert not left, "\n\n".join(f"{words}: {text}" for text, words in left.items())


@pytest.mark.parametrize(
    ("language", "reason"), [("en", "ann wins (resignation)"), ("de", "ann gewinnt (Aufgabe)")]
)
async def test_a_results_reason_is_in_its_readers_language(
    tmp_path: Path, language: str, reason: str
) -> None:
    """The reason a match ended is worded as the rest: in the end post and in ``/tora games``
    (where it is read back from the stored result)."""
    async with Stage(tmp_path) as stage:
        if language != "en":
            await stage_in(stage, language)
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="2h")
        await stage.slash("bob", "accept")
        await stage.quiet()
        await resign(stage, "bob", language)
        games = await stage.slash("ann", "games")
        posts = [m.text() for m in stage.emu.messages(stage.channel) if m.ephemeral_to is None]
        assert games.response is not None
        assert reason in games.response.text(), games.response.text()
        assert any(reason in post for post in posts), posts[-1]


async def test_a_pick_in_the_setup_form_keeps_it_in_the_players_language_with_its_board_link(
    tmp_path: Path,
) -> None:
    """Regression: a German player picked his strategy in the setup form of his DM; the form
    came back in English, and without its link to open his board."""
    async with Stage(tmp_path) as stage:
        await stage_in(stage, "de")
        emu, bob = stage.emu, stage.user["bob"]
        await stage.slash("ann", "challenge", opponent="bob")
        await stage.slash("bob", "accept")
        await stage.quiet()
        form = [m for m in emu.dms(bob) if m.buttons()][-1]
        links = [b for b in form.buttons() if "url" in b]
        assert links, form.components
        picked = await (await emu.click(bob, form.id, form.buttons()[1]["custom_id"])).done(30)
        assert not picked.errors, picked.errors
        after = next(m for m in emu.dms(bob) if m.id == form.id)
        assert [b for b in after.buttons() if "url" in b] == links
        left = [words for text in shown(after) if (words := english_in(text))]
        assert not left, shown(after)
