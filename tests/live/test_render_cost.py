"""What drawing a table costs (issue 16): one form per group of controls, URLs built once, queries that don't grow
with the number of screens."""


from werkzeug.routing import MapAdapter

from app.extensions import db
from app.live import screens
from tests.conftest import act_via_api, bearer, create_via_api, join_via_api
from tests.tables.test_statements import statements

COUNTERS = "Doom, shared, 0, 9, 0\nSanity, each, 0, 9, 5"


def seated_table(client, players=6):
    table = create_via_api(client, "tracker", {"players": players, "counters": COUNTERS})
    table["seats"] = [join_via_api(client, table, f"P{number}") for number in range(1, players + 1)]
    act_via_api(client, table, table["seats"][0]["seat_token"], {"type": "adjust", "counter": "doom", "by": 1})
    return table


def phone_region(client, table) -> str:
    response = client.get(f"/t/{table['code']}/live", headers=bearer(table["seats"][0]["seat_token"]))
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_region_builds_each_url_once(client, monkeypatch):
    table = seated_table(client)
    built = []
    real = MapAdapter.build

    def counted(adapter, endpoint, values=None, *args, **options):
        built.append((endpoint, sorted((values or {}).items())))
        return real(adapter, endpoint, values, *args, **options)

    monkeypatch.setattr(MapAdapter, "build", counted)
    region = phone_region(client, table)
    assert len(built) == len({repr(call) for call in built}), built  # none twice
    assert len(built) < region.count("<form") + 4  # a handful, not two per button


def test_drawing_every_screen_costs_the_same_queries_as_drawing_one(app, client):
    """Table with seats, the log page, the undo and redo targets: read once for the host and six phones."""
    table = seated_table(client)
    environ = screens.drawing_environ({"wsgi.url_scheme": "http", "HTTP_HOST": "localhost", "SERVER_NAME": "localhost",
                                       "SERVER_PORT": "80"})
    every = {("host", None)} | {("seat", number) for number in range(1, 7)}
    with statements(app) as all_screens:
        picture = screens.draw(app, environ, table["code"], every)
    with statements(app) as one_phone:
        screens.draw(app, environ, table["code"], {("seat", 1)})
    assert set(picture.regions) == every
    assert len(all_screens) <= 4, "\n".join(all_screens)
    assert len(one_phone) <= len(all_screens)
    with app.app_context():
        db.session.remove()
