"""The history pages and API: newest first, filters, who sees which plays, merges, and every refusal a sentence."""

import re

import pytest
from sqlalchemy import func, select

from app.extensions import db
from app.history.models import PlayerAlias
from tests.conftest import any_csrf_token, bearer, csrf_token, page_text
from tests.history.drive import open_table, play_to_end

LAN = {"REMOTE_ADDR": "192.168.1.77"}  # a phone on the Wi-Fi, not the machine Night Shift runs on


def phone_at(app, table: dict | None = None, name: str = "Dee"):
    """A phone's browser on the LAN that joined `table` by its QR link (the seat token goes into its cookie)."""
    phone = app.test_client()
    phone.environ_base.update(LAN)
    if table is not None:
        token = any_csrf_token(phone)
        joined = phone.post(f"/j/{table['code']}", data={"csrf_token": token, "k": table["join_key"], "name": name})
        assert joined.status_code == 303
    return phone


def play_ids(response) -> list[str]:
    return re.findall(r'href="/history/plays/([0-9a-f]{16})"', response.get_data(as_text=True))


@pytest.fixture
def tables(app, client):
    """Three plays, oldest first: Flipside (Ann, Bo), Night of Frights (ann, Cy; a phone left a seat for Dee to
    join later), and Crystal Lake (Bo, Cy), each with a phone's browser at one seat."""
    first = open_table(client, "flipside", ["Ann", "Bo"])
    play_to_end(app, client, first)
    second = open_table(client, "night-of-frights", ["ann", "Cy"])
    play_to_end(app, client, second)
    third = open_table(client, "crystal-lake", ["Bo", "Cy"])
    play_to_end(app, client, third)
    uids = {entry["table"]: entry["id"] for entry in client.get("/api/plays").get_json()["plays"]}
    return [dict(table, uid=uids[table["code"]]) for table in (first, second, third)]


def test_the_host_machine_sees_every_play_newest_first_and_filters_them(client, tables):
    page = client.get("/history")
    assert page.status_code == 200
    assert play_ids(page) == [table["uid"] for table in reversed(tables)]
    assert "Every game played here, newest first." in page_text(page)
    assert play_ids(client.get("/history?game=flipside")) == [tables[0]["uid"]]
    assert play_ids(client.get("/history?player=ANN")) == [tables[1]["uid"], tables[0]["uid"]]  # any capitals
    assert play_ids(client.get("/history?player=cy&game=crystal-lake")) == [tables[2]["uid"]]
    assert play_ids(client.get("/history?player=Zed")) == []
    assert "No play matches these filters" in page_text(client.get("/history?player=Zed"))
    api = client.get("/api/plays?player=ann&limit=1").get_json()
    assert [play["id"] for play in api["plays"]] == [tables[1]["uid"]] and api["more"]


@pytest.mark.parametrize("query,message", [
    ("game=chess", "There is no game 'chess' in the history"),
    ("game=%3Cscript%3E", "There is no game '<script>' in the history"),
    ("player=%3Cb%3Ehi", "can't contain"),
    ("page=%C2%B2", "The page must be a whole number"),
    ("page=0", "The page must be a whole number"),
    ("limit=500", "Use ?limit= from 1 to 200"),
    # past Python's 4,300 digits int() raised ValueError: a 500 (gunicorn caps the request line; a proxy may not)
    ("page=" + "9" * 5000, "The page must be a whole number"),
    ("limit=" + "9" * 5000, "Use ?limit= from 1 to 200"),
])
def test_a_bad_filter_is_a_400_with_a_sentence(client, tables, query, message):
    for path in ("/history", "/api/plays"):
        if "limit" in query and path == "/history":
            continue
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, (path, query)
        assert message in (response.get_json()["error"] if response.is_json else page_text(response))


