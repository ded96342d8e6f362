"""Camp Crystal Lake through Flask: moves by API and form, the panel on host and phones, the calculator, the bag."""

import re

import pytest

from tests.conftest import act_via_api, create_via_api, csrf_token, join_via_api, page_text, snapshot

BOX = {"pan": "14", "flashlight": "12", "gasoline": "11", "cleaver": "10", "car_keys": "7", "axe": "5", "jason": "8"}


def words(response) -> str:
    """The page as one line of text, tags removed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page_text(response)).split())


@pytest.fixture
def hosted(client, app):
    """A 3-seat table created through the setup form (so `client` holds the host cookie), with Ann and Bo seated."""
    token = csrf_token(client, "/new/crystal-lake")
    created = client.post("/new/crystal-lake", data={"csrf_token": token, "players": "3", "mode": "advanced",
                                                     "first_player": "1"})
    code = created.headers["Location"].rsplit("/", 1)[-1]
    page = page_text(client.get(f"/t/{code}"))
    key = re.search(r'class="join-key">([^<]+)<', page).group(1).replace(" ", "")
    phones = {}
    for name in ("Ann", "Bo"):
        phone = app.test_client()
        join_token = csrf_token(phone, f"/j/{code}?k={key}")
        joined = phone.post(f"/j/{code}", data={"csrf_token": join_token, "k": key, "name": name})
        assert joined.status_code == 303, page_text(joined)
        phones[name] = phone
    return {"code": code, "host": client, "phones": phones}


def form_act(browser, code: str, fields: dict, seat_page: str | None = None):
    token = csrf_token(browser, seat_page or f"/t/{code}")
    return browser.post(f"/t/{code}/act", data={"csrf_token": token, **fields}, headers={"HX-Request": "true"})


def test_host_and_phones_see_the_night_and_whose_turn_it_is(hosted):
    code, host, ann = hosted["code"], hosted["host"], hosted["phones"]["Ann"]
    host_page = words(host.get(f"/t/{code}"))
    assert "Night 1 of 5" in host_page and "Counselor 1's turn on Night 1" in host_page
    assert "Enter tonight's Critical Supply card" in host_page and "Scoreboard" in host_page
    assert "Start of Night 1: enter the Critical Supply card" in host_page
    phone_page = words(ann.get(f"/t/{code}/seat", follow_redirects=True))
    assert "Your turn" in phone_page and "Search for Supplies" in phone_page
    assert "The Camp Bag isn't counted yet" in phone_page
    bo_page = words(hosted["phones"]["Bo"].get(f"/t/{code}/seat", follow_redirects=True))
    assert "Waiting for Ann" in bo_page and "Search for Supplies" not in bo_page


def test_a_night_played_by_forms_reaches_drop_off_and_the_scoreboard(hosted):
    code, host, ann, bo = hosted["code"], hosted["host"], hosted["phones"]["Ann"], hosted["phones"]["Bo"]
    assert form_act(host, code, {"type": "critical", "pan": "1", "points": "5"}).status_code == 200
    ann_page, bo_page = f"/t/{code}/seats/1", f"/t/{code}/seats/2"
    for browser, page, fields in ((ann, ann_page, {"type": "search", "supply": "pan"}),
                                  (bo, bo_page, {"type": "search", "supply": "cleaver"}),
                                  (host, None, {"type": "search", "supply": "axe", "whose": "3"}),
                                  (ann, ann_page, {"type": "return"}),
                                  (bo, bo_page, {"type": "return"}),
                                  (host, None, {"type": "return", "whose": "3"})):
        response = form_act(browser, code, fields, page)
        assert response.status_code == 200, words(response)
    drop_page = words(ann.get(ann_page))
    assert "Your drop-off" in drop_page and "Keeping nothing" in drop_page
    assert form_act(ann, code, {"type": "drop-off", "keep": "nothing", "bonus": "best"}, ann_page).status_code == 200
    assert form_act(bo, code, {"type": "drop-off", "keep": "cleaver", "bonus": "best"}, bo_page).status_code == 200
    last = form_act(host, code, {"type": "drop-off", "keep": "nothing", "bonus": "best", "whose": "3"})
    assert last.status_code == 200
    host_page = words(host.get(f"/t/{code}"))
    assert "Night 2 of 5" in host_page and "Drop-off, Night 1" in host_page
    assert "1 Cast Iron Pan, 1 x 1 = 1" in host_page and "Total 8" in host_page
    assert "Ann (Counselor 1): dropped off for 1 point" in host_page
    phone_page = words(bo.get(bo_page))
    assert "Backpack Cleaver" in phone_page


def test_a_refused_form_move_shows_its_sentence_and_changes_nothing(app, hosted):
    code, bo = hosted["code"], hosted["phones"]["Bo"]
    before = snapshot(app)
    response = form_act(bo, code, {"type": "search", "supply": "pan"}, f"/t/{code}/seats/2")
    assert response.status_code == 422
    assert "It's Counselor 1's turn" in page_text(response) and response.headers["HX-Retarget"] == "#flash"
    assert snapshot(app) == before


def test_moves_through_the_json_api_and_refusals_with_a_sentence(app, client):
    table = create_via_api(client, "crystal-lake", {"players": 3})
    ann = join_via_api(client, table, "Ann")["seat_token"]
    bo = join_via_api(client, table, "Bo")["seat_token"]
    ok = act_via_api(client, table, ann, {"type": "search", "supply": "jason"})
    assert ok.status_code == 200 and ok.get_json()["view"]["players"]["1"]["board"]["jason"] == 1
    assert "a close call" in ok.get_json()["log"][0]["text"]
    before = snapshot(app)
    for token, action, message in (
        (bo, {"type": "search", "supply": "chainsaw"}, "isn't a token"),
        (ann, {"type": "search", "supply": "pan"}, "It's Counselor 2's turn"),
        (bo, {"type": "search", "supply": "pan", "whose": 1}, "only the host"),
        (table["host_token"], {"type": "critical", "pan": -1, "points": 4}, "negative"),
        (table["host_token"], {"type": "bag", "jason": 3, "pan": 10}, "but 5 are"),
    ):
        response = act_via_api(client, table, token, action)
        assert response.status_code in (403, 422), response.get_json()
        assert message in response.get_json()["error"]
    assert snapshot(app) == before


def test_the_calculator_page_scores_a_drop_off_with_its_breakdown(client):
    page = client.get("/crystal-lake/score")
    assert page.status_code == 200 and "Drop-off calculator" in page_text(page)
    token = csrf_token(client, "/crystal-lake/score")
    result = client.post("/crystal-lake/score", data={"csrf_token": token, "pan": "3", "cleaver": "2"})
    text = words(result)
    assert result.status_code == 200 and "19 points" in text
    assert "3 Cast Iron Pans: Cleavers doubled, 2 x 8 = 16" in text
    bad = client.post("/crystal-lake/score", data={"csrf_token": token, "pan": "-2"})
    assert bad.status_code == 422 and "can't be negative" in words(bad)
    junk = client.post("/crystal-lake/score", data={"csrf_token": token, "axe": "lots"})
    assert junk.status_code == 422 and "whole number" in words(junk)
    forged = client.post("/crystal-lake/score", data={"pan": "3"})
    assert forged.status_code == 400  # CSRF protected


def test_the_calculator_api_scores_and_refuses_with_a_sentence(client):
    response = client.post("/api/crystal-lake/score", json={"supplies": {"gasoline": 4, "cleaver": 2, "pan": 1}})
    body = response.get_json()
    assert response.status_code == 200 and body["points"] == 30
    assert body["bonus"]["key"] == "four:gasoline:pan+cleaver"
    assert body["breakdown"][-1] == "Total 30" and body["bonuses"][0]["points"] == 9
    picked = client.post("/api/crystal-lake/score", json={"supplies": {"pan": 3, "cleaver": 2}, "bonus": "none"})
    assert picked.get_json()["points"] == 11
    for payload, message in (
        ({"supplies": {"chainsaw": 1}}, "isn't a Supply"), ({"supplies": {"pan": -1}}, "negative"),
        ({"supplies": {"pan": 10**9}}, "67"), ({"supplies": [1, 2]}, "list of supplies"),
        ({"supplies": {"pan": 3}, "extra": 1}, "isn't part of a drop-off"), ({}, "Say what is dropped off"),
        ({"supplies": {"pan": 3}, "bonus": 4}, "Name the bonus"),
        ({"supplies": {"pan": 1}, "bonus": "six"}, "possible"),
        ([1], "JSON object"),
    ):
        response = client.post("/api/crystal-lake/score", json=payload)
        assert response.status_code in (400, 422), payload
        assert message in response.get_json()["error"], (payload, response.get_json())
    not_json = client.post("/api/crystal-lake/score", data="pan=3", content_type="text/plain")
    assert not_json.status_code == 400 and "JSON object" in not_json.get_json()["error"]


def test_the_host_counts_the_bag_once_and_the_browser_remembers_it(app, hosted):
    code, host, ann = hosted["code"], hosted["host"], hosted["phones"]["Ann"]
    token = csrf_token(host, f"/t/{code}")
    response = host.post(f"/crystal-lake/t/{code}/bag", data={"csrf_token": token, **BOX},
                         headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "crystal_lake_bag=14.12.11.10.7.5.8" in response.headers["Set-Cookie"]
    phone_page = words(ann.get(f"/t/{code}/seats/1"))
    assert "4 of the 63 tokens in the Camp Bag" in phone_page and "6%" in phone_page  # one percent() for every game
    # a new table on the same browser: the form comes pre-filled from the saved count
    token = csrf_token(host, "/new/crystal-lake")
    created = host.post("/new/crystal-lake", data={"csrf_token": token, "players": "3"})
    fresh = page_text(host.get(created.headers["Location"]))
    assert 'name="axe" inputmode="numeric" pattern="[0-9]*" size="2" required value="5"' in fresh
    # only the host counts, and a count below what is out of the bag is refused
    before = snapshot(app)
    phone_token = csrf_token(ann, f"/t/{code}/seats/1")
    refused = ann.post(f"/crystal-lake/t/{code}/bag", data={"csrf_token": phone_token, **BOX})
    assert refused.status_code == 403
    low = host.post(f"/crystal-lake/t/{code}/bag", data={"csrf_token": token, **BOX, "jason": "2"},
                    headers={"HX-Request": "true"})
    assert low.status_code == 422 and "but 4 are" in page_text(low)
    junk = host.post(f"/crystal-lake/t/{code}/bag", data={"csrf_token": token, **BOX, "pan": "many"})
    assert junk.status_code == 400 and "whole number" in page_text(junk)
    assert snapshot(app) == before


def test_the_panel_links_the_calculator(hosted):
    page = page_text(hosted["host"].get(f"/t/{hosted['code']}"))
    assert f'href="/crystal-lake/score?t={hosted["code"]}"' in page


def test_five_nights_through_the_api_end_with_standings_on_every_screen(app, hosted):
    """The host records every move (whose=seat); the panel renders each phase, the dodge choice and the final result."""
    code, host, ann = hosted["code"], hosted["host"], hosted["phones"]["Ann"]

    def host_act(**action):
        response = form_act(host, code, {key: str(value) for key, value in action.items()})
        assert response.status_code == 200, words(response)
        return response

    starter = 1
    for night in range(1, 6):
        host_act(type="critical", axe=1, points=4)
        if night == 1:  # Ann is attacked: she gains an Escape Token for a later night
            host_act(type="search", supply="jason", whose=1)
            host_act(type="return", whose=2)
            host_act(type="return", whose=3)
            host_act(type="search", supply="jason", whose=1)
            attacked = words(ann.get(f"/t/{code}/seats/1"))
            assert "Fled from Jason tonight: no Bravery Bonus" in attacked  # the last one out: drop-off comes
        elif night == 2:  # the last back (Ann) starts; a second Jason now offers the Escape Token
            host_act(type="search", supply="jason", whose=1)
            host_act(type="search", supply="axe", whose=2)
            host_act(type="search", supply="pan", whose=3)
            page = words(ann.get(f"/t/{code}/seats/1"))
            assert "Jason: use Escape Token" in page and "Jason: take the attack" in page
            host_act(type="search", supply="jason", escape="use", whose=1)
            for seat in (2, 3, 1):
                host_act(type="return", whose=seat)
        else:  # everyone returns in turn order, starting with the last back the night before
            turn = starter
            for _ in range(3):
                host_act(type="return", whose=turn)
                starter, turn = turn, turn % 3 + 1
        if night == 5:
            final = words(ann.get(f"/t/{code}/seats/1"))
            assert "After the fifth night everything is dropped off" in final and "Defense Fear Cards among" in final
        for seat in (1, 2, 3):
            fields = {"type": "drop-off", "whose": seat, "keep": "nothing", "bonus": "best"}
            if night == 5:
                fields["defense"] = 1
            host_act(**fields)
    host_page = words(host.get(f"/t/{code}"))
    assert "Help has arrived!" in host_page and "Final drop-off" in host_page
    assert re.search(r"Final standings [\w ]+? \d+ (wins|shares the win)", host_page)
    assert "1 Defense Fear Card, 1 x 3 = 3" in host_page
    phone_page = words(ann.get(f"/t/{code}/seats/1"))
    assert "Help has arrived!" in phone_page and "Drop off" not in phone_page
    before = snapshot(app)
    late = form_act(host, code, {"type": "search", "supply": "pan", "whose": "1"})
    assert late.status_code == 409 and "The game is over" in page_text(late)
    assert snapshot(app) == before


# ---- review regressions --------------------------------------------------------------------------------------------

def test_can_the_camp_bag_route_write_a_count_into_another_games_table(app, client):
    """The bag count is a Camp Crystal Lake action; another game's table is refused before its rules ever see it."""
    other = create_via_api(client, "tracker", {})
    token = csrf_token(client, "/crystal-lake/score")
    before = snapshot(app)
    response = client.post(f"/crystal-lake/t/{other['code']}/bag", data={"csrf_token": token, **BOX},
                           headers={"Authorization": f"Bearer {other['host_token']}", "HX-Request": "true"})
    assert response.status_code == 404 and "isn't a Camp Crystal Lake table" in page_text(response)
    assert "Set-Cookie" not in response.headers and snapshot(app) == before


