"""Game nights remembered: each finished table's play, the history pages, player stats, exports and import.

Importing this package stays cheap (the write path imports `record` from here); `init_history` attaches the pages.
"""

from __future__ import annotations


def init_history(app, csrf) -> None:
    """The history pages, and the JSON API beside the tables' (bearer tokens, so no CSRF to guard)."""
    from . import api, routes

    app.register_blueprint(routes.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    csrf.exempt(routes.import_history)  # checks its CSRF token itself, after raising the size limit for the file
