"""Stats over a history built by hand equal the counts made by hand, in Python and through the API."""

import io

import pytest

from app.history import stats
from app.history.names import People, key
from tests.conftest import csrf_token, page_text
from tests.history.history import CUT, LAKE, PLAYS, SIX_AM, export_file

DAY = "2026-11-{:02d}T{:s}+00:00"


def row(rows, name, game):
    [found] = [entry.as_dict() for entry in rows if entry.person == name and entry.game == game]
    return found


def test_per_player_and_game_stats_equal_a_hand_count():
    rows = stats.by_player(PLAYS, People({}))
    assert row(rows, "Ann", SIX_AM) == {
        "name": "Ann", "game": SIX_AM, "game_name": PLAYS[0]["game_name"], "plays": 2, "wins": 1, "win_rate": 0.5,
        "score_name": "power left", "average_score": 40.0, "best_score": 40,
        # only the night Ann survived to 6:00 AM counts: caught on Nov 3, her 70 power left decided nothing
        "records": {"Power at 6:00 AM": 40},
        "last_played": "2026-11-03T20:30:00+00:00"}  # the play ended early (Nov 4) counts for nothing
    bo = row(rows, "Bo", SIX_AM)
    assert (bo["plays"], bo["wins"], bo["average_score"], bo["best_score"], bo["records"]) == (
        2, 1, 25.0, 25, {"Power at 6:00 AM": 25})
    # "Ann" and "ann" are one person, shown as the spelling of their newest play (Director's Cut, Nov 7)
    lake = {entry.person: entry.as_dict() for entry in rows if entry.game == LAKE}
    assert sorted(lake) == ["Ann", "Bo", "Cy"]
    assert (lake["Ann"]["plays"], lake["Ann"]["wins"], lake["Ann"]["average_score"], lake["Ann"]["best_score"],
            lake["Ann"]["records"]) == (2, 1, 35.5, 41, {"Best night": 12})
    assert (lake["Cy"]["plays"], lake["Cy"]["wins"], lake["Cy"]["win_rate"], lake["Cy"]["average_score"]) == (
        2, 0, 0.0, 25.0)
    assert (lake["Bo"]["plays"], lake["Bo"]["wins"], lake["Bo"]["records"]) == (1, 1, {"Best night": 8})
    cut = {entry.person: entry.as_dict() for entry in rows if entry.game == CUT}
    assert {name: (entry["plays"], entry["wins"]) for name, entry in cut.items()} == {
        "Ann": (2, 1), "Annie": (1, 1), "Bo": (1, 1), "Cy": (1, 1)}
    assert cut["Ann"]["average_score"] is None and cut["Ann"]["best_score"] is None


def test_per_game_stats_equal_a_hand_count():
    games = {summary.game: summary.as_dict() for summary in stats.by_game(PLAYS, People({}))}
    assert (games[SIX_AM]["plays"], games[SIX_AM]["ended_early"], games[SIX_AM]["average_duration_seconds"]) == (
        2, 1, 40 * 60)
    assert games[SIX_AM]["sides"] == [{"side": "Orange", "wins": 1}, {"side": "Purple", "wins": 1}]
    # Issue 46: the loser's power left on Nov 3 (70, Office entered) is no "best power left"
    assert games[SIX_AM]["best_score"]["value"] == 40 and games[SIX_AM]["best_score"]["who"] == "Ann"
    assert games[SIX_AM]["scores_left_out"] == 1 and games[LAKE]["scores_left_out"] == 0
    assert games[LAKE]["sides"] == []  # a game without sides shows wins by player instead
    assert games[LAKE]["wins_by_player"] == [{"name": "Bo", "wins": 1}, {"name": "Ann", "wins": 1}]
    assert games[LAKE]["best_score"] == {"value": 41, "who": "Ann", "play": "a0000000000000b2",
                                         "when": "2026-11-05T21:10:00+00:00"}
    assert games[LAKE]["records"]["Best night"]["value"] == 12
    assert games[CUT]["plays"] == 3 and games[CUT]["average_duration_seconds"] == 40 * 60
    assert games[CUT]["sides"] == [{"side": "Guards", "wins": 2}, {"side": "Animatronics", "wins": 1}]
    assert games[CUT]["by_scenario"] == {
        "The Second Night": [{"side": "Guards", "wins": 1}, {"side": "Animatronics", "wins": 1}],
        "The Third Night": [{"side": "Guards", "wins": 1}]}


def test_a_merge_counts_one_persons_two_spellings_together():
    people = People({key("Annie"): "Ann"})
    cut = {entry.person: entry.as_dict() for entry in stats.by_player(PLAYS, people, game=CUT)}
    assert (cut["Ann"]["plays"], cut["Ann"]["wins"]) == (3, 2) and "Annie" not in cut
    assert stats.by_player(PLAYS, people, player="ANNIE", game=CUT)[0].plays == 3


@pytest.fixture
def imported(client):
    form = {"csrf_token": csrf_token(client, "/history"), "file": (io.BytesIO(export_file()), "history.json")}
    response = client.post("/history/import", data=form, content_type="multipart/form-data")
    assert response.status_code == 303, response.data
    return client


def test_the_stats_api_gives_the_same_hand_count(imported):
    body = imported.get("/api/stats?player=ann&game=crystal-lake").get_json()
    assert body["player"] == "ann" and body["game"] == LAKE  # as asked; the rows name the person
    [ann] = body["players"]
    assert (ann["plays"], ann["wins"], ann["average_score"], ann["best_score"], ann["records"]) == (
        2, 1, 35.5, 41, {"Best night": 12})
    [game] = body["games"]
    assert ann["name"] == "Ann" and game["best_score"]["who"] == "Ann" and game["plays"] == 2
    every = imported.get("/api/stats").get_json()
    assert {entry["game"]: entry["plays"] for entry in every["games"]} == {SIX_AM: 2, LAKE: 2, CUT: 3}


def test_the_stats_pages_show_the_hand_count_and_draw_their_charts(imported):
    page = imported.get("/history/stats?player=Ann").get_data(as_text=True)
    assert "Wins out of plays, by game" in page and "1 of 2 won" in page
    assert page.count('<svg class="chart"') == 3  # wins by game, and the scores of 6AM and Crystal Lake
    assert 'role="img"' in page and "style=" not in page
    game = imported.get("/history/stats?game=directors-cut").get_data(as_text=True)
    assert "How often each side wins" in game and "The Third Night" in game and "2 of 3" in game
    overview = imported.get("/history/stats").get_data(as_text=True)
    assert "Plays by game" in overview and "Most wins" in overview


@pytest.mark.parametrize("query,message", [
    ("player=Nobody", "Nobody called “Nobody” played"),
    ("game=chess", "There is no game 'chess' in the history"),
    ("player=" + "x" * 70, "names are at most 64"),
    ("player=%3Cb%3E", "can't contain"),
])
def test_a_bad_stats_filter_is_a_sentence(imported, query, message):
    for path in ("/history/stats?", "/api/stats?"):
        response = imported.get(path + query)
        assert response.status_code in (400, 404)
        assert message in (response.get_json()["error"] if response.is_json else page_text(response))
