"""What drawing a table costs (issue 16): one form per group of controls, URLs built once, queries that don't grow
with the number of screens."""

import random
import re

import pytest
from flask import template_rendered
from sqlalchemy import event
from sqlalchemy import text as sql
from werkzeug.routing import MapAdapter

from app.extensions import db
from app.games import REGISTRY
from app.live import screens
from tests.conftest import (
    POSTGRES_URL,
    act_via_api,
    bearer,
    create_via_api,
    csrf_token,
    cyclic_garbage,
    join_via_api,
    page_text,
)
from tests.tables.test_statements import statements

COUNTERS = "Doom, shared, 0, 9, 0\nSanity, each, 0, 9, 5"


def drawing_environ() -> dict:
    """The request a stream on http://localhost would draw its table under."""
    return screens.drawing_environ({"wsgi.url_scheme": "http", "HTTP_HOST": "localhost", "SERVER_NAME": "localhost",
                                    "SERVER_PORT": "80"})


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


def test_a_region_builds_each_url_once(client, monkeypatch):
    table = seated_table(client)
    built = []
    real = MapAdapter.build

    def counted(adapter, endpoint, values=None, *args, **options):
        built.append((endpoint, sorted((values or {}).items())))
        return real(adapter, endpoint, values, *args, **options)

    monkeypatch.setattr(MapAdapter, "build", counted)
    region = phone_region(client, table)
    assert len(built) == len({repr(call) for call in built}), built  # none twice
    assert len(built) < region.count("<form") + 4  # a handful, not two per button


def test_drawing_every_screen_costs_the_same_queries_as_drawing_one(app, client):
    """The table with its seats and the log page, read once for the host and six phones; undo's and redo's targets
    are among the entries the log shows."""
    table = seated_table(client)
    environ = drawing_environ()
    every = {("host", None)} | {("seat", number) for number in range(1, 7)}
    with statements(app) as all_screens:
        picture = screens.draw(app, environ, table["code"], every)
    with statements(app) as one_phone:
        screens.draw(app, environ, table["code"], {("seat", 1)})
    assert set(picture.regions) == every
    assert len(all_screens) <= 2, "\n".join(all_screens)  # the table with its seats, the log page
    assert len(one_phone) <= len(all_screens)
    with app.app_context():
        db.session.remove()


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
        screens.draw(app, drawing_environ(), table["code"], {("host", None), ("seat", 1), ("seat", 2)})
        assert outside and all(outside)
        outside.clear()
        with app.app_context():
            assert db.session.scalar(sql("SELECT 1")) == 1
            db.session.remove()
        assert outside == [False]
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_a_drawing_is_published_before_its_database_session_ends(app, client, monkeypatch):
    """The screens get the picture first; ending the session (a round trip on PostgreSQL) comes after."""
    table = seated_table(client)
    order = []
    real_remove = db.session.remove

    def remove():
        order.append("session ends")
        real_remove()

    monkeypatch.setattr(db.session, "remove", remove)
    picture = screens.draw(app, drawing_environ(), table["code"], {("seat", 1)},
                           publish=lambda drawn: order.append(("published", drawn)))
    assert order[:2] == [("published", picture), "session ends"]


def test_the_seat_list_and_log_are_rendered_once_for_every_phone_and_the_host_keeps_its_controls(app, client,
                                                                                                  monkeypatch):
    from app.tables import play

    table = seated_table(client)
    act_via_api(client, table, table["host_token"], {"type": "next-round"})  # a move older than the newest: jumpable
    tails = []
    real = play.render_template
    monkeypatch.setattr(play, "render_template", lambda name, **context: tails.append(name) or real(name, **context))
    environ = drawing_environ()
    every = {("host", None)} | {("seat", number) for number in range(1, 7)}
    picture = screens.draw(app, environ, table["code"], every)
    assert tails.count("tables/_tail.html") == 1
    phones = [picture.region(("seat", number)) for number in range(1, 7)]
    for region in phones:
        tail = region[region.index('<section id="seats"'):]
        assert tail == phones[0][phones[0].index('<section id="seats"'):] and "Back to here" not in tail
    host = picture.region(("host", None))
    assert "Back to here" in host and "Play for" in host  # the host's own tail: jump and seat controls
    with app.app_context():
        db.session.remove()