def test_a_phone_sees_only_the_plays_of_tables_it_sat_at(app, client, tables):
    table = open_table(client, "flipside", ["Eve"])  # seat 2 stays free for the phone
    dee = phone_at(app, table, "Dee")
    play_to_end(app, client, table)
    mine = client.get("/api/plays?game=flipside&player=Dee").get_json()["plays"][0]["id"]
    page = dee.get("/history")
    assert play_ids(page) == [mine] and "The games of the tables this phone sat at" in page_text(page)
    assert [play["id"] for play in dee.get("/api/plays").get_json()["plays"]] == [mine]
    assert dee.get(f"/history/plays/{mine}").status_code == 200
    other = dee.get(f"/history/plays/{tables[0]['uid']}")
    assert other.status_code == 403 and "a table this device didn't sit at" in page_text(other)
    assert dee.get(f"/api/plays/{tables[0]['uid']}").status_code == 403
    assert [row["name"] for row in dee.get("/api/stats").get_json()["players"]] == ["Dee", "Eve"]
    assert dee.get("/history/people").status_code == 403
    stranger = phone_at(app)
    assert "This phone hasn't been at a table whose game ended yet" in page_text(stranger.get("/history"))
    assert stranger.get("/api/plays").status_code == 401
    assert "Send a host or seat token" in stranger.get("/api/stats").get_json()["error"]


def test_the_host_machine_sees_every_play_and_a_host_token_only_the_tables_it_hosted(app, client, tables):
    assert len(play_ids(client.get("/history"))) == 3 and "Names" in page_text(client.get("/history"))  # loopback
    lan_host = phone_at(app)  # anyone on the Wi-Fi can open a table: that makes them its host, not the host machine
    created = lan_host.post("/new/flipside", data={"csrf_token": csrf_token(lan_host, "/new/flipside"),
                                                   "players": "2"})
    assert created.status_code == 303
    assert play_ids(lan_host.get("/history")) == []
    script = phone_at(app)
    for token, seen in ((tables[0]["host_token"], 1), (tables[1]["seats"][1], 1)):
        assert len(script.get("/api/plays", headers=bearer(token)).get_json()["plays"]) == seen
    proxied = app.test_client()
    proxied.environ_base["HTTP_X_FORWARDED_FOR"] = "192.168.1.80"  # loopback, but relayed by a proxy
    assert proxied.get("/api/plays").status_code == 401
    junk = script.get("/api/plays", headers=bearer("not-a-token-anyone-issued"))
    assert junk.status_code == 401 and "never issued here" in junk.get_json()["error"]


def test_a_plays_page_shows_the_result_each_seats_figures_and_the_way_to_its_log(client, tables):
    page = client.get(f"/history/plays/{tables[2]['uid']}")
    text = page_text(page)
    assert page.status_code == 200 and "Friday the 13th: Horror at Camp Crystal Lake" in text
    assert "Help has arrived!" in text and re.search(r"Winners?: (Bo|Cy) \(Counselor \d\)", text)
    assert "Night 5" in text and "Nights scored" in text and "Dice commitment" in text
    assert "style=" not in page.get_data(as_text=True)
    # the host machine's browser made these tables through the API, so it holds no cookie for them
    assert "open on the devices that sat at it" in text
    frights = page_text(client.get(f"/history/plays/{tables[1]['uid']}"))
    assert "captured the guard" in frights and "Captured by" in frights


def test_the_play_page_links_to_the_log_and_dice_check_for_a_device_that_sat_at_the_table(app, client):
    table = open_table(client, "flipside", ["Eve"])
    dee = phone_at(app, table, "Dee")
    play_to_end(app, client, table)
    uid = client.get("/api/plays").get_json()["plays"][0]["id"]
    page = dee.get(f"/history/plays/{uid}").get_data(as_text=True)
    assert f'href="/t/{table["code"]}/log"' in page and f'href="/t/{table["code"]}/verify"' in page


