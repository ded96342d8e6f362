"""A screen's tap forms, built in Python: a phone region holds dozens of them, and as Jinja macros they were most of a
drawing's cost (each macro call builds a frame and a context; these are a few string joins).

`templates/tables/_act.html` exports them under the names templates import. Why they look as they do: one tap = one
small form htmx posts (it still works without JavaScript); each form carries its tap's key (live.js makes a fresh one
per tap), so a resent tap counts once; taps on one control queue and leave in order (hx-sync). The "sending" mark goes
on #sending, never on the form: htmx re-initialises an element whose attributes changed when a swap reprocesses it,
and that would forget the taps queued on the form.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from flask import g
from markupsafe import Markup, escape

from ..live.screens import TAP_MARK, VERSION_MARK, remembered_csrf_token, remembered_url

_SWAP = 'hx-target="#live" hx-swap="morph" hx-sync="this:queue all" hx-indicator="#sending"'


def tap_key() -> str:
    """A fresh key for one form's tap: a browser resending that very post (no JavaScript) is counted once."""
    return secrets.token_urlsafe(18)


def _form_tap_key() -> str:
    """A drawing for many screens marks where the keys go, and gives each region fresh ones once it is drawn."""
    return TAP_MARK if g.get("drawing_for_many") else tap_key()


def _hidden(fields: Mapping[str, Any], skip: str | None = None) -> str:
    return "".join(f'<input type="hidden" name="{escape(key)}" value="{escape(value)}">'
                   for key, value in fields.items() if key != skip)


def _head(cls: str, url: str, hx_post: bool) -> str:
    """A form's opening tag, its CSRF field and its tap key."""
    post = f'\n      hx-post="{url}" ' if hx_post else " "
    return (f'<form class="{escape(cls)}" method="post" action="{url}"{post}{_SWAP}>\n'
            f'  <input type="hidden" name="csrf_token" value="{escape(remembered_csrf_token())}">\n'
            f'  <input type="hidden" name="idempotency_key" value="{_form_tap_key()}">\n')


def _button(label: Any, cls: str = "", aria: Any = None, disabled: bool = False, extra: str = "") -> str:
    classes = f" class={_q(cls)}" if cls else ""
    labelled = f" aria-label={_q(aria)}" if aria else ""
    disabling = " disabled" if disabled else ""
    return f'<button type="submit"{extra}{classes}{labelled}{disabling}>{escape(label)}</button>'


def _q(value: Any) -> str:
    return f'"{escape(value)}"'


def _act_url(table, seat) -> str:
    return escape(remembered_url("play.act", code=table.code, seat=seat))


def act(table, fields: Mapping[str, Any], label: Any, cls: str = "", seat: int | None = None, aria: Any = None,
        disabled: bool = False) -> Markup:
    """One button that makes one move."""
    return Markup(f"{_head('act', _act_url(table, seat), True)}  {_hidden(fields)}\n"
                  f"  {_button(label, cls, aria, disabled)}\n</form>")


def act_group(table, fields: Mapping[str, Any], name: str, seat: int | None = None, cls: str = "act act-group", *,
              caller: Callable[[str], str]) -> Markup:
    """One form for buttons that make the same move but for one field (a counter's -1 and +1, the dice tray's dice).

    The buttons carry hx-post, not the form: htmx reads a form's tapped button when the request leaves, so a tap queued
    behind another would leave without its button; a button's own request always carries its name=value.
    Use: {% call(url) act_group(table, fields, "by", seat) %}{{ act_button(url, "by", 1, "+1") }}{% endcall %}
    """
    url = _act_url(table, seat)
    return Markup(f"{_head(cls, url, False)}  {_hidden(fields, skip=name)}\n  {caller(url)}\n</form>")


def act_button(url: str, name: str, value: Any, label: Any, cls: str = "", aria: Any = None,
               disabled: bool = False) -> Markup:
    """A button of an act_group: it sends name=value with the group's fields."""
    return Markup(_button(label, cls, aria, disabled,
                          extra=f' name="{escape(name)}" value="{escape(value)}" hx-post="{escape(url)}"'))


def act_form(table, fields: Mapping[str, Any], seat: int | None = None, cls: str = "act-form", *,
             caller: Callable[[], str]) -> Markup:
    """A move whose fields the player fills in: the caller draws the inputs and the button."""
    return Markup(f"{_head(cls, _act_url(table, seat), True)}  {_hidden(fields)}\n  {caller()}\n</form>")


def history_form(table, step: str, label: Any, fields: Mapping[str, Any] | None = None,
                 cls: str = "secondary small") -> Markup:
    """Undo, redo or 'back to here', carrying the version the screen showed."""
    url = escape(remembered_url("play.history", code=table.code, step=step))
    version = VERSION_MARK if g.get("drawing_for_many") else escape(table.version)
    return Markup(f"{_head('act', url, True)}"
                  f'  <input type="hidden" name="version" value="{version}">\n'
                  f"  {_hidden(fields or {})}\n  {_button(label, cls)}\n</form>")
