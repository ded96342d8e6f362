"""Expired tables are deleted with their seats and log after a grace period in which the host can export the log."""

import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update

from app.cli import main
from app.extensions import db
from app.history.models import Play
from app.models import Action, Seat, Table
from app.tables.purge import purge_expired
from tests.conftest import bearer, create_via_api, join_via_api


def unused_for(app, table, days):
    with app.app_context():
        db.session.execute(update(Table).where(Table.code == table["code"])
                           .values(updated_at=datetime.now(UTC) - timedelta(days=days)))
        db.session.commit()


def counts(app):
    with app.app_context():
        return {model.__tablename__: db.session.scalar(select(func.count()).select_from(model))
                for model in (Table, Seat, Action)}


def three_tables(client, app):
    tables = {}
    for name, days in (("gone", 40), ("grace", 33), ("fresh", 0)):
        tables[name] = create_via_api(client, "tracker", {"players": 2})
        tables[name]["seat"] = join_via_api(client, tables[name], "Ann")["seat_token"]
        client.post(f"/api/tables/{tables[name]['code']}/actions", json={"type": "next-round"},
                    headers=bearer(tables[name]["seat"]))
        unused_for(app, tables[name], days)
    return tables


def test_during_the_grace_period_only_the_host_can_download_the_log(client, app):
    grace = three_tables(client, app)["grace"]
    code = grace["code"]
    log = client.get(f"/api/tables/{code}/log?limit=200", headers=bearer(grace["host_token"]))
    assert log.status_code == 200 and [entry["seq"] for entry in log.get_json()["log"]] == [3, 2, 1]
    for refused in (client.get(f"/api/tables/{code}/log", headers=bearer(grace["seat"])),
                    client.get(f"/api/tables/{code}", headers=bearer(grace["host_token"])),
                    client.post(f"/api/tables/{code}/actions", json={"type": "next-round"},
                                headers=bearer(grace["host_token"]))):
        assert refused.status_code == 410
        assert "its host can still download its log" in refused.get_json()["error"]
    assert client.get(f"/api/tables/{code}/log").status_code == 401


def test_the_host_screen_cookie_downloads_the_log_too(client, app):
    table = create_via_api(client, "tracker", {"players": 2})
    with client.session_transaction() as session:
        session["tables"] = {table["code"]: {"host": table["host_token"]}}
    assert client.get(f"/api/tables/{table['code']}/log").get_json()["log"][0]["seq"] == 1


def test_the_purge_deletes_tables_past_the_grace_period_with_their_seats_and_log(client, app):
    tables = three_tables(client, app)
    with app.app_context():  # a play of the table that goes: the history outlives the table
        gone = db.session.scalar(select(Table).where(Table.code == tables["gone"]["code"]))
        db.session.add(Play(uid="a" * 16, table_id=gone.id, table_code=gone.code, game=gone.game, game_name="Any",
                            started_at=gone.created_at, ended_at=gone.created_at))
        db.session.commit()
    before = counts(app)
    with app.app_context():
        purged = purge_expired()
        assert (purged.tables, purged.seats, purged.actions) == (1, 2, 3)
        assert "Purged 1 table (2 seats, 3 log entries) unused for more than 37 days." == str(purged)
        play = db.session.scalar(select(Play))
        assert (play.table_code, play.table_id) == (tables["gone"]["code"], None)
    assert counts(app) == {"tables": before["tables"] - 1, "seats": before["seats"] - 2,
                           "actions": before["actions"] - 3}
    assert client.get(f"/api/tables/{tables['gone']['code']}/log",
                      headers=bearer(tables["gone"]["host_token"])).status_code == 404
    fresh = client.get(f"/api/tables/{tables['fresh']['code']}", headers=bearer(tables["fresh"]["host_token"]))
    assert fresh.status_code == 200 and fresh.get_json()["version"] == 3
    with app.app_context():
        assert purge_expired().tables == 0


def test_nightshift_purge_says_what_it_deleted(client, app, tmp_path, database_url, monkeypatch, capsys):
    three_tables(client, app)
    monkeypatch.setenv("NIGHTSHIFT_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("NIGHTSHIFT_DATABASE_URL", database_url)
    main(["purge"])
    assert "Purged 1 table (2 seats, 3 log entries)" in capsys.readouterr().out


def test_the_purge_also_runs_once_a_day_while_the_server_runs(client, app, capsys):
    """It ran only at start or by command, so a server up for weeks kept every expired table."""
    from app.tables import purge

    tables = three_tables(client, app)
    assert purge.EVERY_SECONDS == 24 * 60 * 60
    stop = purge.keep_purging(app, every=0.05)  # a day, shortened
    said = ""
    try:  # wait for its sentence, not only its commit: it prints just after the commit, in its own thread
        deadline = time.monotonic() + 10
        while "Purged 1 table" not in said:
            assert time.monotonic() < deadline, "the purge never ran"
            time.sleep(0.05)
            said += capsys.readouterr().out
    finally:
        stop.set()
    assert counts(app)["tables"] == 2
    assert client.get(f"/api/tables/{tables['gone']['code']}", headers=bearer(tables["gone"]["host_token"])) \
        .status_code == 404
    assert client.get(f"/api/tables/{tables['fresh']['code']}", headers=bearer(tables["fresh"]["host_token"])) \
        .status_code == 200

