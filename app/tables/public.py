"""What a game's own pages (`app/games/<pkg>/routes.py`) may use of the tables, and nothing else: find a table, who
is asking, the host check, a move through the one write path, and the live region an htmx form is answered with.
The import-linter contract in pyproject.toml lets a game's routes import this module only."""

from __future__ import annotations

from .auth import request_visitor
from .play import render_live
from .service import apply_action, check_host, find_table

__all__ = ["apply_action", "check_host", "find_table", "render_live", "request_visitor"]
