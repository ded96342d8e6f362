"""The permission matrix: every route of app.url_map and every game's move types x nine identities, 0 violations.

A route without an entry in POLICY fails the test, so a new route says who may use it before it lands. A refused
request must leave the tables exactly as they were.
"""

from __future__ import annotations

import itertools
import re
import secrets

import pytest

from app.extensions import db
from app.games import REGISTRY
from app.models import Action, Seat, Table
from tests.conftest import test_app

IDENTITIES = ("anonymous", "spectator", "another seat", "own seat", "host", "host of another table",
              "freed seat's old token", "forged token", "ended table's host")
OK = frozenset({200, 201, 204, 302, 303})
JUDGED = OK | {409, 422}  # allowed in: the rules or the table's state decide (nothing to undo, an illegal move)
FOREIGN_API, FOREIGN_PAGE = frozenset({401}), frozenset({403})  # a token that opens nothing here


def policy(anonymous, spectator, other, own, host, *, ended=JUDGED, outsider=None, stale=None):
    """Who gets what; `outsider` is for tokens that open nothing here (other host, freed, forged), `stale` for a
    browser whose signed cookie still names a seat token here that opens nothing (freed, or forged with the key)."""
    outsider = outsider if outsider is not None else anonymous
    stale = stale if stale is not None else outsider
    return dict(zip(IDENTITIES, (anonymous, spectator, other, own, host, outsider, stale, stale, ended),
                    strict=True))


def everyone(expected=JUDGED, ended=None):
    return policy(expected, expected, expected, expected, expected, ended=ended or expected)


HISTORY_STEPS = ("undo", "redo", "jump", "undo-ask", "undo-grant", "undo-keep")
HISTORY_STEP = f"<any({', '.join(repr(step) if '-' in step else step for step in HISTORY_STEPS)}):step>"
R403, R401, R410, R302 = frozenset({403}), frozenset({401}), frozenset({410}), frozenset({302})
R400 = frozenset({400})
API_READ = policy(R401, OK, OK, OK, OK, ended=OK)
PAGE_READ = policy(R403, OK, OK, OK, OK, ended=OK)
API_HOST_WRITE = policy(R401, R403, R403, R403, JUDGED, ended=R410)
PAGE_HOST_WRITE = policy(R403, R403, R403, R403, JUDGED, ended=R410)
API_MOVE = policy(R401, R403, R403, JUDGED, JUDGED, ended=R410)
PAGE_MOVE = policy(R403, R403, R403, JUDGED, JUDGED, ended=R410)

