"""Refusals the framework raises (a wrong method, a host name no URL can be built for) still answer as HTTP asks."""


def test_a_wrong_method_is_a_405_that_names_the_methods_allowed(client):
    response = client.get("/api/tables")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    assert response.get_json()["error"] == "That address can't be used that way."
    page = client.put("/history")
    assert page.status_code == 405 and "GET" in page.headers["Allow"]


def test_a_host_name_no_url_can_be_built_for_is_a_400_sentence_not_a_500(client):
    """A label over 63 characters fails IDNA encoding: Werkzeug refuses it (BadHost), and the error page's own links
    then failed too, so it answered 500."""
    for path in ("/", "/history", "/api/games"):
        response = client.get(path, headers={"Host": "x" * 64})
        assert response.status_code == 400, path
        assert "host name" in response.get_data(as_text=True)
