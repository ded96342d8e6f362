"""Scare cues on the server's side: each log line carries its cue (data-cue, data-cue-seat) from the rules' own words,
the board's carries the words it reads out (data-say), and the live state says who won; every game's moments
(tests/moments.py) are found in what its rules really write."""

import html
import re
from pathlib import Path

import pytest

from app.games import REGISTRY
from app.games.cues import SOUNDS, Cues, moment
from tests.conftest import bearer
from tests.moments import SCRIPTS, play, seated

CUES_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "cues.js"
LINE = re.compile(r'<li class="log-entry[^"]*" value="(\d+)"([^>]*)>')


def api(client):
    """tests/boards.py's Call over the Flask client: a refusal fails the test with its sentence."""
    def call(path: str, body: dict | None = None, token: str | None = None) -> dict:
        headers = bearer(token) if token else {}
        response = client.get(path, headers=headers) if body is None else client.post(path, json=body,
                                                                                      headers=headers)
        assert response.status_code < 300, (path, body, response.get_json())
        return response.get_json()
    return call


def attribute(attributes: str, name: str) -> str | None:
    found = re.search(rf'\b{name}="([^"]*)"', attributes)
    return html.unescape(found.group(1)) if found else None


def board_lines(client, table) -> tuple[list[dict], str | None]:
    """The board's log lines, newest first, with their cue attributes; and its live state's winners (None: not over)."""
    page = client.get(f"/t/{table['code']}/board", headers=bearer(table["host_token"])).get_data(as_text=True)
    lines = [{"seq": int(seq), "cue": attribute(rest, "data-cue"), "seat": attribute(rest, "data-cue-seat"),
              "say": attribute(rest, "data-say")} for seq, rest in LINE.findall(page)]
    return lines, attribute(re.search(r'<span class="live-state[^>]*>', page).group(0), "data-winners")


def test_every_sound_a_game_names_is_one_the_browser_makes():
    script = CUES_JS.read_text()
    ranked = set(re.findall(r'"([a-z-]+)"', re.search(r"var RANK = \[(.*?)\];", script).group(1)))
    assert ranked == SOUNDS
    for spec in REGISTRY.values():
        assert {each.sound for each in spec.cues.moments} <= SOUNDS, spec.slug
    with pytest.raises(ValueError, match="not a sound"):
        moment("thunder", "a storm")


def test_a_moment_names_its_seat_or_the_mover_and_the_strongest_comes_first():
    cues = Cues(moments=(moment("loss", r"(?P<seat>Guard \d+) dies"), moment("attack", r"attacks", mover=True)),
                spoken=re.compile(r"Bonnie"))
    assert cues.heard("Bonnie attacks! Guard 2 dies.", rolled=True).sound == "loss"
    assert cues.heard("Bonnie attacks! Guard 2 dies.", rolled=True).seat == "Guard 2"
    assert cues.heard("Chica attacks!", rolled=False).mover
    assert cues.heard("Guard 1 moves.", rolled=True).sound == "roll"
    assert cues.heard("Guard 1 moves.", rolled=False) is None
    assert cues.speaks("Bonnie moves.", None) and cues.speaks("Chica attacks!", cues.heard("Chica attacks!", False))
    assert not cues.speaks("Guard 1 moves.", cues.heard("Guard 1 moves.", rolled=True))  # a rattle alone


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_each_games_moments_are_on_the_log_lines_its_rules_write(client, slug):
    """Step by step, the new lines' cues (or the end's winners) hold what the board and each phone concerned play."""
    call = api(client)
    table = seated(call, slug)
    seen = max(line["seq"] for line in board_lines(client, table)[0])
    was_over = False
    for step in SCRIPTS[slug].steps:
        play(call, table, step)
        lines, winners = board_lines(client, table)
        fresh = [line for line in lines if line["seq"] > seen]
        seen = max(line["seq"] for line in lines)
        ended = winners is not None and not was_over
        was_over = winners is not None
        board = {line["cue"] for line in fresh} | ({"win" if winners else "loss"} if ended else set())
        if step.board:
            assert step.board in board, (slug, step.why, fresh)
        for number, sound in step.phones.items():
            if sound == "turn":
                continue  # phone.js: the seat's own prompt appears
            ending = ended and sound == ("win" if str(number) in winners.split() else "loss")
            assert ending or any(line["cue"] == sound and line["seat"] == str(number) for line in fresh), \
                (slug, step.why, number, fresh)


def test_the_board_reads_out_the_gms_lines_without_the_host_and_no_undo_or_seat_line_sounds(client):
    call = api(client)
    table = seated(call, "directors-cut")
    for guard in (1, 2):
        call(f"/api/tables/{table['code']}/actions", {"type": "roll", "values": [4], "seat": guard},
             table["host_token"])
    call(f"/api/tables/{table['code']}/actions", {"type": "roll", "values": [6]}, table["host_token"])
    lines, _ = board_lines(client, table)
    assert lines[0]["say"] == "Bonnie rolled 6 on d10 (real die): she moves to tile 6."
    assert lines[1]["say"] is None  # a guard's own move is not the GM's
    assert lines[1]["cue"] is None  # nor does a real die rattle: the table heard it
    call(f"/api/tables/{table['code']}/undo", {}, table["host_token"])
    lines, _ = board_lines(client, table)
    assert lines[0]["cue"] is None and lines[0]["say"] is None  # "Host undid #...": not a move of the game
    assert lines[1]["cue"] is None and lines[1]["say"] is None  # the undone line says nothing any more
    phone = client.get(f"/t/{table['code']}/live", headers=bearer(table["tokens"][1])).get_data(as_text=True)
    assert "data-say" not in phone and 'data-seat="1"' in phone  # only the board speaks; the phone knows its seat
