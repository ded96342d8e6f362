"""A region drawn for many screens made one screen's own (`screens.personal`), without the web app."""

import re

from app.live import screens


def test_each_mark_is_filled_in_for_its_screen_and_anything_else_stays_as_drawn():
    drawn = (f'<tr class="seat-red{screens.MINE_MARK.format(1)}">\n<tr class="seat-blue{screens.MINE_MARK.format(10)}">'
             f'<input name="version" value="{screens.VERSION_MARK}"><input name="k" value="{screens.TAP_MARK}">'
             f'<input name="k" value="{screens.TAP_MARK}"><p>\u2212 <~mine-x~> <~other~></p>')
    seat_one = screens.personal(drawn, 1, 42).decode()
    seat_ten = screens.personal(drawn, 10, 42).decode()
    host = screens.personal(drawn, None, 42).decode()
    assert seat_one.startswith('<tr class="seat-red mine"> <tr class="seat-blue">')  # 1 is not the start of 10
    assert seat_ten.startswith('<tr class="seat-red"> <tr class="seat-blue mine">')
    assert host.startswith('<tr class="seat-red"> <tr class="seat-blue">')
    for region in (seat_one, seat_ten, host):
        assert '<input name="version" value="42">' in region and "\n" not in region
        assert region.endswith("<p>\u2212 <~mine-x~> <~other~></p>")  # not marks: left as they were
        keys = re.findall(r'name="k" value="([^"]+)"', region)
        assert len(keys) == 2 and len(set(keys)) == 2 and "<~" not in "".join(keys)
    assert re.findall(r'value="([^"]+)\.1"', seat_one) != re.findall(r'value="([^"]+)\.1"', seat_ten)


def test_a_region_without_marks_is_only_put_on_one_line():
    assert screens.personal("<p>Doom\r\n3</p>\n", 2, 7) == b"<p>Doom  3</p> "


def test_a_phone_keeps_its_own_blocks_only_and_other_screens_none():
    """One render for every phone holds each seat's own block between marks: seat 2 keeps block 2, not seat 12's,
    nor the tap keys inside the others' blocks; a screen that is no seat's keeps none."""
    own = "".join(f'{screens.OWN_MARK.format(number)}<p>Yours, {number}</p><input name="k" value="{screens.TAP_MARK}">'
                  f'{screens.OWN_END}' for number in (2, 12, 3))
    drawn = f'<h2>Table</h2>{own}<input name="k" value="{screens.TAP_MARK}"><p><~own-x~> <~/own~x</p>'
    two, twelve, host = (screens.personal(drawn, number, 1).decode() for number in (2, 12, None))
    assert re.findall(r"Yours, \d+", two) == ["Yours, 2"] and re.findall(r"Yours, \d+", twelve) == ["Yours, 12"]
    assert "Yours" not in host and not re.search(r"<~/?own(-\d+)?~>", two + twelve + host)
    assert re.findall(r'value="[^"]+\.(\d)"', two) == ["1", "2"]  # its own block's key, then the table's
    assert re.findall(r'value="[^"]+\.(\d)"', host) == ["1"]
    assert two.endswith("<p><~own-x~> <~/own~x</p>")  # not marks: left as drawn
