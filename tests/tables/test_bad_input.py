"""Bad input gets a clear 4xx with a sentence and leaves every stored row exactly as it was. Never a 500."""

import pytest

from tests.conftest import any_csrf_token, create_via_api, join_via_api, page_text, snapshot


@pytest.fixture
def table(client):
    return create_via_api(client, "survive-6am", {"players": 2})


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def assert_refused(app, call, status, message):
    before = snapshot(app)
    response = call()
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json() if response.is_json else {"error": page_text(response)}
    assert message in body["error"], body
    assert snapshot(app) == before
    return response


@pytest.mark.parametrize("body,status,message", [
    ({"game": "monopoly"}, 422, "Unknown game 'monopoly'"),
    ({"game": 7}, 422, "Unknown game '7'"),
    ({}, 422, "Say which game: one of survive-6am"),
    ({"game": "flipside", "options": {"players": 9}}, 422, "Players must be from 2 to 4, not 9"),
    ({"game": "flipside", "options": {"players": "9; DROP TABLE"}}, 422, "whole number"),
    ({"game": "flipside", "options": {"turbo": True}}, 422, "Unknown option 'turbo'"),
    ({"game": "flipside", "options": "players=2"}, 422, "Options must be an object"),
    ({"game": "flipside", "colour": "red"}, 400, "Unknown field 'colour'"),
])
def test_create_refuses_bad_games_and_options(client, app, body, status, message):
    assert_refused(app, lambda: client.post("/api/tables", json=body), status, message)


def test_create_refuses_a_body_that_is_not_json(client, app):
    assert_refused(app, lambda: client.post("/api/tables", data="game=flipside"), 400, "Send a JSON object")
    assert_refused(app, lambda: client.post("/api/tables", data="{", content_type="application/json"), 400,
                   "Send a JSON object")
    assert_refused(app, lambda: client.post("/api/tables", json=["flipside"]), 400, "Send a JSON object")


def test_an_oversize_body_is_refused_before_it_is_read(client, app, table):
    huge = {"name": "A" * 100_000, "key": table["join_key"]}
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=huge), 413, "far too much data")
    form = {"csrf_token": "x", "name": "B" * 100_000}
    assert_refused(app, lambda: client.post(f"/j/{table['code']}", data=form), 413, "far too much data")


@pytest.mark.parametrize("name,message", [
    ("", "Type your name"),
    ("    ", "Type your name"),
    (None, "Type your name"),
    (42, "Type your name"),
    ("N" * 25, "25 characters long; keep it to 24"),
    ("<script>alert(1)</script>", "not < > { } [ ] \\ ` or $"),
    ("Bob\x00", "not < > { } [ ] \\ ` or $"),
    ("{{ config }}", "not < > { } [ ] \\ ` or $"),
    ("\u0301", "Type your name"),  # accents with nothing under them: a blank-looking seat on every screen
    ("\u0301 \u0308\u200d", "Type your name"),
])
def test_join_refuses_bad_names(client, app, table, name, message):
    body = {"name": name, "key": table["join_key"]}
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=body), 422, message)


def test_join_form_refuses_a_script_in_a_name_and_shows_it_escaped(client, app, table):
    phone = app.test_client()
    token = any_csrf_token(phone)
    name = '<img src=x onerror="alert(1)">'
    response = assert_refused(app, lambda: phone.post(f"/j/{table['code']}", data={
        "csrf_token": token, "k": table["join_key"], "name": name, "seat": "1"}), 422, "not < > { }")
    assert "<img src=x" not in response.get_data(as_text=True)
    assert "&lt;img src=x" in response.get_data(as_text=True)


def test_names_are_trimmed_and_a_name_with_an_ampersand_is_escaped_on_the_host_screen(client, app):
    token = any_csrf_token(client)
    created = client.post("/new/flipside", data={"csrf_token": token, "players": "2", "first_player": "1",
                                                 "deck_size": "40"})
    code = created.headers["Location"].rsplit("/", 1)[-1]
    key = client.get(f"/api/tables/{code}").status_code  # the browser has no bearer token: 401
    assert key == 401
    page = client.get(f"/t/{code}").get_data(as_text=True)
    join_key = page.split('class="join-key">')[1].split("<")[0].replace(" ", "")
    client.post(f"/j/{code}", data={"csrf_token": token, "k": join_key, "name": "  Tom   &   Jerry ", "seat": "1"})
    assert "Tom &amp; Jerry" in client.get(f"/t/{code}").get_data(as_text=True)


def test_join_refuses_a_duplicate_name_at_the_same_table(client, app, table):
    join_via_api(client, table, "Alex")
    body = {"name": "alex", "key": table["join_key"]}
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=body), 409,
                   "Someone called alex is already at this table")


@pytest.mark.parametrize("seat,status,message", [
    (3, 404, "This table has no seat '3'"),
    ("Green", 404, "This table has no seat 'Green'"),
    (0, 404, "no seat"),
    ([1], 404, "no seat"),
    (True, 404, "no seat"),
    (1.0, 404, "no seat"),
])
def test_join_refuses_seats_that_do_not_exist(client, app, table, seat, status, message):
    body = {"name": "Zed", "key": table["join_key"], "seat": seat}
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=body), status, message)


def test_join_refuses_a_seat_already_taken(client, app, table):
    join_via_api(client, table, "Alice", seat=1)
    body = {"name": "Bob", "key": table["join_key"], "seat": "Orange"}
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=body), 409,
                   "Orange is already taken by Alice")


