"""py4swiss's round-completion check answered without its matcher when a pairing is found
(bot/tournament/dutch_validity.py): the same answer as the library's on random graphs, dense
and sparse, with boards fixed (stale ones too, as after a collapsed bracket), and every
pairing it finds a real one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from py4swiss.engines.common import (
    ColorPreference,
    ColorPreferenceSide,
    ColorPreferenceStrength,
    Float,
)
from py4swiss.engines.dutch.criteria.absolute import C2
from py4swiss.engines.dutch.player import Player
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from swiss_oracle import library_as_shipped

from bot.tournament import dutch_validity

SIDES = (ColorPreferenceSide.WHITE, ColorPreferenceSide.BLACK)


def random_player(number: int, rng: random.Random, count: int, density: float) -> Player:
    strength = rng.choice(tuple(ColorPreferenceStrength))
    side = ColorPreferenceSide.NONE if not strength else rng.choice(SIDES)
    others = [n for n in range(1, count + 1) if n != number]
    return Player(
        id=number,
        number=number,
        points=0,
        points_with_acceleration=0,
        color_preference=ColorPreference(side=side, strength=strength),
        color_difference=0,
        color_double=False,
        float_1=Float.NONE,
        float_2=Float.NONE,
        opponents={n for n in others if rng.random() > density},
        colors=[],
        bye_received=rng.random() < 0.3,
        top_scorer=rng.random() < 0.1,
    )


def random_event(seed: int, count: int, density: float) -> tuple[list[Player], set]:
    """Players (some opponents one-sided: the check reads them as the library does) and a few
    forbidden pairs."""
    rng = random.Random(seed)
    players = [random_player(n, rng, count, density) for n in range(1, count + 1)]
    forbidden = {(rng.randint(1, count), rng.randint(1, count)) for _ in range(rng.randint(0, 2))}
    return players, forbidden


def answers(players: list[Player], forbidden: set, fixed: list[tuple[int, int]]) -> list[bool]:
    """The check's answer before any board is fixed and after each one."""
    matcher = ValidityMatcher(players, forbidden)
    out = [matcher.is_valid_matching()]
    for i, j in fixed:
        matcher.finalize_match(players[i], players[j])
        out.append(matcher.is_valid_matching())
    return out


def library_answers(
    players: list[Player], forbidden: set, fixed: list[tuple[int, int]]
) -> list[bool]:
    with pytest.MonkeyPatch.context() as patch:
        library_as_shipped(patch)
        return answers(players, forbidden, fixed)


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(1, 16),
    density=st.sampled_from((0.2, 0.5, 0.8, 1.0)),
    seed=st.integers(0, 10**6),
    picks=st.lists(st.tuples(st.integers(0, 15), st.integers(0, 15)), max_size=6),
)
def test_the_check_answers_as_the_librarys_matcher(
    count: int, density: float, seed: int, picks: list[tuple[int, int]]
) -> None:
    players, forbidden = random_event(seed, count, density)
    fixed = [(i % count, j % count) for i, j in picks if i % count != j % count]
    assert answers(players, forbidden, fixed) == library_answers(players, forbidden, fixed)


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(1, 40),
    density=st.sampled_from((0.3, 0.7, 1.0)),
    seed=st.integers(0, 10**6),
)
def test_a_pairing_found_is_a_perfect_matching_of_the_librarys_graph(
    count: int, density: float, seed: int
) -> None:
    players, forbidden = random_event(seed, count, density)
    matcher = ValidityMatcher(players, forbidden)
    rng = random.Random(seed)
    first, second = rng.sample(range(count), 2) if count > 1 else (0, 0)
    if first != second and matcher.is_allowed_pair(*sorted((players[first], players[second]))):
        matcher.finalize_match(players[first], players[second])
    found = dutch_validity.perfect_matching(matcher)
    if found is None:
        return
    bye = len(players)
    vertices = [v for pair in found for v in pair]
    assert sorted(vertices) == list(range(len(players) + len(players) % 2))
    fixed = {tuple(sorted(pair)) for pair in matcher._fixed}
    with pytest.MonkeyPatch.context() as patch:
        library_as_shipped(patch)
        for i, j in found:
            low, high = sorted((i, j))
            if high == bye:
                assert C2.evaluate(players[low], players[low])
            elif any(v in pair for pair in fixed for v in (low, high)):
                assert (low, high) in fixed
            else:
                assert matcher.is_allowed_pair(players[low], players[high])


def test_the_search_the_isolated_and_the_librarys_matcher_all_answer_on_these_graphs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dense graphs are settled by the search alone; on sparse ones someone may have nobody
    left (no), or the library's matcher is asked, and answers yes on some and no on others."""
    library = dutch_validity._library_answer
    asked: list[bool] = []
    monkeypatch.setattr(
        dutch_validity,
        "_library_answer",
        lambda matcher: asked.append(library(matcher)) or asked[-1],
    )
    settled = alone = 0
    for seed in range(80):
        players, forbidden = random_event(seed, 12, 0.25 if seed % 2 else 1.0)
        matcher = ValidityMatcher(players, forbidden)
        found = dutch_validity.perfect_matching(matcher) is not None
        settled += found
        alone += dutch_validity._someone_alone(matcher)
        matcher.is_valid_matching()
    assert settled >= 30 and alone >= 5 and True in asked and False in asked


def test_is_allowed_pair_is_the_librarys_for_every_pair() -> None:
    players, forbidden = random_event(7, 30, 0.6)
    forbidden |= {(3, 4), (9, 2)}
    ours = ValidityMatcher(players, forbidden)
    with pytest.MonkeyPatch.context() as patch:
        library_as_shipped(patch)
        library = ValidityMatcher(players, forbidden)
        expected = [library.is_allowed_pair(a, b) for a in players for b in players if a != b]
    assert [ours.is_allowed_pair(a, b) for a in players for b in players if a != b] == expected
