"""Robot games on a Dask cluster (`bottisota simulate --cluster ADDRESS`, the optional
extra `bottisota[cluster]`). Nothing else in the package imports Dask.

Each task is a batch of games played by `simulate.play_batch`; a worker sets itself
up once per set-up (arena, cards, rules, sweep value), as a local worker does. Games
are seeded as locally, so a cluster gives the same records as `--jobs` for the same
seeds. The workers must have the same bottisota installed, and see the same
`--content` folders at the same paths.
"""
from __future__ import annotations

from typing import Any

from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _
from bottisota.robot.simulate import InitArgs, Progress, Unit, order, play_batch
from bottisota.robot.stats import GameRecord

BATCH = 25                      # games a task: enough to pay for its round trip


class ClusterRunner:
    """Plays batches of games on the Dask scheduler at `address` (as `Runner` does on
    this machine)."""

    def __init__(self, address: str, init: InitArgs, batch: int = BATCH) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise InputError([Problem("--cluster", 0, 0, "", _(
                "a cluster needs Dask: install the extra with "
                "pip install 'bottisota[cluster]'"))]) from None
        try:
            connect: Any = Client       # Any: Dask's own untyped class
            self.client: Any = connect(address, timeout="10s")     # Dask's own object
        except (OSError, TimeoutError, ValueError) as err:
            raise InputError([Problem("--cluster", 0, 0, "", _(
                "no Dask scheduler answers at {address}: {error}").format(
                    address=address, error=err))]) from None
        self.init = init
        self.batch = batch

    def play(self, games: list[Unit], bar: Progress | None = None) -> list[GameRecord]:
        """The games' records, in the games' order."""
        from dask.distributed import as_completed

        finished: Any = as_completed    # Any: Dask's own untyped function

        chunks = [games[i:i + self.batch] for i in range(0, len(games), self.batch)]
        futures = self.client.map(play_batch, [self.init] * len(chunks), chunks, pure=False)
        records: list[GameRecord] = []
        for future in finished(futures):
            done = future.result()
            records.extend(done)
            if bar is not None:
                bar.update(len(done))
        return order(records)

    def close(self, terminate: bool = False) -> None:
        self.client.close()

    def __enter__(self) -> ClusterRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
