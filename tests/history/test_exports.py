"""Exports: the CSV opens with Python's csv module under the documented header, BG Stats gets its documented field
names, and Night Shift's JSON imported on a fresh database gives the same history back, once however often."""

import csv
import io
import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from sqlalchemy import func, select

from app import create_app
from app.database import upgrade_database
from app.extensions import db
from app.history.exports import BG_STATS_LINK, CSV_HEADER, IMPORT_MAX_BYTES
from app.history.models import Play, PlayerAlias, PlaySeat
from tests.conftest import POSTGRES_URL, bearer, csrf_token, page_text, reset_postgres
from tests.history.drive import open_table, play_to_end
from tests.history.history import PLAYS, export_file

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "HISTORY.md").read_text(encoding="utf-8")

# BG Stats' "push plays to BG Stats from other apps" format, as its support page documents it
BG_STATS_PLAY = {"board", "durationMin", "comments", "game", "location", "playDate", "players", "sourceName",
                 "sourcePlayId"}
BG_STATS_GAME = {"bggId", "highestWins", "name", "noPoints", "sourceGameId"}
BG_STATS_PLAYER = {"startPlayer", "name", "rank", "role", "score", "sourcePlayerId", "winner"}


def upload(client, body: bytes, name: str = "history.json"):
    form = {"csrf_token": csrf_token(client, "/history"), "file": (io.BytesIO(body), name)}
    return client.post("/history/import", data=form, content_type="multipart/form-data")


def stored(app) -> tuple[int, int, int]:
    with app.app_context():
        counts = tuple(db.session.scalar(select(func.count()).select_from(model))
                       for model in (Play, PlaySeat, PlayerAlias))
        db.session.remove()
    return counts


def exported(client) -> dict:
    body = json.loads(client.get("/history/export.json").data)
    body.pop("exported_at")
    return body


@pytest.fixture
def played(app, client):
    """A real history: two games played to their end, one table ended early, and a merge of two spellings."""
    for slug, names in (("flipside", ["Ann", "Bo"]), ("night-of-frights", ["anne", "Cy"])):
        play_to_end(app, client, open_table(client, slug, names))
    early = open_table(client, "crystal-lake", ["Bo", "Cy"])
    client.post(f"/api/tables/{early['code']}/actions", json={"type": "critical", "points": 4, "pan": 1},
                headers=bearer(early["host_token"]))
    client.post(f"/api/tables/{early['code']}/end", headers=bearer(early["host_token"]))
    merged = client.post("/history/people/merge", data={"csrf_token": csrf_token(client, "/history/people"),
                                                        "name": "anne", "into": "Ann"})
    assert merged.status_code == 303
    return client


def test_the_csv_opens_with_pythons_csv_module_under_the_documented_header(app, played):
    response = played.get("/history/export.csv")
    assert response.mimetype == "text/csv" and "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert tuple(rows[0]) == CSV_HEADER
    assert "`" + ",".join(CSV_HEADER) + "`" in DOCS  # the header docs/HISTORY.md documents, word for word
    records = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(records) == 2 + 2 + 2  # one row per player per play
    flipside = [record for record in records if record["game"] == "flipside"]
    assert {(record["player"], record["winner"], record["score"]) for record in flipside} == {
        ("Ann", "yes", "12"), ("Bo", "no", "0")}
    frights = {record["player"]: record for record in records if record["game"] == "night-of-frights"}
    assert frights["anne"]["person"] == "Ann" and frights["anne"]["status"] == "captured the guard"
    assert frights["anne"]["details"] == "Character: Bonnie; Scare Tracker: 3" and frights["Cy"]["score"] == ""
    assert {record["ending"] for record in records if record["game"] == "crystal-lake"} == {"ended early"}


def test_a_name_that_looks_like_a_formula_stays_text_in_the_csv(app, client):
    play_to_end(app, client, open_table(client, "flipside", ["=1+2", "Bo"]))
    [first, _] = list(csv.DictReader(io.StringIO(client.get("/history/export.csv").get_data(as_text=True))))
    assert first["player"] == "'=1+2"


