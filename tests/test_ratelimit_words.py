"""A rate limit's refusal says its allowance as a person would, in every shipped language."""

from __future__ import annotations

import pytest

from bot.i18n import speaking
from bot.service import RateLimited
from bot.service.ratelimit import RateLimit


def refusal(burst: int, every: float, language: str = "en") -> str:
    limit = RateLimit(burst, every)
    for _ in range(burst):
        limit.take("ann", now=0.0)
    with speaking(language), pytest.raises(RateLimited) as refused:
        limit.take("ann", now=0.0)
    return refused.value.message


def test_an_allowance_of_one_a_second_is_not_said_in_the_plural() -> None:
    text = refusal(5, 1.0)
    assert "then one every second." in text
    assert "seconds." not in text.split("Please")[0]


def test_an_allowance_of_several_seconds_and_of_a_fraction_are() -> None:
    assert "then one every 12 seconds." in refusal(5, 12.0)
    assert "then one every 0.5 seconds." in refusal(5, 0.5)


@pytest.mark.parametrize("language", ["de", "fr", "es", "ja", "pt_BR"])
def test_every_language_words_both_forms_without_english(language: str) -> None:
    for every in (1.0, 2.0):
        text = refusal(3, every, language)
        assert "{" not in text and "every" not in text and text != refusal(3, every)


def test_a_fraction_is_written_as_the_language_writes_it() -> None:
    assert "alle 0,5 Sekunden" in refusal(5, 0.5, "de")


def test_a_crowd_of_busy_users_costs_no_sweep_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 10,000 users the buckets grown back in full are forgotten; while that many are
    busy none are, and looking through all of them again at every command made each one
    cost as much as the crowd. Sweeps come only as often as the crowd doubles."""
    limit = RateLimit(5, 1.0)
    sweeps = []
    sweep = limit._forget_full
    monkeypatch.setattr(limit, "_forget_full", lambda now: sweeps.append(now) or sweep(now))
    for user in range(12_000):
        limit.take(user, 0.0)
    assert len(sweeps) == 1
    limit.take("late", 10.0)  # a sweep's while later: all full again, and forgotten
    limit.take("later", 10.0)
    assert len(sweeps) <= 2
