"""A game's web half: one blueprint per game serves its templates and stylesheet from its own package folder.

A game is one folder: `app/games/<pkg>/templates/<pkg>/` (its `_panel.html`, optional `_board.html` and own pages)
and `app/games/<pkg>/static/<pkg>.css`. Its `routes.py` may add pages to the same blueprint (`game_blueprint`);
a game without one still gets a blueprint, so its templates are found.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from flask import Blueprint, Flask

GAMES = Path(__file__).parent


def game_blueprint(package: str) -> Blueprint:
    """The blueprint that serves a game's templates (as `<pkg>/...`), its static folder (/<slug>/static/) and its
    own pages (under /<slug>/)."""
    static = "static" if (GAMES / package / "static").is_dir() else None
    return Blueprint(package, f"app.games.{package}", url_prefix="/" + package.replace("_", "-"),
                     template_folder="templates", static_folder=static, static_url_path="/static")


def stylesheet_path(package: str) -> Path:
    """Where a game keeps its own look: its panel's and board's rules, loaded after app.css."""
    return GAMES / package / "static" / f"{package}.css"


def panel_template(package: str) -> str:
    return f"{package}/_panel.html"


def board_template(package: str) -> str:
    return f"{package}/_board.html"


def phone_template(package: str) -> str | None:
    """A game's phone part (`templates/<pkg>/_phone.html`): what only a seat's own phone shows, its moves first, above
    the panel every phone and spectator shares. None: each phone renders the whole panel for its seat."""
    name = f"{package}/_phone.html"
    return name if (GAMES / package / "templates" / name).is_file() else None


def register_game_pages(app: Flask, specs, csrf) -> None:
    """Each game's blueprint (its templates, static folder and own pages from `routes.py`), and its JSON (`api_bp`,
    bearer tokens, so exempt from CSRF)."""
    for spec in specs:
        try:
            module = importlib.import_module(f"app.games.{spec.package}.routes")
        except ModuleNotFoundError as error:
            if error.name != f"app.games.{spec.package}.routes":
                raise
            module = None
        app.register_blueprint(getattr(module, "bp", None) or game_blueprint(spec.package))
        if hasattr(module, "api_bp"):
            app.register_blueprint(module.api_bp)
            csrf.exempt(module.api_bp)