def test_the_tracker_s_shared_counters_and_dice_are_drawn_once_for_every_phone_with_fresh_tap_keys(app, client,
                                                                                                   monkeypatch):
    """`once` draws a fragment once per drawing for every screen with the same key; each region still gets tap keys
    of its own (two phones without JavaScript must never send the same key), and the host and a spectator, whose
    keys differ, get their own fragments."""
    table = seated_table(client)
    drawn = []
    real = screens.once

    def counting(*key, caller):
        return real(*key, caller=lambda: drawn.append(key[0]) or caller())
    monkeypatch.setitem(app.jinja_env.globals, "once", counting)
    environ = drawing_environ()
    every = {("host", None), ("watch", None)} | {("seat", number) for number in range(1, 7)}
    picture = screens.draw(app, environ, table["code"], every)
    assert drawn.count("tracker-shared") == 3 and drawn.count("tracker-dice") == 3  # phones, host, spectator
    keys = [key for region in map(bytes.decode, picture.regions.values())
            for key in re.findall(r'name="idempotency_key" value="([^"]+)"', region)]
    assert len(keys) > 8 * 2 and len(set(keys)) == len(keys) and screens.TAP_MARK not in "".join(keys)
    phones = [picture.region(("seat", number)) for number in range(1, 7)]
    assert all('aria-label="Add 1 to Doom"' in region and "counter-big" in region for region in phones)
    assert 'name="by"' not in picture.region(("watch", None))  # a spectator is offered nothing
    assert 'aria-label="Add 5 to Doom"' in picture.region(("host", None))  # the host's big shared counter
    assert 'aria-label="Add 5 to Doom"' not in phones[0]
    with app.app_context():
        db.session.remove()


def _drawing(app, code: str, kinds: set) -> dict:
    """Every region of one drawing, with its tap keys blanked (each drawing makes fresh ones)."""
    environ = drawing_environ()
    picture = screens.draw(app, environ, code, kinds)
    with app.app_context():
        db.session.remove()
    return {kind: re.sub(r'name="idempotency_key" value="[^"]+"', 'name="idempotency_key" value=""',
                         picture.region(kind)) for kind in picture.regions}


def _from_scratch(app, monkeypatch, code: str, kinds: set) -> dict:
    """The same drawing with every fragment drawn for its own screen (neither `once` nor `kept` shares any, and no
    render draws every phone at once)."""
    with monkeypatch.context() as scratch:
        scratch.setattr(screens, "_phones_together", lambda shared, kinds: [])
        scratch.setitem(app.jinja_env.globals, "kept", lambda *key, caller: caller())
        scratch.setitem(app.jinja_env.globals, "once", lambda *key, caller: caller())
        return _drawing(app, code, kinds)


def test_a_counter_s_controls_are_kept_between_drawings_until_what_they_show_changes(app, client, monkeypatch):
    """`kept` serves a counter's controls from an earlier drawing only while nothing they show has changed: after
    each move (up to a limit, where a step's button is disabled) the drawing is exactly the one drawn afresh."""
    table = seated_table(client)
    every = {("host", None), ("host", 2), ("watch", None)} | {("seat", number) for number in range(1, 7)}
    drawn = []
    real = screens.kept
    monkeypatch.setitem(app.jinja_env.globals, "kept",
                        lambda *key, caller: real(*key, caller=lambda: drawn.append(key) or caller()))
    assert _drawing(app, table["code"], every) == _from_scratch(app, monkeypatch, table["code"], every)
    first = len(drawn)
    assert first >= 13  # the host's big Doom and six seats' Sanity, each phone's own Sanity, a spectator's
    _drawing(app, table["code"], every)
    assert len(drawn) == first, "nothing changed: every counter's controls come from the last drawing"

    token = table["seats"][1]["seat_token"]
    for _ in range(4):  # seat 2's Sanity from 5 up to its maximum of 9
        act_via_api(client, table, token, {"type": "adjust", "counter": "sanity", "by": 1})
        before = len(drawn)
        kept_drawing = _drawing(app, table["code"], every)
        redrawn = [key for key in drawn[before:] if key[0] == "tracker-counter"]
        assert redrawn and all(key[5] == 2 for key in redrawn), redrawn  # only seat 2's Sanity, wherever shown
        assert kept_drawing == _from_scratch(app, monkeypatch, table["code"], every)
        monkeypatch.setitem(app.jinja_env.globals, "kept",
                            lambda *key, caller: real(*key, caller=lambda: drawn.append(key) or caller()))
    phone = kept_drawing[("seat", 2)]
    assert re.search(r'aria-label="Add 1 to Sanity"[^>]*disabled', phone), "at 9 of 9 the +1 is disabled"


