"""Night mood in Chromium (issue 44): every game's moments sound on the TV board and on the phone concerned (the audio
stubbed and counted), never when sound is off; the board reads the GM's rolls aloud in the log's words; reduced motion
stops every animation; the Settings of each device survive a reload; dark-table mode and the largest text keep axe
clean, every seat colour its name, and every page within 390 px."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.games import REGISTRY
from tests.boards import set_up
from tests.browser.conftest import HOST, PHONE, shoot
from tests.browser.test_board import call
from tests.browser.test_every_game import signed_in
from tests.browser.test_join_by_qr import serious_violations
from tests.browser.test_table_at_night import SMALL_TV, TV, api
from tests.moments import SCRIPTS, play, seated

pytestmark = pytest.mark.browser

# Web Audio, speech and vibration stubbed: what the page asked for is counted, nothing is heard.
STUBS = """
window.audioStarts = 0;
window.spoken = [];
window.buzzes = [];
(function () {
  function param() { return {value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {}}; }
  function node(context) {
    return {context: context, connect(next) { return next; }, start() { window.audioStarts += 1; }, stop() {},
            frequency: param(), gain: param(), type: "", buffer: null};
  }
  class Audio extends EventTarget {
    constructor() {
      super();
      this.state = window.audioLocked ? "suspended" : "running";
      this.currentTime = 0; this.sampleRate = 8000; this.destination = node(this);
    }
    resume() { this.state = "running"; this.dispatchEvent(new Event("statechange")); return Promise.resolve(); }
    createOscillator() { return node(this); }
    createGain() { return node(this); }
    createBiquadFilter() { return node(this); }
    createBufferSource() { return node(this); }
    createBuffer(channels, length) { const data = new Float32Array(length); return {getChannelData: () => data}; }
  }
  window.AudioContext = Audio;
  window.webkitAudioContext = Audio;
  window.SpeechSynthesisUtterance = window.SpeechSynthesisUtterance || function (text) { this.text = text; };
  const voice = window.speechSynthesis || {};
  voice.speak = function (words) { window.spoken.push(words.text); };
  voice.cancel = function () {};
  window.speechSynthesis = voice;
  navigator.vibrate = function (pattern) { window.buzzes.push(pattern); return true; };
})();
"""
ALL_KEYS = ("nightshift.settings", "nightshift.settings.board", "nightshift.settings.host")


def saved(settings: dict) -> str:
    """An init script that gives every kind of screen on this device these settings before the page loads."""
    text = json.dumps(json.dumps(settings))
    return "".join(f"localStorage.setItem({json.dumps(key)}, {text});" for key in ALL_KEYS)


def stubbed(page, settings: dict | None = None, locked: bool = False):
    page.add_init_script(("window.audioLocked = true;" if locked else "") + STUBS + (saved(settings)
                                                                                     if settings else ""))
    return page


def open_board(screens, base: str, table: dict, settings: dict | None = None, size: dict = TV, start: bool = True):
    """The TV board of `table`, its audio and voice stubbed, started with its one tap."""
    from playwright.sync_api import expect

    tv = stubbed(screens(size | {"extra_http_headers": {"Authorization": f"Bearer {table['host_token']}"}}), settings)
    tv.goto(f"{base}/t/{table['code']}/board")
    expect(tv.locator(".board .live-state")).to_be_attached()
    if start and tv.locator("[data-start-board]").is_visible():
        tv.get_by_role("button", name="Start the board").click()
    return tv


def open_phone(screens, base: str, instance, table: dict, number: int, settings: dict | None = None):
    """Seat `number`'s phone, its audio and buzz stubbed, live."""
    from playwright.sync_api import expect

    phone = stubbed(signed_in(screens, PHONE, base, instance, table["code"], "seat", table["tokens"][number]), settings)
    phone.goto(f"{base}/t/{table['code']}/seats/{number}")
    expect(phone.locator(".live-status .live-on")).to_be_visible()
    return phone


def at_version(page, version: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator(f'#live .live-state[data-version="{version}"]')).to_be_attached()
    page.wait_for_timeout(150)  # one picture's moments are gathered, then the strongest sounds


def width(page) -> int:
    """How wide the page lays out once its animations ended (a roll scales in for a moment)."""
    page.wait_for_load_state("load")
    page.evaluate("() => Promise.all(document.getAnimations().map(animation => animation.finished))")
    return page.evaluate("document.documentElement.scrollWidth")


