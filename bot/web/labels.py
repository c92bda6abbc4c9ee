"""The web pages' own words: what a page shows that no state holds (its buttons, headings,
statuses, the texts its script makes of a state's fields). The server sends them in the
page's language, so the pages' scripts hold no English a reader sees: each page carries the
table of its language (``table``: in a ``<script type="application/json" id="words">``
block, which the Content Security Policy lets be, as no script runs it), and a player page,
whose shell does not know its player yet, fetches its player's (``/api/words/<code>``) when
its state says another language.

A page fills ``{placeholders}`` itself. A text with a number has its forms by CLDR plural
category (``one``, ``few``, ``other``...), as the browser's ``Intl.PluralRules`` names them,
``{n}`` left for the page to fill."""

from __future__ import annotations

import string
from collections.abc import Callable
from functools import cache
from typing import Any

from babel import Locale

from bot.i18n import LOCALES, N_, _, ngettext, pgettext, speaking

# The page's words by key (the HTML's ``data-w*`` attributes and the scripts name them).
LABELS = {
    # the pages' titles and headings
    "title-play": N_("Your board · tora-bot"),
    "title-match": N_("Match · tora-bot"),
    # a page's title once it has read its match: the game and match, and whose turn it is
    "tab-match": N_("{game} match {match}"),
    "tab-title": N_("{match} · tora-bot"),
    "tab-your-turn": N_("▶ Your turn · {match} · tora-bot"),
    "tab-your-setup": N_("▶ Your setup · {match} · tora-bot"),
    "tab-to-play": N_("{name} to play · {match} · tora-bot"),
    # the front page (``/`` without the Activity) and the page of an address with nothing
    "title-home": N_("The web board · tora-bot"),
    "home-heading": N_("tora-bot's web board"),
    "home-what": N_(
        "This is the web board of tora-bot, a Discord bot hosting matches of TORA, ToriShogi "
        "and Torii."
    ),
    "home-how": N_(
        "Each match has its own page here. Open it from Discord: the “Match page” button on "
        "the bot's posts about a match shows it to anyone; a player's own board, where they "
        "play by clicking, opens with “Open the board” on the Play panel or in the message "
        "saying it is their turn."
    ),
    "title-missing": N_("Nothing here · tora-bot"),
    "nothing-here": N_("There is nothing at this address."),
    "missing-how": N_("Check the address, or open the match again from its link in Discord."),
    "home-link": N_("What this site is"),
    "your-board": N_("Your board"),
    "match": N_("Match"),
    "players": N_("Players"),
    "board": N_("Board"),
    "the-board": N_("The board"),
    "squares": N_("Squares"),
    "decisions": N_("Decisions"),
    "moves": N_("Moves"),
    "setup": N_("Setup"),
    # the legend of the squares' colours
    "role-to": N_("move"),
    "role-hit": N_("attack / fire"),
    "role-build": N_("build"),
    "role-drop": N_("drop"),
    "role-from": N_("in place"),
    "role-warn": N_("warning"),
    # the player's controls
    "cancel": N_("Cancel"),
    "undo": N_("Undo"),
    "end": N_("End turn"),
    "more": N_("Proposals and resigning"),
    "draw": N_("Offer a draw"),
    "pause": N_("Propose a pause"),
    "resume": N_("Resume the clock"),
    "reset": N_("Propose a reset"),
    "rewind": N_("Ask to take back your turn"),
    "resign": N_("Resign"),
    "resign-sure": N_("Resign this match? It cannot be taken back."),
    "resign-yes": N_("Yes, resign"),
    "resign-no": N_("No"),
    "accept": N_("Accept"),
    "decline": N_("Decline"),
    "take-back": N_("Take back"),
    # the plan mode
    "plan": N_("Plan a reply"),
    "piece": N_("Piece"),
    "action": N_("Action"),
    "plan-picture": N_("The board after the turns of the plan"),
    "plans": N_("Your plans"),
    "choose-piece": N_("Choose a piece"),
    "choose-action": N_("Choose an action"),
    "plan-add": N_("Add the action"),
    "step-done": N_("Their turn is complete"),
    "step-save": N_("Save the plan"),
    "step-undo": N_("Undo"),
    "step-new": N_("Start again"),
    "cancel-plan": N_("Cancel this plan"),
    "if-they-play": N_("If {opponent} plays: {actions}"),
    "you-reply": N_("You reply: {actions}"),
    # the replay and the board's tools
    "first": N_("First position"),
    "back": N_("Previous turn"),
    "forward": N_("Next turn"),
    "live": N_("The position now"),
    "flip": N_("Flip"),
    "zoom": N_("Zoom"),
    "flip-title": N_("See the board from the other side"),
    "flip-never": N_("This game's board is drawn one way only."),
    "turn-of": N_("Turn {turn} of {turns}"),
    "record": N_("Download the record"),
    "match-page": N_("Match page"),
    # the connection, in the footer
    "status-connecting": N_("connecting…"),
    "status-live": N_("live"),
    "status-reconnecting": N_("reconnecting…"),
    "status-gone": N_("this link no longer works"),
    "status-nothing": N_("nothing to follow"),
    "status-signing-in": N_("signing in with Discord…"),
    "status-signed-out": N_("not signed in"),
    # what the script makes of a state
    "you-play": N_("{title} · you play the {side}"),
    "watching": N_("{title} · watching"),
    "player": N_("{name} ({side})"),
    "player-setup": N_("{player} · {setup}"),
    "player-to-play": N_("{name} ({side}), to play"),
    "setup-done": N_("setup done"),
    "setup-choosing": N_("choosing"),
    "board-now": N_("The board: {summary}"),
    "board-after": N_("The board after turn {turn}"),
    "picked": N_("picked"),
    "with-warning": N_("{action} (warning: {warning})"),
    "final": N_("cannot be taken back: Undo takes back neither it nor what was staged before it"),
    "answer-field": N_("answer {field}"),
    "starts-here": N_("your {piece} starts here"),
    "on-square": N_("On {square}"),
    "your-turn": N_("Your turn: pick a piece, then where it goes."),
    "not-your-turn": N_("It is not your turn to act."),
    "setup-waiting": N_("Your setup is done; waiting for your opponent."),
    "field": N_("{field}: {prompt}"),
    "field-chosen": N_("{field}: {prompt} (chosen: {choice})"),
    "click-square": N_("Click a square on the board, or pick one here."),
    "paused": N_("Paused: the clock is stopped until a player resumes it."),
    "countdown": N_("{h}h {m}m {s}s"),
    "deadline": N_("Deadline {when} (in {countdown})"),
    # proposals, by kind
    "proposed-draw": N_("You proposed a draw; waiting for the answer."),
    "proposed-pause": N_("You proposed a pause; waiting for the answer."),
    "proposed-reset": N_("You proposed a reset; waiting for the answer."),
    "proposed-rewind": N_("You proposed to take back the last turn; waiting for the answer."),
    "proposed-other": N_("You proposed {kind}; waiting for the answer."),
    "proposes-draw": N_("Your opponent proposes a draw."),
    "proposes-pause": N_("Your opponent proposes a pause."),
    "proposes-reset": N_("Your opponent proposes a reset."),
    "proposes-rewind": N_("Your opponent proposes to take back the last turn."),
    "proposes-other": N_("Your opponent proposes {kind}."),
    # what went wrong, when the server says nothing
    "server-answered": N_("The server answered {status}."),
    "unreachable": N_("The server could not be reached; try again."),
    "unreachable-retry": N_(
        "The server could not be reached; the page tries again when it reconnects."
    ),
    "turn-ended": N_("That turn has ended."),
    "now-as-it-is": N_("{error} The page now shows the match as it is."),
    "too-many": N_("Too many requests: wait a few seconds."),
    "no-picture": N_("The board's picture could not be loaded."),
    "needs-link": N_("This page needs your private link: open the board again from Discord."),
    "sign-in-failed": N_("Signing in with Discord failed; open the board again."),
    "outside-discord": N_("This board opens inside Discord: press Play on the match there."),
    "discord-silent": N_("Discord did not answer the board: close it and open it again."),
    "allow-it": N_("The board needs to know who you are: open it again and allow it."),
}


