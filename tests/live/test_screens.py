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