POLICY = {
    "healthz": everyone(OK),
    "tables.index": everyone(OK),
    "tables.new_table": everyone(OK),
    "tables.create_table": everyone(OK),
    "tables.join_lookup": everyone(OK),
    "api.games": everyone(OK),
    "api.create_table": everyone(OK),
    "crystal_lake.calculator": everyone(),
    "crystal_lake_api.calculator_api": everyone(),
    "flipside.deck_check": everyone(),
    "flipside_api.deck_check_json": everyone(),
    "flipside.glossary": everyone(OK),
    # Joining needs the key from the QR code, not a token: anyone holding it may sit or watch, until the game ends.
    "api.join": everyone(OK, ended=R410),
    "tables.join_post": everyone(OK, ended=R410),
    "tables.join_page": policy(OK, R302, R302, R302, OK, ended=R410, outsider=OK),
    "api.get_table": API_READ,
    "api.dice": API_READ,
    "api.table_log": API_READ,
    "api.act": API_MOVE,
    # A player may undo their own newest move (a slip); redo and jump are the host's. The world has no move yet, so
    # a player's undo finds nothing to undo (409); another seat may never take back someone else's move (403).
    "api.history": {"undo": policy(R401, R403, frozenset({403, 409}), JUDGED, JUDGED, ended=R410),
                    "redo": API_HOST_WRITE, "jump": API_HOST_WRITE,
                    # A seated player asks about their own move (none here: 409); the host answers.
                    "undo-ask": policy(R401, R403, JUDGED, JUDGED, R403, ended=R410),
                    "undo-grant": API_HOST_WRITE, "undo-keep": API_HOST_WRITE},
    # Play again continues a finished table at a new one: the one write a finished table takes, the host's only.
    "api.play_again": policy(R401, R403, R403, R403, JUDGED, ended=JUDGED),
    "api.free_seat": API_HOST_WRITE,
    "api.end_table": API_HOST_WRITE,
    "api.change_join_key": API_HOST_WRITE,
    "tables.host_screen": policy(R403, R302, R302, R302, OK, ended=OK),
    "tables.qr_svg": policy(R403, R403, R403, R403, OK, ended=OK),
    "tables.qr_png": policy(R403, R403, R403, R403, OK, ended=OK),
    # A freed phone gets a page offering to rejoin or watch (the key is on the host screen anyway), not the table.
    "tables.my_seat": policy(R403, OK, R302, R302, R302, ended=R302, stale=OK),
    "tables.seat_page": policy(R403, R403, R403, OK, OK, ended=OK),
    "tables.free_seat": PAGE_HOST_WRITE,
    "tables.host_sit": PAGE_HOST_WRITE,
    "tables.end_table": PAGE_HOST_WRITE,
    "tables.change_join_key": PAGE_HOST_WRITE,
    "crystal_lake.count_bag": PAGE_HOST_WRITE,
    "live.events": PAGE_READ,
    "play.live": policy(R403, OK, OK, OK, OK, ended=OK, stale=frozenset({204})),  # 204: HX-Redirect to that page
    "play.full_log": PAGE_READ,
    "play.verify_dice": PAGE_READ,
    "play.act": PAGE_MOVE,
    "play.history": {"undo": policy(R403, R403, frozenset({403, 409}), JUDGED, JUDGED, ended=R410),
                     "redo": PAGE_HOST_WRITE, "jump": PAGE_HOST_WRITE,
                     "undo-ask": policy(R403, R403, JUDGED, JUDGED, R403, ended=R410),
                     "undo-grant": PAGE_HOST_WRITE, "undo-keep": PAGE_HOST_WRITE},
    "tables.play_again": policy(R403, R403, R403, R403, JUDGED, ended=JUDGED),
    "tables.follow_next": everyone(OK),  # a redirect to where this browser belongs, at the next table or this one
    "tables.board": policy(R403, R403, R403, R403, OK, ended=OK),
    "tables.board_qr": PAGE_HOST_WRITE,
    # The history, asked from a phone on the LAN (the host machine itself sees every play). <uid> is the play of
    # the ended table E: only E's host (and E's players) may read it; lists show each reader the plays it may see.
    "history.index": everyone(OK),
    "history.stats_page": everyone(OK),
    "history.table_play": everyone(R302),  # to the table's play if this reader may see it, else the history
    "history.play_page": policy(R403, R403, R403, R403, R403, ended=OK),
    "history.play_json": policy(R403, R403, R403, R403, R403, ended=OK),
    "history.play_csv": policy(R403, R403, R403, R403, R403, ended=OK),
    "history.play_bgstats": policy(R403, R403, R403, R403, R403, ended=OK),
    "history.play_bgg": policy(R403, R403, R403, R403, R403, ended=OK),
    "history.export_json": everyone(OK),
    "history.export_csv": everyone(OK),
    "history.export_bgstats": everyone(OK),
    "history.export_bgg": everyone(OK),
    "history.import_history": everyone(R400),  # no file, no CSRF token: refused before anything else is read
    "history.people_page": everyone(R403),  # the host machine only
    "history.merge": everyone(R403),
    "history.unmerge": everyone(R403),
    "history_api.plays": policy(R401, OK, OK, OK, OK, ended=OK, outsider=OK, stale=R401),
    "history_api.stats_json": policy(R401, OK, OK, OK, OK, ended=OK, outsider=OK, stale=R401),
    "history_api.play": policy(R401, R403, R403, R403, R403, ended=OK, outsider=R403, stale=R401),
}
LAN = {"REMOTE_ADDR": "192.168.1.77"}  # a phone's address: not the host machine
WORLD_CHANGING = {"api.free_seat", "api.end_table", "tables.free_seat", "tables.end_table",  # rebuild after these
                  "api.change_join_key", "tables.change_join_key"}
BODIES = {
    "api.create_table": {"game": "tracker", "options": {}},
    "crystal_lake_api.calculator_api": {"supplies": {"pan": 1}},
    "flipside_api.deck_check_json": {"list": "3 Toy Chica [Yellow]"},
    "api.history": {"seq": 1},
    "play.history": {"seq": "1"},
    "api.act": {"type": "return", "seat": 1},
    "play.act": {"type": "return", "seat": "1"},
}


