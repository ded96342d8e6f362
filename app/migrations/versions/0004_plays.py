"""plays: the history of finished tables, each seat's figures, who may see them, and merged player names

Revision ID: 0004
Revises: 0005
Create Date: 2026-12-02 02:10:00

Plays point at their table with ON DELETE SET NULL: purging an expired table keeps its play.
"""
import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('plays',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uid', sa.String(length=32), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=True),
    sa.Column('table_code', sa.String(length=8), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('game_name', sa.String(length=120), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('readings', sa.JSON(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('duration_seconds', sa.Integer(), nullable=False),
    sa.Column('ending', sa.String(length=16), nullable=False),
    sa.Column('result', sa.String(length=400), nullable=False),
    sa.Column('shared', sa.Boolean(), nullable=False),
    sa.Column('figures', sa.JSON(), nullable=False),
    sa.Column('moves', sa.Integer(), nullable=False),
    sa.Column('dice_commitment', sa.String(length=64), nullable=True),
    sa.Column('dice_rolls', sa.Integer(), nullable=False),
    sa.Column('undone', sa.Boolean(), nullable=False),
    sa.Column('imported', sa.Boolean(), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id'),
    sa.UniqueConstraint('uid')
    )
    with op.batch_alter_table('plays', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_plays_game'), ['game'], unique=False)
        batch_op.create_index(batch_op.f('ix_plays_ended_at'), ['ended_at'], unique=False)

    op.create_table('play_seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('play_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('seat', sa.String(length=32), nullable=False),
    sa.Column('colour', sa.String(length=16), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=True),
    sa.Column('player_key', sa.String(length=64), nullable=True),
    sa.Column('winner', sa.Boolean(), nullable=False),
    sa.Column('score', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=80), nullable=True),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.Column('records', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['play_id'], ['plays.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('play_id', 'number', name='uq_play_seats_play_number')
    )
    with op.batch_alter_table('play_seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_play_seats_play_id'), ['play_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_play_seats_player_key'), ['player_key'], unique=False)

    op.create_table('play_keys',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('play_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('role', sa.String(length=8), nullable=False),
    sa.ForeignKeyConstraint(['play_id'], ['plays.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('play_id', 'token_hash', name='uq_play_keys_play_hash')
    )
    with op.batch_alter_table('play_keys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_play_keys_play_id'), ['play_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_play_keys_token_hash'), ['token_hash'], unique=False)

    op.create_table('player_aliases',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('person', sa.String(length=64), nullable=False),
    sa.Column('person_key', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    with op.batch_alter_table('player_aliases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_aliases_person_key'), ['person_key'], unique=False)


def downgrade():
    op.drop_table('player_aliases')
    op.drop_table('play_keys')
    op.drop_table('play_seats')
    op.drop_table('plays')