def test_is_a_bag_count_over_the_boxs_67_tokens_refused_and_not_saved(app, hosted):
    code, host = hosted["code"], hosted["host"]
    token = csrf_token(host, f"/t/{code}")
    before = snapshot(app)
    response = host.post(f"/crystal-lake/t/{code}/bag", data={"csrf_token": token, **BOX, "pan": "40"},
                         headers={"HX-Request": "true"})
    assert response.status_code == 422 and "the box holds 67 Supply Tokens" in page_text(response)
    assert "crystal_lake_bag" not in response.headers.get("Set-Cookie", "") and snapshot(app) == before


JUNK = (True, 1.5, -1, 10**40, "1", "", [], {}, [1, "a"], {"x": 1}, "<script>alert(1)</script>", "x" * 3000)
USES = {"search": ("supply", "whose", "escape"), "fear": ("target", "whose"), "return": ("whose", "critical"),
        "drop-off": ("keep", "bonus", "defense"), "critical": ("points", "pan"), "bag": ("jason", "axe"),
        "set-board": ("whose", "pan", "jason", "escape"), "set-hand": ("count", "whose"), "escape": ("whose",)}


def test_does_any_junk_value_in_any_field_get_a_sentence_and_change_nothing(app, client):
    """Wrong types, huge numbers and script in each field a move carries: a 4xx with a sentence, never a 500.

    (None is left out: a missing optional field, like a Fear Card with no target, is a legal move.)
    """
    table = create_via_api(client, "crystal-lake", {"players": 3})
    ann = join_via_api(client, table, "Ann")["seat_token"]
    host = table["host_token"]
    before = snapshot(app)
    for kind, fields in USES.items():
        for field in fields:
            for value in JUNK:
                action = {"type": kind, field: value}
                if kind.startswith("set") and field != "whose":
                    action["whose"] = 1  # the host corrects Counselor 1's board or hand
                token = host if kind in ("critical", "bag", "set-board", "set-hand") else ann
                response = act_via_api(client, table, token, action)
                body = response.get_json()
                assert response.status_code != 200, (action, body)
                assert 400 <= response.status_code < 500 and body["error"].endswith((".", ")")), (action, body)
    for junk_kind in JUNK:
        response = act_via_api(client, table, ann, {"type": junk_kind})
        assert 400 <= response.status_code < 500 and response.get_json()["error"]
    assert snapshot(app) == before