def test_export_then_import_on_a_fresh_database_gives_the_same_history(app, played, tmp_path):
    before = exported(played)
    csv_before = played.get("/history/export.csv").get_data(as_text=True)
    stats_before = played.get("/api/stats").get_json()
    assert len(before["plays"]) == 3 and before["merges"] == [{"name": "anne", "person": "Ann"}]
    file = json.dumps({**before, "exported_at": "2026-12-01T00:00:00+00:00"}).encode()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    if POSTGRES_URL:
        reset_postgres(POSTGRES_URL)
    fresh = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "new-machine",
                        "SQLALCHEMY_DATABASE_URI": POSTGRES_URL or f"sqlite:///{tmp_path / 'new-machine.sqlite3'}"})
    upgrade_database(fresh)
    client = fresh.test_client()
    assert stored(fresh) == (0, 0, 0)
    response = upload(client, file)
    assert response.status_code == 303
    assert "Imported 3 plays." in page_text(client.get("/history"))
    assert exported(client) == before
    assert client.get("/history/export.csv").get_data(as_text=True) == csv_before
    assert client.get("/api/stats").get_json() == stats_before
    counts = stored(fresh)
    again = upload(client, file)
    assert again.status_code == 303 and "Imported 0 plays; 3 were already here." in page_text(client.get("/history"))
    assert stored(fresh) == counts  # importing twice doesn't duplicate
    with fresh.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("body,message", [
    (b"\x89PNG not json", "That file isn't JSON"),
    (b"[1, 2]", "isn't a Night Shift history"),
    (json.dumps({"format": "bgstats", "plays": []}).encode(), "isn't a Night Shift history"),
    (export_file(version=2), "is version 2 of Night Shift's history, and this Night Shift reads version 1"),
    (json.dumps({"format": "nightshift-history", "plays": []}).encode(), "doesn't say which version of Night Shift's"),
    (export_file([{**PLAYS[0], "ended_at": "yesterday"}]), "Play 1 in the file needs 'ended_at' as a date"),
    (export_file([PLAYS[0], {**PLAYS[1], "players": [{**PLAYS[1]["players"][0], "name": "<script>"}]}]),
     "Play 2 in the file has a player name that won't do"),
    (export_file([PLAYS[0], PLAYS[0]]), "holds the same play twice"),
    (export_file([{**PLAYS[0], "id": "../../etc"}]), "needs an 'id' of 8-32 hex digits"),
    (b"[" * 100_000 + b"]" * 100_000, "more than 32 deep"),
    # deep enough for json.loads, too deep to store: it answered 500 (a RecursionError writing it back)
    (export_file([{**PLAYS[0], "options": {"x": json.loads("[" * 940 + "]" * 940)}}]), "more than 32 deep"),
    # a lone surrogate (an unpaired \\ud800 escape) in any text: UTF-8 can't hold it, so storing it answered 500, or
    # (in options, stored escaped) every JSON download of the history did afterwards
    (export_file([{**PLAYS[0], "game_name": "x\ud800y"}]), "a broken character"),
    (export_file([{**PLAYS[0], "options": {"a": "\udfff"}}]), "a broken character"),
    (export_file([PLAYS[0]], merges=[{"name": "Ann", "person": "\udbff"}]), "a broken character"),
    # a year 1 or 9999 overflowed when pages showed it in the machine's time zone: every history page answered 500
    (export_file([{**PLAYS[0], "started_at": "0001-01-01T00:00:00+00:00", "ended_at": "0001-01-01T00:30:00+00:00"}]),
     "Play 1 in the file needs 'started_at' between the years 1900 and 2999"),
    (export_file([{**PLAYS[0], "ended_at": "9999-12-31T23:00:00+00:00"}]), "needs 'ended_at' between the years"),
    (export_file([{**PLAYS[0], "started_at": "0001-01-01T00:00:00+05:00"}]), "needs 'started_at' as a date"),
    # NaN and 1e999 (Infinity) were stored, and every JSON download of the history was then JSON no reader takes
    (export_file([{**PLAYS[0], "options": {"players": float("nan")}}]), "That file isn't JSON"),
    (export_file([{**PLAYS[0], "options": {"y": 1.5}}]).replace(b"1.5", b"1e999"), "That file isn't JSON"),
])
def test_a_file_that_isnt_night_shifts_history_is_refused_with_a_sentence_and_nothing_stored(app, client, body,
                                                                                           message):
    response = upload(client, body)
    assert response.status_code == 422
    assert message in page_text(response) and "Nothing was imported." in page_text(response)
    assert stored(app) == (0, 0, 0)


