"""Every player in their own language (issue 30): the catalogs are complete in every shipped
language, with the English's placeholders and the language's plural forms; every message
renders in every language; the slash commands' names, descriptions and choices hold
Discord's rules in each; the texts converted (``/tora settings``) hold Discord's limits in
the longest language; the language follows the reader (a player's choice over their
Discord's, a server's over its preferred locale), task by task."""

from __future__ import annotations

import asyncio
import re
import string
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from test_service_away import ANN, BOB, HERE, started

from bot.app.answers import Unusable, explain, failure_text
from bot.app.callers import Caller
from bot.app.languages import Languages
from bot.app.lookups import settings_text
from bot.app.notify_form import LANGUAGE, ME, SERVER, form_of
from bot.discord.autocomplete import safely
from bot.discord.client import unbound_tree
from bot.discord.translator import (
    CHOICE,
    DESCRIPTION,
    NAME,
    NAME_RULE,
    CatalogTranslator,
    entries,
    texts,
    tree_problems,
)
from bot.i18n import LOCALES, SOURCE, _, current, from_discord, ngettext, pgettext, speaking
from bot.i18n.catalogs import (
    TEMPLATE,
    load_all,
    placeholders,
    po_path,
    problems,
    read,
    translations,
)
from bot.service import UNAVAILABLE, DatabaseUnavailable, Refused, Terms, User
from bot.service.guild import ClockChoice, GuildSettings
from bot.service.languages import LanguageChoice
from bot.service.notify import CHOICES, Notify, defaults
from bot.service.terms import Settings
from bot.service.testing import Harness
from bot.service.texts import duration, listing
from render.fonts import printable
from rules.words import msg

TRANSLATED = [code for code in LOCALES if code != SOURCE]
LONGEST_ZONE = "America/Argentina/ComodRivadavia"


def test_six_languages_ship() -> None:
    assert set(LOCALES) >= {"en", "de", "fr", "es", "ja", "pt_BR"}


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalog_has_every_message_with_its_placeholders_and_plural_forms(code) -> None:
    assert problems(code) == []


# A "tu" form addressing the player: a subject, object or stressed pronoun, a possessive
# (determiner or pronoun), "t'" before a vowel, or one joined to an imperative or a question
# ("rejoins-toi", "veux-tu"); whole words only, so "Tatsu", "tête" or "a-t-il" are not.
TU_FORM = re.compile(
    r"(?<![\w'\u2019-])(?:(?:tu|te|toi|ton|ta|tes|tien|tienne|tiennes)(?![\w'\u2019])"
    r"|t['\u2019](?=\w))|-(?:toi|tu)\b",
    re.IGNORECASE,
)
# The "tu" imperatives the catalog used ("réessaie", "choisis", "ferme-le"): at the start of
# a sentence or clause, or joined to a pronoun. Several are also "je" or "il" forms ("Je
# réessaie", "la page réessaie"), hence only there; "joue", "déplace" and "utilise" begin
# the moves' words ("joue {origin}-{target}"), so they are left out.
TU_IMPERATIVES = (
    "agis|annule|appuie|attends|autorise|choisis|clique|décide|défie|dis|écris|envoie|ferme"
    "|finis|mets|ouvre|prépare|rejoins|reprends|réessaie|rouvre|termine"
)
TU_IMPERATIVE = re.compile(
    rf"(?:^|[.;:!?(«\u2014]\s*)(?:{TU_IMPERATIVES})(?![\w'\u2019])"
    rf"|(?<![\w'\u2019-])(?:{TU_IMPERATIVES})-(?:le|la|les|en|y|moi|lui)(?![\w'\u2019])",
    re.IGNORECASE | re.MULTILINE,
)
CODE_SPAN = re.compile(r"`[^`]*`|\{[^{}]*\}|<[^<>]*>")  # notation, placeholders, Discord syntax


def says_tu(text: str) -> bool:
    """Whether ``text`` speaks to the player as "tu" (a placeholder read as a word: the
    subject in "{player} joue")."""
    return bool(
        TU_FORM.search(CODE_SPAN.sub(" ", text)) or TU_IMPERATIVE.search(CODE_SPAN.sub("X", text))
    )