def test_log_lines_and_seat_rows_are_kept_and_an_undo_carries_the_version_of_the_drawing_it_is_shown_in(app, client,
                                                                                                        monkeypatch):
    """A move adds one log line and moves the newest mark: only those lines are drawn again, the seat rows not at all,
    and a kept line's "back to here" carries the version of the drawing that shows it, not the one that drew it."""
    table = seated_table(client)
    every = {("host", None), ("watch", None)} | {("seat", number) for number in range(1, 7)}
    drawn = []
    real = screens.kept
    monkeypatch.setitem(app.jinja_env.globals, "kept",
                        lambda *key, caller: real(*key, caller=lambda: drawn.append(key) or caller()))
    _drawing(app, table["code"], every)
    act_via_api(client, table, table["seats"][2]["seat_token"], {"type": "roll", "dice": "d6"})
    before = len(drawn)
    drawing = _drawing(app, table["code"], every)
    host = drawing[("host", None)]
    newest, second = (int(seq) for seq in re.findall(r'<li class="log-entry[^"]*" value="(\d+)"', host)[:2])
    lines = {key[2] for key in drawn[before:] if key[0] == "log-entry"}
    assert lines == {newest, second}, lines  # the new line, and the one that is no longer the newest
    assert not [key for key in drawn[before:] if key[0] == "seat-row"], "no seat changed"
    jumps = re.findall(r'name="version" value="([^"]+)">\s*<input type="hidden" name="seq"', host)
    version = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).get_json()["version"]
    assert jumps and set(jumps) == {str(version)}, jumps
    assert drawing == _from_scratch(app, monkeypatch, table["code"], every)


def test_each_phone_s_own_row_is_marked_in_a_table_drawn_once_for_every_phone(app, client):
    table = seated_table(client)
    every = {("host", 3)} | {("seat", number) for number in range(1, 7)}
    regions = _drawing(app, table["code"], every)
    for (_, number), region in regions.items():
        rows = re.findall(r'<tr class="seat-\w+( mine)?">\s*<th scope="row">.*?</span> P(\d)', region, re.S)
        assert len(rows) == 6 and [int(name) for mine, name in rows if mine] == [number], rows
        assert "<~" not in region and "&lt;~" not in region