def declared_moves(rules) -> dict[str, tuple[str, ...]]:
    """Each move type a game declares, with its field names."""
    return {kind: declared.names for kind, declared in rules.MOVES.types.items()}


@pytest.fixture
def matrix_app(tmp_path, database_url):
    yield from test_app(tmp_path, database_url, WTF_CSRF_ENABLED=False)


def api(client, method, url, token=None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.open(url, method=method, json=body, headers=headers)
    assert response.status_code < 300, (url, response.get_data(as_text=True))
    return response.get_json()


def build_world(client, slug):
    """Table T of this game (own seat 1, another seat 2 whose first holder was freed, a spectator), another
    table's host, and a finished table E of the same game."""
    def table():
        return api(client, "POST", "/api/tables", body={"game": slug, "options": {}})

    def join(target, name, **extra):
        return api(client, "POST", f"/api/tables/{target['code']}/join",
                   body={"name": name, "key": target["join_key"], **extra})["seat_token"]

    main, other, ended = table(), table(), table()
    own = join(main, "Own", seat=1)
    freed = join(main, "Gone", seat=2)
    api(client, "POST", f"/api/tables/{main['code']}/seats/2/free", main["host_token"])
    tokens = {"anonymous": None, "own seat": own, "freed seat's old token": freed,
              "another seat": join(main, "Other", seat=2), "spectator": join(main, "Watcher", spectator=True),
              "host": main["host_token"], "host of another table": other["host_token"],
              "forged token": secrets.token_urlsafe(32), "ended table's host": ended["host_token"]}
    late = join(ended, "Late", seat=1)
    with client.application.app_context():
        state = db.session.scalar(db.select(Table.state).where(Table.code == ended["code"]))
        offered = REGISTRY[slug].rules.legal_actions(state, 1)
        db.session.remove()
    api(client, "POST", f"/api/tables/{ended['code']}/actions", late, offered[0])  # a move, so its end makes a play
    api(client, "POST", f"/api/tables/{ended['code']}/end", ended["host_token"])
    plays = client.get("/api/plays", headers={"Authorization": f"Bearer {ended['host_token']}"}, environ_base=LAN)
    assert plays.status_code == 200, plays.get_data(as_text=True)
    play_uid = plays.get_json()["plays"][0]["id"]
    return {"main": main, "ended": ended, "tokens": tokens, "slug": slug, "play": play_uid}


def fingerprint(app):
    """What a refused request must not change: every table's version and status, every seat, the log's length."""
    with app.app_context():
        db.session.expire_all()
        tables = sorted(db.session.execute(db.select(Table.code, Table.version, Table.status)).all())
        seats = sorted(db.session.execute(db.select(Seat.table_id, Seat.id, Seat.player_name, Seat.token_hash)).all(),
                       key=repr)
        log = db.session.scalar(db.select(db.func.count()).select_from(Action))
        db.session.remove()
        return tables, seats, log


def send(app, world, endpoint, rule, method, identity, *, step=None, move=None):
    """The request this identity makes to this route, authenticated the way its callers are (bearer or cookie)."""
    target = world["ended"] if identity == "ended table's host" else world["main"]
    token = world["tokens"][identity]
    number = 3 if endpoint == "tables.host_sit" else 1
    url = rule.rule
    url = url.replace("<code>", target["code"]).replace("<int:number>", str(number))
    url = url.replace("<slug>", world["slug"]).replace(HISTORY_STEP, step or "undo")
    url = url.replace("<uid>", world["play"])
    query = {"tables.join_page": f"?k={target['join_key']}",
             "tables.join_lookup": f"?code={target['code']}&key={target['join_key']}"}.get(endpoint, "")
    client = app.test_client()
    if endpoint.startswith("history"):
        client.environ_base.update(LAN)
    headers = {}
    if url.startswith("/api/"):
        if token:
            headers["Authorization"] = f"Bearer {token}"
    elif token:
        role = "host" if identity in ("host", "host of another table", "ended table's host") else "seat"
        with client.session_transaction() as session:
            session["tables"] = {target["code"]: {role: token}}
    body = move if move is not None else BODIES.get(endpoint)
    if endpoint in ("api.join", "tables.join_post"):
        name = f"N{secrets.token_hex(3)}"  # everyone joins to watch, so seats never run out
        body = ({"name": name, "key": target["join_key"], "spectator": True} if url.startswith("/api/")
                else {"name": name, "k": target["join_key"], "watch": "1"})
    if endpoint == "tables.host_sit":
        body = {"name": f"N{secrets.token_hex(3)}"}
    if method == "GET":
        response = client.get(url + query, headers=headers, buffered=endpoint != "live.events")
    elif url.startswith("/api/"):
        response = client.post(url, json=body if body is not None else {}, headers=headers)
    else:
        response = client.post(url, data=body or {}, headers=headers)
    status = response.status_code
    response.close()  # an event stream ends here, releasing its place
    return status


def routes(app):
    return [(rule.endpoint, rule, method) for rule in app.url_map.iter_rules()
            if rule.endpoint != "static" and not rule.endpoint.endswith(".static")  # files anyone may read
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]


def test_every_route_has_an_entry(matrix_app):
    missing = sorted({endpoint for endpoint, _, _ in routes(matrix_app)} - set(POLICY))
    assert not missing, f"say who may use these routes in POLICY: {missing}"
    stale = sorted(set(POLICY) - {endpoint for endpoint, _, _ in routes(matrix_app)})
    assert not stale, f"POLICY names routes that no longer exist: {stale}"


def check_cell(app, world, violations, endpoint, rule, method, identity, expected, **request):
    before = fingerprint(app)
    status = send(app, world, endpoint, rule, method, identity, **request)
    where = f"{method} {rule.rule} {request.get('step') or ''}{request.get('move', {}).get('type', '')} as {identity}"
    if status >= 500 or status not in expected:
        violations.append(f"{where}: {status}, expected {sorted(expected)}")
    if status not in OK and fingerprint(app) != before:
        violations.append(f"{where}: refused with {status} but changed the tables")
    return status


def test_the_permission_matrix_of_every_route(matrix_app, capsys):
    client = matrix_app.test_client()
    world = build_world(client, "crystal-lake")  # the base world's game has every route, its Camp Bag included
    violations, cells = [], 0
    for endpoint, rule, method in routes(matrix_app):
        if endpoint not in POLICY:
            continue
        steps = HISTORY_STEPS if HISTORY_STEP in rule.rule else (None,)
        for step, identity in itertools.product(steps, IDENTITIES):
            expected = POLICY[endpoint][step] if step else POLICY[endpoint]
            status = check_cell(matrix_app, world, violations, endpoint, rule, method, identity, expected[identity],
                                step=step)
            cells += 1
            if endpoint in WORLD_CHANGING and status in OK:
                world = build_world(client, "crystal-lake")
    with capsys.disabled():
        print(f"\npermission matrix, routes: {cells} cells, {len(violations)} violations")
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize("slug", [slug for slug, spec in REGISTRY.items() if spec.rules is not None])
def test_the_permission_matrix_of_every_move_type(matrix_app, slug, capsys):
    """Each of the game's move types, made for seat 1 through the API and through a form, by every identity."""
    client = matrix_app.test_client()
    world = build_world(client, slug)
    violations, cells = [], 0
    moves = sorted(declared_moves(REGISTRY[slug].rules))
    assert moves
    by_endpoint = {rule.endpoint: rule for rule in matrix_app.url_map.iter_rules()}
    for kind, identity in itertools.product(moves, IDENTITIES):
        for endpoint in ("api.act", "play.act"):
            check_cell(matrix_app, world, violations, endpoint, by_endpoint[endpoint], "POST", identity,
                       POLICY[endpoint][identity], move={"type": kind, "seat": 1})
            cells += 1
    with capsys.disabled():
        print(f"\npermission matrix, {slug} moves: {cells} cells, {len(violations)} violations")
    assert not violations, "\n".join(violations)


def test_a_spectator_gets_a_spectators_view_not_the_hosts(matrix_app):
    """Was a strict xfail until issue 13 gave spectators their own view."""
    client = matrix_app.test_client()
    world = build_world(client, "directors-cut")
    code = world["main"]["code"]
    seen = client.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {world['tokens']['spectator']}"})
    view = seen.get_json()["view"]
    assert seen.get_json()["you"]["role"] == "spectator"
    assert not re.search(r"\bhost\b", str(view.get("role", ""))) and not view.get("mine")
