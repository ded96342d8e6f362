"""Joining from a phone: the key in the QR link, seats, rescanning, spectators, the host's seat controls."""

import re

from app.extensions import db
from app.models import Table
from tests.conftest import any_csrf_token, create_via_api, csrf_token, join_via_api, page_text, snapshot


def host_table(client, slug="survive-6am", **options):
    """A table created in `client`'s browser, so that browser holds host rights."""
    token = csrf_token(client, f"/new/{slug}")
    response = client.post(f"/new/{slug}", data={"csrf_token": token, **options})
    assert response.status_code == 303, page_text(response)
    code = response.headers["Location"].rsplit("/", 1)[-1]
    page = page_text(client.get(f"/t/{code}"))
    key = re.search(r'class="join-key">([A-Z0-9 ]+)<', page).group(1).replace(" ", "")
    return code, key


def join_form(phone, code, key, name, seat=None, watch=False):
    token = csrf_token(phone, f"/j/{code}?k={key}")
    data = {"csrf_token": token, "k": key, "name": name}
    if seat is not None:
        data["seat"] = str(seat)
    if watch:
        data["watch"] = "1"
    return phone.post(f"/j/{code}", data=data)


def test_join_page_offers_the_free_seats(client, phone):
    code, key = host_table(client, players="2")
    page = page_text(phone.get(f"/j/{code}?k={key}"))
    assert 'value="1"' in page and "Orange" in page and "Purple" in page
    assert 'name="name"' in page and 'maxlength="24"' in page


def test_a_phone_joins_and_the_host_screen_shows_it_in_the_seat(client, phone):
    code, key = host_table(client, players="2")
    response = join_form(phone, code, key, "Alice", seat=2)
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{code}/seats/2"
    seat_page = phone.get(f"/t/{code}/seat", follow_redirects=True)
    assert seat_page.request.path == f"/t/{code}/seats/2"
    assert "Purple" in page_text(seat_page) and "Alice" in page_text(seat_page)
    host = page_text(client.get(f"/t/{code}"))
    assert re.search(r"Purple</span>\s*<span class=\"seat-player\">Alice", host)


def test_rescanning_on_the_same_phone_returns_to_the_same_seat(client, phone):
    code, key = host_table(client, players="2")
    join_form(phone, code, key, "Alice", seat=2)
    again = phone.get(f"/j/{code}?k={key}")
    assert again.status_code == 302 and again.headers["Location"] == f"/t/{code}/seat"
    assert phone.get(f"/t/{code}/seat").headers["Location"] == f"/t/{code}/seats/2"


def test_the_join_key_is_required_and_checked(client, phone, app):
    code, key = host_table(client)
    before = snapshot(app)
    missing = phone.get(f"/j/{code}")
    assert missing.status_code == 403 and "missing its key" in page_text(missing)
    wrong = phone.get(f"/j/{code}?k=AAAAAAAA")
    assert wrong.status_code == 403 and "doesn't match this table" in page_text(wrong)
    token = any_csrf_token(phone)
    forged = phone.post(f"/j/{code}", data={"csrf_token": token, "k": "AAAAAAAA", "name": "Mallory"})
    assert forged.status_code == 403
    assert snapshot(app) == before


def test_the_home_page_join_form_accepts_what_people_type(client, phone):
    code, key = host_table(client)
    response = phone.get(f"/join?code={code.lower()}&key={key[:4].lower()}-{key[4:]}")
    assert response.status_code == 302 and response.headers["Location"] == f"/j/{code}?k={key}"
    mistyped = phone.get(f"/join?code={code}&key={key[:7]}", follow_redirects=True)
    assert mistyped.status_code == 403 and "doesn't match this table" in page_text(mistyped)


def test_unknown_and_malformed_codes_get_a_clear_page(phone):
    unknown = phone.get("/j/ZZZZZ?k=AAAAAAAA")
    assert unknown.status_code == 404 and "no table with the code ZZZZZ" in page_text(unknown)
    malformed = phone.get("/j/NOT-A-CODE-AT-ALL")
    assert malformed.status_code == 404 and "Codes have 5 letters" in page_text(malformed)
    assert phone.get("/join?code=%3Cscript%3E&key=x").status_code == 404


