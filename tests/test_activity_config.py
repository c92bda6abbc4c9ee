"""The Activity's configuration from the environment: off by default; on with the web board,
the application's id and its OAuth2 secret, each refused by name when it is missing or
malformed; and what ``sync`` sends once it is on (the Entry Point command beside /tora, its
description in every shipped language)."""

from __future__ import annotations

import pytest

from bot.config import ActivityConfig, Config, ConfigError
from bot.discord.client import ENTRY_POINT, entry_point_payload

ON = {
    "DISCORD_TOKEN": "t",
    "TORA_ACTIVITY": "on",
    "TORA_CLIENT_ID": "123456789012345678",
    "TORA_CLIENT_SECRET": "s3cr3t-from-the-portal",
}


def test_the_activity_is_off_by_default() -> None:
    assert Config.from_env({"DISCORD_TOKEN": "t"}).activity == ActivityConfig()


def test_every_activity_variable_is_read() -> None:
    activity = Config.from_env(ON).activity
    assert activity == ActivityConfig(True, 123456789012345678, "s3cr3t-from-the-portal")


@pytest.mark.parametrize(
    ("changed", "words"),
    [
        ({"TORA_ACTIVITY": "yes"}, "TORA_ACTIVITY is on or off"),
        ({"TORA_CLIENT_ID": "12a"}, "TORA_CLIENT_ID is the application's id"),
        ({"TORA_CLIENT_ID": "1" * 21}, "TORA_CLIENT_ID is the application's id"),
        ({"TORA_CLIENT_SECRET": "short"}, "TORA_CLIENT_SECRET is the application's OAuth2"),
        ({"TORA_CLIENT_SECRET": "x" * 201}, "TORA_CLIENT_SECRET is the application's OAuth2"),
        ({"TORA_CLIENT_SECRET": "tab\tinside"}, "TORA_CLIENT_SECRET is the application's OAuth2"),
        ({"TORA_CLIENT_ID": ""}, "needs TORA_CLIENT_ID and TORA_CLIENT_SECRET"),
        ({"TORA_CLIENT_SECRET": ""}, "needs TORA_CLIENT_ID and TORA_CLIENT_SECRET"),
        ({"TORA_WEB": "off"}, "it needs TORA_WEB on"),
    ],
)
def test_a_bad_activity_setting_is_refused_by_name(changed: dict[str, str], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        Config.from_env(ON | changed)


def test_the_entry_point_is_discords_own_launcher() -> None:
    assert (ENTRY_POINT["type"], ENTRY_POINT["handler"]) == (4, 2)  # DISCORD_LAUNCH_ACTIVITY
    assert 1 <= len(ENTRY_POINT["description"]) <= 100


def test_the_entry_points_description_is_in_every_shipped_language() -> None:
    """Shown in Discord's App Launcher, in the reader's Discord's language."""
    said = entry_point_payload()["description_localizations"]
    assert {"de", "es-ES", "es-419", "fr", "ja", "pt-BR"} <= set(said)
    assert not {"en-US", "en-GB"} & set(said)  # the English is the command's own
    assert said["de"] != ENTRY_POINT["description"]
    assert all(1 <= len(text) <= 100 for text in said.values())
