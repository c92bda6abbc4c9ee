"""One word per concept in each catalog: a player reads the same term for the same thing in
every message, button and command of their language. Where two words had grown for one
concept, a player could not tell whether they named one thing or two: the French "annulée"
of an aborted match was also an admin's cancellation, the Japanese setup was 準備 on one
message and 配置 on the next, the Japanese plan 予定 in a message but 予約 in its command."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from test_i18n import CODE_SPAN, TRANSLATED

from bot.app.buttons import VERBS
from bot.app.planning import PLAN_BUTTONS
from bot.app.playing import BUTTONS as PANEL_BUTTONS
from bot.i18n.catalogs import TEMPLATE, po_path, read

# Notation quoted in a text ('Swallow drop 4d', 'build c6'), not an apostrophe ("Monkey's")
NOTATION = re.compile(r"(?<!\w)'[^']*'(?!\w)")
# A player's abort (its command's texts also say "call the match off")
ABORT = r"\babort|\bcall the match off"
# The round of turns before which a player may abort (a tournament's round is another)
FIRST_ROUND = r"first round (?:is|was) complete"
# An admin's cancellation of a match or of one game (a tournament's or an event's
# cancellation is not a match's, and has no abort to be told from)
MATCH_CANCELLED = r"cancels? a match|(?:match|game) \{\w+\} was cancelled|cancelled by an admin,"
# A drop of ToriShogi (a plan "dropped" is another word)
SHOGI_DROP = r"\bdrops?\b|\bdropped (?:on|a)\b"
# TORA's two boards
BOARD_SIZE = r"\b(?:long|short)[- ]board"
# R28's reset of a series (a Torii tile's reset is another)
R28_RESET = r"^(?!.*\btiles?\b).*\breset\b"
# A rated game or match (a rated result, or a match "rated on the game's ladder", is no game)
RATED_MATCH = r"\brated (?:\{ladder\} ladder )?(?:games?|match(?:es)?|one)\b"
# A player's withdrawal from a tournament (辞退 is a challenge's decline in Japanese)
WITHDRAWAL = r"\bwithdr[ae]w(?:n|als?|ing|s)?\b"
# A direct message from the bot, which the English also calls a DM or a private message
DIRECT_MESSAGE = r"\bDMs?\b|direct message|private message"
# An Assassin's search (R41)
ASSASSIN_SEARCH = r"\bsearch(?:es|ed|ing)?\b"
# A Cannon made ready to fire, which must not read as a staged action
CANNON_READY = r"\b(?:un)?read(?:y|ied|ies)\b"
# (language, the concept in the English, the one word its translation uses (empty: a word
# a sentence may leave implied), the words it grew beside that one, which the translation of
# that concept must not use)
TERMS = [
    ("fr", ABORT, r"interromp", r"annul"),
    ("fr", r"\bsetups?\b", r"préparation", r"placement|mise en place|déploiement"),
    ("fr", r"\bclocks?\b", r"pendule", r"horloge"),
    ("fr", r"\bundo\b", r"défai", r"annul"),
    ("fr", BOARD_SIZE, r"plateau (?:long|court)", r"(?:grand|petit|long|court) plateau"),
    ("fr", r"home edge", r"ligne de départ", r"bord de départ"),
    ("fr", r"\breplays?\b", r"rediffusion|revoi|revu", r"\breplay"),
    ("fr", R28_RESET, r"réinitialis", r"remise"),
    ("fr", FIRST_ROUND, r"tour de table", r"ronde|manche"),
    ("fr", r"\bbuil(?:t|ds|ding)\b|(?<!^)\bbuild\b", r"bâti", r"construi"),
    ("fr", r"\btournaments?\b|\bevents?\b", r"", r"événement"),
    ("fr", DIRECT_MESSAGE, r"message", r"\bDMs?\b"),
    ("fr", r"\bsubstitutes?\b", r"remplaçant", r"suppléant"),
    ("fr", r"\bratings?\b", r"\bcotes?\b", r"\bclassements? (?:stable|le plus|remis|de la)"),
    ("fr", ASSASSIN_SEARCH, r"fouill", r"recherch"),
    ("fr", CANNON_READY, r"prêt|prépar", r"\bprépar\w*\b(?!(?:-le)? à tirer)"),
    ("fr", r"\bplan(?:s|ned)?\b", r"", r"prépar"),
    ("fr", r"\brated opponent", r"partie classée", r"adversaire classé"),
    ("fr", r"\bresum", r"relan", r"\brepr(?!endre un tour)"),
    ("fr", r"\btakebacks?\b|\btaken back and\b", r"repri|repren", r"retir|annul"),
    ("fr", SHOGI_DROP, r"parachut", r"\bpos[eéa]"),
    ("fr", r"\bstag(?:e|ed|es|ing)\b", r"", r"prév"),
    ("de", r"\bbuttons?\b", r"Knopf|Knöpf", r"Button"),
    ("ja", r"\bsetups?\b", r"配置", r"準備"),
    ("ja", r"\bplans?\b|\bplanned repl", r"予約", r"予定|プラン|計画"),
    ("ja", r"\bforfeit", r"不戦", r"没収"),
    ("ja", r"\bturns?\b", r"", r"ターン"),
    ("ja", CANNON_READY, r"砲撃準備", r"(?<!砲撃)準備"),
    ("ja", ASSASSIN_SEARCH, r"捜索", r"探索"),
    ("ja", r"\btiers?\b", r"ティア", r"段階"),
    ("ja", r"\bmissed turns?\b|\bturns? missed\b", r"", r"見逃"),
    ("ja", DIRECT_MESSAGE, r"DM|ダイレクトメッセージ", r"個人メッセージ"),
    ("ja", r"\bdecid|\bdecision", r"決", r"判断"),
    ("ja", FIRST_ROUND, r"一巡", r"ラウンド"),
    ("ja", r"\bmatch(?:es)?\b", r"", r"試合"),
    ("ja", r"\btournaments?\b|\bevents?\b", r"", r"トーナメント|イベント"),
    ("ja", r"\bcasual\b", r"非レート戦", r"非公式|レート外|非レーティング"),
    ("ja", RATED_MATCH, r"レート戦", r"レーティング対"),
    ("ja", WITHDRAWAL, r"棄権", r"辞退"),
    ("ja", BOARD_SIZE, r"長盤|短盤", r"長い盤|短い盤"),
    ("ja", r"home edge", r"自陣の端", r"本拠"),
    ("ja", r"\bpowers?\b", r"能力|powers", r"(?<!能)力"),
    ("ja", r"\bstag(?:e|ed|es|ing)\b", r"", r"仮置き|選ばれ"),
    ("ja", ABORT, r"中止", r"打ち切|取り消"),
    ("ja", MATCH_CANCELLED, r"取り消", r"中止"),
]


def own_words(english: str) -> str:
    """``english`` without its commands, placeholders and quoted notation ('build c6')."""
    return NOTATION.sub(" ", CODE_SPAN.sub(" ", english))


def entries(catalog: Catalog, concept: str, flags: int = re.IGNORECASE) -> list[tuple[str, str]]:
    """Each (English, translation) of ``catalog`` whose English names ``concept`` in its own
    words (not in a command, notation or placeholder, which stay as they are)."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if any(re.search(concept, own_words(text), flags) for text in ids):
            found.extend((ids[0], CODE_SPAN.sub(" ", text)) for text in strings)
    return found


