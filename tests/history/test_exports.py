"""Exports: the CSV opens with Python's csv module under the documented header, BG Stats gets its documented field
names, and Night Shift's JSON imported on a fresh database gives the same history back, once however often."""

import csv
import io
import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import unquote

import pytest
from sqlalchemy import func, select

from app import create_app
from app.database import upgrade_database
from app.errors import Unavailable
from app.extensions import db
from app.history.exports import BG_STATS_LINK, CSV_HEADER, IMPORT_MAX_BYTES
from app.history.models import Play, PlayerAlias, PlaySeat
from tests.conftest import POSTGRES_URL, bearer, create_via_api, csrf_token, join_via_api, page_text, reset_postgres
from tests.history.drive import open_table, play_to_end
from tests.history.history import PLAYS, export_file, upload

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "HISTORY.md").read_text(encoding="utf-8")

# BG Stats' "push plays to BG Stats from other apps" format, as its support page documents it
BG_STATS_PLAY = {"board", "durationMin", "comments", "game", "location", "playDate", "players", "sourceName",
                 "sourcePlayId"}
BG_STATS_GAME = {"bggId", "cooperative", "highestWins", "name", "noPoints", "sourceGameId"}
BG_STATS_PLAYER = {"startPlayer", "name", "rank", "role", "score", "sourcePlayerId", "winner"}


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


def test_every_csv_text_cell_that_starts_like_a_formula_stays_text_in_both_exports(app, client):
    """An imported play's table code and a full-width '＝1+1' name reached both CSVs as formulas."""
    players = [{**PLAYS[0]["players"][0], "name": "＝1+1", "seat_name": "+SUM(A1)"},
               {**PLAYS[0]["players"][1], "name": "@cmd", "seat_name": "－1"}]
    formulas = {**PLAYS[0], "table": "=1+2", "game_name": "﹦HYPERLINK(0)", "result": "\t=2", "players": players}
    assert upload(client, export_file([formulas])).status_code == 303
    for url in ("/history/export.csv", f"/history/plays/{formulas['id']}/play.csv"):
        rows = list(csv.DictReader(io.StringIO(client.get(url).get_data(as_text=True))))
        assert [(row["table"], row["game_name"], row["result"]) for row in rows] == [
            ("'=1+2", "'﹦HYPERLINK(0)", "'\t=2")] * 2
        assert [(row["player"], row["person"], row["seat_name"]) for row in rows] == [
            ("'＝1+1", "'＝1+1", "'+SUM(A1)"), ("'@cmd", "'@cmd", "'－1")]
        assert all(row["score"] in ("", "40", "25") for row in rows)  # numbers stay numbers


def test_imported_free_text_is_bounded_like_a_tables_own(app, client):
    """A single 7 MB options string was imported and stored whole."""
    for play, message in (({**PLAYS[0], "options": {"notes": "x" * 7_000_000}}, "needs 'options' as an object of at "
                                                                                "most 8,000 characters"),
                          ({**PLAYS[0], "readings": PLAYS[0]["readings"] * 61}, "at most 60 options")):
        refused = upload(client, export_file([play]))
        assert refused.status_code == 422 and message in page_text(refused)
    names = [{"name": f"N{n}", "person": "Ann"} for n in range(5_001)]
    refused = upload(client, export_file([PLAYS[0]], merges=names))
    assert refused.status_code == 422 and "more than 5,000 merged names" in page_text(refused)
    assert stored(app) == (0, 0, 0)
    status = upload(client, export_file([{**PLAYS[0], "options": {"notes": "x" * 7_000}}])).status_code
    assert status == 303


def test_a_long_import_commits_a_chunk_at_a_time_and_takes_them_back_if_one_fails(app, client, monkeypatch):
    """The whole file in one transaction held every table on the worker for seconds; all or nothing still holds."""
    from app.history import exports

    monkeypatch.setattr(exports, "CHUNK", 3)
    commits, store = [], exports._store

    def failing_third(plays, merges):
        commits.append(len(plays))
        if len(commits) == 3:
            raise Unavailable("Night Shift can't save anything: the disk holding its database is full.")
        store(plays, merges)

    monkeypatch.setattr(exports, "_store", failing_third)
    refused = upload(client, export_file(merges=[{"name": "anne", "person": "Ann"}]))
    assert refused.status_code == 503 and "can't save" in page_text(refused)
    assert commits == [3, 3, 2] and stored(app) == (0, 0, 0)  # the first two chunks were taken back
    monkeypatch.setattr(exports, "_store", store)
    assert upload(client, export_file(merges=[{"name": "anne", "person": "Ann"}])).status_code == 303
    assert stored(app)[0] == len(PLAYS) and stored(app)[2] == 1


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


