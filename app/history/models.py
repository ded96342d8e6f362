"""Plays: what a finished (or ended) table leaves behind once the table itself expires and is purged."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from ..models import utcnow

FINISHED = "finished"  # the game's own rules named the outcome
ENDED_EARLY = "ended early"  # the host ended the table before the rules named one


class Play(db.Model):
    """One game night at one table: the result, every seat's figures, and what it took to get there.

    `table_id` sets itself to NULL when the table is purged, so the play outlives its table; the table's code,
    seats and the dice commitment are copied here for that reason.
    """

    __tablename__ = "plays"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True)  # stable across export and import
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id", ondelete="SET NULL"), nullable=True,
                                                 unique=True)
    table_code: Mapped[str] = mapped_column(String(8), default="")
    game: Mapped[str] = mapped_column(String(32), index=True)
    game_name: Mapped[str] = mapped_column(String(120))
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    readings: Mapped[list] = mapped_column(JSON, default=list)  # each option with its label, value and source
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    duration_seconds: Mapped[int] = mapped_column(Integer, default=0)
    ending: Mapped[str] = mapped_column(String(16), default=FINISHED)
    result: Mapped[str] = mapped_column(String(400), default="")
    shared: Mapped[bool] = mapped_column(Boolean, default=False)
    figures: Mapped[dict] = mapped_column(JSON, default=dict)  # the game-wide part: score name, side, scenario, facts
    moves: Mapped[int] = mapped_column(Integer, default=0)
    dice_commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    dice_rolls: Mapped[int] = mapped_column(Integer, default=0)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)  # the final move was taken back; hidden until redo
    imported: Mapped[bool] = mapped_column(Boolean, default=False)  # brought in from another machine's export
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[PlaySeat]] = relationship(back_populates="play", order_by="PlaySeat.number",
                                                 cascade="all, delete-orphan")
    keys: Mapped[list[PlayKey]] = relationship(cascade="all, delete-orphan")

    @property
    def winners(self) -> list[PlaySeat]:
        return [seat for seat in self.seats if seat.winner]


class PlaySeat(db.Model):
    """A seat of a play: the box's name for it, who sat there, and that player's figures."""

    __tablename__ = "play_seats"
    __table_args__ = (UniqueConstraint("play_id", "number", name="uq_play_seats_play_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    play_id: Mapped[int] = mapped_column(ForeignKey("plays.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(32))  # "Orange", "Counselor 2", "Guard 1"
    colour: Mapped[str] = mapped_column(String(16), default="")
    player: Mapped[str | None] = mapped_column(String(64), nullable=True)  # as typed at the table
    player_key: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)  # case-folded, for matching
    winner: Mapped[bool] = mapped_column(Boolean, default=False)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str | None] = mapped_column(String(80), nullable=True)
    details: Mapped[list] = mapped_column(JSON, default=list)  # [[label, value], ...] in the game's words
    records: Mapped[dict] = mapped_column(JSON, default=dict)  # {label: number}: figures whose best the stats keep

    play: Mapped[Play] = relationship(back_populates="seats")


class PlayKey(db.Model):
    """The hash of a host or seat token that was at the table: who may see the play once the table is gone."""

    __tablename__ = "play_keys"
    __table_args__ = (UniqueConstraint("play_id", "token_hash", name="uq_play_keys_play_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    play_id: Mapped[int] = mapped_column(ForeignKey("plays.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), index=True)
    role: Mapped[str] = mapped_column(String(8))  # host | seat


class PlayerAlias(db.Model):
    """A spelling of a player's name that the host merged into another: 'anne' is Ann."""

    __tablename__ = "player_aliases"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)  # the merged spelling, case-folded
    person: Mapped[str] = mapped_column(String(64))  # the name it counts as, as the host wrote it
    person_key: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