def tu_forms(catalog: Catalog) -> list[tuple[str, str]]:
    """Each (message id, translation) of ``catalog`` that speaks to the player as "tu"."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        message_id = message.id if isinstance(message.id, str) else message.id[0]
        for text in strings:
            if text and says_tu(text):
                found.append((message_id, text))
    return found


def test_french_addresses_the_player_as_vous_throughout() -> None:
    """The French catalog says "vous" to the player everywhere, as Lichess's French does:
    the bot switched register from message to message ("Tu joues le côté ..." beside
    "Vous jouez plusieurs parties ..."), every plural form too."""
    assert TU_FORM.search("Choisis ta mise en place ; ton adversaire ne voit tes choix")
    for tu in ("à toi de jouer", "t'as vu", "t\u2019es là", "le tien", "inscris-toi", "veux-tu"):
        assert TU_FORM.search(tu), tu
    untouched = "Le Tatsu balaie ; a-t-il une tête ? `ta` {te} <t:1:R> tenté, entre toits"
    assert not says_tu(untouched)
    for tu in ("; réessaie dans 30 secondes", "Choisis-en un.", "Clique sur Jouer", "ferme-le"):
        assert says_tu(tu), tu
    for vous in ("Je réessaie d'ici une minute", "la page réessaie", "{player} joue en premier"):
        assert not says_tu(vous), vous
    assert tu_forms(read(po_path("fr"), "fr")) == []


# The other form of address, for the three languages that say "du", "tú" and "você" to the
# player. German: "Ihnen", an "Ihr..." or "Sie" capitalised inside a sentence (after a
# colon, or after a placeholder that is a sentence, a capital is "it" or "ihr": "Sie endet
# ohne Ergebnis", the match; "{who} Ihr habt"), or a verb with
# "Sie" after it ("Drücken Sie"). Spanish: "usted", or an usted imperative or question
# at the start of a clause ("Pulse", "Elija", "¿Puede"). Brazilian Portuguese: a "tu"
# pronoun or possessive (te, ti, contigo, teu, tua...), or a "tu" imperative at the start
# of a clause ("escolhe", "clica"; "joga" or "usa" begin actions' words, left out).
OTHER_ADDRESS = {
    "de": re.compile(
        r"\bIhnen\b|(?<=[\w,] )(?:Sie|Ihr\w*)\b|\b\w+en Sie\b",
    ),
    "es": re.compile(
        r"\bustedes?\b|(?:^|[.;:!?¡¿(\u2014]\s*)(?:pulse|elija|escriba|intente|inténtelo"
        r"|vuelva|pida|seleccione|compruebe|espere|acepte|rechace|cierre|haga|ponga|diga"
        r"|mire|añada|quite|revise|envíe|únase|puede usted|quiere|desea)(?![\w])",
        re.IGNORECASE | re.MULTILINE,
    ),
    "pt_BR": re.compile(
        r"(?<![\w-])(?:tu|te|ti|contigo|teu|tua|teus|tuas)(?![\w])|-te\b"
        r"|(?:^|[.;:!?(\u2014\u201c]\s*)(?:escolhe|clica|tenta|aperta|digita|pressiona)(?![\w])",
        re.IGNORECASE | re.MULTILINE,
    ),
}


def other_addresses(code: str) -> list[tuple[str, str]]:
    """Each (message id, translation) of ``code``'s catalog in the other form of address."""
    found = []
    for message in read(po_path(code), code):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        message_id = message.id if isinstance(message.id, str) else message.id[0]
        for text in strings:
            if text and OTHER_ADDRESS[code].search(CODE_SPAN.sub(" ", text)):
                found.append((message_id, text))
    return found


