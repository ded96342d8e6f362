"""Live updates: a broker per app (in-process, or PostgreSQL LISTEN/NOTIFY) and the server-sent events route."""

from __future__ import annotations

from flask import Flask, current_app

from .broker import Broker, broker_for


def init_live(app: Flask) -> None:
    """One broker per app; its listener starts with the first stream, never at import."""
    hub = app.extensions["nightshift.broker"] = broker_for(app.config["SQLALCHEMY_DATABASE_URI"])
    from .screens import init_screens, painter

    hub.painter = painter
    init_screens(app)


def broker() -> Broker:
    return current_app.extensions["nightshift.broker"]


__all__ = ["Broker", "broker", "init_live"]
