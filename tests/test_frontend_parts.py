"""The small parts of the application layer and the Discord adapter, without Discord: option
parsing, button custom ids, nonces and mentions, message splitting, configuration, the rules
lookup, and the memory the delivery keeps (DM pace, closed DMs, latest interactions)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.__main__ import main as bot_main
from bot.app import rulebook
from bot.app.answers import explain
from bot.app.buttons import LEGACY_TEMPLATE, TEMPLATE, Press, presses
from bot.app.pacing import Pace
from bot.app.parsing import BadDuration, parse_duration
from bot.config import DISCORD_API, NO_TOKEN, ActivityConfig, Config, ConfigError, WebConfig
from bot.discord.autocomplete import hint
from bot.discord.buttons import ToraButton, buttons
from bot.discord.delivery import mentioning, nonce
from bot.discord.memories import Closed, Latest
from bot.discord.respond import LIMIT, split
from bot.service import UNAVAILABLE, DatabaseUnavailable, Message, Stamp
from rules.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent


class Ticks:
    """A clock for the memories: time moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("24h", 86400),
        ("3d", 3 * 86400),
        ("90m", 5400),
        ("1h30m", 5400),
        ("1h 30min", 5400),
        ("2 days", 172800),
        ("1 week", 604800),
        ("45 MIN", 2700),
        ("1.5h", 5400),
        ("30s", 30),
        ("３d", 3 * 86400),  # noqa: RUF001 (full-width, as a Japanese input method types it)
        ("１ｈ３０ｍ", 5400),  # noqa: RUF001
    ],
)
def test_durations_are_read_as_players_write_them(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "24", "h", "soon", "3 fortnights", "1h then 2m", "-5m"])
def test_a_text_that_is_not_a_duration_is_refused_with_examples(text: str) -> None:
    with pytest.raises(BadDuration, match=r"write a number and a unit, e\.g\. `90m`"):
        parse_duration(text)


def test_button_custom_ids_round_trip_and_fit_discord() -> None:
    for press in (
        Press("accept", 987654321098765432, Stamp(2**62, 0)),
        Press("preview", 2, None),
        Press("takeback", 2, Stamp(5, 0)),
        Press("end", 2, Stamp(9, 4, 3)),  # after 3 turns taken back
        Press("end", 987654321098765432, Stamp(2**62, 10**9 - 1, 10**9 - 1)),
    ):
        custom_id = press.custom_id
        assert len(custom_id) <= 100
        assert Press.parse(custom_id) == press
    # posted before the takebacks were kept: parsed, its takebacks not compared
    assert Press.parse("tora:end:2:m9t4") == Press("end", 2, Stamp(9, 4))
    assert Press.parse("tora:launch:2:m3t1") is None  # not one of ours: not dispatched
    assert Press.parse("tora:end:2:x") is None
    assert Press.parse("tora:end:1:2:9") is None  # an old button (its match's version)
    assert re.fullmatch(LEGACY_TEMPLATE, "tora:end:1:2:9")
    view = buttons(presses(("end", "undo", "preview"), 2, Stamp(9, 4)))
    ids = [item.custom_id for item in view.children]
    assert ids == ["tora:end:2:m9t4", "tora:undo:2:m9t4", "tora:preview:2:-"]
    assert all(isinstance(item, ToraButton) for item in view.children)
    assert TEMPLATE.startswith("tora:")


def test_nonces_are_short_stable_and_distinct() -> None:
    first = nonce("tora-outbox-12")
    assert len(first) == 25
    assert first == nonce("tora-outbox-12")
    assert first != nonce("tora-outbox-13") != nonce("tora-outbox-12", 1)


def test_only_the_addressed_users_are_mentioned_and_pinged() -> None:
    text, allowed = mentioning(Message("bob, your turn @everyone", mentions=(2, 3)))
    assert text == "<@2> <@3> bob, your turn @everyone"
    assert allowed.everyone is False and allowed.roles is False
    assert [user.id for user in allowed.users] == [2, 3]
    text, allowed = mentioning(Message("no one"))
    assert text == "no one" and allowed.users is False and allowed.everyone is False


