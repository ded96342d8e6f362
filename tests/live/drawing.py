"""Drawing a table for some kinds of screen in a test, as a stream would: in a request context of its own."""

from __future__ import annotations

import re

from app.extensions import db

_TAP_KEY = re.compile(r'name="idempotency_key" value="[^"]+"')


def drawn(app, code: str, kinds: set) -> dict:
    """Every region of one drawing, with its tap keys blanked (each render makes fresh ones)."""
    with app.app_context(), app.test_request_context("/", base_url="http://localhost"):
        try:
            regions = app.extensions["nightshift.draw"](code, kinds).regions
        finally:
            db.session.remove()
    return {kind: _TAP_KEY.sub('name="idempotency_key" value=""', region) for kind, region in regions.items()}


def alone(app, code: str, kinds: set) -> dict:
    """Each kind drawn on its own: what a drawing for many screens must equal, kind by kind."""
    return {kind: drawn(app, code, {kind})[kind] for kind in kinds}
