"""Random legal games of every game, every setup the contract test plays (tests/games/rules_helpers.py `setups`), with
a phone at 390x844 open for every seat: at every state where a seat has a move, the control for the first move it is
offered (its fields and its submit button) lies inside that phone's first viewport, unscrolled, as pushed live; off
its turn (a revive, a shout, a stash) the move may fold away behind a summary on that screen. A
correction (a count set by hand, declared `correction`) is not the seat's move: it may fold away; a random table makes
one rarely, as a real one does."""

import json
import random

import pytest

from app.games import REGISTRY
from tests.browser.conftest import PHONE, shoot
from tests.browser.test_every_game import seated_table, signed_in
from tests.browser.test_table_at_night import api
from tests.games.rules_helpers import setups

pytestmark = pytest.mark.browser
LONG = 60  # moves in each game's first three setups (to the end if it comes sooner)
SHORT = 8  # moves in every other setup: every option value still reaches a phone

GAMES = [pytest.param(spec.slug, index, raw, id=f"{spec.slug}-{index}")
         for spec in REGISTRY.values() for index, raw in enumerate(setups(spec))]

# The first viewport's view of a move's control: the form carrying the move's type, its visible fields and its first
# submit button, each box inside the viewport; the page must not be scrolled (nothing moved it).
OUT_OF_VIEW = """([kind, inner, onTurn]) => {
  // A form's own box may be `display: contents` (a group of step buttons): what counts is what it shows.
  const shown = form => [...form.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
    .filter(part => part.checkVisibility());  // false inside a closed <details> too
  const away = part => {
    const box = part.getBoundingClientRect();
    return box.top < 0 || box.left < 0 || box.bottom > inner[1] || box.right > inner[0];
  };
  if (window.scrollY) return `scrolled to ${window.scrollY}`;
  const forms = [...document.querySelectorAll('#live form')]
    .filter(form => form.querySelector(`input[name="type"][value="${kind}"]`));
  const form = forms.find(form => shown(form).length);
  if (!form) {
    // Off its turn a seat's move may wait folded (a revive, a shout): the summary that opens it is on screen one.
    const folded = forms.map(form => form.closest('details:not([open])')).find(details => details);
    if (onTurn || !folded) return `no visible form for ${kind}`;
    const summary = folded.querySelector('summary');
    return away(summary) ? `the summary "${summary.textContent.trim()}" at y=` +
      Math.round(summary.getBoundingClientRect().top) : '';
  }
  const parts = shown(form);
  const submit = parts.find(part => part.tagName === 'BUTTON' && part.type === 'submit');
  if (!submit) return `the ${kind} form has no submit button`;
  const out = parts.slice(0, parts.indexOf(submit) + 1).filter(away);
  return out.length ? `${out.map(part => part.name || part.textContent.trim()).join(', ')} at y=`
    + Math.round(out[0].getBoundingClientRect().top) : '';
}"""


@pytest.mark.parametrize("slug,index,raw", GAMES)
def test_every_seat_with_a_move_sees_its_control_in_the_first_viewport(live_server, screens, tmp_path, slug, index,
                                                                        raw):
    from playwright.sync_api import expect

    chance = random.Random(f"{slug}-{index}")
    rules = REGISTRY[slug].rules
    table, tokens = seated_table(live_server, slug, raw)
    code = table["code"]
    phones = {}
    for number, token in tokens.items():
        phones[number] = signed_in(screens, PHONE, live_server, tmp_path / "instance", code, "seat", token)
        phones[number].goto(f"{live_server}/t/{code}/seats/{number}")
    checked = 0
    for step in range(LONG if index < 3 else SHORT):
        state = api(live_server, f"/api/tables/{code}", token=table["host_token"])
        for phone in phones.values():
            expect(phone.locator(f'#live .live-state[data-version="{state["version"]}"]')).to_be_attached()
        views = {number: api(live_server, f"/api/tables/{code}", token=token)["view"]
                 for number, token in tokens.items()}
        for number, view in views.items():
            main = [move for move in view["moves"] if not rules.MOVES.declared(move).correction]
            if main:  # a seat offered only corrections (a count set by hand) has no move to make now
                kind = main[0]["type"]
                phone = phones[number]
                on_turn = number in view.get("turn", {}).get("seats", [])
                away = phone.evaluate(OUT_OF_VIEW, [kind, [PHONE["viewport"]["width"], PHONE["viewport"]["height"]],
                                                    on_turn])
                if away:
                    shoot(phone, f"phone-first-{slug}-{index}-seat{number}")
                assert not away, f"step {step}, seat {number} ({kind}): {away}; options {json.dumps(raw)}"
                checked += 1
        offered = [(table["host_token"], move) for move in state["view"]["moves"]]
        offered += [(tokens[number], move) for number, view in views.items() for move in view["moves"]]
        if not offered:
            break
        weights = [0.05 if rules.MOVES.declared(move).correction else 1.0 for _, move in offered]
        token, move = chance.choices(offered, weights)[0]
        api(live_server, f"/api/tables/{code}/actions", move, token)
    assert checked or index >= 3, "no seat ever had a move"
    for number, phone in phones.items():
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"], number
    assert screens.problems == [], screens.problems
