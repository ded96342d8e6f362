"""Drawing a table for its screens (app/tables/screens.py): one render per kind, each exactly that screen's own
region, queries that don't grow with the number of screens, one form per group of controls."""

import random
import re

import pytest
from sqlalchemy import event
from sqlalchemy import text as sql

from app.extensions import db
from app.games import REGISTRY
from app.tables import play
from tests.conftest import POSTGRES_URL, act_via_api, bearer, create_via_api, csrf_token, join_via_api, page_text
from tests.live.drawing import alone, drawn
from tests.tables.test_statements import statements

COUNTERS = "Doom, shared, 0, 9, 0\nSanity, each, 0, 9, 5"


def seated_table(client, players=6):
    table = create_via_api(client, "tracker", {"players": players, "counters": COUNTERS})
    table["seats"] = [join_via_api(client, table, f"P{number}") for number in range(1, players + 1)]
    act_via_api(client, table, table["seats"][0]["seat_token"], {"type": "adjust", "counter": "doom", "by": 1})
    return table


def phone_region(client, table) -> str:
    response = client.get(f"/t/{table['code']}/live", headers=bearer(table["seats"][0]["seat_token"]))
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_counter_s_steps_and_the_dice_tray_are_one_form_each(client):
    region = phone_region(client, seated_table(client))
    groups = re.findall(r'<div class="counter-buttons">\s*(.*?)</div>', region, re.S)
    assert groups, region
    for group in groups:
        assert group.count("<form") == 1 and group.count('name="by"') >= 2, group
    tray = re.search(r'<div class="dice-tray">(.*?)</div>', region, re.S).group(1)
    assert tray.count("<form") == 1 and tray.count('name="dice"') >= 2, tray
    assert region.count("<form") < region.count("<button"), "one form per group of buttons, not one per button"


def test_a_step_button_moves_the_counter_it_sits_under(client, phone):
    """The tapped button's name=value is the move's `by`, sent with the group's fields, as a browser sends it."""
    table = create_via_api(client, "tracker", {"players": 2, "counters": COUNTERS})
    code = table["code"]
    token = csrf_token(phone, f"/j/{code}?k={table['join_key']}")
    assert phone.post(f"/j/{code}", data={"csrf_token": token, "k": table["join_key"], "name": "Di"}).status_code == 303
    page = phone.get(f"/t/{code}/seats/1").get_data(as_text=True)
    form = re.search(r'<div class="counter-buttons">\s*(<form.*?</form>)', page, re.S).group(1)
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    plus = re.search(r'<button type="submit" name="by" value="(\d+)"[^>]*aria-label="Add 1 to Sanity"', form)
    assert plus and "by" not in hidden and hidden["csrf_token"], form
    action = re.search(r'action="([^"]+)"', form).group(1).replace("&amp;", "&")
    sent = phone.post(action, data=hidden | {"by": plus.group(1)}, headers={"HX-Request": "true"})
    assert sent.status_code == 200, sent.get_data(as_text=True)
    assert "Sanity 5 → 6" in page_text(sent)


def test_drawing_every_screen_costs_the_same_queries_as_drawing_one(app, client):
    """The table with its seats and the log page, read once for the host and six phones; undo's and redo's targets
    are among the entries the log shows."""
    table = seated_table(client)
    every = {("host", None)} | {("seat", number) for number in range(1, 7)}
    with statements(app) as all_screens:
        regions = drawn(app, table["code"], every)
    with statements(app) as one_phone:
        drawn(app, table["code"], {("seat", 1)})
    assert set(regions) == every
    assert len(all_screens) <= 2, "\n".join(all_screens)  # the table with its seats, the log page
    assert len(one_phone) <= len(all_screens)