@pytest.mark.parametrize(
    ("code", "concept", "term", "others"),
    TERMS,
    ids=[f"{code}:{others}" for code, _c, _t, others in TERMS],
)
def test_each_concept_has_one_word_in_the_catalog(
    code: str, concept: str, term: str, others: str
) -> None:
    """Every message naming the concept uses its one word, and none of the others."""
    found = entries(read(po_path(code), code), concept)
    assert found
    astray = [
        (english, text)
        for english, text in found
        if not re.search(term, text, re.IGNORECASE) or re.search(others, text, re.IGNORECASE)
    ]
    assert astray == []


def english_labels_left(code: str) -> list[tuple[str, str]]:
    """Each (English, translation) of ``code``'s catalog that names a button by its English
    label where that button shows a translated one."""
    catalog = read(po_path(code), code)
    found = []
    for english in {label for label, _style in VERBS.values()}:
        shown = catalog.get(english)
        if shown is None or shown.string == english:
            continue
        named = re.compile(rf"(?<![\w-]){re.escape(english)}(?![\w-])")
        found += [
            (message_id, text)
            for message_id, text in entries(catalog, named.pattern, flags=0)
            if named.search(text)
        ]
    return found


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_button_named_in_a_text_is_named_by_its_own_label(code: str) -> None:
    """A text that sends the player to a button names it as the button shows it: the French
    and Japanese Activity told a player to press « Play » / Play on a match whose button
    reads « Jouer » / 「指す」."""
    assert english_labels_left(code) == []


