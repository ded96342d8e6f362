"""The join link a table's QR code carries, built from an address that phones on the LAN can reach."""

from __future__ import annotations

from flask import current_app, request

from ..models import Table
from . import lan


def base_url() -> lan.BaseUrl:
    """NIGHTSHIFT_PUBLIC_URL, else this machine's LAN address with the port the server listens on."""
    port = current_app.config.get("PORT") or request.environ.get("SERVER_PORT") or 80
    scheme = "https" if current_app.config.get("HTTPS") else "http"
    return lan.base_url(current_app.config.get("PUBLIC_URL", ""), int(port), request.host, scheme=scheme)


def join_url(table: Table, base: lan.BaseUrl | None = None) -> str:
    """The address in the QR code: the join page with the table's secret key."""
    base = base or base_url()
    return f"{base.url}/j/{table.code}?k={table.join_key}"