@pytest.mark.parametrize(
    ("code", "other", "same"),
    [
        (
            "de",
            ("Drücke dann Ihr Zug ist vollständig.", "Wählen Sie", "wie Ihnen", "als Sie"),
            ("Sie endet ohne Ergebnis", "Partie {number}: Sie zählt nicht", "{who} Ihr habt beide"),
        ),
        (
            "es",
            ("Pulse el botón", "¿Puede usted?", "; inténtelo de nuevo", "Elija un lado"),
            ("Pulsa el botón", "hasta que termine su turno", "Le toca a {name}"),
        ),
        (
            "pt_BR",
            ("Escolhe a preparação", "vou te avisar", "o teu turno", "avise-te"),
            ("Escolha a preparação", "usa a ficha", "o turno de {player}: passa"),
        ),
    ],
)
def test_each_catalog_keeps_one_form_of_address(code, other, same) -> None:
    """German says "du", Spanish "tú" and Brazilian Portuguese "você" to the player, in
    every entry and plural form: "Drücke dann Ihr Zug ist vollständig" (the planning
    button, "Their turn is complete") read as the formal "your turn" to a German player."""
    for text in other:
        assert OTHER_ADDRESS[code].search(CODE_SPAN.sub(" ", text)), text
    for text in same:
        assert not OTHER_ADDRESS[code].search(CODE_SPAN.sub(" ", text)), text
    assert other_addresses(code) == []


SIGN_IN_WAIT = (
    "Discord asks the board to wait before signing anyone in again; try again in {n} second.",
    "Discord asks the board to wait before signing anyone in again; try again in {n} seconds.",
)


def test_the_french_sign_in_wait_says_vous() -> None:
    """The French catalog says "vous" to the player everywhere since today (6253834), but
    the new sign-in refusal (bc12629) tells the player « réessaie dans 30 secondes » (tu),
    where every other sign-in text of the Activity says « réessayez »."""
    with speaking("fr"):
        for n in (1, 30):
            text = ngettext(*SIGN_IN_WAIT, n)
            assert "réessaie " not in text, text
            assert "réessayez" in text, text


def test_the_template_holds_every_text_of_the_code_and_the_commands() -> None:
    """``make catalogs`` was run after the last change of a text (the template is current)."""
    template = read(TEMPLATE)
    for context, message, where in texts(unbound_tree()):
        assert template.get(message, context) is not None, (where, message)


def _fill(text: str) -> dict[str, Any]:
    return {name: f"<{name}>" for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("code", LOCALES)
def test_every_message_renders_in_every_language(code) -> None:
    """No missing key, no broken placeholder: each text made with its parameters comes
    out with every one of them filled and no brace left."""
    catalog = None if code == SOURCE else read(po_path(code), code)
    for message in read(TEMPLATE):
        if not message.id:
            continue
        with speaking(code):
            if isinstance(message.id, tuple):
                shown = [
                    ngettext(*message.id, n, **_fill(message.id[1])) for n in (0, 1, 2, 5, 21, 101)
                ]
            elif message.context:
                shown = [pgettext(message.context, message.id, **_fill(message.id))]
            else:
                shown = [_(message.id, **_fill(message.id))]
        for text in shown:
            assert text.strip(), message.id
            params = _fill(message.id if isinstance(message.id, str) else message.id[1])
            assert not any(f"{{{name}}}" in text for name in params), (code, text)
            for name in params:
                if name != "n":
                    assert f"<{name}>" in text, (code, message.id, text)
        if catalog is not None and message.context != CHOICE:
            assert catalog.get(message.id, message.context).string


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog)


def test_the_check_names_what_a_translator_got_wrong(tmp_path: Path) -> None:
    template = Catalog()
    template.add("Hello {name}")
    template.add("Kept")
    template.add("Broken")
    template.add(("{n} day", "{n} days"))
    template.add("Fuzzy")
    template.add("Brace")
    _write(tmp_path / "tora.pot", template)
    mine = Catalog(locale="de")
    mine.add("Hello {name}", "Hallo {nom}")
    mine.add("Broken", "Kaputt {x.y}")
    mine.add(("{n} day", "{n} days"), ("{n} Tag",))
    mine.add("Fuzzy", "Unscharf", flags=["fuzzy"])
    mine.add("Brace", "Klammer {")
    mine.add("Gone", "Weg")
    path = po_path("de", tmp_path / "locales")
    _write(path, mine)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("nplurals=2; plural=(n != 1)", "nplurals=1; plural=0"), "utf-8")
    found = "\n".join(problems("de", tmp_path / "locales", tmp_path / "tora.pot"))
    assert "placeholders ['nom']" in found
    assert "'Kept' is missing" in found
    assert "is not a plain {name} placeholder" in found
    assert "Plural-Forms gives 1 forms, CLDR's rule for de has 2" in found
    assert "marked fuzzy" in found
    assert "'Brace'" in found and "Single '{'" in found
    assert "'Gone' is no longer used" in found


