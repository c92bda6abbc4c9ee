"""Writing a game's record (R50): its options as headers, then one line per finished turn,
for the judge, a player or the public (hidden actions as ``X ?`` until published, R44)."""

from __future__ import annotations

from collections.abc import Mapping

from ..records import JUDGE, write
from ..sides import Side
from .geometry import name
from .play import Play

ASSASSIN_HEADERS = ("ChallengerAssassin", "OppositionAssassin")


def write_record(
    game: Play, extra: Mapping[str, str] | None = None, audience: Side | str | None = JUDGE
) -> str:
    """A game's record (R50) for ``audience``: the judge's full record (default), a player's
    (their own Assassin in full), or the public one (None) with ``X ?`` for hidden actions
    whose record is not yet published (R44). Once a game is over all three are equal."""
    headers = _option_headers(game)
    for side, key in zip(Side, ASSASSIN_HEADERS, strict=True):
        if game.options.assassins and (audience in (JUDGE, side) or game.is_published(side, 1)):
            start = game.assassin_starts[side]
            headers[key] = name(start) if start else "none"
    for key, value in {**game.headers, **(extra or {})}.items():
        headers.setdefault(key, value)
    viewer = None if audience is None or isinstance(audience, str) else Side(audience)
    lines = []
    for turn in game.turns:
        texts = list(turn.texts)
        if audience != JUDGE:
            for index, event in enumerate(turn.events):
                texts[index] = game.assassins.seen(event, viewer, turn.game).text
        lines.append(f"{turn.side.letter}: {' ; '.join(texts)}".rstrip())
    return write(headers, game.outcome(), lines)


def _option_headers(game: Play) -> dict[str, str]:
    options = game.options
    headers = {
        "Board": options.board,
        "ChallengerSetup": options.challenger_setup,
        "OppositionSetup": options.opposition_setup,
    }
    if options.terrain_map:
        headers["TerrainMap"] = game.terrain.text()
    elif options.terrain != "none":
        headers["Terrain"] = options.terrain
    if options.assassins:
        headers["Assassins"] = "on"
    if options.board == "long":
        headers["ChallengerRuler"], headers["OppositionRuler"] = options.rulers
    if options.target:
        headers["Target"] = str(options.target)
    return headers
