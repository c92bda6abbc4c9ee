"""The application layer as one object, made once per bot by the wiring (``bot.build``) and
handed to every front end."""

from __future__ import annotations

from bot.ladder.desk import LadderDesk
from bot.service import MatchService
from bot.tournament.desk import TournamentDesk

from .actions import Actions, Threads
from .activity import Activities
from .board_links import BoardLinks
from .completions import Completions
from .costly import Limits
from .languages import Languages
from .links import Links
from .lookups import Lookups
from .notify_form import NotifyForms
from .planning import Planning
from .playing import Playing
from .setup_form import SetupForms
from .sweeping import Sweeping
from .tournaments import Tournaments


class App:
    """``actions`` (the match commands), ``time_off`` (away days, a player's settings),
    ``notify`` (the notifications form), ``languages`` (the language of an answer),
    ``playing`` (the Play panel), ``planning`` (a planned reply made with its pickers),
    ``setup`` (the setup
    form), ``lookups`` (records, replays, ladders, settings), ``tournaments``,
    ``completions`` (what typing an option offers), ``sweeping`` (which buttons stopped
    applying) and ``board_links`` (the web board's links where commands give them), sharing
    one set of allowances for costly commands (``limits``). ``links`` makes and checks the
    web board's links (None: the web board is off, and no link is given anywhere);
    ``activities`` whether Play launches the web board as a Discord Activity (``activity``:
    ``TORA_ACTIVITY=on``)."""

    def __init__(
        self,
        service: MatchService,
        ladder: LadderDesk,
        tournaments: TournamentDesk,
        threads: Threads,
        limits: Limits | None = None,
        links: Links | None = None,
        activity: bool = False,
    ) -> None:
        self.service = service
        self.limits = limits or Limits()
        self.links = links
        self.actions = Actions(service, threads, self.limits)
        self.time_off = self.actions.time_off
        self.notify = NotifyForms(service)
        self.languages = Languages(service)
        self.board_links = BoardLinks(self.actions, links)
        self.playing = Playing(self.actions, self.board_links)
        self.planning = Planning(self.actions)
        self.setup = SetupForms(self.actions)
        self.lookups = Lookups(self.actions, ladder, self.limits, links)
        self.tournaments = Tournaments(tournaments, self.limits)
        self.completions = Completions(self.actions, self.setup, self.tournaments)
        self.sweeping = Sweeping(service)
        self.activities = Activities(service.records, activity)
