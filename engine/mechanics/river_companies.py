"""``river_companies``: a private company that holds the crossings of a river.

While ``private`` is owned by a player (or nobody), no tile may be laid or upgraded so that its track crosses
the river: every track path of the new tile keeps its hex-edge exits on one side of each partition of
``partition_type`` (map.yaml; a partition with ``restrict`` allows only that side), and no exit may lie on a
border of that type; track may run along the river (hook ``lay_allowed``).  The restriction ends once a
corporation owns the private or it closes.  The corporation owning it may lay one tile in a river hex for
``discount`` less.  In ``early_phases`` only the ``river_corporations`` may buy the private, for
``early_price`` (hook ``company_buy_window``).  The private's other abilities (the home-tile lay of the
``river_corporations``) are in the private's own data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbook.params.river_companies import DECLARATION, Params

from ..access import params_of
from ..contract import Mechanic
from ..state import kind_of

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


@cython.locals(g="Context")
def crossings_held(g: Context) -> bool:
    """The private still holds the crossings: it is open and no corporation owns it."""
    c = g.state.companies.get(PARAMS.of(g).private)
    if c is None or c.closed:
        return False
    return c.owner is None or kind_of(c.owner) == "P"


def sides(a: int, b: int, restrict: str | None) -> tuple[set[int], set[int]]:
    """The edges on each side of a partition between corners ``a`` and ``b`` (``restrict`` empties the other)."""
    a, b = min(a, b), max(a, b)
    inner = set(range(a, b))
    outer = set(range(6)) - inner
    if restrict == "inner":
        outer = set()
    elif restrict == "outer":
        inner = set()
    return inner, outer


@cython.locals(g="Context")
def lay_allowed(g: Context, corp: str, hex_id: str, tile: str, rotation: int) -> bool:
    p = PARAMS.of(g)
    if hex_id not in p.hexes or not crossings_held(g):
        return True
    spec = g.book.hexes.get(hex_id) or {}
    parts = [x for x in spec.get("partitions") or [] if x.get("type", "water") == p.partition_type]
    walls = {int(b["edge"]) for b in spec.get("borders") or [] if b.get("type") == p.partition_type}
    track = g.book.track(tile, hex_id, rotation)
    if walls & set(track.exits):
        return False
    for part in parts:
        inner, outer = sides(int(part["a"]), int(part["b"]), part.get("restrict"))
        for a, b in track.ends:
            exits = {e for e in (a, b) if e < 8}
            if exits and not (exits <= inner or exits <= outer):
                return False
    return True


@cython.locals(g="Context")
def company_buy_window(g: Context, company: str, corp: str) -> tuple[int, int] | None:
    """A river corporation may buy the private in the early phases, for the early price."""
    p = PARAMS.of(g)
    if company != p.private or corp[2:] not in p.river_corporations or g.phase_name() not in p.early_phases:
        return None
    return p.early_price


@cython.locals(g="Context")
def buy_company_step_open(g: Context, corp: str) -> bool:
    """In the early phases the buy-company step stays open for a river corporation while the private is open and
    it could pay the lowest early price, even once it owns the private (18xx.games records; NOTES.md)."""
    p = PARAMS.of(g)
    c = g.state.companies.get(p.private)
    if c is None or c.closed or corp[2:] not in p.river_corporations or g.phase_name() not in p.early_phases:
        return False
    return p.early_price[0] <= g.cash(corp)


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={
        "lay_allowed": lay_allowed,
        "company_buy_window": company_buy_window,
        "buy_company_step_open": buy_company_step_open,
    },
)
