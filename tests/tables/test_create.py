"""Creating a table from the home page and the API: every game, every allowed player count, and the host screen."""

import re

import pytest

from app.tables import codes
from tests.conftest import bearer, create_via_api, csrf_token, page_text, snapshot
from tests.games.test_registry import PLAYER_COUNTS


def test_home_page_offers_the_five_games_and_a_join_form(client):
    page = client.get("/").get_data(as_text=True)
    for slug in ["survive-6am", "night-of-frights", "directors-cut", "flipside", "crystal-lake"]:
        assert f'href="/new/{slug}"' in page
    assert 'action="/join"' in page


def test_setup_form_shows_each_option_and_marks_assumed_values(client):
    page = client.get("/new/survive-6am").get_data(as_text=True)
    assert 'name="players"' in page and 'min="1"' in page and 'max="2"' in page
    assert 'name="power_die_faces"' in page and "5, 5, 10, 10, 15, 20" in page
    assert page.count('class="badge">assumed') >= 2


def test_unknown_game_setup_page_is_a_404_page(client):
    response = client.get("/new/monopoly")
    assert response.status_code == 404
    assert "There is no page at this address" in page_text(response)


def test_creating_from_the_form_gives_host_rights_and_the_host_screen(client):
    token = csrf_token(client, "/new/crystal-lake")
    response = client.post("/new/crystal-lake", data={"csrf_token": token, "players": "5", "mode": "basic",
                                                      "first_player": "2"})
    assert response.status_code == 303
    code = response.headers["Location"].rsplit("/", 1)[-1]
    assert codes.normalise(code, codes.CODE_LENGTH) == code
    host = client.get(f"/t/{code}")
    page = host.get_data(as_text=True)
    assert host.status_code == 200
    assert '<svg' in page and 'aria-label="QR code that opens the join page"' in page
    assert code in page and "Counselor 5" in page and "Counselor 6" not in page
    key = re.search(r'class="join-key">([A-Z0-9 ]+)<', page).group(1).replace(" ", "")
    assert f"http://192.168.1.50:8000/j/{code}?k={key}" in page


def test_a_refused_setup_form_shows_the_reason_and_keeps_the_hosts_values(client, app):
    token = csrf_token(client, "/new/night-of-frights")
    before = snapshot(app)
    response = client.post("/new/night-of-frights", data={"csrf_token": token, "characters": ["Foxy", "Chica"],
                                                           "event_deck": "12", "draw_table": "1,2,3,4,5,6,7,8,9,10"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "marked 3+ and 4 come out" in page
    assert 'value="Foxy" checked' in page and 'value="Bonnie" >' in page.replace("  ", " ")
    assert snapshot(app) == before


@pytest.mark.parametrize("slug", sorted(PLAYER_COUNTS))
def test_api_creates_every_game_with_every_allowed_player_count(client, slug):
    make, allowed = PLAYER_COUNTS[slug]
    for players in allowed:
        table = create_via_api(client, slug, make(players))
        assert len(table["seats"]) == players
        assert table["version"] == 1 and table["status"] == "open"
        assert table["join_url"].endswith(f"/j/{table['code']}?k={table['join_key']}")


@pytest.mark.parametrize("slug,options", [
    ("survive-6am", {"players": 0}), ("survive-6am", {"players": 3}),
    ("night-of-frights", {"characters": ["Foxy"]}),
    ("night-of-frights", {"characters": ["Foxy", "Chica", "Bonnie", "Freddy", "Foxy"]}),
    ("directors-cut", {"guards": 0}),
    ("directors-cut", {"night": "second", "guards": 4, "bonnie_player": True, "chica_player": True,
                       "freddy_player": True}),
    ("flipside", {"players": 1}), ("flipside", {"players": 5}),
    ("crystal-lake", {"players": 1}), ("crystal-lake", {"players": 7}),
])
def test_api_refuses_player_counts_outside_the_rulebook_and_stores_nothing(client, app, slug, options):
    before = snapshot(app)
    response = client.post("/api/tables", json={"game": slug, "options": options})
    assert response.status_code == 422
    assert response.get_json()["error"]
    assert snapshot(app) == before


def test_directors_cut_seven_players_from_the_fourth_night(client):
    table = create_via_api(client, "directors-cut", {"night": "fourth", "guards": 4, "bonnie_player": True,
                                                     "chica_player": True, "freddy_player": True})
    assert [seat["name"] for seat in table["seats"]] == ["Guard 1", "Guard 2", "Guard 3", "Guard 4", "Bonnie",
                                                         "Chica", "Freddy"]


def test_codes_are_unique_and_avoid_lookalike_characters(client):
    seen = set()
    for _ in range(30):
        code = create_via_api(client, "flipside")["code"]
        assert not set(code) & set("01OIL")
        seen.add(code)
    assert len(seen) == 30


def test_games_endpoint_documents_the_registry(client):
    games = client.get("/api/games").get_json()["games"]
    assert [game["slug"] for game in games][0] == "survive-6am"
    assert games[0]["options"][0] == {"key": "players", "label": "Players", "kind": "int", "default": 2,
                                      "source": "verified", "help": games[0]["options"][0]["help"], "min": 1,
                                      "max": 2}


def test_a_code_taken_at_the_last_moment_is_retried_not_a_500(client, app, monkeypatch):
    from app.tables import codes as table_codes

    first = create_via_api(client, "flipside")["code"]
    fresh = iter([first, first, "ZZZZZ"])
    monkeypatch.setattr(table_codes, "new_code", lambda: next(fresh))
    from app.extensions import db

    real_scalar = db.session.scalar
    monkeypatch.setattr(db.session, "scalar", lambda *a, **k: 0)  # the existence check misses the clash
    try:
        second = client.post("/api/tables", json={"game": "flipside"})
    finally:
        monkeypatch.setattr(db.session, "scalar", real_scalar)
    assert second.status_code == 201 and second.get_json()["code"] == "ZZZZZ"


def test_the_first_log_line_counts_the_seats_in_words(client):
    one = create_via_api(client, "tracker", {"players": 1})
    two = create_via_api(client, "tracker", {"players": 2})
    logs = [client.get(f"/api/tables/{table['code']}/log", headers=bearer(table["host_token"])).get_json()
            for table in (one, two)]
    assert [log["log"][-1]["text"].rsplit(", ", 1)[1] for log in logs] == ["1 seat.", "2 seats."]