@pytest.mark.parametrize("slug", [spec.slug for spec in REGISTRY.values()])
def test_every_game_s_drawing_for_many_screens_is_each_screen_s_own_drawing(app, client, monkeypatch, slug):
    """A fragment shared between screens (`once`) or kept between drawings (`kept`) whose key misses something it
    shows, or a part of a render for every phone (`phones_alike`) that reads one seat's own moves outside its
    `each_phone` block, would put one screen's picture, or an old one, on another: over random offered moves of every
    seat and the host, every game's drawing for every kind of screen is exactly the one drawn afresh for that screen
    alone."""
    table = create_via_api(client, slug)
    described = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).get_json()
    tokens = [table["host_token"]] + [join_via_api(client, table, f"P{seat['number']}")["seat_token"]
                                      for seat in described["seats"]]
    every = ({("host", None), ("watch", None), ("host", 1)}
             | {("seat", seat["number"]) for seat in described["seats"]})
    chance, made = random.Random(slug), 0
    alike = REGISTRY[slug].phones_alike is not None
    for _ in range(20):
        renders, regions = _live_renders(app, table["code"], every)
        assert regions == _from_scratch(app, monkeypatch, table["code"], every)
        # a game that declares its phones alike gets one render for all of them (its declaration holds), besides
        # the host's, the host playing seat 1 and the spectator's; one that doesn't, one render per screen
        assert renders == (4 if alike else len(every)), "the game's phones differ in more than it declares"
        token = chance.choice(tokens)
        moves = client.get(f"/api/tables/{table['code']}", headers=bearer(token)).get_json()["view"]["moves"]
        if moves:
            assert act_via_api(client, table, token, chance.choice(moves)).status_code == 200
            made += 1
    assert made >= 4, "the drawings compared must span several moves"


class _Clock:
    """perf_counter for screens.draw: each reading `step` seconds after the last (a render takes that long)."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize(("render_seconds", "yields"), [(0.001, 0), (0.015, 3)])
def test_a_drawing_yields_the_worker_only_once_it_has_held_it_a_while(client, app, monkeypatch, render_seconds,
                                                                      yields):
    """Seven screens draw in one go (each screen's picture waited behind every other ready request when it yielded
    between renders), but a long drawing still lets the worker's other requests in every HOLD_SECONDS. (The host's
    screen and its screens as each seat: the tracker's six phones would be one render.)"""
    table = seated_table(client)
    slept = []
    monkeypatch.setattr(screens.time, "perf_counter", _Clock(render_seconds))
    monkeypatch.setattr(screens.time, "sleep", slept.append)
    every = {("host", None)} | {("host", number) for number in range(1, 7)}
    picture = screens.draw(app, drawing_environ(), table["code"], every)
    assert set(picture.regions) == every
    assert slept == [0] * yields


def test_a_name_that_spells_a_drawing_s_mark_is_shown_as_typed(app, client):
    """The marks `personal` fills in hold a "<", which no name may hold and escaping would turn into "&lt;" anyway: a
    player named like a mark (as the marks once read) keeps the name on every screen instead of showing the table's
    version or a tap key."""
    table = create_via_api(client, "tracker", {"players": 3, "counters": COUNTERS})
    typed = ["~version~", "~tap-key~", "~mine-2~"]
    for name in typed:
        join_via_api(client, table, name)
    regions = _drawing(app, table["code"], {("host", None)} | {("seat", number) for number in (1, 2, 3)})
    for region in regions.values():
        assert all(f"> {name}</th>" in region or f">{name}<" in region for name in typed), region


@pytest.mark.parametrize("slug", [spec.slug for spec in REGISTRY.values()])
def test_a_drawing_leaves_nothing_for_the_garbage_collector(app, client, slug):
    """A template that defines a macro held the macro in its context and the macro held the context: everything a
    render saw (about 700 objects for a host and six phones) waited for the collector, whose passes then paused the
    worker. Every game's drawing frees what it made as soon as it is done."""
    table = create_via_api(client, slug)
    described = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).get_json()
    for seat in described["seats"]:
        join_via_api(client, table, f"P{seat['number']}")
    every = ({("host", None), ("watch", None), ("board", None)}
             | {("seat", seat["number"]) for seat in described["seats"]})
    environ = drawing_environ()
    screens.draw(app, environ, table["code"], every)  # templates compiled, imports cached: they live on
    left = cyclic_garbage(lambda: screens.draw(app, environ, table["code"], every))
    assert "Context" not in left and "Macro" not in left and len(left) < 20, sorted(left)


