"""Charts as SVG drawn on the server: a few rectangles and labels, so no script, no inline style, no library.

Colours come from classes in static/css/app.css (the CSP allows no style attribute); every chart carries a title
and a one-sentence description for screen readers, and the page shows the same numbers in a table beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH = 360  # viewBox units: about one unit per CSS pixel on a 390-pixel phone, so 15 units read as 15px text
ROW = 46
WORDS = 100  # room right of a bar for its value in words ("12 of 20 won")
LABEL_MAX = 40


@dataclass(frozen=True)
class Chart:
    """A chart's title (the page shows it as the caption) and its SVG."""

    ident: str
    title: str
    svg: Markup


def _short(text: str) -> str:
    return text if len(text) <= LABEL_MAX else text[:LABEL_MAX - 1] + "…"


def _frame(ident: str, title: str, description: str, height: int, body: list[str]) -> Chart:
    return Chart(ident, title, Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="{ident}-title" aria-describedby="{ident}-desc" preserveAspectRatio="xMinYMin meet">'
        f'<title id="{ident}-title">{escape(title)}</title><desc id="{ident}-desc">{escape(description)}</desc>'
        + "".join(body) + "</svg>"))


def bars(ident: str, title: str, rows: list[tuple[str, int, int | None, str]]) -> Chart:
    """Horizontal bars, one per row: (label, value, out of (None: the largest value), the value as words).

    With `out of`, the bar's track is the whole and the filled part the value (wins out of plays). The label sits
    above its bar and the words beside it, so neither hides the other on a phone.
    """
    rows = rows[:12]
    largest = max([value for _, value, _, _ in rows] + [whole or 0 for _, _, whole, _ in rows] + [1])
    room = WIDTH - WORDS
    body = []
    for index, (label, value, whole, words) in enumerate(rows):
        top = index * ROW
        body.append(f'<text class="chart-label" x="0" y="{top + 16}">{escape(_short(label))}</text>')
        track = room * (whole if whole is not None else largest) / largest
        body.append(f'<rect class="chart-track" x="0" y="{top + 24}" width="{track:.1f}" height="14" rx="4"/>')
        if value > 0:
            body.append(f'<rect class="chart-bar" x="0" y="{top + 24}" width="{room * value / largest:.1f}" '
                        f'height="14" rx="4"/>')
        body.append(f'<text class="chart-value" x="{room + 8}" y="{top + 36}">{escape(words)}</text>')
    description = "; ".join(f"{label}: {words}" for label, _, _, words in rows) + "."
    return _frame(ident, title, description, max(ROW, len(rows) * ROW), body)


def columns(ident: str, title: str, values: list[tuple[str, int, bool]], unit: str) -> Chart:
    """Columns left to right, oldest first: (label, value, highlighted), e.g. a player's score in each play, wins
    highlighted. The highest value is labelled on its column."""
    values = values[-24:]
    height, base, top = 150, 130, 22
    largest = max([value for _, value, _ in values] + [1])
    lowest = min([value for _, value, _ in values] + [0])
    span = largest - lowest or 1
    step = WIDTH / max(len(values), 1)
    width = max(step * 0.7, 2)
    body = [f'<line class="chart-axis" x1="0" y1="{base}" x2="{WIDTH}" y2="{base}"/>']
    best = max(range(len(values)), key=lambda index: values[index][1]) if values else None
    for index, (_, value, highlighted) in enumerate(values):
        tall = (base - top) * (value - lowest) / span
        x = index * step + (step - width) / 2
        kind = "chart-bar" if highlighted else "chart-bar-plain"
        body.append(f'<rect class="{kind}" x="{x:.1f}" y="{base - tall:.1f}" width="{width:.1f}" '
                    f'height="{max(tall, 1):.1f}" rx="2"/>')
        if index == best:
            body.append(f'<text class="chart-value" x="{x + width / 2:.1f}" y="{max(base - tall - 6, 14):.1f}" '
                        f'text-anchor="middle">{value}</text>')
    body.append(f'<text class="chart-label" x="0" y="{height - 2}">oldest</text>')
    body.append(f'<text class="chart-label" x="{WIDTH}" y="{height - 2}" text-anchor="end">newest</text>')
    description = (f"{len(values)} plays, oldest first: " + ", ".join(
        f"{value} {unit}{' (won)' if highlighted else ''}" for _, value, highlighted in values) + ".")
    return _frame(ident, title, description, height, body)
