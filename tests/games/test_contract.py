"""One contract test over every registered game (open_spiel's style): no per-game code, so a new game is checked too.

Random play-outs for every setup worth playing; at each step every offered move is accepted as offered, a refused
move leaves the state byte-identical, the state survives a JSON round trip, the outcome is stable, the game's own
invariants hold (a state the box can reach), and the views of the host, every seat and a spectator carry the shared
keys and match the game's JSON Schema.
"""

from __future__ import annotations

import json
import random

import jsonschema
import pytest

from app.dice import TableDice
from app.games import REGISTRY
from app.games.contract import VIEW_SCHEMA, IllegalAction, Viewer

from .rules_helpers import SEED, dumped, opening, setups

STEPS = 600  # moves per play-out: enough for a whole game of each box at a random table
ENDLESS_STEPS = 120  # a game the host ends (the tracker) plays this many moves
EVERY_OFFER_EVERY = 4  # every offered move of every seat is tried on every 4th step (each is a full apply)
PLAYOUTS = 2  # seeds per setup
CORRECTION_WEIGHT = 0.03  # a real table rarely corrects a count; a random one that did so often would never finish


GAMES = [pytest.param(spec, id=spec.slug) for spec in REGISTRY.values()]
SETUPS = [pytest.param(spec, raw, id=f"{spec.slug}-{index}")
          for spec in REGISTRY.values() for index, raw in enumerate(setups(spec))]


def validator(spec):
    schema = {"allOf": [VIEW_SCHEMA, spec.rules.VIEW_SCHEMA]}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def viewers(state: dict) -> list[Viewer]:
    return [Viewer.host(), Viewer.spectator(), *(Viewer.of_seat(seat) for seat in state["seats"])]


def check_views(spec, state: dict, check) -> None:
    """Every viewer's view is JSON, has the shared keys with their one meaning, and matches the game's schema."""
    rules = spec.rules
    for viewer in viewers(state):
        shown = rules.view(state, viewer)
        assert json.loads(json.dumps(shown)) == shown
        errors = sorted(check.iter_errors(shown), key=lambda error: list(error.path))
        assert not errors, f"{viewer}: {errors[0].message} at {list(errors[0].path)}"
        assert shown["viewer"] == viewer.as_dict()
        expected = [] if viewer.role == "spectator" else rules.legal_actions(state, viewer.seat)
        assert shown["moves"] == expected, viewer
        assert all(seat in state["seats"] for seat in shown["turn"]["seats"])


def check_invariants(spec, state: dict, step: int) -> None:
    """The game's own invariants (contract.py: `invariants`) hold: nothing the box can't show."""
    broken = spec.rules.invariants(state)
    assert broken == [], f"step {step}: {'; '.join(broken)}"


def offers(spec, state: dict) -> list[tuple[int | None, dict]]:
    """Every (acting seat, complete move) the table offers now: the host's own and every seat's."""
    return [(actor, offer) for actor in (None, *state["seats"]) for offer in spec.rules.legal_actions(state, actor)]


def varied_values(fields: list[dict], move: dict, chance: random.Random) -> dict:
    """`move` with each value the player picks set to another value its declared field allows (a row's too)."""
    move = dict(move)
    for field in fields:
        if not field["picked"]:
            continue
        if field["kind"] == "int":
            low = field["min"] if field["min"] is not None else (move.get(field["name"]) or 0) - 5
            high = field["max"] if field["max"] is not None else (move.get(field["name"]) or 0) + 5
            move[field["name"]] = chance.randint(low, max(low, min(high, low + 40)))
        elif field["kind"] == "choice" and field.get("choices"):
            move[field["name"]] = chance.choice(field["choices"])
        elif field["kind"] == "flag":
            move[field["name"]] = chance.random() < 0.5
        elif field["kind"] == "rows":  # as many rows as the player fills in: a few, each with its own values
            move[field["name"]] = [varied_values(field["fields"], {}, chance) for _ in range(chance.randint(0, 4))]
    return move


def varied(spec, state: dict, offer: dict, chance: random.Random) -> dict:
    """The offered move with each value the player picks set to another value its declared field allows."""
    return varied_values(spec.rules.MOVES.form(state, offer), offer, chance)


