"""What one step of a match changes (:class:`StepRecord`), and the rows it writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Table, bindparam, insert, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import models, postgres_rows
from app.db.finish import record_finish, with_autopilot_decisions
from app.db.ids import now
from app.db.ledger import BANK, CHIP_TRANSFERS, pot_account, transfer

DEALS, ACTIONS, AUDIT_LOG = (models.Base.metadata.tables[name] for name in ("deals", "actions", "audit_log"))
DEAL_KEYS = ("match_id", "number")
DEAL_RESULTS = (update(DEALS)
                .where(DEALS.c.match_id == bindparam("b_match_id"), DEALS.c.number == bindparam("b_number"))
                .values(points=bindparam("b_points"), detail=bindparam("b_detail")))


@dataclass
class ChipMove:
    """Chips between a player's (or a bot's) account and a match's pot: ``delta`` < 0 puts them in,
    > 0 takes them out."""

    account: str
    delta: int
    kind: str
    deal: int | None
    action_seq: int | None


@dataclass(frozen=True)
class LoggedAction:
    """One entry of a match's action log (``actions``)."""

    seq: int
    deal: int
    seat: int | None
    action: dict[str, Any]
    ref: str | None
    at: datetime
    autopilot: bool = False


@dataclass(frozen=True)
class DealtDeck:
    """A deal's deck and, for a committed deal, its seeds (``deals``)."""

    number: int
    deck: list[str]
    server_seed: str | None
    commitment: str | None
    client_seeds: list[str] | None


@dataclass
class StepRecord:
    """Everything one step of a match changes, written in one transaction before anyone is told.
    ``fence``: the room's fence its writer holds (:mod:`app.db.fencing`), which its rows carry."""

    match_id: str
    actions: list[LoggedAction] = field(default_factory=list)
    deals: list[DealtDeck] = field(default_factory=list)
    deal_results: list[tuple[int, list[Any], dict[str, Any]]] = field(default_factory=list)
    chips: list[ChipMove] = field(default_factory=list)
    grants: list[tuple[str, int]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    audit: list[dict[str, Any]] = field(default_factory=list)
    fence: int = 0


@dataclass
class StepRows:
    """What steps of any matches write before their matches finish: the new rows of each table, and
    the points of the deals they end (``match_id``, ``number``, ``points``, ``detail``)."""

    inserts: list[tuple[Table, list[dict[str, Any]]]]
    deal_results: list[dict[str, Any]]

    @classmethod
    def of(cls, steps: list[StepRecord]) -> StepRows:
        deals = [{"match_id": step.match_id, "number": deal.number, "deck": deal.deck, "points": None,
                  "detail": None, "server_seed": deal.server_seed, "commitment": deal.commitment,
                  "client_seeds": deal.client_seeds, "fence": step.fence}
                 for step in steps for deal in step.deals]
        actions = [{"match_id": step.match_id, "seq": action.seq, "deal": action.deal, "seat": action.seat,
                    "action": action.action, "ref": action.ref, "at": action.at,
                    "autopilot": action.autopilot, "fence": step.fence}
                   for step in steps for action in step.actions]
        transfers = [row for step in steps for row in _step_transfers(step)]
        results = [{"match_id": step.match_id, "number": number, "points": points, "detail": detail}
                   for step in steps for number, points, detail in step.deal_results]
        audit = [row for step in steps for row in step.audit]
        inserts = [(table, rows) for table, rows in ((DEALS, deals), (ACTIONS, actions),
                                                     (CHIP_TRANSFERS, transfers), (AUDIT_LOG, audit))
                   if rows]
        return cls(inserts, results)

    async def write(self, session: AsyncSession) -> None:
        for table, rows in self.inserts:
            await session.execute(insert(table), rows)
        if self.deal_results:
            await session.execute(DEAL_RESULTS, [{f"b_{key}": value for key, value in row.items()}
                                                 for row in self.deal_results])

    def postgres_statements(self) -> list[postgres_rows.Statement]:
        statements = [postgres_rows.Statement.insert(table, rows) for table, rows in self.inserts]
        if self.deal_results:
            statements.append(postgres_rows.Statement.update(DEALS, DEAL_KEYS, self.deal_results))
        return statements


def _step_transfers(step: StepRecord) -> list[dict[str, Any]]:
    transfers = [transfer(BANK, account, amount, "grant", step.match_id) for account, amount in step.grants]
    pot = pot_account(step.match_id)
    for move in step.chips:
        source, target = (move.account, pot) if move.delta < 0 else (pot, move.account)
        transfers.append(transfer(source, target, abs(move.delta), move.kind, step.match_id,
                                  move.deal, move.action_seq))
    return transfers


async def finish_match(session: AsyncSession, match_id: str, result: dict[str, Any]) -> None:
    finished_at = now()
    result = await with_autopilot_decisions(session, match_id, result)
    await session.execute(
        update(models.Match).where(models.Match.id == match_id)
        .values(status="finished", finished_at=finished_at, result=result))
    await session.execute(
        update(models.Room).where(models.Room.match_id == match_id).values(status="finished"))
    await record_finish(session, match_id, result, finished_at)
