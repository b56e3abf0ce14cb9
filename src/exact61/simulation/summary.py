"""Running totals over many match records, for `exact61 simulate` and `exact61 replay`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


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

    @property
    def rounds_per_match(self) -> float:
        return self.rounds / self.matches if self.matches else 0.0
