"""kill -9 under load: every acknowledged move is in the log once, none is doubled, the state is the log's replay.

Phones retry a move that got no answer with the same Idempotency-Key until the restarted server answers, as
static/js/live.js does; the server answers a repeat with the entry the first try wrote.
"""

import http.client
import json
import os
import signal
import threading
import time
import uuid

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.database import normalise_url
from app.dice import TableDice
from app.games import get_game
from app.models import Action, Table
from tests.server import free_port, start_server

PHONES = 4
KILLS = 2
MOVES_BETWEEN_KILLS = 15  # acknowledged moves before each kill (counted, not timed: a loaded CI machine is slow)


class Phone(threading.Thread):
    """Sends +1 taps, each with its own key, and resends an unanswered tap with that key until it is answered."""

    def __init__(self, port, code, token, stop):
        super().__init__(daemon=True)
        self.port, self.code, self.token, self.stop = port, code, token, stop
        self.acknowledged: list[str] = []
        self.replayed = 0  # answers that said "already applied" (the first try landed before the kill)
        self.retries = 0
        self.errors: list[str] = []

    def send(self, key):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("POST", f"/api/tables/{self.code}/actions",
                               json.dumps({"type": "adjust", "counter": "hits", "by": 1}),
                               {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}",
                                "Idempotency-Key": key})
            response = connection.getresponse()
            response.read()
            return response.status, response.getheader("Idempotent-Replayed")
        finally:
            connection.close()

    def run(self):
        while not self.stop.is_set():
            key = uuid.uuid4().hex
            while True:
                try:
                    status, replayed = self.send(key)
                except (OSError, http.client.HTTPException):  # a kill mid-answer is http.client's IncompleteRead
                    self.retries += 1
                    time.sleep(0.05)  # the server is down or restarting: the same tap again shortly
                    continue
                if status in (502, 503, 504):
                    self.retries += 1
                    continue
                if status != 200:
                    self.errors.append(f"{status} for {key}")
                else:
                    self.acknowledged.append(key)
                    self.replayed += replayed == "true"
                break


def call(port, method, path, body=None, token=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    data = json.loads(response.read())
    connection.close()
    return response.status, data, response.getheader("Idempotent-Replayed")


def kill_nine(process):
    os.killpg(process.pid, signal.SIGKILL)  # the whole process group: gunicorn's arbiter and its workers
    process.wait()


def test_kill_9_under_load_loses_and_doubles_no_move(tmp_path, database_url):
    postgres = database_url.startswith("postgresql")
    workers = 2 if postgres else 1
    instance, port = tmp_path / "instance", free_port()
    log = open(tmp_path / "server.log", "ab")  # noqa: SIM115 - closed below
    process = start_server(instance, database_url, port, workers=workers, log=log)
    stop = threading.Event()
    phones = []
    try:
        counters = [{"name": "Hits", "scope": "shared", "min": 0, "max": None, "start": 0}]
        _, table, _ = call(port, "POST", "/api/tables", {"game": "tracker", "options": {"players": PHONES,
                                                                                          "counters": counters}})
        code = table["code"]
        tokens = [call(port, "POST", f"/api/tables/{code}/join", {"name": f"P{n}", "key": table["join_key"]})[1]
                  ["seat_token"] for n in range(PHONES)]

        # A move answered before a kill and resent after it is applied once, and answered with the same entry.
        key = "answered-before-the-kill"
        first = answered(port, code, tokens[0], key)
        kill_nine(process)
        process = start_server(instance, database_url, port, workers=workers, log=log)
        again = answered(port, code, tokens[0], key)
        assert again[1]["log"] == first[1]["log"] and again[2] == "true"

        phones = [Phone(port, code, token, stop) for token in tokens]
        for phone in phones:
            phone.start()
        for _ in range(KILLS):
            played(phones, MOVES_BETWEEN_KILLS)
            kill_nine(process)
            time.sleep(0.3)  # phones keep tapping into a dead server
            process = start_server(instance, database_url, port, workers=workers, log=log)
        played(phones, MOVES_BETWEEN_KILLS)
        stop.set()
        for phone in phones:
            phone.join(timeout=60)
        assert not any(phone.is_alive() for phone in phones)
    finally:
        stop.set()
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=15)
        log.close()

    assert not [error for phone in phones for error in phone.errors]
    assert "Purged 0 tables" in (tmp_path / "server.log").read_text()  # every start purges expired tables
    acknowledged = [key for phone in phones for key in phone.acknowledged]
    engine = create_engine(normalise_url(database_url))
    with Session(engine) as session:
        stored = session.scalar(select(Table).where(Table.code == code))
        moves = list(session.scalars(select(Action).where(Action.table_id == stored.id,
                                                          Action.state_before.is_not(None)).order_by(Action.seq)))
    engine.dispose()
    keys = [move.idempotency_key for move in moves]
    lost = set(acknowledged) - set(keys)
    doubled = len(keys) - len(set(keys))
    print(f"\nkill -9 x{KILLS + 1} on {'PostgreSQL, 2 workers' if postgres else 'SQLite'}: "
          f"{len(acknowledged)} acknowledged moves, {len(lost)} lost, {doubled} doubled, "
          f"{sum(phone.retries for phone in phones)} resends, {sum(phone.replayed for phone in phones)} answered "
          "as already applied")
    assert len(acknowledged) >= (KILLS + 1) * MOVES_BETWEEN_KILLS  # the phones really played through the kills
    assert not lost and not doubled
    assert set(keys) == set(acknowledged) | {"answered-before-the-kill"}  # nothing applied that nobody sent

    # The state is the log's replay: each move starts from the last one's state, and the pure rules agree.
    spec = get_game("tracker")
    rules, profile = spec.rules, {key: entry.value for key, entry in spec.profile.items()}
    state = rules.new_state(list(range(1, PHONES + 1)), dict(stored.options), profile)
    for move in moves:
        assert move.state_before == state, move.seq
        state, _ = rules.apply(state, dict(move.payload), TableDice(stored.dice_seed, 0, move.actor))
        assert state == move.state_after, move.seq
    assert stored.state == state and stored.version == 1 + PHONES + len(moves)
    hits = next(counter for counter in state["counters"] if counter["key"] == "hits")
    assert hits["values"]["shared"] == len(keys) == len(acknowledged) + 1


def played(phones, more, timeout=120):
    """Wait until the phones have `more` moves acknowledged than now."""
    target = sum(len(phone.acknowledged) for phone in phones) + more
    deadline = time.monotonic() + timeout
    while sum(len(phone.acknowledged) for phone in phones) < target:
        assert time.monotonic() < deadline, "the phones got no answers"
        time.sleep(0.05)


def answered(port, code, token, key):
    """A +1 tap with this key, sent until the server answers it."""
    deadline = time.monotonic() + 30
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("POST", f"/api/tables/{code}/actions",
                               json.dumps({"type": "adjust", "counter": "hits", "by": 1}),
                               {"Content-Type": "application/json", "Authorization": f"Bearer {token}",
                                "Idempotency-Key": key})
            response = connection.getresponse()
            return response.status, json.loads(response.read()), response.getheader("Idempotent-Replayed")
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.1)