def play_out(spec, raw: dict, seed: int) -> tuple[dict, int]:
    """A random table from the opening to the end (or STEPS moves), checking the contract after every move."""
    rules = spec.rules
    chance = random.Random(f"{spec.slug}-{seed}-{json.dumps(raw, sort_keys=True)}")
    state = opening(spec, raw)
    check = validator(spec)
    counter = 0
    steps = STEPS if getattr(rules, "ENDS_BY_ITSELF", True) else ENDLESS_STEPS
    for step in range(steps):
        check_invariants(spec, state, step)
        over = rules.outcome(state)
        assert over == rules.outcome(json.loads(json.dumps(state))), "the outcome changed over a JSON round trip"
        if step % 25 == 0 or over is not None:
            check_views(spec, state, check)
        if over is not None:
            assert offers(spec, state) == [], "a finished game still offers moves"
            return state, step
        offered = offers(spec, state)
        assert offered, f"nobody can move, yet the game isn't over (step {step})"
        before = dumped(state)
        for actor, offer in offered if step % EVERY_OFFER_EVERY == 0 else ():
            try:
                rules.apply(state, {**offer, "seat": actor}, TableDice(SEED, counter, "x"))
            except IllegalAction as error:
                pytest.fail(f"offered to {actor} but refused: {offer}: {error}")
            assert dumped(state) == before, "apply changed the state it was given"
        weights = [CORRECTION_WEIGHT if rules.MOVES.declared(offer).correction else 1.0 for _, offer in offered]
        actor, offer = chance.choices(offered, weights)[0]
        move = varied(spec, state, offer, chance) if chance.random() < 0.3 else offer
        dice = TableDice(SEED, counter, "x")
        try:
            after, events = rules.apply(state, {**move, "seat": actor}, dice)
        except IllegalAction as error:
            assert move != offer, f"offered to {actor} but refused: {offer}: {error}"
            assert str(error) and dumped(state) == before and dice.counter == counter
            continue
        assert dumped(state) == before
        assert all(event.text for event in events)
        assert json.loads(json.dumps(after)) == after, "the state must survive the database's JSON round trip"
        state, counter = after, dice.counter
    check_invariants(spec, state, steps)
    check_views(spec, state, check)
    return state, steps


@pytest.mark.parametrize("spec,raw", SETUPS)
def test_does_a_random_table_keep_the_contract_from_opening_to_end(spec, raw):
    ends = getattr(spec.rules, "ENDS_BY_ITSELF", True)
    endings = 0
    for seed in range(PLAYOUTS):
        state, steps = play_out(spec, raw, seed)
        endings += spec.rules.outcome(state) is not None
    if ends:
        assert endings, f"no random table of {spec.slug} reached the end in {STEPS} moves"
    else:
        assert endings == 0


@pytest.mark.parametrize("spec", GAMES)
def test_does_every_move_type_declare_its_fields_and_a_handler(spec):
    moves = spec.rules.MOVES
    assert spec.rules.apply == moves.apply
    assert moves.types, f"{spec.slug} declares no moves"
    for declared in moves:
        assert declared.doing and declared.label and callable(declared.handler)
        for field in declared.fields:
            assert field.label and field.kind, (declared.type, field.name)


@pytest.mark.parametrize("spec", GAMES)
def test_does_every_game_state_what_its_box_guarantees(spec):
    """Each game declares its own invariants, and its opening state keeps them."""
    assert callable(getattr(spec.rules, "invariants", None)), f"{spec.slug} declares no invariants(state)"
    assert spec.rules.invariants(opening(spec)) == []


@pytest.mark.parametrize("spec", GAMES)
def test_is_a_malformed_move_refused_by_the_declaration_before_any_rule(spec):
    state = opening(spec)
    before = dumped(state)
    for action in (None, [], {"seat": None}, {"type": 5, "seat": None}, {"type": "dance", "seat": None},
                   {"type": next(iter(spec.rules.MOVES.types)), "seat": 99},
                   {"type": next(iter(spec.rules.MOVES.types)), "seat": True},
                   {"type": next(iter(spec.rules.MOVES.types)), "seat": None, "surprise": 1}):
        with pytest.raises(IllegalAction) as caught:
            spec.rules.apply(state, action, TableDice(SEED, 0, "x"))
        assert str(caught.value).endswith((".", "!", "?")), str(caught.value)
        assert dumped(state) == before


@pytest.mark.parametrize("spec", GAMES)
def test_does_the_opening_view_fit_the_schema_for_everyone(spec):
    state = opening(spec)
    check_views(spec, state, validator(spec))
    assert spec.rules.view(state, Viewer.spectator())["moves"] == []
