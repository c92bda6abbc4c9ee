"""What the web board's routes share: the application layer's boards and seats, the private
links, the live events' hub, the rate limits, and the pages' files (``static/``: one HTML
shell per kind of page, its script and style; nothing from elsewhere), each shell served in
its reader's language with that language's page words (``labels``)."""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from aiohttp import web

from bot.app.boards import Boards
from bot.app.links import Links
from bot.app.seats import Seats
from bot.i18n import _, ngettext

from .events import Audience, Holds, Hub
from .guard import LANGUAGE, NO_STORE, Limits, Refusal, address
from .labels import code_of, table, tag
from .passes import HEADER, Passes

STATIC = Path(__file__).resolve().parent / "static"
FILE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,40}\.(?:js|css|html|png|svg)")
TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}
FILES_CACHE = "public, max-age=300"
# a file at the address of its build (``build_of``): what it holds never changes there
BUILT_CACHE = "public, max-age=31536000, immutable"
STATIC_ADDRESS = b'="/static/'
HTML_LANG = b'<html lang="en">'
HEAD_END = b"</head>"
# An element's text, an aria-label or alt just before its key, the page's title: each worded.
WORDED_TEXT = re.compile(rb'(<[a-z0-9]+ [^<>]*?data-w="([a-z0-9-]+)"[^<>]*>)[^<]*')
WORDED_ATTRIBUTE = re.compile(rb'(aria-label|alt)="[^"]*"( data-w-(?:label|alt)="([a-z0-9-]+)")')
TITLE = re.compile(rb"<title>[^<]*</title>(?=.*?data-title=\"([a-z0-9-]+)\")", re.DOTALL)


@cache
def build_of(static: Path) -> str:
    """A digest of the pages' files in ``static``: the build the shells name their files
    by (``/static/<build>/board.js``). Any file changed changes every address, so a browser
    never mixes one build's shell with another's modules, which it keeps for good (their
    imports are relative: they carry the build too)."""
    digest = hashlib.sha256()
    for path in sorted(static.iterdir()):
        if FILE_NAME.fullmatch(path.name) and path.is_file():
            digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


