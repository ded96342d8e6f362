"""The move_form macro of templates/tables/_act.html: a declared move as a form a phone or the host screen posts."""

from flask import render_template_string

from app.games import REGISTRY
from app.games.moves import Offers

FORM = ('{% from "tables/_act.html" import move_form %}'
        '{{ move_form(table, offers, offer, "Roll", prefill=prefill) }}')


class Table:
    code = "ABCDE"


def rendered(app, offer: dict, prefill: bool) -> str:
    spec = REGISTRY["tracker"]
    options, seats = spec.configure({})
    state = spec.rules.new_state(list(range(1, len(seats) + 1)), options, {})
    offers = Offers(spec.rules.MOVES, state, [offer], None)
    with app.test_request_context("/"):
        return render_template_string(FORM, table=Table(), offers=offers, offer=offer, prefill=prefill)


def test_a_prefilled_list_of_numbers_reads_as_the_numbers_a_form_takes_back(app):
    """A list field's value is written '3, 5', which the form's parser reads back as [3, 5], never '[3, 5]'."""
    page = rendered(app, {"type": "roll", "dice": "2d6", "values": [3, 5]}, prefill=True)
    assert 'name="values"' in page and 'value="3, 5"' in page and "[3, 5]" not in page
    assert REGISTRY["tracker"].rules.MOVES.from_form({"type": "roll", "values": "3, 5"})["values"] == [3, 5]


def test_an_unprefilled_form_starts_empty(app):
    page = rendered(app, {"type": "roll", "dice": "2d6", "values": [3, 5]}, prefill=False)
    assert 'name="values"' in page and 'value="3, 5"' not in page