# Where French says « match »: a chapter 10 tournament's match of four games, which the
# tournament's own texts tell from each of its games (« partie »)
SERIES = ("bot/tournament/", "bot/app/tournaments.py")


def test_a_french_match_is_a_partie_outside_a_tournaments_series() -> None:
    """The bot's match is « partie » in French; five messages called it « match » (the
    missing thread permission, the Spirit's power), the word of a tournament's series."""
    astray = [
        (message.id, message.string)
        for message in read(po_path("fr"), "fr")
        if message.id
        and re.search(r"\bmatchs?\b", CODE_SPAN.sub(" ", str(message.string)))
        and not all(where.startswith(SERIES) for where, _line in message.locations)
    ]
    assert astray == []


# Every button a text may send the player to: the posts' and answers', the Play panel's and
# the plan panel's (the web page's own controls share their labels' messages)
LABELS = sorted(
    {label for buttons in (VERBS, PLAN_BUTTONS, PANEL_BUTTONS) for label, _ in buttons.values()},
    key=len,
    reverse=True,
)


def sent_to() -> dict[str, str]:
    """The button a text means by "the <Word> button": the shortest label that word begins
    ("the Play button" is Play, not Play this; "the Away button" is Away for a day)."""
    return {label.split()[0]: label for label in LABELS}


def buttons_named_otherwise(code: str) -> list[tuple[str, str]]:
    """Each (English, translation) of ``code``'s catalog where the English sends the player
    to "the <Word> button" (the first word of a button's label) and the translation does not
    name that button by its translated label."""
    catalog = read(po_path(code), code)
    found = []
    for word, english in sent_to().items():
        shown = catalog.get(english)
        if shown is None:
            continue
        named = rf"\bthe {re.escape(word)} button\b"
        found += [
            (message_id, text)
            for message_id, text in entries(catalog, named, flags=0)
            if shown.string not in text
        ]
    return found


@pytest.mark.parametrize("code", ["de", "es", "fr", "ja", "pt_BR"])
def test_a_button_sent_to_is_named_by_its_translated_label(code: str) -> None:
    """ "The Away button" of /tora away's refusal is the button "Away for a day": French said
    « le bouton Absent » and Japanese 不在ボタン, neither of which the player sees."""
    assert buttons_named_otherwise(code) == []


# "press Play", "Press Away for a day", "its Decline button", "a **Play** button": a label
# named otherwise than "the <Word> button" (``sent_to``)
PRESSED = re.compile(
    r"\b[Pp]ress(?:es)? \**(?P<pressed>[A-Z][\w +]*)"
    r"|(?P<word>\b(?!This\b|The\b)[A-Z]\w*)\** buttons?\b"
)


