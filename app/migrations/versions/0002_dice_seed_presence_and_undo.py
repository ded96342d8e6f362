"""dice seed and counter per table, seat presence, the state after each action and its dice

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 04:20:00

"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('dice_seed', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('dice_counter', sa.Integer(), nullable=False, server_default='0'))
    # Tables opened before dice existed get their own secret seed, as new tables do.
    tables = sa.table('tables', sa.column('id', sa.Integer), sa.column('dice_seed', sa.String))
    connection = op.get_bind()
    for (table_id,) in connection.execute(sa.select(tables.c.id)).fetchall():
        connection.execute(tables.update().where(tables.c.id == table_id).values(dice_seed=secrets.token_hex(32)))

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=True))

    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('state_after', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('dice', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.drop_column('dice')
        batch_op.drop_column('state_after')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('last_seen_at')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('dice_counter')
        batch_op.drop_column('dice_seed')