@pytest.mark.postgres
def test_a_drawing_reads_without_a_transaction_and_hands_its_connection_back_as_it_was(app, client):
    """No BEGIN and ROLLBACK around a drawing's reads on PostgreSQL (two round trips of four); the next request's
    connection, maybe the same one, is back in a transaction of its own."""
    if not POSTGRES_URL:
        pytest.skip("SQLite's reads begin no transaction anyway")
    table = seated_table(client)
    outside: list[bool] = []

    def note(conn, *_args):
        outside.append(conn.connection.dbapi_connection.autocommit)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        drawn(app, table["code"], {("host", None), ("seat", 1), ("seat", 2)})
        assert outside and all(outside)
        outside.clear()
        with app.app_context():
            assert db.session.scalar(sql("SELECT 1")) == 1
            db.session.remove()
        assert outside == [False]
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_the_seat_list_and_log_are_rendered_once_for_every_phone_and_the_host_keeps_its_controls(app, client,
                                                                                                  monkeypatch):
    """The tail is drawn from the table alone (no seat, view or offers in its context): one render serves six phones,
    and the host's console has its own, with "Back to here" and the seat controls."""
    table = seated_table(client)
    act_via_api(client, table, table["host_token"], {"type": "next-round"})  # a move older than the newest: jumpable
    tails = []
    real = play.render_template
    monkeypatch.setattr(play, "render_template", lambda name, **context: tails.append(name) or real(name, **context))
    every = {("host", None)} | {("seat", number) for number in range(1, 7)}
    regions = drawn(app, table["code"], every)
    assert tails.count("tables/_tail.html") == 2  # the phones' and the host's
    phones = [regions[("seat", number)] for number in range(1, 7)]
    for region in phones:
        tail = region[region.index('<section id="seats"'):]
        assert tail == phones[0][phones[0].index('<section id="seats"'):] and "Back to here" not in tail
    host = regions[("host", None)]
    assert "Back to here" in host and "Play for" in host  # the host's own tail: jump and seat controls


@pytest.mark.parametrize("slug", [spec.slug for spec in REGISTRY.values()])
def test_every_game_s_drawing_for_many_screens_is_each_screen_s_own_drawing(app, client, slug):
    """One drawing renders every kind of screen from one snapshot and shares only the seat list and log between
    them: over random offered moves of every seat and the host, every game's drawing for every kind of screen is
    exactly the one drawn for that screen alone."""
    table = create_via_api(client, slug)
    described = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).get_json()
    tokens = [table["host_token"]] + [join_via_api(client, table, f"P{seat['number']}")["seat_token"]
                                      for seat in described["seats"]]
    every = ({("host", None), ("watch", None), ("host", 1)}
             | {("seat", seat["number"]) for seat in described["seats"]})
    chance, made = random.Random(slug), 0
    for _ in range(20):
        regions = drawn(app, table["code"], every)
        assert regions == alone(app, table["code"], every)
        token = chance.choice(tokens)
        moves = client.get(f"/api/tables/{table['code']}", headers=bearer(token)).get_json()["view"]["moves"]
        if moves:
            assert act_via_api(client, table, token, chance.choice(moves)).status_code == 200
            made += 1
    assert made >= 4, "the drawings compared must span several moves"


def test_a_phone_shows_its_own_counters_first_then_the_panel_every_phone_shares(app, client):
    """The tracker has a phone part: each phone's region is its own counters with its own moves and everyone's with
    its own row marked, then the panel drawn once for every phone (the spectator's view, with the moves every seat is
    offered alike); "Undo my last move" only on the phone that made the newest move."""
    table = seated_table(client)
    act_via_api(client, table, table["seats"][3]["seat_token"], {"type": "adjust", "counter": "sanity", "whose": 4,
                                                                 "by": -1})
    regions = drawn(app, table["code"], {("seat", number) for number in range(1, 7)} | {("watch", None)})
    start = '<section class="tracker" aria-label="Tracker">'
    shared = {region[region.index(start):region.index('<section id="seats"')]
              for kind, region in regions.items() if kind[0] == "seat"}
    assert len(shared) == 1  # one panel for every phone (the slip's undo sits above it, under the phone's own part)
    for number in range(1, 7):
        region = regions[("seat", number)]
        own = region[region.index("Your counters"):region.index(start)]
        assert set(re.findall(r'name="whose" value="(\d+)"', own)) == {str(number)}, number
        rows = re.findall(r'<tr class="seat-\w+ mine">\s*<th scope="row">.*?</span> ([^<]+)</th>', own, re.S)
        assert rows == [f"P{number}"], number
        assert own.count('aria-label="Take 1 from Sanity"') == 1 and " of P" not in own, number  # its steps once, big
        assert 'aria-label="Add 1 to Doom"' in region[region.index(start):]  # every seat's move, in the shared panel
        assert ("Undo my last move" in region) == (number == 4)
    watcher = regions[("watch", None)]
    assert "Your counters" not in watcher and 'name="by"' not in watcher  # a spectator is offered nothing
    assert "Everyone" in watcher