def test_placeholders_are_plain_names() -> None:
    assert placeholders("{a} and {b} {{not}}") == {"a", "b"}
    for bad in ("{0}", "{}", "{a.b}", "{a[0]}", "{a!r}", "{a:>3}", "{"):
        with pytest.raises(ValueError):
            placeholders(bad)


@pytest.mark.parametrize("code", LOCALES)
def test_the_commands_hold_discords_rules_in_every_language(code) -> None:
    """Names lowercase, 1-32 letters, digits, - or _, none twice at one level; descriptions
    and choices 1-100 characters (English too, for a new command)."""
    assert tree_problems(unbound_tree(), code) == []


def test_the_sync_payload_carries_every_shipped_language() -> None:
    async def payload() -> list[dict[str, Any]]:
        tree = unbound_tree()
        await tree.set_translator(CatalogTranslator())
        assert tree.translator is not None
        return [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]

    tora = asyncio.run(payload())[0]
    challenge = next(o for o in tora["options"] if o["name"] == "challenge")
    assert challenge["name_localizations"]["de"] == "herausfordern"
    assert challenge["name_localizations"]["ja"] == "挑戦"
    assert set(challenge["description_localizations"]) >= {"de", "fr", "es-ES", "es-419", "ja"}
    assert "pt-BR" in challenge["description_localizations"]
    assert "it" not in challenge["description_localizations"]  # not shipped: English shows
    assert "en-US" not in challenge["name_localizations"]  # the English is the default
    board = next(o for o in challenge["options"] if o["name"] == "board")
    assert board["name_localizations"]["fr"] == "plateau"
    assert [c["name_localizations"]["es-ES"] for c in board["choices"]] == [
        "tablero corto",
        "tablero largo",
    ]
    assert [c["value"] for c in board["choices"]] == ["short", "long"]  # values stay


def test_english_names_and_values_are_untouched_by_the_translation() -> None:
    for entry in entries(unbound_tree()):
        assert NAME_RULE.fullmatch(entry.name)


