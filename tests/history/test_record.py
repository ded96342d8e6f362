"""A play is written with the move that ends a game, follows undo, redo and jump, and outlives its table."""

import pytest
from sqlalchemy import func, select, text

from app.extensions import db
from app.games import REGISTRY
from app.history.models import ENDED_EARLY, FINISHED, Play, PlayKey
from app.models import Table
from tests.conftest import act_via_api, bearer, create_via_api, join_via_api
from tests.history.drive import GAMES, open_table, play_to_end, state_of


def plays_of(app, code: str) -> list[Play]:
    """Every play row of a table (taken back or not), with its seats loaded."""
    with app.app_context():
        table_id = db.session.scalar(select(Table.id).where(Table.code == code))
        rows = list(db.session.scalars(select(Play).where(Play.table_id == table_id)))
        for row in rows:
            _ = (row.seats, row.keys)
        db.session.expunge_all()
        db.session.remove()
    return rows


def host_step(client, table, step: str, **body):
    return client.post(f"/api/tables/{table['code']}/{step}", json=body, headers=bearer(table["host_token"]))


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_finished_game_writes_exactly_one_play_with_the_games_own_winners_and_scores(app, client, slug):
    table = open_table(client, slug)
    play_to_end(app, client, table)
    state = state_of(app, table["code"])
    rules = REGISTRY[slug].rules
    outcome = rules.outcome(state)
    [play] = plays_of(app, table["code"])
    assert play.ending == FINISHED and not play.undone and play.result == outcome.text
    assert play.game == slug and play.table_code == table["code"] and play.shared == outcome.shared
    assert sorted(seat.number for seat in play.winners) == sorted(outcome.winners)
    names = GAMES[slug][1]
    assert [(seat.number, seat.player) for seat in play.seats] == list(enumerate(names, start=1))
    assert play.moves > 0 and play.ended_at >= play.started_at
    assert play.dice_commitment == client.get(f"/api/tables/{table['code']}/dice",
                                              headers=bearer(table["host_token"])).get_json()["commitment"]
    seats = {seat.number: seat for seat in play.seats}
    if slug == "crystal-lake":
        from app.games.crystal_lake.rules import total_points

        assert {number: seat.score for number, seat in seats.items()} == {
            seat: total_points(state["players"][str(seat)]) for seat in state["seats"]}
        nights = state["players"]["1"]["nights"]
        assert seats[1].details == [[f"Night {night['night']}", night["total"]] for night in nights]
        assert seats[1].records == {"Best night": max(night["total"] for night in nights)}
        assert play.figures["score"] == "points"
    elif slug == "survive-6am":
        assert {number: seat.score for number, seat in seats.items()} == {
            seat: state["guards"][str(seat)]["power"] for seat in state["seats"]}
        assert all(seat.records == {"Power at 6:00 AM": seat.score} for seat in play.seats)
        assert ["The night ended at", "6:00 AM"] in play.figures["facts"]
    elif slug == "flipside":
        assert {number: seat.score for number, seat in seats.items()} == {1: 12, 2: 0}
        assert seats[2].status == "out at 0 Health" and play.figures["score"] == "health"
    elif slug == "night-of-frights":
        assert seats[1].status == "captured the guard" and seats[2].status is None
        assert play.figures["side"] == "Bonnie" and ["Captured by", "Bonnie"] in play.figures["facts"]
        assert all(seat.score is None for seat in play.seats)
    elif slug == "directors-cut":
        assert seats[1].status == state["guards"]["1"] == "dead"
        assert (seats[2].status, seats[3].status) == ("played Bonnie", "played Chica")
        assert play.figures["side"] == "Animatronics" and play.figures["scenario"] == "The Second Night"
    # the host's and every phone's token may see it later, whatever happens to the table
    assert len(play.keys) == 1 + len(names)


def test_undoing_the_final_move_hides_the_play_and_redo_brings_the_same_one_back(app, client):
    table = open_table(client, "flipside")
    play_to_end(app, client, table)
    [first] = plays_of(app, table["code"])
    assert host_step(client, table, "undo").status_code == 200
    [undone] = plays_of(app, table["code"])
    assert undone.uid == first.uid and undone.undone
    assert client.get("/api/plays", headers=bearer(table["host_token"])).get_json()["plays"] == []
    assert client.get(f"/api/plays/{first.uid}", headers=bearer(table["host_token"])).status_code == 404
    assert host_step(client, table, "redo").status_code == 200
    [back] = plays_of(app, table["code"])
    assert back.uid == first.uid and not back.undone and back.result == first.result
    assert [play["id"] for play in client.get("/api/plays", headers=bearer(table["host_token"])).get_json()["plays"]] \
        == [first.uid]


def test_jumping_back_past_the_end_and_ending_differently_rewrites_the_one_play(app, client):
    table = open_table(client, "flipside")
    play_to_end(app, client, table)
    log = client.get(f"/api/tables/{table['code']}/log", headers=bearer(table["host_token"])).get_json()["log"]
    start = next(entry["seq"] for entry in log if entry["type"] == "start")
    assert host_step(client, table, "jump", seq=start).status_code == 200
    assert plays_of(app, table["code"])[0].undone
    for action in ({"type": "set-health", "value": 0, "whose": 1},):
        assert act_via_api(client, table, table["host_token"], action).status_code == 200
    [play] = plays_of(app, table["code"])
    assert not play.undone and [seat.number for seat in play.winners] == [2]
    assert {seat.number: seat.score for seat in play.seats} == {1: 0, 2: 20}


