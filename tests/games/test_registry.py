"""The registry, without Flask: each game's player counts, seats and setup options as its rulebook prints them."""

from pathlib import Path

import pytest

from app.games import REGISTRY, OptionError, UnknownGame, get_game

# slug -> (options that make a table of N players, the counts the rulebook allows)
PLAYER_COUNTS = {
    "survive-6am": (lambda n: {"players": n}, range(1, 3)),
    "night-of-frights": (lambda n: {"characters": ["Freddy", "Bonnie", "Chica", "Foxy"][:n],
                                    "event_deck": 12 if n == 4 else 8}, range(2, 5)),
    "flipside": (lambda n: {"players": n}, range(2, 5)),
    "crystal-lake": (lambda n: {"players": n}, range(2, 7)),
}


def test_registry_has_the_five_games_and_the_generic_tracker_by_slug():
    assert list(REGISTRY) == ["survive-6am", "night-of-frights", "directors-cut", "flipside", "crystal-lake",
                              "tracker"]
    with pytest.raises(UnknownGame, match="choose one of"):
        get_game("monopoly")


@pytest.mark.parametrize("slug", ["survive-6am", "night-of-frights", "flipside", "crystal-lake"])
def test_every_allowed_player_count_gives_that_many_seats(slug):
    make, allowed = PLAYER_COUNTS[slug]
    for players in allowed:
        options, seats = REGISTRY[slug].configure(make(players))
        assert len(seats) == players


@pytest.mark.parametrize("slug,players", [("survive-6am", 0), ("survive-6am", 3), ("flipside", 1), ("flipside", 5),
                                          ("crystal-lake", 1), ("crystal-lake", 7)])
def test_player_counts_outside_the_rulebook_are_refused(slug, players):
    with pytest.raises(OptionError, match=f"Players must be from .* not {players}"):
        REGISTRY[slug].configure({"players": players})


def test_night_of_frights_needs_two_to_four_characters():
    spec = REGISTRY["night-of-frights"]
    with pytest.raises(OptionError, match="pick from 2 to 4, not 1"):
        spec.configure({"characters": ["Foxy"]})
    with pytest.raises(OptionError, match="only once"):
        spec.configure({"characters": ["Foxy", "Foxy"]})
    with pytest.raises(OptionError, match="'Springtrap' is not one of"):
        spec.configure({"characters": ["Foxy", "Springtrap"], "event_deck": 8})


def test_night_of_frights_seats_are_the_characters_in_box_order():
    _, seats = REGISTRY["night-of-frights"].configure({"characters": ["Foxy", "Chica", "Freddy"], "event_deck": 10})
    assert [seat.name for seat in seats] == ["Freddy", "Chica", "Foxy"]


def test_night_of_frights_fewer_players_means_a_smaller_event_deck():
    """'2 Players: Remove 3+ and 4 cards. 3 Players: Remove 4 cards.'"""
    spec = REGISTRY["night-of-frights"]
    with pytest.raises(OptionError, match="marked 3\\+ and 4 come out"):
        spec.configure({"characters": ["Freddy", "Bonnie"]})
    with pytest.raises(OptionError, match="marked 4 come out"):
        spec.configure({"characters": ["Freddy", "Bonnie", "Chica"], "event_deck": 12})
    options, _ = spec.configure({"characters": ["Freddy", "Bonnie", "Chica"], "event_deck": 10})
    assert options["event_deck"] == 10


def test_survive_solo_is_orange_and_two_players_are_orange_and_purple():
    spec = REGISTRY["survive-6am"]
    assert [seat.name for seat in spec.configure({"players": 1})[1]] == ["Orange"]
    assert [seat.name for seat in spec.configure({"players": 2})[1]] == ["Orange", "Purple"]


def test_directors_cut_every_night_allows_one_player_up_to_its_limit():
    """Nights 1-3 print '(1-6 Players)', Nights 4-7 '(1-7 Players)'."""
    spec = REGISTRY["directors-cut"]
    for night, most in [("first", 6), ("second", 6), ("third", 6), ("fourth", 7), ("fifth", 7), ("sixth", 7),
                        ("final", 7)]:
        assert len(spec.configure({"night": night, "guards": 1})[1]) == 1
        biggest = {"night": night, "guards": 4, "bonnie_player": True, "chica_player": True,
                   "freddy_player": most == 7}
        assert len(spec.configure(biggest)[1]) == most


def test_directors_cut_freddy_cannot_be_played_while_he_may_not_move():
    """First to Third Night: 'Freddy isn't' allowed to move, which is why those nights stop at 6 players."""
    spec = REGISTRY["directors-cut"]
    with pytest.raises(OptionError, match="Freddy isn't allowed to move on The Third Night"):
        spec.configure({"night": "third", "guards": 4, "bonnie_player": True, "chica_player": True,
                        "freddy_player": True})
    with pytest.raises(OptionError, match="Guards must be from 1 to 4"):
        spec.configure({"guards": 0})
    with pytest.raises(OptionError, match="Guards must be from 1 to 4, not 5"):
        spec.configure({"guards": 5})


def test_directors_cut_seats_follow_the_turn_order():
    _, seats = REGISTRY["directors-cut"].configure({"night": "fifth", "guards": 2, "chica_player": True,
                                                    "freddy_player": True})
    assert [seat.name for seat in seats] == ["Guard 1", "Guard 2", "Chica", "Freddy"]
    assert [seat.colour for seat in seats] == ["black", "darkblue", "yellow", "brown"]