def test_a_lone_player_s_phone_still_holds_its_own_counters_steps(client):
    """With one seat every move is offered to "every seat"; a move naming that seat (its Health) is still its own,
    drawn big in its part (it had no steps anywhere), while the shared Doom stays in the shared panel."""
    table = seated_table(client, players=1)
    region = phone_region(client, table)
    start = '<section class="tracker" aria-label="Tracker">'
    own, shared = region[region.index("Your counters"):region.index(start)], region[region.index(start):]
    assert own.count('aria-label="Take 1 from Sanity"') == 1 and 'name="whose" value="1"' in own
    assert 'aria-label="Add 1 to Doom"' in shared and "Sanity" not in shared.split("Dice")[0]


def test_a_lone_guard_s_phone_holds_the_question_put_to_it(client):
    """Director's Cut with one guard: the roll put to Guard 1 was 'every seat's', so it went to the shared panel (hidden
    under the phone's own question, which then had no answer): the guard could not move."""
    table = create_via_api(client, "directors-cut", {"guards": 1})
    token = join_via_api(client, table, "Solo")["seat_token"]
    response = client.get(f"/t/{table['code']}/live", headers=bearer(token))
    own = response.get_data(as_text=True).split('<section class="dc dc-phone dc-yours"', 1)[1].split("</section>", 1)[0]
    assert 'name="type" value="roll"' in own and "Your move" in own


PHONE_PART_GAMES = [spec.slug for spec in REGISTRY.values() if play.phone_template(spec.package)]


def _words_outside_forms(html: str) -> set[str]:
    """The text a region shows outside its controls (forms, and the summaries that open them): what a screen tells,
    not what it offers."""
    html = re.sub(r"<form\b.*?</form>|<summary\b.*?</summary>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", "\n", html)
    return {line.strip() for line in html.splitlines() if line.strip()}


@pytest.mark.parametrize("slug", PHONE_PART_GAMES)
def test_the_panel_every_phone_shares_tells_nothing_a_spectator_is_not_told(app, client, slug):
    """The panel drawn once for every phone (a game with a phone part) is drawn from a spectator's view: outside its
    controls, every word of it is on a spectator's screen too, and every move it offers is offered to every seat
    alike, word for word. So it hides nothing one seat must not see from another, whatever its template says."""
    from app.tables import service

    table = create_via_api(client, slug)
    described = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).get_json()
    tokens = [table["host_token"]] + [join_via_api(client, table, f"P{seat['number']}")["seat_token"]
                                      for seat in described["seats"]]
    chance = random.Random(slug)
    for _ in range(15):
        with app.app_context(), app.test_request_context("/", base_url="http://localhost"):
            shared = play.Shared(service.find_table(table["code"]))
            phones, spectators = shared.public(True), shared.public(False)
            numbers = [seat.number for seat in shared.table.player_seats]
            for move in shared.common():
                assert all(move in shared.rules.legal_actions(shared.state, number) for number in numbers), move
        assert _words_outside_forms(phones) <= _words_outside_forms(spectators)
        token = chance.choice(tokens)
        moves = client.get(f"/api/tables/{table['code']}", headers=bearer(token)).get_json()["view"]["moves"]
        if moves:
            act_via_api(client, table, token, chance.choice(moves))