def test_long_texts_are_split_at_line_ends_within_discords_limit() -> None:
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(100))
    pieces = split(text)
    assert len(pieces) > 1 and all(len(p) <= LIMIT for p in pieces)
    assert "\n".join(pieces) == text
    assert split("y" * 4500) == ["y" * 2000, "y" * 2000, "y" * 500]


def test_config_comes_from_the_environment() -> None:
    with pytest.raises(ConfigError) as refused:
        Config.from_env({})
    assert str(refused.value) == NO_TOKEN and "make demo" in NO_TOKEN
    config = Config.from_env({"TORA_TOKEN": "abc", "TORA_DB": "/tmp/x.sqlite3"})
    assert (config.token, str(config.store.path), config.api_base) == (
        "abc",
        "/tmp/x.sqlite3",
        DISCORD_API,
    )
    config = Config.from_env(
        {
            "DISCORD_TOKEN": " t ",
            "TORA_LOG_LEVEL": "debug",
            "TORA_SYNC_GUILD": "42",
            "TORA_DISCORD_API": "http://127.0.0.1:5000/api/v10/",
            "TORA_AI_PROCESSES": "2",
        }
    )
    assert (config.token, config.log_level, config.sync_guild, config.api_base) == (
        "t",
        "DEBUG",
        42,
        "http://127.0.0.1:5000/api/v10",
    )
    assert config.ai_processes == 2
    for bad in (
        {"TORA_LOG_LEVEL": "loud"},
        {"TORA_SYNC_GUILD": "here"},
        {"TORA_DISCORD_API": "discord"},
        {"TORA_DB_SYNCHRONOUS": "sometimes"},
        {"TORA_AI_PROCESSES": "many"},
        {"TORA_AI_PROCESSES": "17"},
        # regression: digits ``str.isdigit`` takes and ``int`` refuses raised ValueError
        {"TORA_AI_PROCESSES": "\u00b2"},
        {"TORA_SYNC_GUILD": "\u00b2"},
        {"TORA_CLAIM_SECONDS": "\u00b2"},
        {"TORA_SHARD_COUNT": "\u00b2"},
    ):
        with pytest.raises(ConfigError):
            Config.from_env({"DISCORD_TOKEN": "t", **bad})


def test_the_no_token_help_asks_for_the_permissions_the_readme_asks_for() -> None:
    """``make run`` without a token prints how to invite the bot; its permissions leave out
    Manage Threads, which the README's step 1 asks for (docs/DISCORD.md: without it a thread
    opened for a challenge that then failed is never deleted), so an admin who follows the
    bot's own instructions is left with stray empty threads. Regression: it was left out."""
    readme = (ROOT / "README.md").read_text()
    step = readme[readme.index("## For server admins") : readme.index("2. Start it")]
    asked = ("Send Messages", "Send Messages in Threads", "Create Public Threads")
    for permission in (*asked, "Manage Threads", "Attach Files"):
        assert permission in " ".join(step.split())
        assert permission in " ".join(NO_TOKEN.split()), permission


READ_HISTORY = "Read Message History"


def test_the_invite_asks_for_read_message_history() -> None:
    """The bot reads its own posts back to disable the buttons that stopped applying (an
    event's Join and Leave, any after a restart), which Discord refuses (403) without Read
    Message History: where a server's @everyone lacks it, those buttons stayed live. The
    README's step 1 and the no-token help did not ask for it. Regression: left out."""
    readme = (ROOT / "README.md").read_text()
    step = readme[readme.index("## For server admins") : readme.index("2. Start it")]
    assert READ_HISTORY in " ".join(step.split())
    assert READ_HISTORY in " ".join(NO_TOKEN.split())


