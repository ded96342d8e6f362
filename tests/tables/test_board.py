"""The board: the TV's screen for the host token only, with no controls, the join QR while seats are free."""

import re

import pytest

from app.games import REGISTRY
from tests.boards import NAMED, SCRIPTS, has_board, set_up
from tests.conftest import bearer, create_via_api, csrf_token, join_via_api, page_text


@pytest.fixture
def table(client):
    table = create_via_api(client, "tracker", {"players": 2})
    table["ann"] = join_via_api(client, table, "Ann")["seat_token"]
    return table


def board(client, table, token=None):
    return client.get(f"/t/{table['code']}/board", headers=bearer(token or table["host_token"]))


def test_only_the_host_opens_the_board(client, table):
    assert board(client, table).status_code == 200
    assert board(client, table, table["ann"]).status_code == 403
    assert client.get(f"/t/{table['code']}/board").status_code == 403


def test_the_board_has_no_controls_and_shows_whose_turn_and_the_log(client, table):
    html = board(client, table).get_data(as_text=True)
    live = html[html.index('id="live"'):]
    assert "<form" not in live and "<button" not in live and "<input" not in live
    assert 'class="whose-turn whose-turn-board"' in live and "Round 1" in live
    assert "Ann sat down as Player 1." in page_text(board(client, table))


def test_the_join_qr_sits_on_the_board_while_seats_are_free_and_comes_back_on_request(client, table):
    assert "qr-frame" in board(client, table).get_data(as_text=True)
    join_via_api(client, table, "Bo")
    assert "qr-frame" not in board(client, table).get_data(as_text=True)
    host = client.post("/new/tracker", data={"csrf_token": csrf_token(client, "/new/tracker"), "players": "1"})
    code = re.search(r"/t/([A-Z0-9]{5})", host.headers["Location"]).group(1)
    key = re.search(r'class="join-key">([^<]+)<', client.get(f"/t/{code}").get_data(as_text=True)).group(1)
    join_via_api(client, {"code": code, "join_key": key.replace(" ", "")}, "Cy")
    assert "qr-frame" not in client.get(f"/t/{code}/board").get_data(as_text=True)
    shown = client.post(f"/t/{code}/board/qr", data={"csrf_token": csrf_token(client, f"/t/{code}"), "show": "1"})
    assert shown.status_code == 303
    assert "qr-frame" in client.get(f"/t/{code}/board").get_data(as_text=True)
    assert "Take the QR code off the board" in page_text(client.get(f"/t/{code}"))
    client.post(f"/t/{code}/board/qr", data={"csrf_token": csrf_token(client, f"/t/{code}"), "show": "0"})
    assert "qr-frame" not in client.get(f"/t/{code}/board").get_data(as_text=True)


def test_a_finished_game_shows_its_end_on_the_board_not_the_qr(client, table):
    client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"]))
    html = board(client, table).get_data(as_text=True)
    assert "qr-frame" not in html and "The game has ended." in page_text(board(client, table))


def test_the_boards_live_region_is_the_board_for_the_host_only(client, table):
    region = client.get(f"/t/{table['code']}/live?screen=board", headers=bearer(table["host_token"]))
    assert 'class="live board"' in region.get_data(as_text=True)
    phone = client.get(f"/t/{table['code']}/live?screen=board", headers=bearer(table["ann"]))
    assert 'class="live board"' not in phone.get_data(as_text=True) and phone.status_code == 200


def api_call(client):
    """The JSON API through the test client, for tests/boards.py's scripts; a refusal fails with its sentence."""
    def request(path: str, body: dict | None = None, token: str | None = None) -> dict:
        headers = bearer(token) if token else {}
        response = client.get(path, headers=headers) if body is None else client.post(path, json=body, headers=headers)
        assert response.status_code < 300, (path, body, response.get_json())
        return response.get_json()
    return request


# What each board says mid-game (tests/boards.py's scripts), in the game's words.
MID_GAME = {
    "tracker": ["Round", "Doom", "2d6 for the basement"],
    "directors-cut": ["The Second Night", "Guard 2: roll your move (d8).", "Guards alive: 3 of 4",
                      "Golden Freddy rolled 3 on d12 (real die): nothing happens."],
    "night-of-frights": ["<strong>Bonnie</strong>'s turn", "3 of 4 Action tokens", "Scare Tracker",
                         "Last capture attempt: Freddy, space 3, drew 3 from the real bag",
                         "All Miss: they go back into the bag."],
    "flipside": ["Turn 1 · Ann", 'class="fsb-health-value">16<', "Last fight: Ann attacked Bo with 3/2."],
}


@pytest.mark.parametrize("slug", [slug for slug in REGISTRY if has_board(slug)])
def test_each_games_board_names_its_parts_in_the_games_words_with_no_control(client, slug):
    table = set_up(api_call(client), slug, "mid")
    html = page_text(board(client, table))
    live = html[html.index('id="live"'):]
    assert not re.search(r"<(form|button|input|select|textarea)\b", live)
    named = set(re.findall(r'data-board="([a-z-]+)"', live))
    assert NAMED.get(slug, set()) <= named and named, named
    for words in MID_GAME.get(slug, []):
        assert words in live, words
    assert "qr-frame" in live  # a seat is still free


@pytest.mark.parametrize("slug", [slug for slug in REGISTRY if has_board(slug) and SCRIPTS.get(slug, {}).get("end")])
def test_a_game_the_rules_decided_shows_its_result_on_the_board_not_the_qr(client, slug):
    table = set_up(api_call(client), slug, "finished")
    state = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).get_json()
    assert state["status"] != "finished" and state["outcome"]  # decided by the rules; the host hasn't ended it
    html = page_text(board(client, table))
    assert "qr-frame" not in html and state["outcome"]["text"] in html and "board-result" in html
    assert 'class="fsb-tag">turn<' not in html  # nobody's turn once it is over
