"""Tables, their seats, and the action log: everything a table needs to survive a server restart."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, query_expression, relationship

from .extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every one we store is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Table(db.Model):
    """One game night around one box: its code, game, options, state and version."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True, index=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    state: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | finished
    join_key: Mapped[str] = mapped_column(String(16))
    host_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The secret behind the app's dice: its SHA-256 is shown from the start, the seed itself once the table ends.
    dice_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    dice_counter: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # never goes back, even on undo
    next_code: Mapped[str | None] = mapped_column(String(8), nullable=True)  # "Play again" opened this table next

    seats: Mapped[list[Seat]] = relationship(back_populates="table", order_by="Seat.id",
                                             cascade="all, delete-orphan")

    # The write path sets the next version itself; the ORM adds `WHERE version = <the one read>` to the table's one
    # UPDATE, so a writer that read an older version changes nothing and retries (StaleDataError).
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    frozen_seats = None  # not stored: set by `freeze_seats` on a snapshot nobody changes

    @property
    def player_seats(self) -> list[Seat]:
        if self.frozen_seats is not None:
            return self.frozen_seats
        return sorted((seat for seat in self.seats if seat.role == "player"), key=lambda seat: seat.number)

    def freeze_seats(self) -> None:
        """Sort the player seats once for a read-only snapshot (a drawing asks for them dozens of times a screen);
        never on a table a request may still seat someone at."""
        self.frozen_seats = self.player_seats

    @property
    def spectators(self) -> list[Seat]:
        return [seat for seat in self.seats if seat.role == "spectator" and seat.token_hash]


class Seat(db.Model):
    """A player's seat (numbered, named by the box) or a spectator's place; the token hash is the key to it."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_seats_table_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16), default="player")  # player | spectator
    number: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 1.. for players, None for spectators
    name: Mapped[str] = mapped_column(String(32))  # the box's name: "Orange", "Foxy", "Guard 2"
    colour: Mapped[str] = mapped_column(String(16), default="")
    player_name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)  # live stream open

    table: Mapped[Table] = relationship(back_populates="seats")

    @property
    def occupied(self) -> bool:
        return self.player_name is not None


class Action(db.Model):
    """One entry of a table's log: who did what, the dice, the result, and the state before it."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_actions_table_seq"),
                      UniqueConstraint("table_id", "idempotency_key", name="uq_actions_table_idempotency_key"),
                      # A table's latest entry of one type (the board's QR switch) without scanning its whole log.
                      Index("ix_actions_table_type_seq", "table_id", "type", "seq"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id", ondelete="SET NULL"), nullable=True)
    actor: Mapped[str] = mapped_column(String(80))  # "host", or the seat and player as the log shows them
    type: Mapped[str] = mapped_column(String(48))
    payload: Mapped[dict] = mapped_column(JSON, default=dict)
    result: Mapped[dict] = mapped_column(JSON, default=dict)
    text: Mapped[str] = mapped_column(String(400), default="")  # the log line in the game's words
    state_before: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)  # None: a seat change
    state_after: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)  # what redo restores
    dice: Mapped[list | None] = mapped_column(JSON(none_as_null=True), nullable=True)  # draws, to verify
    undoable: Mapped[bool] = mapped_column(Boolean, default=True)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The sender's key for this tap (Idempotency-Key): a repeat of it gets this entry back instead of a second move.
    idempotency_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Loaded by log queries instead of the states themselves: is this entry a game move (undoable in principle)?
    is_move: Mapped[bool | None] = query_expression()
    replayed = False  # not stored: True on the entry a repeated Idempotency-Key got back instead of a new move

    @property
    def move(self) -> bool:
        return bool(self.is_move) if self.is_move is not None else self.state_before is not None
