"""a table's log entries by type: the host's latest word on the board's QR code in one lookup, not a log scan

Revision ID: 0006
Revises: 0003
Create Date: 2026-12-07 11:10:00

"""
from alembic import op

revision = '0006'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_actions_table_type_seq', 'actions', ['table_id', 'type', 'seq'])


def downgrade():
    op.drop_index('ix_actions_table_type_seq', table_name='actions')