def test_an_imported_time_with_an_offset_is_stored_as_the_same_moment_in_utc(app, client):
    """The offset was dropped (22:00+05:00 stored as 22:00 UTC), so the play started after it ended, and its own
    export was refused on the next machine."""
    late = {**PLAYS[0], "started_at": "2026-11-10T22:00:00+05:00", "ended_at": "2026-11-10T18:00:00+00:00"}
    assert upload(client, export_file([late])).status_code == 303
    play = exported(client)["plays"][0]
    assert (play["started_at"], play["ended_at"]) == ("2026-11-10T17:00:00+00:00", "2026-11-10T18:00:00+00:00")
    assert upload(client, export_file([{**play, "id": "c" * 16}])).status_code == 303  # its export reads back


def test_an_import_too_large_or_from_a_phone_or_forged_is_refused(app, client, phone):
    huge = upload(client, b" " * (IMPORT_MAX_BYTES + 1))
    assert huge.status_code == 413 and "That file is over 8 MB" in page_text(huge)
    guest = app.test_client()
    guest.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    token = csrf_token(guest, "/new/flipside")
    refused = guest.post("/history/import", data={"csrf_token": token, "file": (io.BytesIO(export_file()), "h.json")},
                         content_type="multipart/form-data")
    assert refused.status_code == 403 and "Only the host machine" in page_text(refused)
    forged = client.post("/history/import", data={"file": (io.BytesIO(export_file()), "h.json")},
                         content_type="multipart/form-data")
    assert forged.status_code == 400 and "This form expired" in page_text(forged)
    missing = client.post("/history/import", data={"csrf_token": csrf_token(client, "/history")})
    assert missing.status_code == 400 and "Choose the history file" in page_text(missing)
    assert stored(app) == (0, 0, 0)


def test_bg_stats_gets_its_documented_field_names(app, played):
    plays = json.loads(played.get("/history/export.bgstats.json").data)
    assert len(plays) == 3
    for entry in plays:
        assert set(entry) <= BG_STATS_PLAY and {"sourceName", "sourcePlayId", "playDate", "durationMin", "game",
                                                "players"} <= set(entry)
        assert set(entry["game"]) <= BG_STATS_GAME and entry["game"]["name"]
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", entry["playDate"])
        assert isinstance(entry["durationMin"], int) and entry["sourceName"] == "Night Shift"
        for player in entry["players"]:
            assert set(player) <= BG_STATS_PLAYER and {"name", "winner"} <= set(player)
    flipside = next(entry for entry in plays if entry["game"]["sourceGameId"] == "flipside")
    assert flipside["game"]["highestWins"] and not flipside["game"]["noPoints"]
    assert [(player["name"], player["score"], player["winner"], player["rank"], player["role"])
            for player in flipside["players"]] == [("Ann", 12, True, 1, "Player 1"), ("Bo", 0, False, 2, "Player 2")]
    frights = next(entry for entry in plays if entry["game"]["sourceGameId"] == "night-of-frights")
    assert frights["game"]["noPoints"] and all("score" not in player for player in frights["players"])
    assert frights["players"][0]["name"] == "Ann"  # the merged spelling goes out as the person
    early = next(entry for entry in plays if entry["game"]["sourceGameId"] == "crystal-lake")
    assert "ended this table before the game's end" in early["comments"]
    assert all("rank" not in player and not player["winner"] for player in early["players"])


def test_a_plays_page_links_to_bg_stats_with_the_same_play(app, played):
    uid = json.loads(played.get("/history/export.json").data)["plays"][-1]["id"]
    page = page_text(played.get(f"/history/plays/{uid}"))
    link = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', page).group(1)
    assert link.startswith(BG_STATS_LINK)
    assert json.loads(unquote(link[len(BG_STATS_LINK):])) == json.loads(
        played.get(f"/history/plays/{uid}/bgstats.json").data)
    one = json.loads(played.get(f"/history/plays/{uid}/play.json").data)
    assert [play["id"] for play in one["plays"]] == [uid]
    assert one["merges"] == [{"name": "anne", "person": "Ann"}]  # Ann played Flipside: her merge goes along
    early = next(play["id"] for play in json.loads(played.get("/history/export.json").data)["plays"]
                 if play["game"] == "crystal-lake")
    assert json.loads(played.get(f"/history/plays/{early}/play.json").data)["merges"] == []  # Bo and Cy: none
    assert list(csv.reader(io.StringIO(played.get(f"/history/plays/{uid}/play.csv").get_data(as_text=True))))[0] \
        == list(CSV_HEADER)