def test_an_expired_table_gets_a_clear_page(client, phone, app):
    code, key = host_table(client)
    with app.app_context():
        table = db.session.scalar(db.select(Table).where(Table.code == code))
        table.updated_at = table.updated_at.replace(year=table.updated_at.year - 1)
        db.session.commit()
    response = phone.get(f"/j/{code}?k={key}")
    assert response.status_code == 410 and "expired" in page_text(response)
    assert client.get(f"/api/tables/{code}").status_code == 410


def test_a_full_table_offers_watching_and_refuses_another_seat(client, phone, app):
    code, key = host_table(client, players="1")
    join_form(phone, code, key, "Alice")
    other = app.test_client()
    page = page_text(other.get(f"/j/{code}?k={key}"))
    assert "Every seat is taken" in page and "Just watch" in page
    before = snapshot(app)
    refused = join_form(other, code, key, "Bob", seat=1)
    assert refused.status_code == 409 and "already taken by Alice" in page_text(refused)
    assert snapshot(app) == before


def test_spectators_join_read_only(client, phone):
    code, key = host_table(client, players="1")
    response = join_form(phone, code, key, "Grandma", watch=True)
    assert response.status_code == 303
    page = page_text(phone.get(f"/t/{code}/seat"))
    assert "Watching as Grandma" in page and "Free seat" not in page
    assert phone.get(f"/t/{code}/seats/1").status_code == 403
    assert "Watching: Grandma" in page_text(client.get(f"/t/{code}"))


def test_a_finished_table_takes_no_more_players(client, phone, app):
    code, key = host_table(client)
    client.post(f"/t/{code}/end", data={"csrf_token": csrf_token(client, f"/t/{code}")})
    before = snapshot(app)
    response = phone.get(f"/j/{code}?k={key}")
    assert response.status_code == 410 and "has ended" in page_text(response)
    late = phone.post(f"/j/{code}", data={"csrf_token": any_csrf_token(phone), "k": key, "name": "Late"})
    assert late.status_code == 410
    assert snapshot(app) == before


def test_phones_cannot_open_the_host_screen_or_another_seat(client, phone, app):
    code, key = host_table(client, players="2")
    join_form(phone, code, key, "Alice", seat=1)
    stranger = app.test_client()
    assert stranger.get(f"/t/{code}").status_code == 403
    assert stranger.get(f"/t/{code}/qr.png").status_code == 403
    assert phone.get(f"/t/{code}").headers["Location"] == f"/t/{code}/seat"
    assert phone.get(f"/t/{code}/seats/2").status_code == 403
    assert phone.get(f"/t/{code}/qr.svg").status_code == 403


def test_the_host_frees_a_seat_and_its_phone_must_join_again(client, phone, app):
    code, key = host_table(client, players="2")
    join_form(phone, code, key, "Alice", seat=1)
    response = client.post(f"/t/{code}/seats/1/free", data={"csrf_token": csrf_token(client, f"/t/{code}")})
    assert response.status_code == 303
    gone = phone.get(f"/t/{code}/seat")
    assert gone.status_code == 200 and "The host freed your seat" in page_text(gone)  # a clean page, not an error
    assert phone.get(f"/t/{code}/seats/1").status_code == 403
    assert join_form(phone, code, key, "Alice", seat=1).status_code == 303


def test_a_phone_cannot_free_seats_or_end_the_game(client, phone, app):
    code, key = host_table(client, players="2")
    join_form(phone, code, key, "Alice", seat=1)
    token = any_csrf_token(phone)
    before = snapshot(app)
    for url in (f"/t/{code}/seats/1/free", f"/t/{code}/end"):
        response = phone.post(url, data={"csrf_token": token})
        assert response.status_code == 403 and "Only the host" in page_text(response)
    assert snapshot(app) == before


def test_the_host_seats_a_player_without_a_phone_and_plays_for_them(client):
    code, _ = host_table(client, players="2")
    response = client.post(f"/t/{code}/seats/2/sit", data={"csrf_token": csrf_token(client, f"/t/{code}"),
                                                           "name": "Grandpa"})
    assert response.status_code == 303
    page = client.get(f"/t/{code}/seats/2")
    assert page.status_code == 200 and "playing for Purple" in page_text(page)
    assert "Grandpa" in page_text(page)


