"""Every behaviour kept: `exact61 simulate` writes the same records, byte for byte, for the same
seed and bots as the files in `tests/data/records/`, written by `exact61 simulate --seed 61` from
commit ddf14a9, before the game loop asked blind bots without a view and before the compiled
build by Cython. A change that moves any bot's choice, any deal or any byte of the format fails
here; one that means to must say so and write the files anew (`BOT-Np.jsonl` is `--bot BOT
--players N`, with `ismcts-30` for `ismcts:30`, and `--matches` the file's line count)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exact61.simulation.runs import simulate_lines
from tests.helpers import DATA

ROOT = Path(__file__).parents[2]
RECORDS = DATA / "records"
SEED = 61
PROGRAM = re.compile(r'"program":"exact61 [^"]*"')  # the version may move; nothing else may


def kept_files() -> list[tuple[str, int, str]]:
    """(file name, players, bot) for each stored file: `BOT-Np.jsonl`, `ismcts-30` for
    `ismcts:30`."""
    out = []
    for path in sorted(RECORDS.glob("*.jsonl")):
        spec, players = path.stem.rsplit("-", 1)
        bot = spec.replace("-", ":", 1) if spec[-1].isdigit() else spec
        if bot == "learned":
            bot = "learned:examples/ppo_agent.npz"
        out.append((path.name, int(players.removesuffix("p")), bot))
    return out


def test_the_kept_records_cover_every_bot_and_player_count() -> None:
    kept = kept_files()
    assert {players for _, players, _ in kept} == {2, 3, 4}
    bots = {bot.split(":")[0] for _, _, bot in kept}
    assert bots == {"random", "greedy", "heuristic", "ismcts", "expert", "pimc", "learned"}


@pytest.mark.parametrize(("name", "players", "bot"), kept_files(), ids=lambda v: str(v))
def test_simulate_writes_the_kept_records_byte_for_byte(
    name: str, players: int, bot: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # the learned bot's file is named as it was: from the repository
    stored = (RECORDS / name).read_text().splitlines()
    written = [text for text, _ in simulate_lines(players, len(stored), SEED, [bot] * players)]
    assert len(written) == len(stored)
    for index, (mine, kept) in enumerate(zip(written, stored, strict=True)):
        assert PROGRAM.sub("", mine) == PROGRAM.sub("", kept), f"{name}, match {index}"
