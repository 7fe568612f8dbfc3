"""Playing a run on a Ray cluster (``--ray auto`` joins the cluster this machine belongs to, ``--ray ADDRESS`` the
one at that address, ``--ray local`` starts one here).  Each game is one task; a game's record depends only on its
seed and index, so a run on Ray writes the same files as a local run.  railbook must be installed on every node
(``pip install railbook[cluster]``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .play import GameSetup, play_game

if TYPE_CHECKING:
    from .run import SimConfig


class RayUnavailable(RuntimeError):
    """Ray is not installed (``pip install railbook[cluster]``)."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'railbook[cluster]'") from None
    return ray


def _play(rulebook: dict[str, Any], seed: int, index: int, setup: GameSetup) -> dict[str, Any]:
    return play_game(rulebook, seed, index, setup)


def play_on_ray(rulebook: dict[str, Any], config: SimConfig) -> Iterator[dict[str, Any]]:
    """Records of the run's games played as Ray tasks, as they finish (Ray is started or joined unless it is
    running in this process already)."""
    ray = _ray()
    if not ray.is_initialized():
        if config.ray == "local":
            ray.init(num_cpus=config.workers or None, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=config.ray, include_dashboard=False, log_to_driver=False)
    task = ray.remote(num_cpus=1)(_play)
    book = ray.put(rulebook)
    setup = config.setup()
    pending = [task.remote(book, seed, i, setup) for i, seed in enumerate(config.seeds())]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)