def test_the_live_region_answers_204_while_nothing_changed(client, phone):
    code, key = host_table(client, players="2")
    current = client.get(f"/t/{code}/live")
    shown = re.search(r'data-version="(\d+)" data-presence="([^"]*)"', current.get_data(as_text=True))
    polled = f"/t/{code}/live?v={shown.group(1)}&p={shown.group(2)}"  # what live.js sends with each refresh
    assert client.get(polled).status_code == 204
    join_form(phone, code, key, "Alice")
    changed = client.get(polled)
    assert changed.status_code == 200 and "Alice" in page_text(changed)


def test_the_qr_endpoints_carry_the_join_link(client):
    code, key = host_table(client)
    svg = client.get(f"/t/{code}/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and svg.data.startswith(b"<svg")
    png = client.get(f"/t/{code}/qr.png")
    assert png.status_code == 200 and png.mimetype == "image/png" and png.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_api_join_gives_a_seat_token_that_reads_the_table(client):
    table = create_via_api(client, "flipside", {"players": 3})
    seat = join_via_api(client, table, "Bo", seat="Player 2")
    assert seat["seat"] == 2 and seat["seat_name"] == "Player 2" and seat["role"] == "player"
    view = client.get(f"/api/tables/{table['code']}", headers={"Authorization": f"Bearer {seat['seat_token']}"})
    assert view.status_code == 200
    data = view.get_json()
    assert data["you"] == {"role": "player", "number": 2, "name": "Player 2", "player": "Bo"}
    assert "join_key" not in data
    host = client.get(f"/api/tables/{table['code']}", headers={"Authorization": f"Bearer {table['host_token']}"})
    assert host.get_json()["join_key"] == table["join_key"] and host.get_json()["join_url"] == table["join_url"]
    assert "join_url" not in data


def test_scripts_fetch_the_qr_code_with_the_host_token_only(client, app):
    table = create_via_api(client, "flipside")
    stranger = app.test_client()
    png = stranger.get(f"/t/{table['code']}/qr.png", headers={"Authorization": f"Bearer {table['host_token']}"})
    assert png.status_code == 200 and png.mimetype == "image/png"
    seat = join_via_api(client, table, "Ann")
    refused = stranger.get(f"/t/{table['code']}/qr.svg", headers={"Authorization": f"Bearer {seat['seat_token']}"})
    assert refused.status_code == 403 and "host screen" in page_text(refused)
    forged = stranger.get(f"/t/{table['code']}/qr.svg", headers={"Authorization": "Bearer nope"})
    assert forged.status_code == 401


def test_a_refused_host_form_offers_the_way_back_to_the_table(client, app):
    code, _ = host_table(client, players="2")
    before = snapshot(app)
    refused = client.post(f"/t/{code}/seats/1/sit", data={"csrf_token": any_csrf_token(client), "name": "<b>"})
    assert refused.status_code == 422 and "not < > { }" in page_text(refused)
    assert f'href="/t/{code}/seat">Back to the table' in page_text(refused)
    assert snapshot(app) == before
    assert client.get(f"/t/{code}/seat").headers["Location"] == f"/t/{code}"


def test_a_freed_phone_is_told_once_and_can_rejoin(client, phone):
    code, key = host_table(client, players="2")
    join_form(phone, code, key, "Alice", seat=1)
    client.post(f"/t/{code}/seats/1/free", data={"csrf_token": csrf_token(client, f"/t/{code}")})
    assert "The host freed your seat" in page_text(phone.get(f"/j/{code}?k={key}"))
    assert "The host freed your seat" not in page_text(phone.get(f"/j/{code}?k={key}"))


def test_a_script_with_the_host_token_opens_the_host_screen_and_a_seat_token_does_not(phone):
    """The host screen takes host rights from a bearer token as well as from the cookie, and renders either way."""
    table = create_via_api(phone, "directors-cut")
    seat = join_via_api(phone, table, "Ann")
    cookieless = phone.application.test_client()
    page = cookieless.get(f"/t/{table['code']}", headers={"Authorization": f"Bearer {table['host_token']}"})
    assert page.status_code == 200 and "Scan to join" in page_text(page)
    refused = cookieless.get(f"/t/{table['code']}", headers={"Authorization": f"Bearer {seat['seat_token']}"})
    assert refused.status_code == 403
