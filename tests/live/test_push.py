"""Pushed regions, in process: each stream gets its own screen's picture, drawn once per change, and survives faults."""

import re

import pytest
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.live import routes
from tests.conftest import act_via_api, bearer, create_via_api, join_via_api, page_text


@pytest.fixture
def app(app):
    app.config["LIVE_BEAT_SECONDS"] = 0.2
    return app


class Stream:
    """A page's event stream read through the test client, event by event."""

    def __init__(self, client, url, token):
        self.response = client.get(url, headers=bearer(token), buffered=False)
        assert self.response.status_code == 200
        self.chunks = iter(self.response.response)
        assert "connected" in next(self.chunks).decode()

    def next_event(self) -> tuple[str, str, str]:
        """(event, id, data) of the next event; a stream that ended raises StopIteration."""
        fields = {"event": "", "id": "", "data": []}
        for line in next(self.chunks).decode().strip("\n").split("\n"):
            name, _, value = line.partition(": ")
            if name == "data":
                fields["data"].append(value)
            elif name in fields:
                fields[name] = value
        return fields["event"], fields["id"], "\n".join(fields["data"])

    def next_region(self, limit: int = 50) -> tuple[int, str]:
        for _ in range(limit):
            event, ident, data = self.next_event()
            if event == "live":
                return int(ident), data
        raise AssertionError("no region pushed")

    def close(self):
        self.response.close()


def seated_table(client, players=2):
    table = create_via_api(client, "tracker", {"players": players, "counters": "Doom, shared, 0, 9, 0\n"
                                                                               "Sanity, each, 0, 9, 9"})
    table["seats"] = [join_via_api(client, table, name) for name in ("Ann", "Bo")[:players]]
    return table


def test_each_stream_gets_its_own_seats_picture_and_every_screen_kind_is_drawn_once(app, client, monkeypatch):
    table = seated_table(client)
    drawn = []
    real_draw = app.extensions["nightshift.draw"]
    monkeypatch.setitem(app.extensions, "nightshift.draw",
                        lambda code, kinds: drawn.append(sorted(kinds, key=str)) or real_draw(code, kinds))
    url = f"/t/{table['code']}/events?region=1&v=1"
    ann, bo = (Stream(client, url, seat["seat_token"]) for seat in table["seats"])
    host = Stream(client, url, table["host_token"])
    try:
        for stream in (ann, bo, host):
            stream.next_region()  # each catches up with the joins
        drawn.clear()
        moved = act_via_api(client, table, table["seats"][0]["seat_token"],
                            {"type": "adjust", "counter": "sanity", "by": -1}).get_json()
        regions = {name: stream.next_region() for name, stream in (("ann", ann), ("bo", bo), ("host", host))}
        assert {version for version, _ in regions.values()} == {moved["version"]}
        assert drawn == [[("host", None), ("seat", 1), ("seat", 2)]]  # one snapshot, one render per kind
        for _, region in regions.values():  # the page's own token rides in a header (or fills the empty field), and
            assert 'name="csrf_token" value=""' in region  # live.js gives every tap a fresh key
            assert not re.search(r'name="(csrf_token|idempotency_key)" value="[^"]', region)
        assert "Take 1 from Sanity" in regions["ann"][1] and "Take 1 from Sanity" in regions["bo"][1]
        assert regions["ann"][1] != regions["bo"][1]  # a seat's picture is its own
        assert "Undo #" in regions["host"][1] and "Undo #" not in regions["ann"][1]
    finally:
        for stream in (ann, bo, host):
            stream.close()


def test_the_tv_board_gets_its_own_picture_pushed_and_a_phone_cannot_ask_for_it(app, client, monkeypatch):
    table = seated_table(client)
    drawn = []
    real_draw = app.extensions["nightshift.draw"]
    monkeypatch.setitem(app.extensions, "nightshift.draw",
                        lambda code, kinds: drawn.append(sorted(kinds, key=str)) or real_draw(code, kinds))
    board = Stream(client, f"/t/{table['code']}/events?region=1&board=1&v=1", table["host_token"])
    phone = Stream(client, f"/t/{table['code']}/events?region=1&board=1&v=1", table["seats"][0]["seat_token"])
    try:
        board.next_region()
        phone.next_region()
        drawn.clear()
        moved = act_via_api(client, table, table["seats"][0]["seat_token"], {"type": "next-round"}).get_json()
        version, region = board.next_region()
        _, mine = phone.next_region()
        assert version == moved["version"]
        assert 'class="live board"' in region and "<form" not in region  # the TV: no controls
        assert 'class="live board"' not in mine  # a phone's board=1 is still its own seat's picture
        assert drawn == [[("board", None), ("seat", 1)]]
    finally:
        board.close()
        phone.close()