def test_the_board_reads_the_gms_roll_aloud_in_the_words_of_the_log(live_server, screens):
    from playwright.sync_api import expect

    table = seated(call(live_server), "directors-cut")  # two guards on the Second Night
    code, host = table["code"], table["host_token"]
    tv = open_board(screens, live_server, table)
    expect(tv.locator("[data-start-board]")).to_be_hidden()  # the first tap is done
    for guard in (1, 2):
        api(live_server, f"/api/tables/{code}/actions", {"type": "roll", "values": [3], "seat": guard}, host)
    api(live_server, f"/api/tables/{code}/actions", {"type": "roll"}, host)  # the app rolls Bonnie's d10
    newest = tv.locator(".board-log .log-entry").first
    expect(newest).to_contain_text(re.compile(r"Bonnie rolled \d+ on d10: she moves to tile \d+\."))
    tv.wait_for_function("() => window.spoken.some(text => text.startsWith('Bonnie rolled'))")
    said = tv.evaluate("window.spoken.find(text => text.startsWith('Bonnie rolled'))")
    assert re.fullmatch(r"Bonnie rolled (\d+) on d10: she moves to tile \1\.", said), said
    assert said in newest.inner_text()  # the very words the log shows every screen
    assert tv.evaluate("window.spoken.length") == 1  # the guards' own moves weren't the GM's

    tv.get_by_role("button", name="Say it again").click()
    assert tv.evaluate("window.spoken") == [said, said]

    # Voice off (remembered on this board): the next GM lines are not read out, and Say it again goes away.
    tv.locator(".settings summary").click()
    tv.get_by_label("Read the GM's rolls and events aloud").uncheck()
    expect(tv.get_by_role("button", name="Say it again")).to_be_hidden()
    api(live_server, f"/api/tables/{code}/actions", {"type": "answer", "choice": "nobody"}, host)
    api(live_server, f"/api/tables/{code}/actions", {"type": "roll"}, host)  # Chica's d6
    expect(newest).to_contain_text("Chica rolled")
    tv.wait_for_timeout(1200)
    assert tv.evaluate("window.spoken.length") == 2
    tv.reload()
    tv.locator(".settings summary").click()
    expect(tv.get_by_label("Read the GM's rolls and events aloud")).not_to_be_checked()
    assert screens.problems == [], screens.problems


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_each_moment_sounds_on_the_board_and_on_the_phone_concerned_never_when_sound_is_off(live_server, screens, slug,
                                                                                            tmp_path):
    """The script's steps (tests/moments.py) one by one: the board's newest sound and each concerned phone's, and a
    second board and seat 1's second phone with sound off stay silent all along."""
    instance = tmp_path / "instance"
    table = seated(call(live_server), slug)
    tv = open_board(screens, live_server, table)
    quiet_tv = open_board(screens, live_server, table, {"sound": False, "voice": False}, size=SMALL_TV)
    phones = {number: open_phone(screens, live_server, instance, table, number) for number in table["tokens"]}
    quiet_phone = open_phone(screens, live_server, instance, table, 1, {"sound": False})
    pages = [tv, quiet_tv, *phones.values(), quiet_phone]
    for step in SCRIPTS[slug].steps:
        before = {page: page.evaluate("window.nightShift.played.length") for page in pages}
        play(call(live_server), table, step)
        version = call(live_server)(f"/api/tables/{table['code']}", token=table["host_token"])["version"]
        for page in pages:
            at_version(page, version)
        expected = [(tv, step.board)] + [(phone, step.phones.get(number)) for number, phone in phones.items()]
        for page, sound in expected:
            where = f"{slug}, {step.why or step.moves}: {'board' if page is tv else 'phone'}"
            if sound:
                page.wait_for_function(f"() => window.nightShift.played.length > {before[page]}")
                assert page.evaluate("window.nightShift.played.at(-1)") == sound, where
            elif page is tv:
                assert page.evaluate("window.nightShift.played.length") == before[page], where
    assert tv.evaluate("window.audioStarts") > 0
    for page in (quiet_tv, quiet_phone):
        assert page.evaluate("[window.audioStarts, window.nightShift.played, window.spoken]") == [0, [], []]
    if any(1 in step.phones for step in SCRIPTS[slug].steps):  # sound off still buzzes: it is the quiet way
        assert quiet_phone.evaluate("window.buzzes.length") > 0
    assert screens.problems == [], screens.problems