@pytest.mark.parametrize(
    "name",
    ["TORA_WEB_PORT", "TORA_AI_PROCESSES", "TORA_CLAIM_SECONDS", "TORA_SHARD_COUNT"],
)
def test_a_number_setting_with_a_non_ascii_digit_is_refused_not_a_traceback(name) -> None:
    """The numbers are checked with ``str.isdigit``, which accepts "²" (and other Unicode
    digits) that ``int`` then refuses: a ValueError traceback, not the ConfigError naming
    the variable that every other wrong value gets. Regression: isdigit alone was asked."""
    with pytest.raises(ConfigError, match=name):
        Config.from_env({"DISCORD_TOKEN": "t", name: "2²"})


def test_a_server_id_in_non_ascii_digits_is_refused() -> None:
    """``TORA_SYNC_GUILD=٣`` (Arabic-Indic three) was taken as server 3, ``TORA_SHARDS=٣``
    as shard 3, ``TORA_CLIENT_ID`` likewise; a server id longer than any (21 digits) was
    sent to Discord."""
    for name, value, words in (
        ("TORA_SYNC_GUILD", "٣", "TORA_SYNC_GUILD"),
        ("TORA_SYNC_GUILD", "1" * 21, "TORA_SYNC_GUILD"),
        ("TORA_SHARDS", "٣", "shard ids"),
    ):
        environ = {"DISCORD_TOKEN": "t", "TORA_SHARD_COUNT": "4", name: value}
        with pytest.raises(ConfigError, match=words):
            Config.from_env(environ)
    with pytest.raises(ConfigError, match="TORA_CLIENT_ID"):
        ActivityConfig.from_env({"TORA_CLIENT_ID": "١٢٣"}, WebConfig())


def test_shards_and_a_postgresql_database_make_a_process_one_of_several() -> None:
    alone = Config.from_env({"DISCORD_TOKEN": "t"})
    assert (alone.shards, alone.shard_count, alone.shared) == (None, 1, False)
    url = "postgresql://tora:secret@db/tora"
    config = Config.from_env(
        {"DISCORD_TOKEN": "t", "TORA_DB": url, "TORA_SHARDS": "0, 2", "TORA_SHARD_COUNT": "4"}
    )
    assert (config.shards, config.shard_count, config.shared) == ((0, 2), 4, True)
    assert config.store.where() == "postgresql://tora:***@db/tora"  # never the password
    assert Config.from_env({"DISCORD_TOKEN": "t", "TORA_DB": url}).shared
    every = Config.from_env({"DISCORD_TOKEN": "t", "TORA_SHARD_COUNT": "4"})  # all 4, alone
    assert (every.shards, every.shard_count, every.shared) == (None, 4, False)
    for shards, count, why in (
        ("0,2", None, "needs TORA_SHARD_COUNT / --shard-count"),
        ("0", "0", "1 to 4096"),
        ("0,4", "4", "from 0 to 3"),
        ("1,1", "4", "distinct"),
        ("0;2", "4", "separated by commas"),
        ("0", "many", "number of shards"),
        ("\u00b2", "4", "separated by commas"),  # regression: it raised ValueError
    ):
        environ = {"DISCORD_TOKEN": "t", "TORA_SHARDS": shards, "TORA_SHARD_COUNT": count}
        with pytest.raises(ConfigError, match=why):
            Config.from_env({k: v for k, v in environ.items() if v is not None})


