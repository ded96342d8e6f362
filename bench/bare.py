"""The floor a move is measured against: a bare Flask + Flask-SQLAlchemy insert and a template, served as Night Shift
is (gunicorn, one gevent worker, the same database kind with the same SQLite pragmas).

    .venv/bin/python bench/bare.py --port 8001 --database-url sqlite:////tmp/bare.sqlite3

POST /write with a JSON body {"table": "ABCDE", "text": "..."} inserts one row and answers a small HTML fragment
rendered from a template (the row and the table's last five). bench/live.py starts it, drives it and stops it.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime

from flask import Flask, render_template, request
from flask_sqlalchemy import SQLAlchemy
from jinja2 import DictLoader
from sqlalchemy import DateTime, Integer, String, event, select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

TEMPLATE = """<section id="note" class="note" data-id="{{ note.id }}">
  <h2>Table {{ note.table }}</h2>
  <p class="text">{{ note.text }}</p>
  <ol class="recent">{% for row in recent %}
    <li data-id="{{ row.id }}">{{ row.text }} <time>{{ row.created_at }}</time></li>{% endfor %}
  </ol>
</section>
"""


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


class Note(db.Model):
    __tablename__ = "bench_bare_notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[str] = mapped_column(String(8), index=True)
    text: Mapped[str] = mapped_column(String(400))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


def sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=10000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def create_app(url: str) -> Flask:
    app = Flask(__name__)
    app.jinja_loader = DictLoader({"note.html": TEMPLATE})
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", sqlite_pragmas)
        else:
            from app.database import cooperate_with_gevent

            cooperate_with_gevent()

    @app.post("/write")
    def write():
        body = request.get_json(silent=True) or {}
        note = Note(table=str(body.get("table", ""))[:8], text=str(body.get("text", ""))[:400])
        db.session.add(note)
        db.session.commit()
        recent = db.session.scalars(select(Note).where(Note.table == note.table).order_by(Note.id.desc()).limit(5))
        return render_template("note.html", note=note, recent=list(recent))

    @app.get("/healthz")
    def healthz():
        return "ok\n"

    return app


def main(argv: list[str] | None = None) -> None:
    from gunicorn.app.base import BaseApplication

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database-url", required=True)
    args = parser.parse_args(argv)
    setup = create_app(args.database_url)
    with setup.app_context():
        Note.__table__.drop(db.engine, checkfirst=True)
        Note.__table__.create(db.engine)
        db.engine.dispose()

    class BareServer(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", [f"127.0.0.1:{args.port}"])
            self.cfg.set("workers", 1)
            self.cfg.set("worker_class", "gevent")
            self.cfg.set("worker_connections", 2000)
            if "control_socket_disable" in self.cfg.settings:
                self.cfg.set("control_socket_disable", True)

        def load(self):
            return create_app(args.database_url)

    BareServer().run()


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main()
