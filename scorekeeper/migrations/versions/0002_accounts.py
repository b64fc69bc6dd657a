"""Accounts, league memberships and roles, audit trail (issue 3)

Revision ID: 0002_accounts
Revises: 0001_table
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_accounts"
down_revision = "0001_table"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('login_failure',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_failure'))
    )
    with op.batch_alter_table('login_failure', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_login_failure_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_login_failure_key'), ['key'], unique=False)

    op.create_table('user',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=40), nullable=False),
    sa.Column('username_key', sa.String(length=40), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('is_admin', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_user')),
    sa.UniqueConstraint('username_key', name=op.f('uq_user_username_key'))
    )
    op.create_table('api_token',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('prefix', sa.String(length=12), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('last_used_at', sa.DateTime(), nullable=True),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_api_token_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_token')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_api_token_token_hash'))
    )
    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_api_token_user_id'), ['user_id'], unique=False)

    op.create_table('membership',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('role', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['league.id'], name=op.f('fk_membership_league_id_league'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_membership_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_membership')),
    sa.UniqueConstraint('user_id', 'league_id', name='uq_membership')
    )
    with op.batch_alter_table('membership', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_membership_league_id'), ['league_id'], unique=False)

    op.create_table('audit_event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('action', sa.String(length=40), nullable=False),
    sa.Column('summary', sa.String(length=200), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_audit_event_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['league.id'], name=op.f('fk_audit_event_league_id_league'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_audit_event_user_id_user'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_event'))
    )
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_event_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_event_league_id'), ['league_id'], unique=False)

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paid_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('paid_by_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_game_paid_at'), ['paid_at'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_game_paid_by_id_user'), 'user', ['paid_by_id'], ['id'], ondelete='SET NULL')

    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.add_column(sa.Column('defaults', sa.JSON(), nullable=True))



def downgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_column('defaults')

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_paid_by_id_user'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_paid_at'))
        batch_op.drop_column('paid_by_id')
        batch_op.drop_column('paid_at')

    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_event_league_id'))
        batch_op.drop_index(batch_op.f('ix_audit_event_game_id'))

    op.drop_table('audit_event')
    with op.batch_alter_table('membership', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_membership_league_id'))

    op.drop_table('membership')
    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_api_token_user_id'))

    op.drop_table('api_token')
    op.drop_table('user')
    with op.batch_alter_table('login_failure', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_login_failure_key'))
        batch_op.drop_index(batch_op.f('ix_login_failure_created_at'))

    op.drop_table('login_failure')