@cache
def page_html(path: Path, code: str) -> bytes:
    """The shell at ``path`` in language ``code``: its ``<html lang>``, its fixed texts
    worded (those its ``data-w*`` attributes name; the script words them again when the
    page switches language), the table of its page words in a JSON block its script reads
    (``<`` escaped: no text can end it), and its files named by their build (``build_of``)."""
    page = path.read_bytes()
    if HTML_LANG not in page or HEAD_END not in page:  # the shell changed: say so at once
        raise RuntimeError(f"{path.name} has no {HTML_LANG.decode()} or no {HEAD_END.decode()}")
    words = table(code)
    said = json.dumps(words, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    block = f'<script type="application/json" id="words">{said}</script>\n'.encode()
    page = worded(page, words["words"])
    page = page.replace(HTML_LANG, f'<html lang="{tag(code)}">'.encode(), 1)
    page = page.replace(STATIC_ADDRESS, f'="/static/{build_of(path.parent)}/'.encode())
    return page.replace(HEAD_END, block + HEAD_END, 1)


def worded(page: bytes, words: dict[str, str]) -> bytes:
    """``page`` with each text its attributes name in ``words`` (HTML-escaped)."""

    def said(key: bytes) -> bytes:
        return html.escape(words.get(key.decode(), key.decode())).encode()

    page = WORDED_TEXT.sub(lambda found: found.group(1) + said(found.group(2)), page)
    page = WORDED_ATTRIBUTE.sub(
        lambda found: found.group(1) + b'="' + said(found.group(3)) + b'"' + found.group(2), page
    )
    return TITLE.sub(lambda found: b"<title>" + said(found.group(1)) + b"</title>", page, 1)


@dataclass
class Site:
    boards: Boards
    seats: Seats
    links: Links
    hub: Hub
    limits: Limits
    passes: Passes | None = None  # an Activity's (None: no Activity)
    static: Path = STATIC
    _open: dict[str, int] = field(default_factory=dict)  # streams open per counted_as

    def counted_as(self, request: web.Request) -> str:
        """Whose allowances ``request`` spends (reads, actions, live streams): the Discord
        user of the Activity pass it carries (``user:<id>``), else its client address. A
        pass that does not hold or has expired is as none."""
        if self.passes is not None:
            user = self.passes.user_of(request.headers.get(HEADER, ""))
            if user is not None:
                return f"user:{user}"
        return address(request)

    def shell(self, name: str, code: str) -> web.Response:
        """A page's HTML shell in language ``code`` (its script reads what it shows from the
        address)."""
        answer = web.Response(body=page_html(self.static / name, code), content_type="text/html")
        answer.headers["Cache-Control"] = NO_STORE
        return answer

    async def front(self, request: web.Request) -> web.Response:
        """``/`` (without the Activity, which has it): what the board is and how to find a
        match's page, whose address only Discord's links give."""
        self.limits.take("files", self.counted_as(request))
        return self.shell("home.html", request[LANGUAGE])

    def missing(self, code: str) -> web.Response:
        """The page of an address with nothing at it, for a browser (``guard.browsing``), in
        language ``code``: where a match's address comes from."""
        answer = self.shell("missing.html", code)
        answer.set_status(404)
        return answer

    async def words(self, request: web.Request) -> web.Response:
        """``/api/words/<tag>``: the page words of a shipped language (``pt-BR``), for a
        page whose reader turned out to read another than its shell's."""
        self.limits.take("reads", self.counted_as(request))
        code = code_of(request.match_info["language"][:20])
        if code is None:
            raise Refusal(404, _("There is no such language."))
        answer = web.json_response(table(code))
        answer.headers["Cache-Control"] = FILES_CACHE
        return answer

    async def file(self, request: web.Request) -> web.Response:
        """``/static/<build>/<name>`` (as the shells name them: ``build_of``) or
        ``/static/<name>``: a file of the pages, by a plain name (no paths), under the fixed
        files' allowance (not the reads'). Kept for good at its build's address; at another
        build's (a page loaded before an upgrade asking for more) it is this build's, kept
        nowhere; without a build, for a few minutes."""
        self.limits.take("files", self.counted_as(request))
        name = request.match_info["name"]
        path = self.static / name
        if not FILE_NAME.fullmatch(name) or not path.is_file():
            raise Refusal(404, _("There is no such file."))
        answer = web.Response(body=path.read_bytes(), content_type=TYPES[path.suffix])
        build = request.match_info.get("build")
        if build is None:
            answer.headers["Cache-Control"] = FILES_CACHE
        else:
            answer.headers["Cache-Control"] = (
                BUILT_CACHE if build == build_of(self.static) else NO_STORE
            )
        return answer

    async def stream(
        self, request: web.Request, audience: Audience, holds: Holds | None = None
    ) -> web.StreamResponse:
        """An event stream for ``audience`` while ``holds`` says its reader may follow it
        (``Hub.serve``), a few at a time per client address (per Discord user for an
        Activity's page: ``counted_as``)."""
        where = self.counted_as(request)
        if self._open.get(where, 0) >= self.limits.streams:
            raise Refusal(429, self._too_many_streams(where), headers={"Retry-After": "10"})
        self._open[where] = self._open.get(where, 0) + 1
        try:
            return await self.hub.serve(request, audience, holds)
        finally:
            self._open[where] -= 1
            if not self._open[where]:
                del self._open[where]

    def _too_many_streams(self, where: str) -> str:
        """The refusal of one live stream too many for ``where`` (``counted_as``): an
        Activity's user's are counted as theirs, not as their address's."""
        if where.startswith("user:"):
            return ngettext(
                "Up to {n} live board is followed at once by one Discord user; close one "
                "and try again.",
                "Up to {n} live boards are followed at once by one Discord user; close one "
                "and try again.",
                self.limits.streams,
            )
        return ngettext(
            "Up to {n} live board is followed at once from one address; close one and try again.",
            "Up to {n} live boards are followed at once from one address; close one and try again.",
            self.limits.streams,
        )