def test_unknown_plays_are_a_404_with_a_sentence(client, tables):
    for uid in ("ffffffffffffffff", "nope", "x" * 40):
        for path in (f"/history/plays/{uid}", f"/api/plays/{uid}", f"/history/plays/{uid}/play.json"):
            response = client.get(path)
            assert response.status_code == 404
            text = response.get_json()["error"] if response.is_json else page_text(response)
            assert "no play" in text


def test_the_home_page_and_a_finished_tables_host_screen_link_to_the_history(app, client, tables):
    assert 'href="/history"' in client.get("/").get_data(as_text=True)
    host = app.test_client()
    created = host.post("/new/flipside", data={"csrf_token": csrf_token(host, "/new/flipside"), "players": "2"})
    code = created.headers["Location"].rsplit("/", 1)[-1]
    screen = host.get(f"/t/{code}").get_data(as_text=True)
    assert "/history/table/" not in screen  # not before the game has ended
    ended = host.post(f"/t/{code}/end", data={"csrf_token": csrf_token(host, f"/t/{code}")})
    assert ended.status_code == 303
    screen = host.get(f"/t/{code}").get_data(as_text=True)
    assert f'href="/history/table/{code}"' in screen
    nothing = host.get(f"/history/table/{code}", follow_redirects=True)  # ended before a move: no play
    assert "has no play in the history yet" in page_text(nothing)
    found = client.get(f"/history/table/{tables[0]['code']}")
    assert found.status_code == 302 and found.headers["Location"].endswith(f"/history/plays/{tables[0]['uid']}")


def merge(client, name, into):
    return client.post("/history/people/merge", data={"csrf_token": csrf_token(client, "/history/people"),
                                                      "name": name, "into": into})


def aliases(app) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(PlayerAlias))
        db.session.remove()
    return count


def test_the_host_merges_two_spellings_and_can_undo_it(app, client, tables):
    play_to_end(app, client, open_table(client, "flipside", ["Anne", "Bo"]))
    assert len(play_ids(client.get("/history?player=Ann"))) == 2
    response = merge(client, "anne", "Ann")
    assert response.status_code == 303
    assert "every play of “anne” counts as Ann's" in page_text(client.get("/history/people"))
    assert len(play_ids(client.get("/history?player=ann"))) == 3
    assert len(play_ids(client.get("/history?player=ANNE"))) == 3
    flipside = client.get("/api/stats?player=Ann&game=flipside").get_json()["players"][0]
    assert (flipside["name"], flipside["plays"]) == ("Ann", 2)
    # a merge into whoever the name already counts as is refused, like a merge into itself
    again = merge(client, "Ann", "ANNE")
    assert again.status_code == 409 and "already counts as Ann" in page_text(again)
    undone = client.post("/history/people/unmerge", data={"csrf_token": csrf_token(client, "/history/people"),
                                                          "name": "anne"})
    assert undone.status_code == 303 and aliases(app) == 0
    assert len(play_ids(client.get("/history?player=ann"))) == 2


@pytest.mark.parametrize("name,into,status,message", [
    ("Ann", "ann", 400, "are the same name already"),
    ("Ann", "Ann", 400, "are the same name already"),
    ("Zed", "Ann", 404, "Nobody called “Zed” has played here yet"),
    ("Ann", "", 400, "Type a name to merge it into"),
    ("<b>", "Ann", 400, "can't contain"),
])
def test_a_merge_that_makes_no_sense_is_refused_and_nothing_stored(app, client, tables, name, into, status, message):
    response = merge(client, name, into)
    assert response.status_code == status and message in page_text(response)
    assert aliases(app) == 0


def test_only_the_host_machine_merges(app, client, tables):
    phone = phone_at(app, open_table(client, "flipside", ["Eve"]))
    response = phone.post("/history/people/merge", data={"csrf_token": any_csrf_token(phone), "name": "Ann",
                                                         "into": "Bo"})
    assert response.status_code == 403 and aliases(app) == 0