# ---- issue 46: exports that agree with the result ---------------------------------------------------------------

def six_am_won_with_less_power(app, client) -> str:
    """Survive 'Til 6AM: Ann (Orange) ends with 35 power left, Bo (Purple) with 40, and an Animatronic reaches Bo's
    Office in Phase Three: Ann wins with less power. The play's id."""
    table = create_via_api(client, "survive-6am", {"players": 2})
    ann, bo = (join_via_api(client, table, name)["seat_token"] for name in ("Ann", "Bo"))
    host = table["host_token"]

    def move(token, action):
        response = client.post(f"/api/tables/{table['code']}/actions", json=action, headers=bearer(token))
        assert response.status_code == 200, response.get_json()

    for ann_dice, bo_dice in (([20, 20], [20, 20]), ([20, 5], [15, 5])):
        move(host, {"type": "advance-time"})
        move(host, {"type": "cameras-flipped"})
        move(ann, {"type": "react", "cards": 2, "depletion": 0, "values": ann_dice})
        move(bo, {"type": "react", "cards": 2, "depletion": 0, "values": bo_dice})
    move(host, {"type": "office", "whose": 2})
    return next(play["id"] for play in json.loads(client.get("/history/export.json").data)["plays"]
                if play["game"] == "survive-6am")


def test_a_6am_game_won_with_less_power_is_exported_winner_first_without_contradiction(app, client):
    """Issue 46: BG Stats said higher score wins while the winner had 35 power left and the loser 40, and the stats
    named the loser's 40 the best power left. Power doesn't decide a night an Office was entered: no export gives a
    score for it, every one ranks the winner first, and the stats leave it out."""
    uid = six_am_won_with_less_power(app, client)
    play = json.loads(client.get(f"/history/plays/{uid}/play.json").data)["plays"][0]
    assert [(seat["name"], seat["score"], seat["winner"]) for seat in play["players"]] == [("Ann", 35, True),
                                                                                          ("Bo", 40, False)]
    assert play["score_decides"] is False
    bgstats = json.loads(client.get(f"/history/plays/{uid}/bgstats.json").data)
    assert bgstats["game"]["highestWins"] and not bgstats["game"]["noPoints"]
    assert [(player["name"], player["winner"], player["rank"]) for player in bgstats["players"]] == [
        ("Ann", True, 1), ("Bo", False, 2)]
    assert all("score" not in player for player in bgstats["players"])
    assert "Power left didn't decide this play: the result did, so no score is given." in bgstats["comments"]
    bgg = ElementTree.fromstring(client.get(f"/history/plays/{uid}/bgg.xml").data)
    players = bgg.findall("./play/players/player")
    assert [(player.get("name"), player.get("win"), player.get("score")) for player in players] == [
        ("Ann", "1", ""), ("Bo", "0", "")]
    rows = list(csv.DictReader(io.StringIO(client.get(f"/history/plays/{uid}/play.csv").get_data(as_text=True))))
    assert [(row["player"], row["winner"], row["score"], row["score_decides"]) for row in rows] == [
        ("Ann", "yes", "35", "no"), ("Bo", "no", "40", "no")]
    stats_page = " ".join(re.sub(r"<[^>]+>", " ", page_text(client.get("/history/stats?game=survive-6am"))).split())
    assert "Best power left" not in stats_page and "40 by Bo" not in stats_page
    assert "Left out of the power left 1 play where power left didn't decide the winner" in stats_page
    assert "Power left didn't decide this play" in page_text(client.get(f"/history/plays/{uid}"))