def test_first_player_must_sit_at_the_table():
    with pytest.raises(OptionError, match="first player must be seat 1 to 3, not 5"):
        REGISTRY["crystal-lake"].configure({"players": 3, "first_player": 5})
    with pytest.raises(OptionError, match="first player must be seat 1 to 2, not 3"):
        REGISTRY["flipside"].configure({"players": 2, "first_player": 3})


def test_flipside_deck_has_at_least_forty_cards():
    with pytest.raises(OptionError, match="from 40 to"):
        REGISTRY["flipside"].configure({"deck_size": 39})


@pytest.mark.parametrize("raw,message", [
    ({"players": "two"}, "whole number"),
    ({"players": True}, "whole number"),
    ({"players": 2.5}, "whole number"),
    ({"players": None}, "whole number"),
    ({"star": "green"}, "must be one of: orange, purple"),
    ({"power_die_faces": "5,10"}, "exactly 6 numbers, not 2"),
    ({"power_die_faces": [5, 5, 10, 10, 15, 999]}, "from 0 to 100"),
    ({"power_die_faces": "5,5,x,10,15,20"}, "whole number"),
    ({"colour": "red"}, "Unknown option 'colour'"),
])
def test_bad_option_values_are_refused_with_a_sentence(raw, message):
    with pytest.raises(OptionError, match=message):
        REGISTRY["survive-6am"].configure(raw)


def test_options_must_be_an_object():
    with pytest.raises(OptionError, match="object"):
        REGISTRY["flipside"].configure(["players", 2])


def test_form_values_are_parsed_like_json_values():
    options, _ = REGISTRY["directors-cut"].configure({"night": "sixth", "guards": "3", "bonnie_player": "on"},
                                                     from_form=True)
    assert options["guards"] == 3 and options["bonnie_player"] is True and options["chica_player"] is False
    options, _ = REGISTRY["survive-6am"].configure({"power_die_faces": "0, 5,5 ,10,10,15"}, from_form=True)
    assert options["power_die_faces"] == [0, 5, 5, 10, 10, 15]


def test_every_profile_value_says_where_it_comes_from():
    for spec in REGISTRY.values():
        assert spec.profile, spec.slug
        for key, entry in spec.profile.items():
            assert entry.source in ("verified", "assumed"), (spec.slug, key)
            assert entry.note, (spec.slug, key)


def test_numbers_games_md_calls_assumed_are_labelled_assumed_on_the_setup_form():
    assumed = {(spec.slug, option.key) for spec in REGISTRY.values() for option in spec.options
               if option.source == "assumed"}
    assert {("survive-6am", "power_die_faces"), ("survive-6am", "star"), ("night-of-frights", "draw_table"),
            ("night-of-frights", "event_deck"), ("directors-cut", "guard_die"), ("directors-cut", "bonnie_die"),
            ("directors-cut", "chica_die"), ("directors-cut", "freddy_die")} <= assumed
    assert REGISTRY["directors-cut"].profile["foxy_die"].value == 20
    assert REGISTRY["directors-cut"].profile["golden_freddy_die"].value == 12


def test_crystal_lake_supply_values_match_the_player_board():
    values = REGISTRY["crystal-lake"].profile["supply_values"].value
    assert values == {"Cast Iron Pan": 1, "Flashlight": 2, "Gasoline": 3, "Cleaver": 4, "Car Keys": 6, "Axe": 8,
                      "Jason": 0}


def test_every_game_on_the_registry_has_its_rules():
    for spec in REGISTRY.values():
        assert all(callable(getattr(spec.rules, name)) for name in ("new_state", "legal_actions", "apply",
                                                                    "outcome", "view")), spec.slug


def test_describe_lists_every_option_for_the_api():
    described = REGISTRY["directors-cut"].describe()
    assert described["players"] == {"min": 1, "max": 7}
    assert [option["key"] for option in described["options"]][:2] == ["night", "guards"]


def test_every_option_says_whether_it_is_printed_assumed_or_a_table_choice():
    for spec in REGISTRY.values():
        for option in spec.options:
            assert option.source in ("verified", "assumed", "choice"), (spec.slug, option.key)
    assert REGISTRY["survive-6am"].option("power_dice").source == "choice"


def test_does_the_registry_hold_every_game_package_and_nothing_else():
    """A seventh game needs only its own package: the registry finds each package under app/games/ with a SPEC."""
    from pathlib import Path

    import app.games

    folder = Path(app.games.__file__).parent
    packages = {path.parent.name for path in folder.glob("*/__init__.py")}
    assert {spec.package for spec in REGISTRY.values()} == packages
    assert [spec.shelf for spec in REGISTRY.values()] == sorted(spec.shelf for spec in REGISTRY.values())


def test_a_game_is_one_folder_its_templates_and_stylesheet_live_in_its_package():
    """A seventh game is one folder under app/games/ (plus its docs page and tests): nothing of a game's look lives in
    the shared templates/ or static/ trees."""
    root = Path(__file__).resolve().parents[2]
    packages = {spec.package for spec in REGISTRY.values()}
    for spec in REGISTRY.values():
        own = root / "app" / "games" / spec.package
        assert (own / "templates" / spec.package / "_panel.html").is_file(), spec.slug
    shared = [path for folder in ("templates", "static") for path in (root / folder).rglob("*")
              if not path.is_relative_to(root / "static" / "vendor")]
    assert not [path for path in shared if any(part in packages or part.startswith(tuple(packages))
                                                 for part in path.relative_to(root).parts)]
    assert not (root / "templates" / "games").exists() and not (root / "static" / "css" / "games").exists()
