"""A German server whose players read German, through a whole match of each game (issue 30):
no English sentence reaches them, in posts, DMs, answers, buttons, menus or suggestions.
English is found by its commonest small words (and "Match", which German says "Partie"),
outside what stays as it is in every language: code spans (commands, notation), links,
mentions, timestamps, players' names and the rule books' game terms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from emulator.models import Msg, walk_components
from harness.stage import Stage

ENGLISH = re.compile(
    r"\b(the|your|you|is|are|to|and|of|with|this|that|turn|Match|move|moves|play|has|have|"
    r"can|not|for|on|it|at|by|be|or|no|yes|match)\b"
)
KEPT = re.compile(r"`[^`]*`|https?://\S+|<[@#:/!&][^>]*>|\b(ann|bob)\b")


def english_in(text: str) -> list[str]:
    """The English words of ``text``, once what stays as it is in every language is out."""
    return ENGLISH.findall(KEPT.sub(" ", text))


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


async def german_stage(stage: Stage) -> None:
    world = stage.emu.world
    world.guilds[stage.guild].preferred_locale = "de"
    for name in ("ann", "bob"):
        world.users[stage.user[name]].locale = "de"


SETUPS = {  # what each player answers the game's setup, if it asks
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


@pytest.mark.parametrize("game", sorted(SETUPS))
async def test_a_german_match_reads_german_from_challenge_to_resignation(
    tmp_path: Path, game: str
) -> None:
    async with Stage(tmp_path) as stage:
        stage.suggested = []  # type: ignore[attr-defined]
        await german_stage(stage)
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
        await stage.slash("bob", "resign")
        await stage.quiet()
        seen = [*stage.suggested]  # type: ignore[attr-defined]
        for name in ("ann", "bob"):
            seen += read_by(stage, name)
        left = {text: english_in(text) for text in seen}
        left = {text: words for text, words in left.items() if words}
        assert not left, "\n\n".join(f"{words}: {text}" for text, words in left.items())
