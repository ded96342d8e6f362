"""the sender's idempotency key on each log entry, unique per table

Revision ID: 0003
Revises: 0004
Create Date: 2026-12-01 15:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('idempotency_key', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint('uq_actions_table_idempotency_key', ['table_id', 'idempotency_key'])


def downgrade():
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.drop_constraint('uq_actions_table_idempotency_key', type_='unique')
        batch_op.drop_column('idempotency_key')
