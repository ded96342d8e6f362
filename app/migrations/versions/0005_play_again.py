"""the table a finished one continues at after "Play again"

Revision ID: 0005
Revises: 0002
Create Date: 2026-12-01 16:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('next_code', sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('next_code')
