"""The benchmarks still run (a tiny run prints every figure), and the profile shares sort stacks as the README says."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from app.games import REGISTRY

ROOT = Path(__file__).resolve().parent.parent


def _bench_module(name: str):
    """A script under bench/ as a module: bench/ is not a package, and its scripts run as files."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_games_benchmark_runs_and_prints_every_game():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "games.py"), "--repeat", "10", "--moves", "2"],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert all(figure in lines[1] for figure in ("drawn", "snapshot"))  # the header names every figure
    for slug in REGISTRY:
        row = next(line for line in lines if line.startswith(slug + " "))
        assert "x)" in row  # p50/p95 and the ratio to the tracker's


def test_the_live_benchmark_runs_end_to_end_with_small_numbers():
    """Two tables, two phones and a host each, a few moves, short bursts beside bare writes: every figure is printed."""
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "live.py"), "--tables", "2", "--phones", "2",
                          "--actions", "6", "--rate", "20", "--burst", "0.6", "--rounds", "2",
                          "--concurrency", "2", "--idle-samples", "20", "--paced-writes", "10", "--timeout", "200"],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["streams"] == 6 and result["streams_dropped"] == 0
    assert result["moves_sent"] == 6 and result["moves_lost"] == 0
    assert result["events"]["live"] >= 6 * 3  # every move pushed to each of a table's three screens
    assert result["cpu_ms_per_move"] > 0 and result["bare"]["cpu_ms"] > 0 and result["burst"]["moves"] > 0
    assert result["write_burst"]["moves"] > 0 and result["write_burst"]["cpu_ms_per_move"] > 0
    for burst in (result["write_burst"], result["burst"]):  # each burst beside bare writes, round by round
        assert len(burst["rounds"]) == 2 and len(burst["bare"]["rounds"]) == 2 and burst["bare"]["cpu_ms"] > 0
    assert result["burst"]["regions_per_move"] > 0 and result["write_burst"]["regions_per_move"] == 0
    assert len(result["bare"]["rounds"]) == 4  # the floor's own figures: every saturated round of the run
    assert result["bare_paced"]["writes"] == 10 and result["bare_paced"]["cpu_ms"] > 0  # the like-for-like floor
    assert len(result["bare_paced"]["rounds"]) == 2  # half before the moves, half after
    assert any(line.startswith("bare paced") for line in run.stdout.splitlines())
    assert "others_cpu_pct" in result["load"] and "loadavg_1m" in result["load"]
    assert any(line.startswith("GOAL") for line in run.stdout.splitlines())


def test_with_phases_the_live_benchmark_splits_propagation_into_drawing_pushing_and_reading():
    """--phases serves through bench/phases.py, and the timed moves are matched to their last drawing and last push
    (not always every one: a busy machine may draw two quick moves to a table as one, and the earlier then has no
    drawing of its own)."""
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "live.py"), "--tables", "1", "--phones", "2",
                          "--actions", "4", "--rate", "10", "--no-bare", "--paced-writes", "0",
                          "--burst", "0", "--idle-samples", "10", "--phases", "--timeout", "200"],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    found = result["phases_ms"]
    assert 1 <= found["moves"] <= found["of"] == 4
    assert found["drawing"]["p50"] > 0 and 0 < found["drawn"]["p50"] <= found["pushed"]["p50"]
    assert found["pushed"]["p50"] <= result["propagation_ms"]["max"] + 1
    assert any(line.startswith("  read ") for line in run.stdout.splitlines())


def test_the_phases_notes_give_each_move_its_last_drawing_and_its_last_push(tmp_path):
    """A picture drawn in one process and pushed in another is matched by the table's lowest seat id; the last of
    each counts, and a push of a table no drawing named is left out."""
    phases = _bench_module("phases")
    notes = tmp_path / "notes"
    notes.write_text("10.000 1 drawn ABCDE 7 41 9.995\n"  # the writer's drawing, begun and handed over
                     "10.004 2 drawn ABCDE 7 41 9.998\n"  # another process drew it too
                     "10.002 1 push 41 7\n"
                     "10.009 2 push 41 7\n"
                     "10.003 1 push 41 6\n"
                     "10.005 2 push 99 7\n"  # a table no drawing named
                     "10.006 2 push 41")  # an unfinished last line
    drawn, pushed = phases.read_notes(notes)
    assert drawn == {("ABCDE", 7): (9.998, 10.004)}
    assert pushed == {("ABCDE", 7): 10.009, ("ABCDE", 6): 10.003}