@pytest.mark.parametrize(
    ("environ", "variable"),
    [
        ({"TORA_SHARD_COUNT": "0"}, "TORA_SHARD_COUNT"),
        ({"TORA_SHARDS": "0,1"}, "TORA_SHARD_COUNT"),
        ({"TORA_SHARDS": "0,5", "TORA_SHARD_COUNT": "4"}, "TORA_SHARDS"),
    ],
)
def test_a_wrong_shard_setting_from_the_environment_names_its_variable(environ, variable) -> None:
    """compose.yaml and the systemd unit set TORA_SHARDS / TORA_SHARD_COUNT; their refusals
    said ``--shards`` and ``--shard-count`` alone, options the admin never wrote. Regression:
    they name both spellings now."""
    with pytest.raises(ConfigError, match=variable):
        Config.from_env({"DISCORD_TOKEN": "t", **environ})


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///var/lib/tora/tora.sqlite3",
        "postgresql+asyncpg://tora@db/tora",
        "postgresq://tora@db/tora",
        "mysql://tora@db/tora",
    ],
)
def test_a_database_url_of_another_kind_is_refused_not_taken_for_a_file(url) -> None:
    """TORA_DB is "a SQLite file, or a postgresql:// URL" (README). Any other URL (a
    SQLAlchemy-style ``sqlite:///`` or ``postgresql+asyncpg://``, a typo) is taken for a
    relative file path: the bot starts on a fresh empty SQLite file in a directory named
    ``sqlite:`` (or ``postgresql+asyncpg:``) and every match seems lost. Regression: only
    postgresql:// and postgres:// were told apart from a path."""
    with pytest.raises(ConfigError, match="TORA_DB") as refused:
        Config.from_env({"DISCORD_TOKEN": "t", "TORA_DB": url})
    assert "tora@db" not in str(refused.value)  # what is allowed, not the URL (a password)


def test_a_schema_for_a_sqlite_database_is_refused_naming_its_variable() -> None:
    """TORA_DB_SCHEMA names a PostgreSQL schema; with TORA_DB a SQLite file it was silently
    ignored (``python -m storage --schema`` is refused so), and an admin who meant to keep
    two bots apart had them share one file's tables."""
    with pytest.raises(ConfigError, match="TORA_DB_SCHEMA"):
        Config.from_env({"DISCORD_TOKEN": "t", "TORA_DB": "/tmp/x.sqlite3", "TORA_DB_SCHEMA": "a"})
    with pytest.raises(ConfigError, match="TORA_DB_SCHEMA"):
        Config.from_env({"DISCORD_TOKEN": "t", "TORA_DB_SCHEMA": "a"})  # the default file
    url = {"TORA_DB": "postgresql://tora@db/tora", "TORA_DB_SCHEMA": " a "}
    assert Config.from_env({"DISCORD_TOKEN": "t", **url}).store.schema == "a"


def test_tora_db_is_read_without_the_spaces_around_it() -> None:
    """``TORA_DB= postgresql://...`` (a space kept by an env file) was a SQLite file's path."""
    url = Config.from_env({"DISCORD_TOKEN": "t", "TORA_DB": " postgresql://tora@db/tora "})
    assert url.store.url == "postgresql://tora@db/tora"
    path = Config.from_env({"DISCORD_TOKEN": "t", "TORA_DB": " /tmp/x.sqlite3 "})
    assert str(path.store.path) == "/tmp/x.sqlite3"


def _capture_serve(monkeypatch) -> list[Config]:
    seen: list[Config] = []

    async def serve(config: Config) -> int:
        seen.append(config)
        return 0

    monkeypatch.setattr("bot.__main__.serve", serve)
    monkeypatch.setattr("bot.__main__.setup_logging", lambda level: None)
    return seen