def test_a_muted_device_says_so_and_the_first_tap_unlocks_its_sound(live_server, screens, tmp_path):
    from playwright.sync_api import expect

    table = seated(call(live_server), "tracker")
    phone = signed_in(screens, PHONE, live_server, tmp_path / "instance", table["code"], "seat", table["tokens"][1])
    stubbed(phone, locked=True)  # this browser waits for a tap before it plays anything
    phone.goto(f"{live_server}/t/{table['code']}/seats/1")
    settings, root = phone.locator(".settings summary"), phone.locator("html")
    expect(root).to_have_attribute("data-audio", "locked")
    expect(settings).to_have_accessible_name(re.compile("^Tap anywhere for sound"))
    expect(settings.locator(".sound-cross")).to_be_visible()  # a crossed speaker, as wide as the plain one
    phone.locator(".seat-bar").click()
    expect(root).to_have_attribute("data-audio", "on")
    expect(settings.locator(".sound-waves")).to_be_visible()
    expect(settings.locator(".sound-cross")).to_be_hidden()
    settings.click()
    phone.get_by_label("Scare cues and chimes").uncheck()
    expect(settings.locator(".sound-off")).to_have_text("Muted")
    expect(settings.locator(".sound-off")).to_be_visible()
    expect(settings.locator(".sound-cross")).to_be_visible()

    tv = stubbed(screens(TV | {"extra_http_headers": {"Authorization": f"Bearer {table['host_token']}"}}), locked=True)
    tv.goto(f"{live_server}/t/{table['code']}/board")
    expect(tv.get_by_role("button", name="Start the board")).to_be_visible()
    expect(tv.locator("html")).to_have_attribute("data-audio", "locked")
    tv.get_by_role("button", name="Start the board").click()
    expect(tv.get_by_role("button", name="Start the board")).to_be_hidden()
    expect(tv.locator("html")).to_have_attribute("data-audio", "on")
    assert screens.problems == [], screens.problems


# The most animations running on the page right after a picture arrived (they end within seconds).
ANIMATIONS = """window.moving = 0;
document.addEventListener("htmx:afterSwap", () => {
  window.moving = Math.max(window.moving, document.getAnimations().length);
});"""


def test_reduced_motion_stops_every_animation_on_the_board_the_phone_and_the_host(live_server, screens, tmp_path):
    """A Night of Frights draw flips its tokens in on the board, the phones and the host; asked for reduced motion by
    the device or by Settings, nothing moves."""
    instance = tmp_path / "instance"
    for why, settings in {"neither": None, "device": None, "settings": {"motion": True}}.items():
        table = seated(call(live_server), "night-of-frights")
        for step in SCRIPTS["night-of-frights"].steps[:3]:  # up to Freddy's capture attempt: the bag is drawn next
            play(call(live_server), table, step)
        console = signed_in(screens, HOST, live_server, instance, table["code"], "host", table["host_token"])
        stubbed(console, settings).goto(f"{live_server}/t/{table['code']}")
        pages = [open_board(screens, live_server, table, settings),
                 open_phone(screens, live_server, instance, table, 2, settings), console]
        for page in pages:
            if why == "device":
                page.emulate_media(reduced_motion="reduce")
            page.evaluate(ANIMATIONS)
        api(live_server, f"/api/tables/{table['code']}/actions", {"type": "draw", "seat": 1}, table["host_token"])
        version = call(live_server)(f"/api/tables/{table['code']}", token=table["host_token"])["version"]
        for page in pages:
            at_version(page, version)
            moving = page.evaluate("window.moving")
            if why == "neither":
                assert moving > 0, f"{page.url}: the draw should animate here, or this test proves nothing"
            else:
                assert moving == 0, f"{page.url} with reduced motion from the {why}: {moving} animations"
                assert page.evaluate("document.documentElement.getAttribute('data-motion')") == "reduce"
    assert screens.problems == [], screens.problems


def test_settings_survive_a_reload_on_each_device(live_server, screens, tmp_path):
    from playwright.sync_api import expect

    table = seated(call(live_server), "tracker")
    phone = open_phone(screens, live_server, tmp_path / "instance", table, 1)
    tv = open_board(screens, live_server, table)
    console = stubbed(signed_in(screens, HOST, live_server, tmp_path / "instance", table["code"], "host",
                                table["host_token"]))
    console.goto(f"{live_server}/t/{table['code']}")
    choices = {phone: ("Larger", "Vibrate on my turn and when I'm attacked"),
               tv: ("Large", "Read the GM's rolls and events aloud"), console: ("Largest", None)}
    for page, (size, own) in choices.items():
        page.locator(".settings summary").click()
        page.get_by_label("Text size").select_option(label=size)
        page.get_by_label("Dark table").select_option("on")
        page.get_by_label("Reduce motion: no spinning, flashing or shaking").check()
        page.get_by_label("Volume").fill("30")
        sound = page.get_by_label("Scare cues and chimes")
        sound.uncheck() if page is not console else sound.check()  # the host page starts without sound
        if own:
            page.get_by_label(own).uncheck()
    for page, (size, own) in choices.items():
        page.reload()
        root = page.locator("html")
        expect(root).to_have_attribute("data-text", size.lower())
        expect(root).to_have_attribute("data-dark", "")
        expect(root).to_have_attribute("data-motion", "reduce")
        expect(root).to_have_attribute("data-audio", "off" if page is not console else re.compile("on|locked"))
        page.locator(".settings summary").click()
        expect(page.get_by_label("Volume")).to_have_value("30")
        if own:
            expect(page.get_by_label(own)).not_to_be_checked()
    assert tv.evaluate("localStorage.getItem('nightshift.settings.board')") != \
        phone.evaluate("localStorage.getItem('nightshift.settings')")  # kept per device (and per screen)
    assert screens.problems == [], screens.problems


