"""Running totals over many match records, for `exact61 simulate` and `exact61 replay`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from exact61.core import Match


class MatchTotals(NamedTuple):
    """What a summary counts of one match: a worker sends these few numbers, not the match."""

    winner: int | None
    rounds: int
    actions: int
    domino: int
    block: int
    target: int
    rejected: int

    @classmethod
    def of(cls, match: Match) -> MatchTotals:
        ends = {"domino": 0, "block": 0, "target": 0}
        actions = rejected = 0
        for log in match.rounds:  # plain loops: this runs once a match in `simulate`
            actions += len(log.steps)
            if log.end is not None:
                ends[log.end.kind] += 1
            for event in log.events:
                if not event.accepted:
                    rejected += 1
        return cls(
            match.winner,
            len(match.rounds),
            actions,
            ends["domino"],
            ends["block"],
            ends["target"],
            rejected,
        )


@dataclass
class Summary:
    matches: int = 0
    rounds: int = 0
    actions: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    ends: Counter[str] = field(default_factory=Counter)
    rejected: int = 0

    def add(self, record: dict[str, Any]) -> None:
        self.matches += 1
        if record.get("winner") is not None:
            self.wins[record["winner"]] += 1
        for rnd in record["rounds"]:
            self.rounds += 1
            self.actions += len(rnd["actions"])
            if rnd.get("end"):
                self.ends[rnd["end"]["kind"]] += 1
            self.rejected += sum(1 for e in rnd["events"] if not e["accepted"])

    def add_match(self, match: Match) -> None:
        """The same totals as `add(match_to_record(match))`, read from the match itself."""
        self.add_totals(MatchTotals.of(match))

    def add_totals(self, totals: MatchTotals) -> None:
        """The totals of one match, as a worker sends them (`MatchTotals.of`)."""
        self.matches += 1
        if totals.winner is not None:
            self.wins[totals.winner] += 1
        self.rounds += totals.rounds
        self.actions += totals.actions
        for kind, count in (
            ("domino", totals.domino),
            ("block", totals.block),
            ("target", totals.target),
        ):
            if count:
                self.ends[kind] += count
        self.rejected += totals.rejected

    @property
    def rounds_per_match(self) -> float:
        return self.rounds / self.matches if self.matches else 0.0