def test_python_m_bot_takes_its_shards_on_the_command_line(monkeypatch) -> None:
    seen = _capture_serve(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("TORA_SHARD_COUNT", "4")
    assert bot_main(["--shards", "0,2"]) == 0
    assert bot_main(["run", "--shards", "3", "--shard-count", "8"]) == 0
    assert [(c.shards, c.shard_count) for c in seen] == [((0, 2), 4), ((3,), 8)]
    assert bot_main(["--shards", "9"]) == 2  # refused, saying why


def test_shards_before_the_run_subcommand_are_not_silently_dropped(monkeypatch) -> None:
    """``run`` is "the default" subcommand, and ``--shards``/``--shard-count`` are taken
    before it too; written ``python -m bot --shards 0,1 --shard-count 4 run`` the run
    subparser's own defaults (None) overwrite them, and the process silently connects as
    every shard of a one-shard bot while its peers hold the others. Regression: they were
    overwritten."""
    seen = _capture_serve(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    for name in ("TORA_SHARDS", "TORA_SHARD_COUNT"):
        monkeypatch.delenv(name, raising=False)
    assert bot_main(["--shards", "0,1", "--shard-count", "4", "run"]) == 0
    assert [(c.shards, c.shard_count) for c in seen] == [((0, 1), 4)]


def test_python_m_bot_refuses_non_ascii_digits_on_its_command_line(monkeypatch, capsys) -> None:
    """``--shard-count ٤`` and ``sync --guild ٣`` were read by ``int`` as 4 and 3, where the
    same in TORA_SHARD_COUNT or TORA_SYNC_GUILD is refused. Regression: argparse's int."""
    seen = _capture_serve(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    assert bot_main(["--shards", "0", "--shard-count", "٤"]) == 2
    assert "TORA_SHARD_COUNT / --shard-count" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bot_main(["sync", "--guild", "٣"])
    assert "--guild" in capsys.readouterr().err
    assert seen == []


def test_the_systemd_unit_gives_the_bot_the_shards_its_instance_names(monkeypatch) -> None:
    """docs/deploy/tora-bot@.service: ``systemctl enable --now tora-bot@0,1 tora-bot@2,3``.
    A comma is not valid in a unit name, so systemctl escapes it (``systemd-escape
    --template=tora-bot@.service 0,1`` gives ``tora-bot@0\\x2c1.service``), and ``%i`` is the
    instance as escaped: ExecStart runs ``python -m bot --shards 0\\x2c1``, refused (exit 2),
    restarted every 5 s, for ever; no shard is ever held. ``%I`` is the unescaped one.
    (``systemd-analyze verify`` on such a unit shows ``%i`` expanded to ``0\\x2c1``.)
    Regression: the unit ran ``--shards %i``."""
    unit = (ROOT / "docs/deploy/tora-bot@.service").read_text()
    [exec_start] = re.findall(r"^ExecStart=(.*)$", unit, re.M)
    environ = dict(re.findall(r"^Environment=(\w+)=(\S+)$", unit, re.M))
    escaped, unescaped = "0\\x2c1", "0,1"  # systemd's escaping of the instance "0,1"
    words = exec_start.replace("%i", escaped).replace("%I", unescaped).split()
    args = words[words.index("bot") + 1 :]
    seen = _capture_serve(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.delenv("TORA_SHARDS", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert bot_main(args) == 0, args
    assert [(c.shards, c.shard_count) for c in seen] == [((0, 1), 4)]


def test_rules_are_found_by_id_piece_and_word() -> None:
    assert rulebook.lookup("R25").startswith("**R25 Trapped.** If at the start")
    assert rulebook.lookup("r17") == rulebook.lookup("17")
    archer = rulebook.lookup("A")
    assert archer.startswith("# Archer (A) · TORA") and "**R15 Archer.**" in archer
    assert "The Archers" in archer  # the rule book's own description
    assert rulebook.lookup("queen").startswith("# Ruler (K/Q) · TORA")
    assert "R43 Search" in rulebook.lookup("jeopardy")
    assert rulebook.lookup("R99").startswith("There is no ruling `R99`; TORA's rulings are R1-R33")
    assert rulebook.lookup("zeppelin").startswith("No ruling of any game mentions `zeppelin`")
    assert len(rulebook.book("tora").rulings) == 40
    assert "R25 Trapped · TORA" in rulebook.topics() and "Cavalry (H) · TORA" in rulebook.topics()
    assert all(rulebook.lookup(topic).startswith(("**", "#")) for topic in rulebook.topics())


def test_a_rules_word_search_matches_words_from_their_start() -> None:
    """`/tora rules <word>` lists the rulings that hold the word, a short one (up to 3
    letters) at a word's start, a longer one anywhere ("hill" finds "uphill"). Regression:
    short ones matched inside words, so `ts` listed 21 of TORA's rulings for their "its" and
    "units", and `ten` those with "often" or "written"."""
    assert rulebook.lookup("ts").startswith("No ruling of any game mentions `ts`")
    assert "R29" not in rulebook.lookup("ten", "tora")
    assert rulebook.lookup("hill").startswith("`hill` is in TORA's R33 High ground")


def test_ts5_ti15_and_every_games_pieces_and_powers_are_looked_up() -> None:
    """Each game brings its rulings and the rule text's pieces or powers: found from any
    game's channel, in the game at hand first."""
    assert len(rulebook.book("torishogi").rulings) == 12
    assert len(rulebook.book("torii").rulings) == 20
    assert rulebook.lookup("TS5").startswith("**TS5 Promotion.**")
    assert rulebook.lookup("ti15").startswith("**TI15 Monkey.**")
    assert rulebook.lookup("5", "torishogi") == rulebook.lookup("TS5")
    phoenix = rulebook.lookup("phoenix")
    assert phoenix.startswith("# Phoenix (K) · ToriShogi") and "Phx" in phoenix
    assert "Left Quail" in rulebook.lookup("quail") and "Right Quail" in rulebook.lookup("qr")
    monkey = rulebook.lookup("monkey", "tora")
    assert monkey.startswith("# Monkey · Torii") and "**TI15 Monkey.**" in monkey
    assert "flip either player's Action tile" in monkey  # the rule book's own text
    # a name two games share: the game at hand's first, the other pointed to
    assert rulebook.lookup("crane", "torii").startswith("# Crane · Torii")
    crane = rulebook.lookup("crane", "torishogi")
    assert crane.startswith("# Crane (C) · ToriShogi") and "game:torii" in crane
    # a letter means the game at hand's piece
    assert rulebook.lookup("C", "torishogi").startswith("# Crane (C)")
    assert rulebook.lookup("C").startswith("# Cannon (C) · TORA")
    # a word no ruling of the game at hand has is looked for in the others
    promotion = rulebook.lookup("promotion", "tora")
    assert promotion.startswith("No ruling of TORA mentions `promotion`; in ToriShogi")
    assert rulebook.lookup("TS99").endswith("ToriShogi's rulings are TS1-TS12.")
    assert rulebook.lookup("r" + "9" * 99).startswith("There is no ruling `r999")
    topics = rulebook.topics("", "torii")
    assert topics[0] == "TI1 Board · Torii" and "Phoenix (K) · ToriShogi" in topics
    assert rulebook.topics("monk") == ["TI15 Monkey · Torii", "Monkey · Torii"]
    for name in ("Spirit · Torii", "Action tile · Torii", "Goose (+S) · ToriShogi"):
        assert name in rulebook.topics()


def test_a_ruling_id_typed_with_a_space_finds_that_ruling() -> None:
    """`R 25` is R25, not ToriShogi's Right Quail (R) nor a word search for `TS 5`."""
    for typed, wanted in (("R 25", "R25"), ("TS 5", "TS5"), ("ti 15", "TI15")):
        assert rulebook.lookup(typed) == rulebook.lookup(wanted), rulebook.lookup(typed)[:120]


def test_rules_autocomplete_offers_a_ruling_id_typed_with_a_space() -> None:
    """`/tora rules topic:r 25` finds R25, but its autocomplete offered nothing while it was
    typed: the suggestions compared the raw text with "R25 Trapped · TORA"."""
    for typed, wanted in (("r 25", "R25 "), ("TS 5", "TS5 "), ("ti 1", "TI15 ")):
        assert any(name.startswith(wanted) for name in rulebook.topics(typed)), typed


def test_a_ruling_id_in_full_width_characters_is_found() -> None:
    """`/tora rules topic:R25` in full-width characters, as a Japanese input method types
    it, was told no ruling mentions it; full-width letters and digits are read as ASCII
    (NFKC), in the suggestions too."""
    assert rulebook.lookup("Ｒ２５") == rulebook.lookup("R25")  # noqa: RUF001
    assert rulebook.lookup("ＴＳ　５") == rulebook.lookup("TS5")  # noqa: RUF001
    assert any(name.startswith("R25 ") for name in rulebook.topics("Ｒ２５"))  # noqa: RUF001


def test_each_game_has_its_own_quick_start() -> None:
    assert "`v5h7`" in rulebook.help_text("tora")
    torishogi = rulebook.help_text("torishogi")
    assert "ToriShogi" in torishogi and "Archer" not in torishogi and "v5h7" not in torishogi
    torii = rulebook.help_text("torii")
    assert "Torii" in torii and "Spirit" in torii and "Archer" not in torii
    assert "`/tora help game:torishogi` (ToriShogi)" in rulebook.help_text("tora")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_quick_start_tells_a_new_player_how_to_practise_against_the_ai(game: str) -> None:
    """With nobody to play, a new player read of challenges to people and the ladder queue
    only: not of the AI, nor of a practice game's Hint, the bot's way of teaching a game."""
    text = rulebook.help_text(game)
    challenge = "`/tora challenge ai:easy" + ("`" if game == "tora" else f" game:{game}`")
    assert challenge in text and "**Hint**" in text, text


@pytest.mark.parametrize(
    ("code", "row"),
    [
        ("en", "row v5, column h7"),
        ("de", "Reihe v5, Spalte h7"),
        ("fr", "la rangée v5, la colonne h7"),
        ("ja", "行v5・列h7"),
        ("es", "la fila v5, la columna h7"),
        ("pt_BR", "a fileira v5, a coluna h7"),
    ],
)
def test_the_tora_quick_start_names_v_the_row_and_h_the_column(code: str, row: str) -> None:
    """R2 and the help's own picture: v counts bottom to top (the labels up the left side), h
    left to right, so in `v5h7` v5 is the row and h7 the column. Regression: the quick start
    said the opposite ("column v5, row h7"), in every language."""
    from bot.i18n import speaking

    with speaking(code):
        text = " ".join(rulebook.help_text("tora").split())
    assert row in text, text[:300]


def test_the_torishogi_quick_start_says_where_each_side_starts() -> None:
    """The quick start names each side's starting ranks, and the squares off them. Regression:
    it said the Challenger plays "from ranks e-g" and the Opposition "from ranks a-c", but a
    Swallow of each starts on rank d (3d, 5d)."""
    from rules import Side
    from rules.torishogi import ToriShogiGame
    from rules.torishogi.board import SHOWN

    text = " ".join(rulebook.help_text("torishogi").split())
    said = re.findall(r"from ranks ([a-g])-([a-g]) \(and ([1-7][a-g])\)", text)
    assert len(said) == 2, text[:600]
    view = ToriShogiGame().view_for(None)
    for side, (low, high, off) in zip((Side.CHALLENGER, Side.OPPOSITION), said, strict=True):
        squares = {SHOWN[piece.sq] for piece in view.pieces if piece.side == side}
        assert off in squares, (side, off)
        assert {sq for sq in squares if not low <= sq[1] <= high} == {off}, (side, squares)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_quick_starts_typed_example_is_a_legal_first_turn(game: str) -> None:
    """The `/tora act ...` a quick start shows is read as a legal action at the start."""
    kind = GAMES[game]
    first = {q.name: q.options[0] for q in kind.setup_questions({}) if q.options}
    example = re.search(r"`/tora act ([^`]+)`", rulebook.help_text(game))
    assert example is not None
    kind.new_game({}, (first, first)).parse_action(example[1])


async def test_direct_messages_are_paced() -> None:
    pace = Pace(rate=50.0, burst=3)
    loop = asyncio.get_running_loop()
    start = loop.time()
    for _ in range(8):
        await pace.wait()
    elapsed = loop.time() - start
    assert 0.08 <= elapsed < 0.5  # 3 at once, then 5 at 50 a second


def test_closed_dms_are_remembered_for_a_while_and_forgotten_on_contact() -> None:
    clock = Ticks()
    closed = Closed(3600, clock)
    closed.mark(7)
    assert 7 in closed and 8 not in closed
    clock.now += 3599
    assert 7 in closed
    clock.now += 2
    assert 7 not in closed  # one message tries the DM again
    closed.mark(7)
    closed.forget(7)
    assert 7 not in closed


def test_latest_interactions_expire_before_their_tokens() -> None:
    clock = Ticks()
    latest: Latest[str] = Latest(14 * 60, clock)
    latest.remember(100, 1, "first")
    latest.remember(100, 1, "second")
    latest.remember(101, 1, "elsewhere")
    assert latest.get(100, 1) == "second" and latest.get(100, 2) is None
    assert latest.get(100, 1, lambda seen: seen == "first") == "first"  # the newest that fits
    clock.now += 14 * 60
    assert latest.get(100, 1) is None


def test_a_click_in_a_busy_quarter_hour_does_not_look_through_every_remembered_user() -> None:
    """The delivery remembers each user's latest interactions per channel (``Latest``); past
    10,000 (channel, user) pairs it drops the old ones, but when the crowd is still young (a
    big bot's quarter of an hour) nothing is dropped, and every interaction after that
    rebuilt the whole dict again, on the event loop: one look through 10,000 entries per
    click. (``RateLimit`` was fixed for the same: the next sweep once as many again came.)"""
    now = [0.0]
    latest: Latest[int] = Latest(14 * 60.0, clock=lambda: now[0])
    for user in range(10_001):  # a busy quarter hour: everyone still young
        latest.remember(100, user, user)
        now[0] += 0.05
    rebuilt = 0
    for user in range(10_001, 10_201):  # the next 200 clicks
        before = latest._seen
        latest.remember(100, user, user)
        rebuilt += latest._seen is not before
        now[0] += 0.05
    assert rebuilt <= 1, f"{rebuilt} of 200 clicks each looked through every remembered pair"


def test_a_database_that_stays_away_is_told_in_words_not_as_a_failure():
    """Regression: with the database down for seconds, users read "Something went wrong";
    they are told it is the database, and to look whether a change was kept."""
    assert explain(DatabaseUnavailable("connection refused")) == UNAVAILABLE
    assert "try again in a minute" in UNAVAILABLE


def test_an_autocomplete_refusal_reads_as_a_sentence():
    """Regression: the one-line hint of a refusal kept the rules core's lower-case start."""
    [choice] = hint("cannot read `zz`: write an action like A v5h7-v4h6. More words here.")
    assert choice.name == "Cannot read `zz`: write an action like A v5h7-v4h6."
    assert hint("v4h2 is off the board.")[0].name == "v4h2 is off the board."


def test_an_autocomplete_hint_holds_no_control_characters() -> None:
    """Regression: a hint repeated what was typed, control characters and all (``\\x00``, a
    tab), and a refusal of several lines (the matches to choose from, in a DM) gave a name
    with its line breaks; Discord takes no control character in a choice. Now the hint is
    the first line, without them, and so is what it stands for."""
    [choice] = hint("cannot read `a\x00b\tc\x1b`: write an action like A v5h7-v4h6.", "a\x00b\tc")
    assert choice.name == "Cannot read `abc`: write an action like A v5h7-v4h6."
    assert choice.value == "abc"
    listed = hint("You play in several matches: say which one.\n- `1`: TORA · ann vs bob")
    assert listed[0].name == listed[0].value == "You play in several matches: say which one."


def test_an_autocomplete_hint_in_japanese_is_its_first_sentence() -> None:
    """Regression: a Japanese refusal's sentences end in 「。」, not ". ", so its hint was
    the whole refusal cut at 100 characters, in mid-sentence, with a "." added after it."""
    [choice] = hint("ここには対局がありません。`/tora challenge` で始めてください。")
    assert choice.name == "ここには対局がありません。"