def test_with_several_servers_the_live_benchmark_spreads_every_table_or_keeps_each_on_one():
    """The soak spreads every table's screens over the servers (a move must cross them); `--spread tables` keeps each
    table's screens, and its moves, on one server, as phones that scan the host screen's QR code do."""
    import argparse

    live = _bench_module("live")
    ports = [8001, 8002]
    for spread, expected in (("screens", {8001, 8002}), ("tables", None)):
        bench = live.Bench(argparse.Namespace(tables=4, phones=2, spread=spread), ports)
        for index in range(4):
            used = {bench.port_for(index, screen) for screen in range(3)}  # two phones and the host
            assert used == (expected or {ports[index % 2]}), (spread, index, used)
            table = live.Table("CODE1", "key", "token", 1, index)
            assert bench.pool_for(table).all[0].port == ports[index % 2]  # its moves go to its own server


def test_the_profile_shares_sort_each_sampled_stack_into_one_share(tmp_path):
    """The README's CPU shares: a drawing inside the stream's own request is drawing, not events; a stream opening is
    not the move's request; an unfinished last line is skipped, not a crash."""
    shares = _bench_module("profile_shares")
    flask = "Flask.wsgi_app (flask/app.py:1511);Flask.full_dispatch_request (flask/app.py:917)"
    stream = f"{flask};events.<locals>.stream (app/live/routes.py:184)"
    samples = {
        f"{stream};Subscription.picture (app/live/broker.py:99);draw (app/tables/screens.py:70)": 6,
        "Hub.run (gevent/hub.py:1);root (templates/tables/_live.html:4)": 2,  # a greenlet's outer frames lost
        f"{stream};GzipStream.shared (app/live/wire.py:66)": 3,
        "AsyncWorker.handle_request (gunicorn/workers/base_async.py:329);Response.write (gunicorn/http/wsgi.py:1)": 1,
        f"{flask};act (app/tables/api.py:99);find_table (app/tables/service.py:96)": 5,
        f"{flask};events (app/live/routes.py:91)": 1,
        "Hub.run (gevent/hub.py:1)": 2,
    }
    raw = tmp_path / "worker.raw"
    raw.write_text("".join(f"{stack} {count}\n" for stack, count in samples.items()) + "Hub.run (gevent/hub.py:1);Gre")
    total, found = shares.shares(str(raw))
    assert total == 20
    assert found == {"drawing": 40.0, "events": 20.0, "request": 25.0, "rest": 15.0}


def test_the_games_benchmark_s_full_tables_seat_the_most_players_each_game_seats():
    """--full raises only the options that add seats, each to its maximum: every phone a game can seat is drawn."""
    most_seats = _bench_module("games").most_seats
    seated = {slug: len(spec.configure(most_seats(spec))[1]) for slug, spec in REGISTRY.items()}
    assert seated == {"survive-6am": 2, "night-of-frights": 4, "directors-cut": 4, "flipside": 4, "crystal-lake": 6,
                      "tracker": 8}


def test_the_never_frozen_benchmark_runs_each_case_with_small_numbers():
    """A file held by another process, a history import beside live moves, a short soak: every figure is printed."""
    cases = {"locked": ["--hold", "7"], "import": ["--plays", "200", "--megabytes", "0.25", "--baseline", "1"],
             "soak": ["--minutes", "0.1", "--sample", "2"]}
    for case, extra in cases.items():
        run = subprocess.run([sys.executable, str(ROOT / "bench" / "frozen.py"), case, "--runs", "1", "--tables", "2",
                              "--phones", "1", *extra], capture_output=True, text=True, timeout=240, cwd=ROOT)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        result = json.loads(run.stdout.strip().splitlines()[-1])
        assert result["case"] == case and len(result["runs"]) == 1 and result["runs"][0]["streams"] == 4
        assert sum(line.startswith("GOAL") for line in run.stdout.splitlines()) >= 2
        figures = result["runs"][0]
        if case == "locked":
            assert figures["moves"] and figures["move_after_hold"] == 200 and figures["healthz_ms"]["n"] > 10
        elif case == "import":
            assert figures["import_status"] == 303 and figures["propagation_before_ms"]["n"] > 0
        else:
            assert figures["rss_end_mb"] > 0 and figures["moves_sent"] > 0


def test_the_long_night_benchmark_compares_a_long_log_with_a_fresh_table():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "long_night.py"), "--entries", "120", "--repeat", "10",
                          "--games", "tracker,survive-6am"], capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert all(figure in lines[1] for figure in ("console", "host", "board", "phone"))
    for slug in ("tracker", "survive-6am"):
        row = next(line for line in lines if line.startswith(slug + " "))
        assert int(row.split()[1]) >= 120 and row.count("x)") == 4, row  # the log grew; a ratio for every screen
