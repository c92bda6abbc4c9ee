"""The application layer every front end stands on (the Discord adapter ``bot.discord``; a
web board and a Discord Activity are to come): the commands' logic, the Play panel's menus
and steps, the setup form's layout, look-ups, the allowances of costly commands, the bounds
and reading of options, and which buttons stopped applying. It takes a caller (``Caller``:
who and where) and answers with plain data (``Answer``: text, images, buttons as verbs and
stamps, whether private; ``Panel`` and the setup form's ``layout``: menus as data), and it
reads and changes matches only through the match service. It knows nothing of Discord."""

from .answers import Answer, Unusable
from .app import App
from .callers import Caller

__all__ = ["Answer", "App", "Caller", "Unusable"]