def test_a_phone_whose_seat_is_freed_is_told_so_and_its_stream_ends(app, client):
    table = seated_table(client)
    bo = Stream(client, f"/t/{table['code']}/events?region=1&v=1", table["seats"][1]["seat_token"])
    try:
        bo.next_region()
        freed = client.post(f"/api/tables/{table['code']}/seats/2/free", headers=bearer(table["host_token"]))
        assert freed.status_code == 200, freed.get_json()
        events = []
        with pytest.raises(StopIteration):
            for _ in range(50):
                events.append(bo.next_event()[0])
        assert events[-1] == "gone"
    finally:
        bo.close()


def test_a_pool_timeout_while_drawing_does_not_end_the_stream(app, client, monkeypatch):
    """A dry pool (or a database restart) delays the picture; the stream stays and sends it when it can."""
    table = seated_table(client)
    ann = Stream(client, f"/t/{table['code']}/events?region=1&v=1", table["seats"][0]["seat_token"])
    try:
        ann.next_region()
        real_draw, faults = app.extensions["nightshift.draw"], []

        def dry_pool(code, kinds):
            if not faults:
                faults.append(True)
                raise PoolTimeout("QueuePool limit of size 5 overflow 10 reached, connection timed out")
            return real_draw(code, kinds)

        monkeypatch.setitem(app.extensions, "nightshift.draw", dry_pool)
        monkeypatch.setattr(routes, "REDRAW_AFTER_FAILURE", 0.05)
        moved = act_via_api(client, table, table["seats"][1]["seat_token"], {"type": "next-round"}).get_json()
        version, region = ann.next_region()
        assert faults and version == moved["version"]
        assert f'data-version="{moved["version"]}"' in region
    finally:
        ann.close()


def test_a_stream_that_has_nothing_new_sends_heartbeats(app, client):
    table = seated_table(client, players=1)
    ann = Stream(client, f"/t/{table['code']}/events?region=1&v=1", table["seats"][0]["seat_token"])
    try:
        version, _ = ann.next_region()
        assert [ann.next_event() for _ in range(2)] == [("beat", "", str(version))] * 2
    finally:
        ann.close()


def test_one_refresher_keeps_every_streaming_seat_connected_and_stops_with_the_last_stream(app, client, monkeypatch):
    """Presence: one UPDATE per minute for every seat streaming in this process, not one per phone."""
    import time

    from app.models import Seat
    from app.tables import service

    monkeypatch.setattr(routes, "HEARTBEAT_SECONDS", 0.05)
    refreshed = []
    real = service.seats_heartbeat
    monkeypatch.setattr(service, "seats_heartbeat", lambda seats: real(seats) or refreshed.append(sorted(seats)))
    table = seated_table(client)
    streams = [Stream(client, f"/t/{table['code']}/events?region=1&v=1", seat["seat_token"])
               for seat in table["seats"]]
    try:
        for stream in streams:
            stream.next_region()
        with app.app_context():
            ids = sorted(seat.id for seat in service.db.session.scalars(
                service.select(Seat).where(Seat.player_name.in_(["Ann", "Bo"]))))
            before = max(service.db.session.get(Seat, seat_id).last_seen_at for seat_id in ids)
            service.db.session.remove()
        deadline = time.monotonic() + 5
        while ids not in refreshed and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ids in refreshed, refreshed  # both seats in one statement
        with app.app_context():
            assert all(service.db.session.get(Seat, seat_id).last_seen_at >= before for seat_id in ids)
            service.db.session.remove()
    finally:
        for stream in streams:
            stream.close()
    deadline = time.monotonic() + 5
    while app.extensions.get("nightshift.presence") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not app.extensions.get("nightshift.presence"), "the refresher stops once no seat streams here"


@pytest.mark.parametrize("wanted", ["²", "٣", "1e3", "-1", ""])
def test_a_host_stream_for_a_seat_that_is_not_a_seat_number_pushes_the_host_screen(client, wanted):
    """`?seat=` is read as /live reads it: ASCII digits naming a seat, or else the host's own screen (a "²" answered
    500: str.isdigit says yes to it and int() refuses it)."""
    table = seated_table(client)
    missing = client.get(f"/t/{table['code']}/events?region=1&v=1&seat=9", headers=bearer(table["host_token"]))
    assert missing.status_code == 404 and "This table has no seat '9'" in page_text(missing)
    host = Stream(client, f"/t/{table['code']}/events?region=1&v=1&seat={wanted}", table["host_token"])
    try:
        _, region = host.next_region()
        assert "Players" in region and "Your counters" not in region
    finally:
        host.close()
    playing = Stream(client, f"/t/{table['code']}/events?region=1&v=1&seat=1", table["host_token"])
    try:
        assert "Your counters" in playing.next_region()[1]
    finally:
        playing.close()
