"""A finished table is read-only: every write is a 410 with a sentence, seats included; its pages stay readable."""

from tests.conftest import any_csrf_token, bearer, create_via_api, join_via_api, page_text, snapshot


def ended_table(client):
    table = create_via_api(client, "tracker", {"players": 3})
    table["seat"] = join_via_api(client, table, "Ann")
    client.post(f"/api/tables/{table['code']}/actions", json={"type": "next-round"},
                headers=bearer(table["seat"]["seat_token"]))
    assert client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"])).status_code == 200
    return table


def test_every_api_write_to_a_finished_table_is_a_410(client, app):
    table = ended_table(client)
    code, host, seat = table["code"], bearer(table["host_token"]), bearer(table["seat"]["seat_token"])
    writes = [
        ("/api/tables/{code}/actions", {"type": "next-round"}, seat),
        ("/api/tables/{code}/actions", {"type": "next-round"}, host),
        ("/api/tables/{code}/undo", {}, host),
        ("/api/tables/{code}/redo", {}, host),
        ("/api/tables/{code}/jump", {"seq": 1}, host),
        ("/api/tables/{code}/seats/1/free", None, host),
        ("/api/tables/{code}/end", None, host),
        ("/api/tables/{code}/join", {"name": "Late", "key": table["join_key"]}, {}),
    ]
    for url, body, headers in writes:
        before = snapshot(app)
        response = client.post(url.format(code=code), json=body, headers=headers)
        assert response.status_code == 410, (url, response.get_json())
        assert "has ended" in response.get_json()["error"]
        assert snapshot(app) == before, url


def test_every_form_write_to_a_finished_table_is_a_410_and_the_pages_stay(client, app):
    table = create_via_api(client, "tracker", {"players": 3})
    host = app.test_client()
    token = any_csrf_token(host)
    with host.session_transaction() as session:
        session["tables"] = {table["code"]: {"host": table["host_token"]}}
    code = table["code"]
    join_via_api(client, table, "Ann")
    assert host.post(f"/t/{code}/end", data={"csrf_token": token}).status_code == 303
    for url, form in ((f"/t/{code}/seats/1/free", {}), (f"/t/{code}/seats/2/sit", {"name": "Bo"}),
                      (f"/t/{code}/act", {"type": "next-round"}), (f"/t/{code}/undo", {}),
                      (f"/t/{code}/jump", {"seq": "1"}), (f"/t/{code}/end", {})):
        before = snapshot(app)
        response = host.post(url, data={"csrf_token": token, **form})
        assert response.status_code == 410, (url, response.status_code)
        assert "has ended" in page_text(response)
        assert snapshot(app) == before, url
    for url in (f"/t/{code}", f"/t/{code}/log", f"/t/{code}/verify", f"/t/{code}/live"):
        assert host.get(url).status_code == 200, url
