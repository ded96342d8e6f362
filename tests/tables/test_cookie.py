"""The browser's cookie is signed and sent when it changes and once a day, not on every refresh of a screen."""

from tests.conftest import any_csrf_token


def host_table(client) -> str:
    created = client.post("/new/tracker", data={"csrf_token": any_csrf_token(client), "players": "2"})
    assert created.status_code == 303 and "Set-Cookie" in created.headers
    return created.headers["Location"].rstrip("/").rsplit("/", 1)[-1]


def test_refreshing_a_screen_does_not_re_sign_the_cookie(client):
    code = host_table(client)
    for url in (f"/t/{code}", f"/t/{code}/live", f"/t/{code}/live"):
        response = client.get(url)
        assert response.status_code == 200 and "Set-Cookie" not in response.headers, url


def test_the_cookie_is_renewed_once_a_day_so_a_returning_phone_keeps_its_seat_for_60_days(client):
    code = host_table(client)
    with client.session_transaction() as session:
        session["renewed"] = "2000-01-01"  # last sent long ago
    renewed = client.get(f"/t/{code}/live")
    assert renewed.status_code == 200 and "Expires=" in renewed.headers["Set-Cookie"]
    assert "Set-Cookie" not in client.get(f"/t/{code}/live").headers  # then not again that day
