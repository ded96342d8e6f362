"""A move's cost in SQL statements: the lean write path (issue 16) stays lean, on SQLite and on PostgreSQL."""

from contextlib import contextmanager

import pytest
from sqlalchemy import event

from app.extensions import db
from tests.conftest import act_via_api, bearer, create_via_api, cyclic_garbage, join_via_api

MOVE_STATEMENTS = 5  # issue 16's budget for one move


@contextmanager
def statements(app):
    """Every SQL statement the engine sends while the block runs (BEGIN and COMMIT are not statements here)."""
    seen: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        seen.append(" ".join(statement.split()))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


@pytest.fixture
def table(client):
    counters = [{"name": "Doom", "scope": "shared", "min": 0, "max": None, "start": 0}]
    table = create_via_api(client, "tracker", {"players": 2, "counters": counters})
    table["seat"] = join_via_api(client, table, "Ann")["seat_token"]
    return table


def postgres(app) -> bool:
    with app.app_context():
        return db.engine.dialect.name == "postgresql"


@pytest.mark.parametrize("key", [None, "tap-1"], ids=["plain", "with-idempotency-key"])
def test_a_move_takes_at_most_five_statements(app, client, table, key):
    """Read the table with its seats (which also says who is asking), one UPDATE of the table row that bumps and
    checks the version, one INSERT into the log; nothing read back after the commit. That is 3 on SQLite; PostgreSQL
    adds the pg_notify that tells the other processes, inside the same transaction: 4.
    A new Idempotency-Key costs no lookup (the log's unique key finds a repeat)."""
    headers = {"Idempotency-Key": key} if key else {}
    with statements(app) as seen:
        moved = act_via_api(client, table, table["seat"], {"type": "adjust", "counter": "doom", "by": 1}, **headers)
    assert moved.status_code == 200, moved.get_json()
    assert moved.get_json()["log"][0]["text"] and moved.get_json()["view"]["counters"][0]["values"]["shared"] == 1
    expected = 4 if postgres(app) else 3
    assert len(seen) <= min(expected, MOVE_STATEMENTS), "\n".join(seen)
    updates = [statement for statement in seen if statement.startswith("UPDATE tables")]
    assert len(updates) == 1 and "version" in updates[0].split("WHERE")[1], updates  # one checked update
    assert sum(statement.startswith("INSERT INTO actions") for statement in seen) == 1


def test_a_move_leaves_nothing_for_the_garbage_collector(app, client, table):
    """The write path asks each attribute's history directly: `inspect(table).attrs` built a view of every attribute
    that points back at the table's state: a cycle of some thirty objects left on every move."""
    move = {"type": "adjust", "counter": "doom", "by": 1}
    act_via_api(client, table, table["seat"], move)
    left = cyclic_garbage(lambda: act_via_api(client, table, table["seat"], move))
    assert not {"AttributeState", "InstanceState"} & set(left), sorted(left)


def test_the_answer_to_a_move_is_what_was_written_not_a_guess(app, client, table):
    """Nothing is read back after the commit, so the reply must come from what the write path kept: check it
    against a fresh read."""
    moved = act_via_api(client, table, table["seat"], {"type": "adjust", "counter": "doom", "by": 2}).get_json()
    fresh = client.get(f"/api/tables/{table['code']}", headers=bearer(table["seat"])).get_json()
    log = client.get(f"/api/tables/{table['code']}/log?limit=1", headers=bearer(table["seat"])).get_json()["log"]
    assert moved["version"] == fresh["version"] and moved["view"] == fresh["view"]
    assert moved["log"] == log


def test_a_repeated_key_still_counts_once_and_says_so(app, client, table):
    """The repeat is found through the log's unique key after the write collides: the move is not applied twice."""
    move = {"type": "adjust", "counter": "doom", "by": 1}
    first = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "same"})
    again = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "same"})
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json()["version"] == first.get_json()["version"]
    assert again.get_json()["view"]["counters"][0]["values"]["shared"] == 1


def _raced(app, table, version=None):
    """Load the table, let another request move it first, then move on the picture loaded before that move."""
    from app.tables import service

    move = {"type": "adjust", "counter": "doom", "by": 1}
    with app.test_request_context():
        loaded = service.find_table(table["code"])
        with app.app_context():  # another request, with a session of its own, commits first
            other = service.find_table(table["code"])
            service.apply_action(other, service.visitor_for_token(other, table["seat"]), dict(move))
        entry = service.apply_action(loaded, service.visitor_for_token(loaded, table["seat"]), dict(move),
                                     version=version)
        return entry.seq


def test_a_move_made_on_a_picture_another_move_overtook_lands_on_top_of_it(app, client, table):
    """The optimistic first attempt loses to the other write (its checked UPDATE matches no row), so the move is
    made again on the locked, fresh table: both count, in order, and nothing is lost."""
    start = client.get(f"/api/tables/{table['code']}", headers=bearer(table["seat"])).get_json()["version"]
    assert _raced(app, table) == start + 2
    fresh = client.get(f"/api/tables/{table['code']}", headers=bearer(table["seat"])).get_json()
    assert fresh["version"] == start + 2 and fresh["view"]["counters"][0]["values"]["shared"] == 2


def test_a_refusal_is_decided_on_the_fresh_table_not_on_the_picture_loaded_first(app, client, table):
    """The client saw the version after the other move; the loaded picture is one older. Only the fresh, locked
    read may refuse, and it agrees with the client: the move is made."""
    start = client.get(f"/api/tables/{table['code']}", headers=bearer(table["seat"])).get_json()["version"]
    assert _raced(app, table, version=start + 1) == start + 2
