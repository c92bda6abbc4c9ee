"""The ladder listens to the match service's endings, as the tournaments do: a match played
as rated that finished with a result is rated as soon as its end is saved.

The rating is a transaction of its own, after the end's, so a crash or a failure in between
leaves a finished match unrated: ``Results.catch_up`` finds such matches, and the
``LadderRunner`` runs it on start (before the service starts) and at every tick. A match has
at most one result, checked in the rating's own transaction, so a match both heard ending
and caught up on is rated once."""

from __future__ import annotations

import logging

from bot.service import Clock, MatchService, SystemClock, Terms
from bot.service.phases import FINISHED, FORFEIT
from storage import Hosted, Store

from .errors import NotRated
from .results import Results

log = logging.getLogger(__name__)
WITH_A_RESULT = (FINISHED, FORFEIT)  # an abort or a cancellation ends a match without one


class Rating:
    """The ladder's listener to the match service's endings."""

    def __init__(self, store: Store, clock: Clock | None = None) -> None:
        self._results = Results(store, (clock or SystemClock()).now)

    async def ended(self, hosted: Hosted) -> None:
        """Rate a rated match that finished with a result. The match stands whatever
        happens here: a refusal is logged, and so is a failure (the catch-up rates it)."""
        if hosted.match_id is None or hosted.ending not in WITH_A_RESULT:
            return
        if not Terms.from_json(hosted.terms).rated:
            return
        try:
            await self._results.record_match(hosted.match_id)
        except NotRated as exc:
            log.info("match %d is not rated: %s", hosted.match_id, exc)
        except Exception:
            log.exception(
                "match %d finished but could not be rated now; the ladder's catch-up will",
                hosted.match_id,
            )


def listen(service: MatchService, store: Store, clock: Clock | None = None) -> Rating:
    """Subscribe the ladder to ``service``'s endings, where the bot is assembled (before
    the service starts, so that no ending goes unheard while it runs)."""
    rating = Rating(store, clock)
    service.on_ended(rating.ended)
    return rating
