"""Play each game to its end through the API, the way a host drives a table, choosing each move from the state."""

from __future__ import annotations

from sqlalchemy import select

from app.extensions import db
from app.games import REGISTRY
from app.models import Table
from tests.conftest import act_via_api, bearer, create_via_api, join_via_api


def six_am(state: dict) -> dict:
    """Advance, flip, and each guard reacts to one card with the app's dice, until 6:00 AM."""
    if state["phase"] in ("setup", "resolve"):
        return {"type": "advance-time"}
    if state["phase"] == "cameras":
        return {"type": "cameras-flipped"}
    reactor = next(seat for seat in state["order"] if seat not in state["reacted"])
    return {"type": "react", "cards": 1 if reactor == 1 else state["round"] % 2, "depletion": 0, "seat": reactor}


def flipside(state: dict) -> dict:
    """Start, then the host corrects Health: Player 1 to 12, Player 2 to 0 (the last one standing wins)."""
    if state["turn"]["phase"] == "opening":
        return {"type": "start"}
    if state["players"]["1"]["health"] == 20:
        return {"type": "set-health", "value": 12, "whose": 1}
    return {"type": "set-health", "value": 0, "whose": 2}


def crystal_lake(state: dict) -> dict:
    """Five nights: a Critical Supply card, a Pan each (two for seat 1 on odd nights), back to the Cabin, drop off."""
    if state["phase"] == "drop-off":
        seat = next(int(seat) for seat, player in state["players"].items() if not player["dropped"])
        return {"type": "drop-off", "seat": seat}
    if state["critical"] is None:
        return {"type": "critical", "points": 5, "pan": 1}
    seat = state["turn"]
    wanted = 2 if seat == 1 and state["night"] % 2 else 1
    if state["players"][str(seat)]["board"]["pan"] < wanted:
        return {"type": "search", "supply": "pan", "seat": seat}
    return {"type": "return", "seat": seat}


def night_of_frights(state: dict) -> dict:
    """Bonnie goes first, spends items up to space 3, tries to capture and draws the Guard."""
    if state["turn"] is None:
        return {"type": "first-player", "whose": 1}
    if not state["items_placed"]:
        return {"type": "place-items", "seat": 1}
    if state["scare_track"]["1"]["space"] == 0:
        return {"type": "spend", "steps": 3, "seat": 1}
    if state["capture"] is None:
        return {"type": "capture", "room": 1, "event": "other", "seat": 1}
    return {"type": "draw", "guards": 1, "seat": 1}


QUIET = {"move": 2, "bonnie": 2, "chica": 2, "freddy": 2, "foxy": 1, "golden_freddy": 1, "foxy_blocked": 2}


def directors_cut(state: dict) -> dict:
    """Quiet rolls until Chica meets the only guard, who then fails the attack roll: the animatronics win."""
    ask = state["ask"]
    if ask["kind"] == "attack":
        return {"type": "roll", "values": [1]}
    if ask["kind"] == "chica_met":
        return {"type": "answer", "guard": 1}
    if ask["kind"] in QUIET:
        return {"type": "roll", "values": [QUIET[ask["kind"]]]}
    if ask["kind"] == "freddy_room":
        return {"type": "answer", "choice": "neither"}
    if ask["kind"] == "foxy_path":
        return {"type": "answer", "choice": "cinema"}
    if ask.get("nobody"):
        return {"type": "answer", "choice": "nobody"}
    return {"type": "answer", "guard": ask["guards"][0]}


GAMES = {
    "survive-6am": ({"players": 2, "power_dice": "virtual"}, ["Ann", "Bo"], six_am),
    "flipside": ({"players": 2}, ["Ann", "Bo"], flipside),
    "crystal-lake": ({"players": 2, "mode": "basic"}, ["Ann", "Bo"], crystal_lake),
    "night-of-frights": ({"characters": ["Bonnie", "Chica"], "event_deck": 7}, ["Ann", "Bo"], night_of_frights),
    "directors-cut": ({"night": "second", "guards": 1, "bonnie_player": True, "chica_player": True, "rolling": "tap"},
                      ["Ann", "Bo", "Cy"], directors_cut),
}


def state_of(app, code: str) -> dict:
    with app.app_context():
        state = db.session.scalar(select(Table.state).where(Table.code == code))
        db.session.remove()
    return state


def open_table(client, slug: str, names: list[str] | None = None) -> dict:
    """A table of `slug` with a phone at every seat: the API's table, plus each seat's token under 'seats'."""
    options, default_names, _ = GAMES[slug]
    table = create_via_api(client, slug, options)
    table["seats"] = [join_via_api(client, table, name)["seat_token"] for name in names or default_names]
    return table


def play_to_end(app, client, table: dict, *, moves: int = 400) -> list[dict]:
    """Drive the table with its game's policy until the game's own end; returns the moves sent."""
    policy = GAMES[table["game"]][2]
    rules = REGISTRY[table["game"]].rules
    sent = []
    for _ in range(moves):
        state = state_of(app, table["code"])
        if rules.outcome(state) is not None:
            return sent
        action = policy(state)
        response = act_via_api(client, table, table["host_token"], action)
        assert response.status_code == 200, (action, response.get_json())
        sent.append(action)
    raise AssertionError(f"{table['game']} did not end in {moves} moves")


def api(client, path: str, token: str | None = None, **kwargs):
    return client.get(path, headers=bearer(token) if token else {}, **kwargs)