def test_does_script_typed_into_a_form_come_back_escaped(app, hosted):
    code, ann = hosted["code"], hosted["phones"]["Ann"]
    before = snapshot(app)
    for fields in ({"type": "search", "supply": "<script>alert(1)</script>"},
                   {"type": "fear", "target": "<script>alert(1)</script>"}):
        response = form_act(ann, code, fields, f"/t/{code}/seats/1")
        assert response.status_code == 422
        assert "<script>alert(1)" not in response.get_data(as_text=True)
        assert "&lt;script&gt;" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_can_the_host_record_a_second_jason_from_a_fear_card_with_the_fix_a_board_form(hosted):
    """The 'Fix a board' form on the host screen records a Second Jason Attack on someone else's turn."""
    code, host = hosted["code"], hosted["host"]
    assert form_act(host, code, {"type": "search", "supply": "jason", "whose": "1"}).status_code == 200
    page = words(host.get(f"/t/{code}"))
    assert "Two Jason tokens on a board is a Second Jason Attack, whoever's turn it is" in page
    fields = {"type": "set-board", "whose": "1", "pan": "0", "flashlight": "0", "gasoline": "0", "cleaver": "0",
              "car_keys": "0", "axe": "0", "jason": "2", "escape": ""}
    response = form_act(host, code, fields)
    assert response.status_code == 200, words(response)
    page = words(host.get(f"/t/{code}"))
    assert "recorded a second Jason token on Counselor 1's Player Board: SECOND JASON ATTACK!" in page
    assert "fled from Jason, Cabin 1st" in page and "Counselor 2's turn on Night 1" in page  # Bo's turn goes on


