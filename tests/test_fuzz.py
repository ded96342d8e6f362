"""Property-based fuzzing (Hypothesis) of every JSON endpoint, form route and query parameter: never a 500, and a
refused request (4xx) leaves every stored row as it was.

Bounded for CI: a fixed number of examples per test, fewer on PostgreSQL (both databases run the suite), and
derandomized in CI so a run is the same every time. NIGHTSHIFT_FUZZ_EXAMPLES=N runs N per test for a longer hunt.
"""

from __future__ import annotations

import os
import secrets
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games import REGISTRY
from tests.conftest import IN_CI, POSTGRES_URL, snapshot, test_app
from tests.test_permissions import declared_moves

EXAMPLES = int(os.environ.get("NIGHTSHIFT_FUZZ_EXAMPLES") or (100 if POSTGRES_URL else 200))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=IN_CI,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])
TALLY = {"requests": 0, "5xx": 0}

UNICODE_DIGITS = ["²", "٣", "١٢", "１", "߂", "৩", "Ⅻ", "½", "𝟘", "۹۹"]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=24), st.sampled_from(UNICODE_DIGITS),
    st.sampled_from([0, 1, 2, 3, -1, 10**9, 2**31, 2**63, "1", "2", "0", "-1", " 7 ", "1e3", "0x10", "NaN"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                           max_leaves=12)
form_values = st.one_of(st.text(max_size=30), st.sampled_from(UNICODE_DIGITS),
                        st.integers(min_value=-(2**70), max_value=2**70).map(str),
                        st.floats(allow_nan=True, allow_infinity=True).map(repr),
                        st.sampled_from(["", "1", "2", "3", "-1", "999999999999", "3, 5", "6 5 4;1", "on"]))
raw_bodies = st.one_of(
    st.integers(min_value=20, max_value=4000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(min_value=20, max_value=2000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
    st.just("x" * 70_000), st.just('{"name": "' + "A" * 70_000 + '"}'), st.text(max_size=60),
    st.just("{"), st.just("NaN"), st.just('{"type": NaN}'), st.just("[1, 2, 3]"))


@pytest.fixture
def fuzz_app(tmp_path, database_url):
    yield from test_app(tmp_path, database_url, WTF_CSRF_ENABLED=False)
    print(f"\nfuzz: {TALLY['requests']} requests, {TALLY['5xx']} answered 5xx")


@pytest.fixture
def world(fuzz_app):
    """One table per game with a seated player and a spectator: the fuzz plays against real tables."""
    client = fuzz_app.test_client()
    tables = {}
    for slug in REGISTRY:
        table = client.post("/api/tables", json={"game": slug, "options": {}}).get_json()
        join = f"/api/tables/{table['code']}/join"
        table["seat"] = client.post(join, json={"name": "Ann", "key": table["join_key"], "seat": 1}).get_json()[
            "seat_token"]
        table["spectator"] = client.post(join, json={"name": "Eve", "key": table["join_key"],
                                                     "spectator": True}).get_json()["seat_token"]
        tables[slug] = table
    return tables


def checked(app, call):
    """Send one request; it must not be a 5xx, and a 4xx must have changed nothing."""
    before = snapshot(app)
    response = call()
    status = response.status_code
    response.close()
    TALLY["requests"] += 1
    if status >= 500:
        TALLY["5xx"] += 1
    assert status < 500, response.get_data(as_text=True)[:300]
    if 400 <= status < 500:
        assert snapshot(app) == before, f"a {status} changed the tables"
    return status


def draw_table(data, world):
    return world[data.draw(st.sampled_from(sorted(world)), label="game")]


def draw_token(data, table):
    return data.draw(st.sampled_from([table["host_token"], table["seat"], table["spectator"], None, "forged",
                                      secrets.token_urlsafe(32), "x" * 300]), label="token")


def on_the_wire(text: str) -> str:
    """A header value as a client sends it: UTF-8 bytes, read by the server as Latin-1; no line breaks."""
    return "".join(char for char in text if char not in "\r\n\x00").encode().decode("latin-1")


def auth(token, data):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if data.draw(st.booleans(), label="if-match"):
        headers["If-Match"] = on_the_wire(data.draw(st.one_of(form_values, st.just('W/"3"')), label="If-Match"))
    if data.draw(st.booleans(), label="key?"):
        headers["Idempotency-Key"] = on_the_wire(data.draw(st.one_of(st.text(max_size=70), st.uuids().map(str)),
                                                           label="key"))
    return headers


def body_with(data, fields: dict):
    """Known fields (each maybe missing, maybe junk) plus maybe an unknown one."""
    body = {name: data.draw(st.one_of(values, json_values), label=name) for name, values in fields.items()
            if data.draw(st.booleans(), label=f"{name}?")}
    if data.draw(st.integers(0, 4), label="extra?") == 0:
        body[data.draw(st.text(max_size=8), label="extra")] = data.draw(json_values, label="extra value")
    return body


@given(data=st.data())
@FUZZ
def test_json_endpoints(fuzz_app, world, data):
    client = fuzz_app.test_client()
    table = draw_table(data, world)
    code = data.draw(st.sampled_from([table["code"], table["code"].lower(), "ZZZZZ", "²²²²²", "<b>"]), label="code")
    game = data.draw(st.sampled_from(sorted(REGISTRY)), label="slug")
    options = st.fixed_dictionaries({}, optional={option.key: json_values for option in REGISTRY[game].options})
    endpoints = {
        "/api/tables": {"game": st.sampled_from(sorted(REGISTRY)), "options": options},
        f"/api/tables/{code}/join": {"name": st.text(max_size=30), "key": st.just(table["join_key"]),
                                     "seat": st.integers(-1, 5), "spectator": st.just(True)},
        f"/api/tables/{code}/actions": {"type": st.sampled_from(sorted(declared_moves(REGISTRY[table["game"]].rules))),
                                        "seat": st.integers(-1, 5), "version": st.integers(0, 40)},
        f"/api/tables/{code}/undo": {"version": st.integers(0, 40)},
        f"/api/tables/{code}/redo": {"version": st.integers(0, 40)},
        f"/api/tables/{code}/jump": {"seq": st.integers(-1, 40), "version": st.integers(0, 40)},
        f"/api/tables/{code}/seats/{data.draw(st.sampled_from(['1', '2', '9', '0', '99999999999']))}/free": {},
        "/api/crystal-lake/score": {"supplies": st.dictionaries(st.sampled_from(["pan", "axe", "cleaver", "x"]),
                                                                json_values), "bonus": st.text(max_size=20)},
        "/api/flipside/deck": {"list": st.text(max_size=200)},
    }
    url = data.draw(st.sampled_from(sorted(endpoints)), label="url")
    token = draw_token(data, table)
    if url.endswith("/free") and token == table["host_token"]:
        token = table["seat"]  # keep the seats for the next examples; the host's freeing is in the matrix
    headers = auth(token, data)
    if data.draw(st.integers(0, 5), label="raw?") == 0:
        raw = data.draw(raw_bodies, label="raw body")
        checked(fuzz_app, lambda: client.post(url, data=raw, content_type="application/json", headers=headers))
    elif data.draw(st.integers(0, 9), label="top?") == 0:
        value = data.draw(json_values, label="top-level")
        checked(fuzz_app, lambda: client.post(url, json=value, headers=headers))
    else:
        body = body_with(data, endpoints[url])
        checked(fuzz_app, lambda: client.post(url, json=body, headers=headers))


@given(data=st.data())
@FUZZ
def test_every_games_moves(fuzz_app, world, data):
    """Each game's move types with their fields fuzzed, through the API and through a form."""
    table = draw_table(data, world)
    fields = declared_moves(REGISTRY[table["game"]].rules)
    kind = data.draw(st.sampled_from(sorted(fields)), label="type")
    as_form = data.draw(st.booleans(), label="form?")
    token = data.draw(st.sampled_from([table["seat"], table["host_token"], table["spectator"]]), label="who")
    client = fuzz_app.test_client()
    names = {name: (form_values if as_form else json_values) for name in (*fields[kind], "seat", "whose")}
    body = {"type": kind} | {name: data.draw(values, label=name) for name, values in names.items()
                             if data.draw(st.integers(0, 3), label=f"{name}?")}  # mostly there, sometimes missing
    if as_form:
        with client.session_transaction() as session:
            role = "host" if token == table["host_token"] else "seat"
            session["tables"] = {table["code"]: {role: token}}
        form = {name: value if isinstance(value, str) else str(value) for name, value in body.items()}
        seat = data.draw(st.sampled_from(["", "?seat=1", "?seat=²", "?seat=-1", "?seat=99999999999"]), label="?seat")
        checked(fuzz_app, lambda: client.post(f"/t/{table['code']}/act{seat}", data=form,
                                              headers={"HX-Request": "true"} if data.draw(st.booleans()) else {}))
    else:
        checked(fuzz_app, lambda: client.post(f"/api/tables/{table['code']}/actions", json=body,
                                              headers=auth(token, data)))


@given(data=st.data())
@FUZZ
def test_form_routes(fuzz_app, world, data):
    table = draw_table(data, world)
    client = fuzz_app.test_client()
    if data.draw(st.booleans(), label="host cookie?"):
        with client.session_transaction() as session:
            session["tables"] = {table["code"]: {"host": table["host_token"]}}
    code, slug = table["code"], data.draw(st.sampled_from([*sorted(REGISTRY), "monopoly"]), label="slug")
    number = data.draw(st.sampled_from(["1", "2", "9"]), label="seat number")
    routes = {
        f"/new/{slug}": [option.key for option in REGISTRY.get(slug, REGISTRY["tracker"]).options],
        f"/j/{code}": ["k", "name", "seat", "watch"],
        f"/t/{code}/undo": ["version"], f"/t/{code}/redo": ["version"], f"/t/{code}/jump": ["seq", "version"],
        f"/t/{code}/seats/{number}/sit": ["name"],
        "/crystal-lake/score": ["pan", "flashlight", "gasoline", "cleaver", "car_keys", "axe", "bonus"],
        f"/crystal-lake/t/{code}/bag": ["pan", "flashlight", "gasoline", "cleaver", "car_keys", "axe", "jason"],
        "/flipside/deck": ["list"],
    }
    url = data.draw(st.sampled_from(sorted(routes)), label="url")
    form = {name: data.draw(form_values, label=name) for name in routes[url] if data.draw(st.booleans())}
    if url.startswith(f"/j/{code}") and data.draw(st.booleans(), label="real key?"):
        form["k"] = table["join_key"]
    if data.draw(st.integers(0, 6), label="extra?") == 0:
        form[data.draw(st.text(min_size=1, max_size=8), label="extra")] = data.draw(form_values, label="extra value")
    checked(fuzz_app, lambda: client.post(url, data=form))


@given(data=st.data())
@FUZZ
def test_query_parameters_and_paths(fuzz_app, world, data):
    table = draw_table(data, world)
    client = fuzz_app.test_client()
    token = draw_token(data, table)
    if token and data.draw(st.booleans(), label="cookie?"):
        with client.session_transaction() as session:
            role = "host" if token == table["host_token"] else "seat"
            session["tables"] = {table["code"]: {role: token}}
        headers = {}
    else:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
    if data.draw(st.booleans(), label="Last-Event-ID?"):
        headers["Last-Event-ID"] = on_the_wire(data.draw(form_values, label="Last-Event-ID"))
    value = st.one_of(form_values, st.text(max_size=40))
    code = data.draw(st.sampled_from([table["code"], "zzzzz", "٣٣٣٣٣", "%F0%9F%92%A9"]), label="code")
    number = data.draw(st.sampled_from(["1", "2", "0", "99999999999999999999", "٣"]), label="number")
    routes = {
        f"/api/tables/{code}/log": ["before", "limit"], f"/api/tables/{code}": [], f"/api/tables/{code}/dice": [],
        f"/t/{code}/log": ["before"], f"/t/{code}/live": ["v", "p", "seat"], f"/t/{code}/verify": [],
        f"/t/{code}": [], f"/t/{code}/seat": [], f"/t/{code}/seats/{number}": [], f"/t/{code}/qr.svg": [],
        f"/t/{code}/events": ["v"], "/join": ["code", "key"], f"/j/{code}": ["k"], "/flipside/keywords": ["q", "from"],
        "/crystal-lake/score": ["t"], "/flipside/deck": ["from"],
        f"/new/{quote(data.draw(st.text(max_size=12)), safe='')}": [],  # a browser sends '?' or '#' in a path encoded
        "/api/games": [], "/": [],
    }
    url = data.draw(st.sampled_from(sorted(routes)), label="url")
    query = {name: data.draw(value, label=name) for name in routes[url] if data.draw(st.booleans())}
    if url.endswith("/events"):
        checked(fuzz_app, lambda: client.get(url, query_string=query, headers=headers, buffered=False))
    else:
        checked(fuzz_app, lambda: client.get(url, query_string=query, headers=headers))