def _plurals() -> dict[str, Callable[[int], str]]:
    """The texts with a number, each a function of it (``{n}`` stays for the page)."""
    return {
        "now-after": lambda n: ngettext("Now, after {n} turn", "Now, after {n} turns", n, n="{n}"),
        "wait-seconds": lambda n: ngettext(
            "Too many requests: wait {n} second.",
            "Too many requests: wait {n} seconds.",
            n,
            n="{n}",
        ),
    }


SAMPLES = 200  # numbers tried to find an example of each plural category


def side_words() -> dict[str, str]:
    """The sides as a page names its players' (``state.players[].side``): game terms."""
    return {
        "side-challenger": pgettext("side", "challenger"),
        "side-opposition": pgettext("side", "opposition"),
    }


@cache
def table(code: str) -> dict[str, Any]:
    """The page words of language ``code`` (a shipped one; English for another): its
    ``language`` (a BCP 47 tag, as ``<html lang>`` and ``Intl`` take it), its ``words`` by
    key and its ``plurals`` by key and CLDR category."""
    with speaking(code) as chosen:
        words = {key: _(text, **_kept(text)) for key, text in LABELS.items()} | side_words()
        rule = Locale.parse(chosen).plural_form
        plurals: dict[str, dict[str, str]] = {}
        for key, form in _plurals().items():
            forms = plurals[key] = {}
            for n in range(SAMPLES):
                forms.setdefault(rule(n), form(n))
    return {"language": tag(chosen), "words": words, "plurals": plurals}


def _kept(text: str) -> dict[str, str]:
    """Each placeholder of ``text`` as itself, for the page to fill."""
    fields = (name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name)
    return {name: "{" + name + "}" for name in fields}


def tag(code: str) -> str:
    """A catalog's code as a BCP 47 language tag (``pt_BR`` -> ``pt-BR``)."""
    return code.replace("_", "-")


def code_of(text: str) -> str | None:
    """The shipped language a page asks for by its tag (``pt-BR``), or None."""
    code = text.replace("-", "_")
    return code if code in LOCALES else None