def test_a_directors_cut_export_marks_the_game_cooperative_with_the_animatronics_as_the_other_side(app, client):
    """Issue 46: 'Director's Cut's guards are one side': BG Stats gets a cooperative game, and each player's role
    names their side; the animatronics' players are the other."""
    play_to_end(app, client, open_table(client, "directors-cut"))
    [entry] = json.loads(client.get("/history/export.bgstats.json").data)
    assert entry["game"]["cooperative"] is True and entry["game"]["noPoints"]
    assert [(player["name"], player["role"], player["winner"], player["rank"]) for player in entry["players"]] == [
        ("Ann", "Guards (Guard 1)", False, 2), ("Bo", "Animatronics (Bonnie)", True, 1),
        ("Cy", "Animatronics (Chica)", True, 1)]
    play = json.loads(client.get("/history/export.json").data)["plays"][0]
    assert play["cooperative"] is True and play["teams"] == {"Guards": [1], "Animatronics": [2, 3]}
    assert [row["team"] for row in csv.DictReader(io.StringIO(client.get("/history/export.csv").get_data(
        as_text=True)))] == ["Guards", "Animatronics", "Animatronics"]


def test_an_18_second_game_is_1_minute_on_every_page_and_in_every_export(app, client):
    """Issue 46: '1 min' on /history and 0 minutes in the CSV. One length everywhere."""
    quick = {**PLAYS[3], "id": "a0000000000000d1", "started_at": "2026-11-02T20:00:00+00:00",
             "ended_at": "2026-11-02T20:00:18+00:00", "duration_seconds": 18}
    assert upload(client, export_file([quick])).status_code == 303
    assert "· 1 min" in page_text(client.get("/history")) and "· 1 min" in page_text(client.get(
        "/history/plays/a0000000000000d1"))
    assert {row["duration_minutes"] for row in csv.DictReader(io.StringIO(client.get(
        "/history/export.csv").get_data(as_text=True)))} == {"1"}
    assert json.loads(client.get("/history/export.bgstats.json").data)[0]["durationMin"] == 1
    assert ElementTree.fromstring(client.get("/history/export.bgg.xml").data).find("play").get("length") == "1"
    assert "1 min" in page_text(client.get("/history/stats?game=crystal-lake"))


def test_the_bgg_plays_xml_is_a_download_beside_the_others_in_boardgamegeeks_shape(app, played):
    """<plays><play date quantity length incomplete nowinstats location><item name objecttype objectid/>
    <players><player name startposition score win new/>, beside JSON, CSV and BG Stats on /history."""
    index = page_text(played.get("/history"))
    assert 'href="/history/export.bgg.xml"' in index
    response = played.get("/history/export.bgg.xml")
    assert response.mimetype == "application/xml" and "attachment" in response.headers["Content-Disposition"]
    root = ElementTree.fromstring(response.data)
    assert root.tag == "plays" and len(root.findall("play")) == 3
    for play in root.findall("play"):
        assert set(play.attrib) >= {"date", "quantity", "length", "incomplete", "nowinstats", "location"}
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", play.get("date")) and play.get("quantity") == "1"
        item = play.find("item")
        assert item.get("objecttype") == "thing" and item.get("name") and "objectid" in item.attrib
        for player in play.findall("players/player"):
            assert set(player.attrib) >= {"name", "startposition", "score", "win", "new"}
    by_game = {play.find("item").get("name"): play for play in root.findall("play")}
    flipside = by_game["Five Nights at Freddy's: Flipside"]
    assert [(player.get("name"), player.get("score"), player.get("win"), player.get("startposition"))
            for player in flipside.findall("players/player")] == [("Ann", "12", "1", "1"), ("Bo", "0", "0", "2")]
    early = by_game["Friday the 13th: Horror at Camp Crystal Lake"]
    assert (early.get("incomplete"), early.get("nowinstats")) == ("1", "1")
    assert "ended this table before the game's end" in early.find("comments").text
    uid = json.loads(played.get("/history/export.json").data)["plays"][0]["id"]
    assert f'href="/history/plays/{uid}/bgg.xml"' in page_text(played.get(f"/history/plays/{uid}"))
    one = ElementTree.fromstring(played.get(f"/history/plays/{uid}/bgg.xml").data)
    assert [play.get("id") for play in one.findall("play")] == [uid]
    assert played.get("/history/plays/ffffffffffffffff/bgg.xml").status_code == 404