def test_an_imported_macro_still_works_after_the_template_that_imported_it_rendered(app):
    """Only a render's own variables are let go: a module's macros (`{% from ... import %}`) are called later."""
    with app.test_request_context():
        first = app.jinja_env.from_string('{% macro shout(word) %}{{ word|upper }}!{% endmacro %}{{ shout("a") }}')
        assert first.render() == "A!"
        module = first.module
        assert module.shout("boo") == "BOO!"
        assert first.render() == "A!" and module.shout("again") == "AGAIN!"


def test_the_templates_indentation_is_not_drawn(app, client):
    """A pushed region carries no template's indentation (the tap forms built in Python indent their fields)."""
    region = phone_region(client, seated_table(client))
    assert "<section" in region and not re.search(r"\n[ \t]+<(?!input|button)", region), region[:2000]


def _template_sources(app):
    """(name, source as written) of every HTML template."""
    environment = app.jinja_env
    for name in environment.list_templates(extensions=["html"]):
        yield name, environment.loader.get_source(environment, name)[0]


def test_dropping_indentation_changes_no_template_s_strings_or_text_across_lines(app):
    """Only the indentation of template text goes: no string literal in a tag, and no <pre> or <textarea> text, spans
    lines in any template, so none of them changes."""
    from jinja2 import Environment, nodes

    environment, plain_parser = app.jinja_env, Environment()  # parse() preprocesses: the plain one doesn't
    for name, source in _template_sources(app):
        assert not re.search(r"<pre[\s>]", source), name
        for text in re.findall(r"<textarea[^>]*>(.*?)</textarea>", source, re.S):
            assert "\n" not in text, name
        plain = [node.value for node in plain_parser.parse(source).find_all(nodes.Const)]
        unindented = [node.value for node in plain_parser.parse(environment.preprocess(source, name))
                      .find_all(nodes.Const)]
        assert plain == unindented, name


def test_no_stylesheet_or_inline_code_sees_line_breaks_so_a_region_may_go_on_one_line(app):
    """Regions are pushed with their line breaks as spaces (wire.one_line), and templates lose their indentation: both
    safe only while no style keeps white space as typed, and no template holds inline script or style (where a `//`
    comment would run on into the next line)."""
    from pathlib import Path

    sheets = list((Path(app.static_folder) / "css").rglob("*.css"))
    assert sheets
    for sheet in sheets:
        assert not re.search(r"white-space\s*:\s*(pre|break-spaces)", sheet.read_text()), sheet.name
    for name, source in _template_sources(app):
        assert not re.search(r"<style[\s>]|<script(?![^>]*\ssrc=)[^>]*>", source), name


def _live_renders(app, code: str, kinds: set) -> tuple[int, dict]:
    """How many times a drawing renders the live region's template, and its regions."""
    rendered = []

    def count(sender, template, context, **extra):
        rendered.append(template.name)
    with template_rendered.connected_to(count, app):
        regions = _drawing(app, code, kinds)
    return rendered.count("tables/_live.html"), regions


def test_the_tracker_s_phones_are_one_render_and_a_game_whose_views_differ_more_than_declared_gets_one_each(
        app, client, monkeypatch):
    """Six phones of a tracker table are one render of the live region (the host's is another), each phone still
    exactly its own; where the seats' views differ in more than the game declares, each phone is rendered alone."""
    table = seated_table(client)
    act_via_api(client, table, table["seats"][3]["seat_token"], {"type": "adjust", "counter": "sanity",
                                                                 "whose": 4, "by": -1})
    every = {("host", None)} | {("seat", number) for number in range(1, 7)}
    renders, regions = _live_renders(app, table["code"], every)
    assert renders == 2 and regions == _from_scratch(app, monkeypatch, table["code"], every)
    slips = [number for number in range(1, 7) if "Undo my last move" in regions[("seat", number)]]
    assert slips == [4]  # seat 4 made the newest move: its phone alone may take it back
    spec = REGISTRY["tracker"]
    object.__setattr__(spec, "phones_alike", ())  # "me" (each seat's own counters) now differs undeclared
    try:
        renders, alone = _live_renders(app, table["code"], every)
    finally:
        object.__setattr__(spec, "phones_alike", ("me",))
    assert renders == 7 and alone == regions