APP_CSS = Path(__file__).parents[2] / "static/css/app.css"
COLOURS = re.findall(r"^\.seat-([a-z]+) \{ --chip", APP_CSS.read_text(), re.M)  # every seat colour there is


def seat_marks(page) -> list[str]:
    """Every seat colour on the page (a chip, or a box in a seat's colour) whose box holds no visible words: a seat
    told apart by colour alone."""
    return page.evaluate("""colours => [...document.querySelectorAll("#live .seat-chip, #live [class*='seat-']")]
        .filter(element => element.classList.contains("seat-chip")
                || colours.some(colour => element.classList.contains("seat-" + colour)))
        .filter(element => element.getClientRects().length)
        .filter(element => !(element.classList.contains("seat-chip") ? element.parentElement : element)
                           .innerText.trim())
        .map(element => element.outerHTML.slice(0, 120))""", COLOURS)


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_both_modes_at_the_largest_text_keep_axe_clean_each_seat_named_and_nothing_sideways(live_server, screens, slug,
                                                                                           tmp_path):
    """Mid-game (tests/boards.py's script): the phone, the host's console and the TV board, normal and dark, at the
    largest text size."""
    from playwright.sync_api import expect

    instance = tmp_path / "instance"
    table = set_up(call(live_server), slug, "mid")
    number = min(table["tokens"])
    for mode in ("normal", "dark"):  # each page closes after its look: a token holds at most 3 live streams
        settings = {"text": "largest", "dark": "on" if mode == "dark" else "off"}
        phone = open_phone(screens, live_server, instance, table, number, settings)
        expect(phone.locator("html")).to_have_attribute("data-text", "largest")
        assert width(phone) <= 390, f"{slug} phone, {mode}"
        assert seat_marks(phone) == [], f"{slug} phone, {mode}"
        shoot(phone, f"mood-{slug}-phone-{mode}")
        assert serious_violations(phone) == [], f"{slug} phone, {mode}"
        phone.close()

        small_host = stubbed(signed_in(screens, PHONE, live_server, instance, table["code"], "host",
                                       table["host_token"]), settings)
        small_host.goto(f"{live_server}/t/{table['code']}")
        assert width(small_host) <= 390, f"{slug} host on a phone, {mode}"
        small_host.close()

        console = stubbed(signed_in(screens, HOST, live_server, instance, table["code"], "host", table["host_token"]),
                          settings)
        console.goto(f"{live_server}/t/{table['code']}")
        shoot(console, f"mood-{slug}-host-{mode}")
        assert serious_violations(console) == [], f"{slug} host, {mode}"
        console.close()

        for size in (TV, SMALL_TV):
            tv = open_board(screens, live_server, table, settings, size=size, start=False)
            assert seat_marks(tv) == [], f"{slug} board, {mode}"
            assert tv.evaluate("document.scrollingElement.scrollHeight <= innerHeight && "
                               "document.scrollingElement.scrollWidth <= innerWidth"), f"{slug} board scrolls, {mode}"
            shoot(tv, f"mood-{slug}-board-{size['viewport']['width']}-{mode}")
            if size is SMALL_TV:
                assert serious_violations(tv) == [], f"{slug} board, {mode}"
            tv.close()
    assert screens.problems == [], screens.problems


def test_no_other_page_scrolls_sideways_on_a_phone_at_the_largest_text(live_server, screens, tmp_path):
    ended, waiting = set_up(call(live_server), "tracker", "finished"), set_up(call(live_server), "tracker", "start")
    phone = stubbed(signed_in(screens, PHONE, live_server, tmp_path / "instance", ended["code"], "host",
                              ended["host_token"]), {"text": "largest"})
    pages = ["/", "/history", f"/j/{waiting['code']}?k={waiting['join_key']}", f"/t/{ended['code']}/log",
             f"/t/{ended['code']}/verify", "/flipside/keywords", "/flipside/deck", "/crystal-lake/score",
             *(f"/new/{slug}" for slug in REGISTRY)]
    for page in pages:
        phone.goto(live_server + page)
        assert width(phone) <= 390, page
    assert screens.problems == [], screens.problems