def test_a_phone_returns_before_the_card_and_the_host_sees_the_reading_in_force(hosted):
    """Return to the Cabin is always offered; the Critical Supply section says which reading counts the set."""
    code, host, ann = hosted["code"], hosted["host"], hosted["phones"]["Ann"]
    page = words(ann.get(f"/t/{code}/seats/1"))
    assert "Return to the Cabin" in page and "the claim is checked when it is (Backpack not counted)" in page
    assert form_act(ann, code, {"type": "return"}, f"/t/{code}/seats/1").status_code == 200
    host_page = words(host.get(f"/t/{code}"))
    assert "Back at the Cabin already: Ann" in host_page
    assert "not the Backpack. assumed" in host_page
    assert form_act(host, code, {"type": "critical", "pan": "0", "axe": "1", "points": "5"}).status_code == 200
    assert "Claimed by" not in words(host.get(f"/t/{code}"))


def test_a_phone_plays_the_hidden_stash_and_hides_a_supply_through_the_forms(hosted):
    """The Hidden Stash's controls appear once its card is played; what is hidden shows in the board check."""
    code, host, ann, bo = hosted["code"], hosted["host"], hosted["phones"]["Ann"], hosted["phones"]["Bo"]
    ann_page, bo_page = f"/t/{code}/seats/1", f"/t/{code}/seats/2"
    assert form_act(ann, code, {"type": "search", "supply": "axe"}, ann_page).status_code == 200
    assert form_act(bo, code, {"type": "search", "supply": "pan"}, bo_page).status_code == 200
    assert form_act(host, code, {"type": "search", "supply": "pan", "whose": "3"}).status_code == 200
    assert "Hidden Stash: move Supplies" not in words(ann.get(ann_page))
    assert form_act(ann, code, {"type": "fear", "card": "hidden-stash"}, ann_page).status_code == 200
    page = words(ann.get(ann_page))
    assert "Hidden Stash: move Supplies from the board onto the card" in page and "Axes to hide" in page
    too_many = form_act(ann, code, {"type": "stash", "supply": "axe", "count": "2"}, ann_page)
    assert too_many.status_code == 422 and "holds 1 Axe, not 2" in page_text(too_many)
    assert form_act(ann, code, {"type": "stash", "supply": "axe", "count": "1"}, ann_page).status_code == 200
    page = words(ann.get(ann_page))
    assert "Hidden Stash 1 Axe" in page and "Your board nothing" in page