def test_join_refuses_when_every_seat_is_taken(client, app, table):
    join_via_api(client, table, "Alice")
    join_via_api(client, table, "Bob")
    body = {"name": "Cy", "key": table["join_key"]}
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=body), 409,
                   "is full: all 2 seats are taken")


@pytest.mark.parametrize("key,message", [(None, "missing its key"), ("", "missing its key"),
                                         ("AAAAAAAA", "doesn't match"), (12345678, "doesn't match"),
                                         ("x" * 500, "doesn't match")])
def test_join_refuses_a_missing_or_wrong_key(client, app, table, key, message):
    body = {"name": "Mallory", "key": key}
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=body), 403, message)


def test_join_refuses_unknown_fields_and_a_non_boolean_spectator(client, app, table):
    base = {"name": "Zed", "key": table["join_key"]}
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=base | {"admin": True}), 400,
                   "Unknown field 'admin'")
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join", json=base | {"spectator": "yes"}),
                   400, "'spectator' must be true or false")


def test_unknown_table_codes_are_404_everywhere(client, app):
    for call in (lambda: client.get("/api/tables/ZZZZZ"),
                 lambda: client.post("/api/tables/ZZZZZ/join", json={"name": "A", "key": "AAAAAAAA"}),
                 lambda: client.post("/api/tables/%3Cb%3E/end")):
        assert_refused(app, call, 404, "There is no table with the code")


def test_forged_and_foreign_tokens_are_refused(client, app, table):
    other = create_via_api(client, "flipside")
    code = table["code"]
    assert_refused(app, lambda: client.get(f"/api/tables/{code}"), 401, "needs the host's or a seat's token")
    assert_refused(app, lambda: client.get(f"/api/tables/{code}", headers=auth("forged")), 401,
                   "doesn't open table")
    assert_refused(app, lambda: client.get(f"/api/tables/{code}", headers=auth(other["host_token"])), 401,
                   "doesn't open table")
    assert_refused(app, lambda: client.get(f"/api/tables/{code}", headers={"Authorization": "Basic abc"}), 401,
                   "Bearer TOKEN")


def test_a_freed_seats_token_stops_working(client, app, table):
    seat = join_via_api(client, table, "Alice")
    freed = client.post(f"/api/tables/{table['code']}/seats/1/free", headers=auth(table["host_token"]))
    assert freed.status_code == 200 and freed.get_json()["seats"][0]["occupied"] is False
    assert_refused(app, lambda: client.get(f"/api/tables/{table['code']}", headers=auth(seat["seat_token"])), 401,
                   "the host freed its seat")


def test_only_the_host_frees_seats_and_ends_the_game(client, app, table):
    seat = join_via_api(client, table, "Alice")
    for url in (f"/api/tables/{table['code']}/seats/1/free", f"/api/tables/{table['code']}/end"):
        assert_refused(app, lambda url=url: client.post(url, headers=auth(seat["seat_token"])), 403,
                       "Only the host can do that")


def test_freeing_a_free_seat_and_ending_twice_are_refused(client, app, table):
    host = auth(table["host_token"])
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/seats/2/free", headers=host), 409,
                   "Purple is already free")
    assert client.post(f"/api/tables/{table['code']}/end", headers=host).status_code == 200
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/end", headers=host), 410, "has ended")
    assert_refused(app, lambda: client.post(f"/api/tables/{table['code']}/join",
                                            json={"name": "Late", "key": table["join_key"]}), 410, "has ended")


def test_forms_without_a_csrf_token_are_refused(client, app, table):
    assert_refused(app, lambda: client.post("/new/flipside", data={"players": "2"}), 400,
                   "didn't come from Night Shift")
    assert_refused(app, lambda: client.post(f"/j/{table['code']}", data={"k": table["join_key"], "name": "A"}), 400,
                   "didn't come from Night Shift")


def test_wrong_methods_and_unknown_pages_are_sentences_not_traces(client):
    response = client.get("/api/tables")
    assert response.status_code == 405 and "can't be used that way" in response.get_json()["error"]
    page = client.get("/no/such/page")
    assert page.status_code == 404 and "There is no page at this address" in page_text(page)


def test_an_unreachable_database_is_a_503_sentence_not_a_trace(tmp_path):
    from app import create_app

    broken = create_app({"INSTANCE_PATH": tmp_path,
                         "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/missing-folder/nope.sqlite3"})
    client = broken.test_client()
    response = client.get("/api/tables/ABCDE")
    assert response.status_code == 503 and "can't reach its database" in response.get_json()["error"]
    page = client.get("/j/ABCDE?k=AAAAAAAA")
    assert page.status_code == 503 and "Nothing was changed" in page_text(page)


def test_dice_written_with_another_script_s_digits_are_refused_and_roll_nothing(client, app):
    """"٣d6" read as 3d6 used to roll (and use up a die of the table's committed sequence) or become a setup's dice."""
    assert_refused(app, lambda: client.post("/api/tables", json={"game": "tracker", "options": {"dice": "\u0663d6"}}),
                   422, "is not dice notation")
    tracker = create_via_api(client, "tracker", {})
    host = auth(tracker["host_token"])
    assert_refused(app, lambda: client.post(f"/api/tables/{tracker['code']}/actions", headers=host,
                                            json={"type": "roll", "dice": "\u0663d6"}), 422, "is not dice notation")
