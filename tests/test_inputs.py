"""Numbers are ASCII digits in range, JSON nests at most 32 deep: the inputs that gave 500s are clear 4xx now."""

from urllib.parse import quote

import pytest

from app.inputs import JSON_DEPTH_MAX, json_depth
from app.reading import NotAWholeNumber, quoted, whole_number, whole_or_none
from tests.conftest import any_csrf_token, bearer, create_via_api, join_via_api, page_text, snapshot


@pytest.mark.parametrize("raw,value", [("7", 7), (" 12 ", 12), (0, 0), ("+3", 3), ("999999999", 999_999_999)])
def test_whole_numbers_are_ascii_digits(raw, value):
    assert whole_number(raw) == value


@pytest.mark.parametrize("raw", ["²", "٣", "１", "1e3", "1.0", 1.0, float("nan"), True, None, [], "", "-1", -1,
                                 "1000000000", 10**9, "0x10", "1_000", "١٢"])
def test_everything_else_is_not_a_whole_number(raw):
    with pytest.raises(NotAWholeNumber):
        whole_number(raw)
    assert whole_or_none(raw) is None


def test_negative_numbers_only_where_allowed():
    assert whole_number("-5", minimum=-10) == -5
    with pytest.raises(NotAWholeNumber):
        whole_number("-11", minimum=-10)


def test_json_depth_skips_brackets_inside_strings():
    assert json_depth('{"a": [1, {"b": "[[[[[[["}]}') == 3
    assert json_depth(b"[]") == 1 and json_depth("7") == 0
    assert json_depth("[" * 5000 + "]" * 5000) == 5000


@pytest.fixture
def table(client):
    return create_via_api(client, "tracker", {"players": 2})


def test_unicode_digits_in_every_number_the_issue_found_are_a_4xx(client, app, table):
    """The requests that answered 500 before: "²" in a query, a header, a JSON field, a form and the calculator."""
    code, host = table["code"], bearer(table["host_token"])
    seat = join_via_api(client, table, "Ann")
    token = any_csrf_token(client)
    calls = {
        "log before": lambda: client.get(f"/api/tables/{code}/log?before=²", headers=host),
        "log limit": lambda: client.get(f"/api/tables/{code}/log?limit=²", headers=host),
        "If-Match": lambda: client.post(f"/api/tables/{code}/actions", json={"type": "next-round"},
                                        headers=bearer(seat["seat_token"]) | {"If-Match": "²"}),
        "jump seq": lambda: client.post(f"/api/tables/{code}/jump", json={"seq": "²"}, headers=host),
        "players": lambda: client.post("/api/tables", json={"game": "tracker", "options": {"players": "²"}}),
        "calculator": lambda: client.post("/crystal-lake/score", data={"csrf_token": token, "pan": "²"}),
    }
    for name, call in calls.items():
        before = snapshot(app)
        response = call()
        assert 400 <= response.status_code < 500, (name, response.status_code)
        assert snapshot(app) == before, name
    page = client.get(f"/t/{code}/log?before=²")  # a page hint that doesn't parse is ignored, not a crash
    assert page.status_code in (200, 403)
    assert client.get(f"/t/{code}/live?seat=²", headers=host).status_code == 200
    client.set_cookie("crystal_lake_bag", "²." * 7 + "1")
    assert client.get("/crystal-lake/score").status_code == 200


@pytest.mark.parametrize("url", ["/api/tables", "/api/crystal-lake/score", "/api/flipside/deck"])
def test_deeply_nested_json_is_a_400_sentence(client, app, url):
    before = snapshot(app)
    response = client.post(url, data="[" * 5000 + "]" * 5000, content_type="application/json")
    assert response.status_code == 400
    assert f"more than {JSON_DEPTH_MAX} deep" in response.get_json()["error"]
    assert snapshot(app) == before


def test_a_move_nested_as_deep_as_allowed_is_read_and_judged_by_the_rules(client, table):
    seat = join_via_api(client, table, "Ann")
    nested = {"type": "next-round", "note": [[[["deep"]]]]}
    response = client.post(f"/api/tables/{table['code']}/actions", json=nested, headers=bearer(seat["seat_token"]))
    assert response.status_code == 422 and "note" in page_text(response)


@pytest.mark.parametrize("raw,shown", [
    ("chess", "'chess'"),
    ("\u200b", "'[invisible character U+200B]'"),
    ("a\x07b", "'a[control character U+0007]b'"),
    ("\u202e\u202e", "'[2 invisible characters U+202E]'"),
    ("no\u00a0break", "'no[unusual space U+00A0]break'"),
    ("\u2028", "'[line separator U+2028]'"),
    ("\ud800", "'[broken character U+D800]'"),
    ("two  spaces", "'two  spaces'"),
    ("x" * 41, "'" + "x" * 40 + "…'"),
    (7, "'7'"),
])
def test_quoted_names_what_a_player_cannot_see_instead_of_a_python_escape(raw, shown):
    assert quoted(raw, 40) == shown


@pytest.mark.parametrize("raw,name", [("\u200b", "[invisible character U+200B]"),
                                      ("\x07", "[control character U+0007]")])
def test_a_refusal_quotes_an_invisible_or_control_character_by_name(client, raw, name):
    """repr() answered "There is no game '\\u200b'…": Python's escape, which a player can't read."""
    created = client.post("/api/tables", json={"game": raw})
    assert created.status_code == 422 and f"Unknown game '{name}';" in created.get_json()["error"]
    field = client.post("/api/tables", json={"game": "tracker", raw: 1})
    assert field.status_code == 400 and f"Unknown field '{name}';" in field.get_json()["error"]
    option = client.post("/api/tables", json={"game": "tracker", "options": {raw: 1}})
    assert option.status_code == 422 and f"Unknown option '{name}';" in option.get_json()["error"]
    code = client.get(f"/api/tables/{quote(raw)}")
    assert code.status_code == 404 and f"There is no table with the code '{name}'." in code.get_json()["error"]
    for path in ("/api/plays", "/history"):
        history = client.get(f"{path}?game={quote(raw)}")
        text = history.get_json()["error"] if history.is_json else page_text(history)
        assert history.status_code == 400 and f"There is no game '{name}' in the history." in text
    table = create_via_api(client, "tracker", {"players": 2})
    seat = client.post(f"/api/tables/{table['code']}/join", json={"name": "Zed", "key": table["join_key"], "seat": raw})
    assert seat.status_code == 404 and f"This table has no seat '{name}'." in seat.get_json()["error"]


def test_dice_notation_refused_with_an_invisible_character_names_it():
    from app.dice import DiceError, parse

    with pytest.raises(DiceError, match=r"^'2d6\[invisible character U\+200B\]' is not dice notation\."):
        parse("2d6\u200b")