def test_the_host_enters_the_seating_and_every_screen_says_how_turns_go_round(hosted):
    code, host, ann = hosted["code"], hosted["host"], hosted["phones"]["Ann"]
    assert "Turns go round: Ann → Bo → Counselor 3 (seat order assumed" in words(ann.get(f"/t/{code}/seats/1"))
    assert form_act(host, code, {"type": "seating", "order": "1, 3, 2"}).status_code == 200
    assert "Turns go round: Ann → Counselor 3 → Bo." in words(ann.get(f"/t/{code}/seats/1"))
    bad = form_act(host, code, {"type": "seating", "order": "1, 1, 2"})
    assert bad.status_code == 422 and "Name each of the 3 seats once" in page_text(bad)


def test_each_phone_shows_only_its_own_counselor_through_a_night_and_a_drop_off(app, client):
    """At night and at drop-off (where each seat's view holds only its own drop-off), each phone's region in a drawing
    for every screen shows its own counselor only, exactly as that phone drawn alone."""
    from tests.live.drawing import alone
    from tests.live.drawing import drawn as drawing

    table = create_via_api(client, "crystal-lake", {"players": 4})
    tokens = {number: join_via_api(client, table, f"P{number}")["seat_token"] for number in range(1, 5)}
    every = {("host", None), ("host", 2), ("watch", None)} | {("seat", number) for number in tokens}

    def drawn():
        regions = drawing(app, table["code"], every)
        assert regions == alone(app, table["code"], every)
        return regions

    def act(token, **move):
        assert act_via_api(client, table, token, move).status_code == 200, move

    act(table["host_token"], type="critical", pan=1, points=4)
    act(tokens[1], type="search", supply="pan")
    night = drawn()
    assert "Choose one action" in night[("seat", 2)] and "Choose one action" not in night[("seat", 1)]
    assert night[("seat", 1)].count('class="cl-me"') == 1
    for number in (2, 3, 4, 1):  # everyone back at the Cabin: drop-off
        act(tokens[number], type="return")
    act(tokens[3], type="drop-off", keep="nothing", bonus="best")
    drop = drawn()
    for number in (1, 2, 4):
        region = drop[("seat", number)]
        assert region.count("Your drop-off") == 1 and region.count('class="cl-me"') == 1, number
        assert f'name="whose" value="{number}"' in region and 'name="whose" value="3"' not in region
    assert "You've dropped off" in drop[("seat", 3)] and "Your drop-off" not in drop[("seat", 3)]