@pytest.mark.parametrize(
    ("locale", "code"),
    [
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", "de"),
        ("fr", "fr"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("ja", "ja"),
        ("pt-BR", "pt_BR"),
        ("it", "en"),
        ("zh-CN", "en"),
        (None, "en"),
        ("", "en"),
    ],
)
def test_discord_locales_map_to_the_nearest_shipped_language(locale, code) -> None:
    assert from_discord(locale) == code


def test_every_discord_locale_maps_to_a_shipped_language() -> None:
    assert {from_discord(locale.value) for locale in discord.Locale} == set(LOCALES)


def test_the_language_is_the_tasks_own() -> None:
    """Two answers made at once, in German and in Japanese, do not mix."""

    async def made(code: str) -> list[str]:
        with speaking(code):
            said = []
            for _step in range(3):
                said.append(_("no reminders"))
                await asyncio.sleep(0)
            return said

    async def both() -> tuple[list[str], list[str]]:
        return await asyncio.gather(made("de"), made("ja"))

    german, japanese = asyncio.run(both())
    assert german == ["keine Erinnerungen"] * 3
    assert japanese == ["リマインダーなし"] * 3
    assert current() == SOURCE


def test_a_language_not_shipped_speaks_english() -> None:
    with speaking("xx"):
        assert current() == SOURCE and _("no reminders") == "no reminders"


LIMITS = {"content": 2000, "button": 80, "option": 100, "placeholder": 150}


@pytest.mark.parametrize("code", LOCALES)
@pytest.mark.parametrize("scope", [ME, SERVER])
def test_the_settings_form_holds_discords_limits_in_every_language(code, scope) -> None:
    """The form with its longest values (every choice's longest words, the longest time
    zone) in each language: content, button labels, menu options and placeholders within
    Discord's limits; at most 25 options a menu and 5 rows."""
    longest = {
        key: max(values, key=lambda v: len(_(values[v], start="00:00", end="00:00", time="00:00")))
        for key, values in CHOICES.items()
    }
    notify = Notify(longest | {k: v for k, v in defaults({}).items() if k not in longest})
    with speaking(code):
        form = form_of(scope, notify, LONGEST_ZONE, LanguageChoice(None, "pt-BR"), "pt-BR")
    assert len(form.text) <= LIMITS["content"]
    assert all(len(t.label) <= LIMITS["button"] for t in form.toggles)
    assert len(form.picks) + (1 if form.toggles else 0) <= 5
    for pick in form.picks:
        assert len(pick.placeholder) <= LIMITS["placeholder"]
        assert 1 <= len(pick.options) <= 25
        assert all(1 <= len(label) <= LIMITS["option"] for _, label, _ in pick.options)
    assert form.picks[-1].key == LANGUAGE


async def test_a_players_choice_wins_over_their_discord_language(h: Harness) -> None:
    records, ann = h.running.records, User(1, "ann")
    assert (await records.player_language(ann.id)).resolved() == SOURCE  # never seen
    await records.note_player_locale(ann, "es-419")
    assert (await records.player_language(ann.id)).resolved() == "es"  # a DM: Spanish
    await records.choose_player_language(ann, "ja")
    assert (await records.player_language(ann.id)).resolved("de") == "ja"
    await records.choose_player_language(ann, None)
    assert (await records.player_language(ann.id)).resolved("de") == "de"
    with pytest.raises(ValueError):
        await records.choose_player_language(ann, "xx")


async def test_a_servers_choice_wins_over_its_preferred_locale(h: Harness) -> None:
    records = h.running.records
    assert (await records.server_language(7)).resolved() == SOURCE
    await records.note_server_locale(7, "pt-BR")
    assert (await records.server_language(7)).resolved() == "pt_BR"  # a public post
    await records.choose_server_language(7, "fr")
    assert (await records.server_language(7)).resolved() == "fr"
    await records.note_server_locale(7, "x" * 40)  # not a locale: kept as it was
    assert (await records.server_language(7)).seen == "pt-BR"


def test_descriptions_and_names_are_told_apart() -> None:
    """One English word as a name and as a choice gets a translation of each kind."""
    with speaking("de"):
        assert pgettext(NAME, "draw") == "remis"
        assert pgettext(CHOICE, "draw") == "Remis"
        assert pgettext(DESCRIPTION, "The round") == "Die Runde"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_character_of_every_catalog_can_be_drawn(code) -> None:
    """Images in any shipped language: each translation is drawn whole, in DejaVu or in
    the Japanese face (no character swapped for a ``?``)."""
    for message in read(po_path(code), code):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if text:
                assert printable(text) == text, (code, text)


async def test_the_service_answers_in_the_callers_language_and_posts_in_the_servers(
    h: Harness,
) -> None:
    """A German player takes away days in a server whose admins chose French: the answer
    is German (the caller's, set by the front end), the post to the match French; a
    refusal counts in Japanese with Japanese's one plural form."""
    await h.running.records.choose_server_language(HERE.guild_id, "fr")
    await started(h)
    with speaking("de"):
        reply = await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    assert reply.text.startswith("Du bist von <t:"), reply.text
    assert "(3 Tage; noch 11 von 14 in diesem Jahr)" in reply.text
    assert "1 Partie wurde informiert" in reply.text
    assert "`/tora abwesend zurück:True`" in reply.text  # the command as German Discord shows it
    await h.settle()
    post = h.delivery.channel(HERE.channel_id)[-1]
    assert post.text.startswith("ann (Challenger) est absent de <t:"), post.text
    with speaking("ja"), pytest.raises(Refused) as refused:
        await h.running.away(HERE.guild_id, BOB, h.clock.now(), 20)
    japanese = "今年の不在日は残り14日です（14日中）。20日は取れません。"  # noqa: RUF001
    assert refused.value.message == japanese


@pytest.mark.parametrize(
    ("code", "counts"),
    [
        ("fr", ["0 jour", "1 jour", "2 jours", "1000000 de jours"]),
        ("pt_BR", ["0 dia", "1 dia", "2 dias", "1000000 de dias"]),
        ("es", ["0 días", "1 día", "2 días", "1000000 de días"]),
        ("de", ["0 Tage", "1 Tag", "2 Tage", "1000000 Tage"]),
        ("ja", ["0日", "1日", "2日", "1000000日"]),
    ],
)
def test_plurals_follow_each_languages_rule(code, counts) -> None:
    with speaking(code):
        assert [ngettext("{n} day", "{n} days", n) for n in (0, 1, 2, 1_000_000)] == counts


def test_failures_and_an_unreachable_database_are_told_in_the_callers_language() -> None:
    with speaking("ja"):
        assert failure_text("ab12").startswith("こちら側で問題が起き")
        assert "`ab12`" in failure_text("ab12")
    with speaking("de"):
        said = explain(DatabaseUnavailable("down"))
    assert said is not None and said.startswith("Die Partie-Datenbank antwortet gerade nicht")
    assert "`/tora brett`" in said
    assert explain(DatabaseUnavailable("down")) == UNAVAILABLE  # English: as the web shows it


@pytest.mark.parametrize("code", LOCALES)
def test_the_servers_settings_hold_discords_limit_in_every_language(code) -> None:
    """``/tora-admin settings``' answer with every setting at its longest."""
    chosen = GuildSettings(
        turn_seconds=29 * 86400 + 23 * 3600,
        threads=True,
        ladder_channel=2**63 - 1,
        ai_fill_after=6 * 86400 + 23 * 3600,
        ai_matches=999,
        away_days=365,
        auto_away=True,
        clock=ClockChoice("increment", 0, 27 * 86400 + 23 * 3600, 364 * 86400 + 23 * 3600),
    )
    with speaking(code):
        text = settings_text(chosen, 20)
    assert len(text) <= LIMITS["content"]
    assert "{" not in text and "<#9223372036854775807>" in text


def test_the_services_shared_words_stay_english_unless_asked() -> None:
    """Durations, lists, clocks and command names in a post the service has not converted
    yet stay English whoever's command made it; a converted text asks for its language."""
    terms = Terms(turn_seconds=2 * 86400, clock="bank", bank_seconds=5 * 86400)
    with speaking("de"):
        assert duration(3 * 86400 + 3600) == "3 days 1 h"
        assert duration(3 * 86400 + 3600, localized=True) == "3 Tage 1 Std."
        assert listing(["a", "b", "c"]) == "a, b and c"
        assert listing(["a", "b", "c"], localized=True) == "a, b und c"
        assert terms.clock_words() == "2 days per turn and a bank of 5 days each"
        assert terms.clock_words(localized=True) == "2 Tage pro Zug und je 5 Tage Reserve"
        settings = Settings()
        assert settings.cmd("queue board:long") == "`/tora-ladder queue board:long`"
        assert settings.cmd("queue", localized=True) == "`/tora-rangliste warteschlange`"


def test_autocomplete_answers_in_the_callers_language() -> None:
    """A typed option's choices and hints are made in the caller's language too."""
    interaction = SimpleNamespace(
        locale=discord.Locale.brazil_portuguese,
        client=None,
        user=SimpleNamespace(id=1),
        created_at=discord.utils.utcnow(),
    )

    async def complete() -> list[tuple[str, str]]:
        return [(_("no reminders"), "none")]

    async def refuse() -> list[tuple[str, str]]:
        raise Unusable(_("That setting is not one I know; nothing was changed."))

    found = asyncio.run(safely(interaction, complete))  # type: ignore[arg-type]
    assert [c.name for c in found] == ["sem lembretes"]
    hinted = asyncio.run(safely(interaction, refuse))  # type: ignore[arg-type]
    assert [c.name for c in hinted] == ["Não conheço essa configuração; nada foi alterado."]


async def test_a_public_answer_speaks_the_servers_language_a_private_one_the_callers(
    h: Harness,
) -> None:
    """``Responder`` answers in ``Languages.of`` (private) or ``of_server`` (public); both
    keep what Discord showed, for the posts and DMs made later."""
    languages = Languages(h.running)
    here = Caller(ANN, HERE.guild_id, HERE.channel_id, locale="de", guild_locale="es-ES")
    assert await languages.of(here) == "de"
    assert await languages.of_server(here) == "es"
    await h.running.records.choose_server_language(HERE.guild_id, "ja")
    assert await languages.of_server(here) == "ja"
    in_dm = Caller(ANN, None, 5, locale="pt-BR")
    assert await languages.of_server(in_dm) == "pt_BR"  # a DM has no server: the caller's
    assert (await h.running.records.player_language(ANN.id)).seen == "pt-BR"
    assert (await h.running.records.server_language(HERE.guild_id)).seen == "es-ES"


def test_every_catalog_is_read_at_the_start() -> None:
    """``build`` reads them all: the first answer in a language waits for no file."""
    load_all()
    assert translations.cache_info().currsize >= len(LOCALES)


def test_a_rules_text_given_to_a_message_is_worded_in_the_readers_language() -> None:
    """Regression: the Play panel's "**Your turn** · {game} · {to_act}" put the rules'
    "a move" in it as English in every language (a ``Text`` parameter was filled in as its
    English ``str``), and its "{prompt} in the menu" the game's English prompt."""
    with speaking("de"):
        assert _("**Your turn** · {game} · {to_act}", game="ToriShogi", to_act=msg("a move")) == (
            "**Du bist am Zug** · ToriShogi · ein Zug"
        )
    with speaking("en"):
        assert _("**Your turn** · {game} · {to_act}", game="ToriShogi", to_act=msg("a move")) == (
            "**Your turn** · ToriShogi · a move"
        )


def test_a_games_options_are_described_in_the_readers_language() -> None:
    """Regression: a Torii challenge's terms said "with the Spirits' powers" in English in
    every language (the game's option words were plain English)."""
    terms = Terms(game="torii", options={"powers": True})
    with speaking("de"):
        assert terms.describe(localized=True).startswith("mit den Kräften der Spirits, ")
    assert terms.describe().startswith("with the Spirits' powers, ")
    assert Terms(game="torii", options={"powers": False}).describe().startswith("without powers")


def test_a_stored_reason_with_a_number_is_worded_in_the_readers_language() -> None:
    """Regression: a series' end kept as "reached the target of 30 points" showed in English
    in every language when read back (``/tora games``): a reason with a number is no
    message id of its own; it is found as its message with the number in it."""
    from bot.i18n import kept, word
    from rules.tora.endings import target_outcome

    outcome = target_outcome([31, 12], 30)
    assert outcome is not None
    stored = str(outcome.reason)  # what the match's record keeps
    with speaking("de"):
        assert word(kept(stored)) == "Ziel von 30 Punkten erreicht"
        assert word(kept("resignation")) == "Aufgabe"
        assert word(kept("a reason nobody wrote 7 times")) == "a reason nobody wrote 7 times"
    assert word(kept(stored)) == stored


def test_boards_left_out_of_a_japanese_round_post_are_not_counted_as_people() -> None:
    """A round's post counts the boards it leaves out ("...and 12 more"); Japanese counted
    them with 人, the counter for people. The same line counts standings rows: 件 (items)
    suits both."""
    from bot.service.texts import clipped

    boards = [(f"board {n}: a long line naming its two players " * 3, True) for n in range(60)]
    with speaking("ja"):
        text = clipped("round 1", boards)
    left = text.rsplit("\n", 1)[-1]
    assert left.startswith("...ほか") and left.endswith("件"), left
