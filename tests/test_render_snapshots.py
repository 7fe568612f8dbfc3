"""Snapshots of a few tiles' SVG.  Update after an intended change with

    RAILBOOK_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/test_render_snapshots.py

and look at the new pictures (``railbook render --only tiles --format png``) before committing them.
"""

from __future__ import annotations

import pytest
from railbook.compiler.models import CatalogueSource
from railbook.render.tiles import tile_svg_fragment
from ruamel.yaml import YAML

from tests.render_support import TEST_CATALOGUE, match_snapshot

CASES = [
    ("7", "pointy"),  # sharp curve
    ("8", "pointy"),  # gentle curve
    ("9", "flat"),  # straight, other orientation
    ("57", "pointy"),  # city on through track, revenue
    ("1", "pointy"),  # two towns as bars on track
    ("20", "pointy"),  # crossing: white gap under the top track
    ("59", "flat"),  # two cities, label
    ("63", "pointy"),  # two-slot city, six exits
    ("455", "pointy"),  # three-slot city
]


def _tiles() -> dict[str, dict[str, object]]:
    source = CatalogueSource.model_validate(YAML(typ="safe").load(TEST_CATALOGUE))
    return {tid: {**t.model_dump(mode="json", exclude_none=True), "id": tid} for tid, t in source.tiles.items()}


@pytest.mark.parametrize(("tile_id", "layout"), CASES)
def test_tile_snapshot(tile_id: str, layout: str) -> None:
    svg = tile_svg_fragment(_tiles()[tile_id], layout) + "\n"
    match_snapshot(f"tile-{tile_id}-{layout}", svg, __file__)