def test_a_table_ended_early_leaves_a_play_marked_so_and_one_with_no_move_leaves_none(app, client):
    table = open_table(client, "crystal-lake")
    for action in ({"type": "critical", "points": 5, "pan": 1}, {"type": "search", "supply": "pan", "seat": 1}):
        assert act_via_api(client, table, table["host_token"], action).status_code == 200
    assert plays_of(app, table["code"]) == []
    assert client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"])).status_code == 200
    [play] = plays_of(app, table["code"])
    assert play.ending == ENDED_EARLY and play.moves == 2 and play.winners == []
    assert "ended the table before the game's end, after 2 moves" in play.result
    assert {seat.number: seat.details for seat in play.seats} == {1: [], 2: []}  # nothing scored yet

    idle = create_via_api(client, "flipside", {"players": 2})
    assert client.post(f"/api/tables/{idle['code']}/end", headers=bearer(idle["host_token"])).status_code == 200
    assert plays_of(app, idle["code"]) == []


def test_ending_a_table_after_its_game_ended_keeps_the_one_finished_play(app, client):
    table = open_table(client, "night-of-frights")
    play_to_end(app, client, table)
    [before] = plays_of(app, table["code"])
    assert client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"])).status_code == 200
    [after] = plays_of(app, table["code"])
    assert (after.uid, after.ending, after.ended_at, after.moves) == (before.uid, FINISHED, before.ended_at,
                                                                       before.moves)


def test_a_refused_final_move_writes_no_play(app, client):
    table = open_table(client, "night-of-frights")
    for _ in range(4):
        state = state_of(app, table["code"])
        act_via_api(client, table, table["host_token"], GAMES["night-of-frights"][2](state))
    stale = act_via_api(client, table, table["host_token"], {"type": "draw", "guards": 1, "seat": 1, "version": 1})
    assert stale.status_code == 409
    assert plays_of(app, table["code"]) == []


def test_a_play_outlives_its_table_and_its_players_still_see_it(app, client, phone):
    table = open_table(client, "flipside")
    play_to_end(app, client, table)
    [play] = plays_of(app, table["code"])
    with app.app_context():
        db.session.execute(text("DELETE FROM tables WHERE code = :code"), {"code": table["code"]})  # a purge
        db.session.commit()
        assert db.session.scalar(select(func.count()).select_from(Table)) == 0
        kept = db.session.scalar(select(Play).where(Play.uid == play.uid))
        assert kept is not None and kept.table_id is None and len(kept.seats) == 2
        assert db.session.scalar(select(func.count()).select_from(PlayKey)) == 3
        db.session.remove()
    response = client.get(f"/api/plays/{play.uid}", headers=bearer(table["seats"][1]))  # Bo's phone token
    assert response.status_code == 200 and response.get_json()["players"][1]["name"] == "Bo"
    page = client.get(f"/history/plays/{play.uid}")
    assert page.status_code == 200 and b"The table itself is gone" in page.data


def test_a_game_without_figures_still_gets_its_play_and_winners(app, client, monkeypatch):
    rules = REGISTRY["flipside"].rules
    monkeypatch.delattr(rules, "figures")
    table = open_table(client, "flipside")
    play_to_end(app, client, table)
    [play] = plays_of(app, table["code"])
    assert [seat.number for seat in play.winners] == [1]
    assert all(seat.score is None and seat.details == [] for seat in play.seats)
    assert play.figures == {"score": None, "side": None, "scenario": None, "facts": [], "score_decides": None,
                            "cooperative": False, "teams": {}}


def test_a_figures_function_that_fails_costs_the_table_nothing(app, client, monkeypatch):
    monkeypatch.setattr(REGISTRY["flipside"].rules, "figures", lambda state: 1 / 0)
    table = open_table(client, "flipside")
    play_to_end(app, client, table)
    [play] = plays_of(app, table["code"])
    assert play.ending == FINISHED and [seat.number for seat in play.winners] == [1]


def test_a_late_joiner_or_spectator_token_is_remembered_for_the_play(app, client):
    table = create_via_api(client, "flipside", {"players": 2})
    ann = join_via_api(client, table, "Ann")["seat_token"]
    watcher = join_via_api(client, table, "Wes", spectator=True)["seat_token"]
    client.post(f"/api/tables/{table['code']}/seats/2/free", headers=bearer(table["host_token"]))
    table["seats"] = [ann]
    with app.app_context():
        db.session.execute(text("UPDATE seats SET player_name = 'Bo' WHERE number = 2"))
        db.session.commit()
        db.session.remove()
    play_to_end(app, client, table)
    [play] = plays_of(app, table["code"])
    assert len(play.keys) == 3  # host, Ann, and the spectator
    assert client.get(f"/api/plays/{play.uid}", headers=bearer(watcher)).status_code == 200
