"""Whatever bytes a request's body holds, the web board reads them into a JSON object or
refuses them with 400 or 413, and a field is what it should be or a 400: never a failure."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from bot.web.guard import MOST_BODY, Refusal, field_of, parse_body

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@given(st.binary(max_size=MOST_BODY + 10))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    try:
        body = parse_body(data)
    except Refusal as refusal:
        assert refusal.status in (400, 413) and refusal.message
    else:
        assert isinstance(body, dict)


@given(JSON)
def test_any_json_gives_its_fields_or_a_400(value: object) -> None:
    data = json.dumps({"stamp": value, "notation": value, "yes": value}).encode()
    body = parse_body(data) if len(data) <= MOST_BODY else {}
    for name, kind, most in (("stamp", int, 6), ("notation", str, 200), ("yes", bool, 0)):
        try:
            got = field_of(body, name, kind, most)
        except Refusal as refusal:
            assert refusal.status == 400 and name in refusal.message
        else:
            assert type(got) is kind


def test_deep_nesting_is_refused_not_a_crash() -> None:
    try:
        parse_body(b"[" * MOST_BODY)
    except Refusal as refusal:
        assert refusal.status == 400