def test_issue_46_the_escape_token_is_discarded_from_the_phone_at_drop_off(app, hosted):
    """'An Escape Token may be discarded by its owner at any time and does not count as an action.' At drop-off the
    discard was a 422 ("Escape Tokens remove a Jason token during the night; now it's drop-off.")."""
    code, host, ann = hosted["code"], hosted["host"], hosted["phones"]["Ann"]
    ann_page = f"/t/{code}/seats/1"
    for fields in ({"type": "search", "supply": "jason", "whose": "1"}, {"type": "return", "whose": "2"},
                   {"type": "return", "whose": "3"}, {"type": "search", "supply": "jason", "whose": "1"}):
        assert form_act(host, code, fields).status_code == 200
    page = words(ann.get(ann_page))
    assert "Your drop-off" in page and "Discard the Escape Token (no Jason to send back now)" in page
    discarded = form_act(ann, code, {"type": "escape"}, ann_page)
    assert discarded.status_code == 200, words(discarded)
    assert ("Ann (Counselor 1): discarded an Escape Token: no Jason token goes back (there is no Jason token on the "
            "Player Board).") in words(discarded)
    before = snapshot(app)
    twice = form_act(ann, code, {"type": "escape"}, ann_page)
    assert twice.status_code == 422 and "Counselor 1 holds no Escape Token." in words(twice)
    assert snapshot(app) == before
