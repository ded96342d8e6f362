"""Live updates: a broker per app (in-process, or PostgreSQL LISTEN/NOTIFY) and the server-sent events route."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app

from .broker import Broker, broker_for


def init_live(app: Flask, draw: Callable) -> Broker:
    """One broker per app (its listener starts with the first stream, never at import), and how a table is drawn for
    its screens: `draw(code, kinds)` returns its regions, in a request context of the stream's host and mount."""
    hub = app.extensions["nightshift.broker"] = broker_for(app.config["SQLALCHEMY_DATABASE_URI"])
    app.extensions["nightshift.draw"] = draw
    return hub


def broker() -> Broker:
    return current_app.extensions["nightshift.broker"]


__all__ = ["Broker", "broker", "init_live"]
