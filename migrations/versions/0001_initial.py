"""players, rooms, matches, deals, actions and the chip ledger

Revision ID: 0001
Revises:
Create Date: 2026-11-30 11:42:13.184858
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('chip_transfers',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('source', sa.String(length=48), nullable=False),
    sa.Column('target', sa.String(length=48), nullable=False),
    sa.Column('amount', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=True),
    sa.Column('deal', sa.Integer(), nullable=True),
    sa.Column('action_seq', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('chip_transfers', schema=None) as batch_op:
        batch_op.create_index('ix_chip_transfers_source', ['source'], unique=False)
        batch_op.create_index('ix_chip_transfers_target', ['target'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    op.create_table('rooms',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=20), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('private', sa.Boolean(), nullable=False),
    sa.Column('owner_id', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['owner_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.create_index('ix_rooms_status', ['status'], unique=False)

    op.create_table('matches',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('room_id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=20), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('first_dealer', sa.Integer(), nullable=False),
    sa.Column('stacks', sa.JSON(), nullable=True),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['room_id'], ['rooms.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.create_index('ix_matches_game_started', ['game', 'started_at'], unique=False)
        batch_op.create_index('ix_matches_status', ['status'], unique=False)

    op.create_table('room_seats',
    sa.Column('room_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=True),
    sa.Column('bot', sa.String(length=20), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.ForeignKeyConstraint(['room_id'], ['rooms.id'], ),
    sa.PrimaryKeyConstraint('room_id', 'seat')
    )
    op.create_table('actions',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('deal', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('action', sa.JSON(), nullable=False),
    sa.Column('ref', sa.String(length=64), nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'seq')
    )
    op.create_table('deals',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('deck', sa.JSON(), nullable=False),
    sa.Column('points', sa.JSON(), nullable=True),
    sa.Column('detail', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'number')
    )
    op.create_table('match_seats',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=True),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('bot', sa.String(length=20), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'seat')
    )
    with op.batch_alter_table('match_seats', schema=None) as batch_op:
        batch_op.create_index('ix_match_seats_player', ['player_id', 'match_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('match_seats', schema=None) as batch_op:
        batch_op.drop_index('ix_match_seats_player')

    op.drop_table('match_seats')
    op.drop_table('deals')
    op.drop_table('actions')
    op.drop_table('room_seats')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index('ix_matches_status')
        batch_op.drop_index('ix_matches_game_started')

    op.drop_table('matches')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_index('ix_rooms_status')

    op.drop_table('rooms')
    op.drop_table('players')
    with op.batch_alter_table('chip_transfers', schema=None) as batch_op:
        batch_op.drop_index('ix_chip_transfers_target')
        batch_op.drop_index('ix_chip_transfers_source')

    op.drop_table('chip_transfers')