def label_named(match: re.Match[str]) -> str | None:
    """The button ``match`` (of ``PRESSED``) names (None: no button's label)."""
    if match["word"]:
        return sent_to().get(match["word"])
    return next((label for label in LABELS if match["pressed"].startswith(label)), None)


def buttons_pressed(english: str) -> tuple[list[str], list[str]]:
    """The labels ``english`` sends the player to in any of ``PRESSED``'s forms, and what
    it names so that is no button's label."""
    named, unknown = [], []
    for match in PRESSED.finditer(own_words(english)):
        label = label_named(match)
        if label is None:
            unknown.append(match[0])
        else:
            named.append(label)
    return named, unknown


def test_the_english_presses_only_buttons_there_are() -> None:
    """Every "press X" and "X button" of the English names a button's label as shown."""
    unknown = [
        (english, buttons_pressed(english)[1])
        for english, _text in entries(read(TEMPLATE), PRESSED.pattern, flags=0)
        if buttons_pressed(english)[1]
    ]
    assert unknown == []


@pytest.mark.parametrize("code", ["de", "es", "fr", "ja", "pt_BR"])
def test_a_button_pressed_by_name_is_named_by_its_translated_label(code: str) -> None:
    """ "Press Play", "use its Decline button", "a **Play** button" name a button as
    ``test_a_button_sent_to_is_named_by_its_translated_label`` has it, which reads "the
    <Word> button" alone: their translations name it by its translated label too."""
    catalog = read(po_path(code), code)
    astray = []
    for english, text in entries(catalog, PRESSED.pattern, flags=0):
        for label in buttons_pressed(english)[0]:
            shown = catalog.get(label)
            if shown is not None and shown.string and shown.string not in text:
                astray.append((english, label, text))
    assert astray == []


def test_ja_the_plan_panel_ends_their_turn_with_the_words_that_end_ones_own() -> None:
    """The plan panel's "Their turn is complete" read 相手の手番は以上, which no Japanese
    button says: it names the opponent's end of turn as the player's own button (手番終了)
    names theirs."""
    catalog = read(po_path("ja"), "ja")
    assert catalog["Their turn is complete"].string == "相手の" + catalog["End turn"].string


def test_ja_a_digest_line_against_an_unknown_opponent_names_them_once() -> None:
    """A digest's match whose opponent I no longer know read "(opponent: opponent)" in
    Japanese (相手 then 対戦相手): it now says the match is against the opponent, once."""
    english = "- Match {number} \u00b7 {game} against your opponent: {when} \u00b7 {link}"
    text = read(po_path("ja"), "ja")[english].string
    assert text.count("相手") == 1


# A ruling a message cites, which every catalog sets as the English does: " (R30)"
RULINGS_CITED = re.compile(r" \((?:\{rule\}|(?:(?:R|TS|TI)\d+(?:, )?)+)\)")


def japanese_texts() -> list[str]:
    """Every translation of the Japanese catalog, its code spans (typed notation) blanked."""
    texts = []
    for message in read(po_path("ja"), "ja"):
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            texts += [re.sub(r"`[^`]*`", " ", text) for text in strings]
    return texts


def test_ja_a_sentence_wraps_its_asides_in_full_width_parentheses() -> None:
    """Japanese text sets its asides in full-width parentheses, where the catalog had 112
    half-width ones beside 353 of those, after a stray space. Code spans keep theirs, as the
    notation they show is typed, and so does a ruling cited, " (R30)", as in the English."""
    assert [
        text for text in japanese_texts() if re.search(r"[()]", RULINGS_CITED.sub("", text))
    ] == []


def test_ja_a_ruling_cited_is_set_as_in_the_english() -> None:
    """Five Japanese messages cited their ruling in full-width parentheses, where 56 others
    and the English read " (R30)"."""
    assert [text for text in japanese_texts() if re.search(r"\uff08(?:R|TS|TI)\d", text)] == []
