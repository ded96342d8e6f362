"""A history built by hand, in Night Shift's export format, whose stats are counted by hand in the tests."""

from __future__ import annotations

import io
import json

SIX_AM, LAKE, CUT = "survive-6am", "crystal-lake", "directors-cut"
NAMES = {SIX_AM: "Five Nights at Freddy's: Survive 'Til 6AM", LAKE: "Friday the 13th: Horror at Camp Crystal Lake",
         CUT: "Five Nights at Freddy's: Director's Cut"}


def seat(number: int, seat_name: str, name: str | None, *, won: bool = False, score: int | None = None,
         status: str | None = None, details: list | None = None, records: dict | None = None) -> dict:
    return {"seat": number, "seat_name": seat_name, "colour": "", "name": name, "winner": won, "score": score,
            "status": status, "details": details or [], "records": records or {}}


def play(uid: str, game: str, day: int, minutes: int, players: list[dict], *, ending: str = "finished",
         score: str | None = None, side: str | None = None, scenario: str | None = None) -> dict:
    return {"id": uid, "game": game, "game_name": NAMES[game], "table": f"T{day:04d}",
            "started_at": f"2026-11-{day:02d}T20:00:00+00:00",
            "ended_at": f"2026-11-{day:02d}T{20 + minutes // 60:02d}:{minutes % 60:02d}:00+00:00",
            "duration_seconds": minutes * 60, "ending": ending, "result": "As the table saw it.",
            "shared": sum(entry["winner"] for entry in players) > 1, "moves": 10, "options": {},
            "readings": [{"option": "players", "label": "Players", "value": str(len(players)), "source": "verified"}],
            "score": score, "side": side, "scenario": scenario, "facts": [], "players": players,
            "dice": {"commitment": "ab" * 32, "rolls": 3}}


def nights(*totals: int) -> dict:
    return {"details": [[f"Night {index}", total] for index, total in enumerate(totals, start=1)],
            "records": {"Best night": max(totals)}}


PLAYS = [
    play("a0000000000000a1", SIX_AM, 1, 50, [
        seat(1, "Orange", "Ann", won=True, score=40, status="survived to 6:00 AM", records={"Power at 6:00 AM": 40}),
        seat(2, "Purple", "Bo", score=25, status="survived to 6:00 AM", records={"Power at 6:00 AM": 25})],
        score="power left", side="Orange"),
    play("a0000000000000a2", SIX_AM, 3, 30, [
        seat(1, "Orange", "Ann", score=70, status="caught: an Animatronic reached the Office"),
        seat(2, "Purple", "Bo", won=True, score=10)], score="power left", side="Purple"),
    play("a0000000000000a3", SIX_AM, 4, 5, [seat(1, "Orange", "Ann", score=100), seat(2, "Purple", "Bo", score=90)],
         ending="ended early", score="power left"),
    play("a0000000000000b1", LAKE, 2, 90, [
        seat(1, "Counselor 1", "Ann", score=30, **nights(5, 9, 6, 4, 6)),
        seat(2, "Counselor 2", "Bo", won=True, score=34, **nights(8, 6, 7, 7, 6)),
        seat(3, "Counselor 3", "Cy", score=20, **nights(4, 4, 4, 4, 4)),
        seat(4, "Counselor 4", None)], score="points"),
    play("a0000000000000b2", LAKE, 5, 70, [
        seat(1, "Counselor 1", "ann", won=True, score=41, **nights(10, 12, 5, 7, 7)),
        seat(2, "Counselor 2", "Cy", score=30, **nights(6, 6, 6, 6, 6))], score="points"),
    play("a0000000000000c1", CUT, 6, 40, [
        seat(1, "Guard 1", "Ann", won=True, status="survived"), seat(2, "Guard 2", "Bo", won=True, status="dead")],
        side="Guards", scenario="The Second Night"),
    play("a0000000000000c2", CUT, 7, 20, [
        seat(1, "Guard 1", "Ann", status="dead"), seat(2, "Bonnie", "Cy", won=True, status="played Bonnie")],
        side="Animatronics", scenario="The Second Night"),
    play("a0000000000000c3", CUT, 8, 60, [seat(1, "Guard 1", "Annie", won=True, status="survived")],
         side="Guards", scenario="The Third Night"),
]


def export_file(plays: list[dict] | None = None, merges: list[dict] | None = None, **extra) -> bytes:
    return json.dumps({"format": "nightshift-history", "version": 1, "exported_at": "2026-12-01T00:00:00+00:00",
                       "plays": PLAYS if plays is None else plays, "merges": merges or [], **extra}).encode()


def upload(client, body: bytes, name: str = "history.json"):
    """The host machine's import of a file through the history page, as its form sends it."""
    from tests.conftest import csrf_token

    form = {"csrf_token": csrf_token(client, "/history"), "file": (io.BytesIO(body), name)}
    return client.post("/history/import", data=form, content_type="multipart/form-data")
