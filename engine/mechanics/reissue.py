"""``reissue``: a company puts its redeemed shares back on sale at a new par.

A reissue is a company action in the stock round (see ``company_stock_actions``).  The shares go to the
initial offering and are sold there like initial shares at the new par; the company receives the money as
they sell (incremental capitalisation from then on); it cannot pay for a redemption in the same stock round
(a company redeems only with the cash it had at the round's start, ``company_stock_actions``).  The new par is the
value of ``par_values`` nearest ``market_fraction`` x the current market price (or the ``table`` entry for
that price, where given), never below the old par when ``never_below_old_par`` (``Reissue.par``, the
interface this mechanic provides: the market cell of that par).  ``requires_empty_ipo`` and ``per_stock_round``
are checked by the company action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from railbook.params.reissue import DECLARATION, Params

from .. import market
from ..access import params_of, state_of
from ..contract import First, Mechanic
from ..interfaces import REISSUE

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """The companies that have reissued shares (incrementally capitalised from then on)."""

    reissued: list[str] = field(default_factory=list)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


@cython.locals(g="Context")
def shares_reissued(g: Context, corp: str) -> None:
    st = STATE.of(g)
    if corp not in st.reissued:
        st.reissued.append(corp)


@cython.locals(g="Context")
def capitalization_of(g: Context, corp: str) -> str | None:
    """A company that reissued is paid for its initial-offering shares as they sell (hook ``capitalization_of``)."""
    st = STATE.of(g)
    return "incremental" if corp in st.reissued else None


def new_par_price(p: Params, price: int, old_par: int) -> int:
    """The par of a reissue at market price ``price`` (pure)."""
    if price in p.table:
        value = p.table[price]
    else:
        target = p.market_fraction * price
        rank = (lambda v: (abs(v - target), -v)) if p.tie == "higher" else (lambda v: (abs(v - target), v))
        value = min(p.par_values, key=rank)
        if target > max(p.par_values) and p.above_top_par == "top_par":
            value = max(p.par_values)
    if p.never_below_old_par:
        value = max(value, old_par)
    if p.max_par is not None:
        value = min(value, p.max_par)
    return value


@cython.locals(g="Context")
def reissue_par(g: Context, corp: str) -> list[int] | None:
    """The market cell of ``corp``'s par after a reissue now: a par box of that price, else the top-row cell
    nearest that price."""
    c = g.state.corporations[corp]
    if c.price is None or c.par is None:
        return None
    value = new_par_price(PARAMS.of(g), market.price_at(g, c.price), market.price_at(g, c.par))
    for cell in g.book.market["par"]:
        if cell["price"] == value:
            return [cell["row"], cell["col"]]
    row = g.book.market_grid[0]
    best = None
    for col, _ in enumerate(row):
        cell = g.book.cell(0, col)
        if cell is None:
            continue
        if best is None or abs(cell["price"] - value) < abs(market.price_at(g, best) - value):
            best = [0, col]
    return best


class _Reissue:
    """The :class:`~railbook.engine.interfaces.Reissue` this mechanic provides."""

    par = staticmethod(reissue_par)
    reissued = staticmethod(shares_reissued)


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={
        # a reissued company is incremental whatever capitalization (priority 0) says
        "capitalization_of": First(capitalization_of, 10),
    },
    state=State,
    provides=[REISSUE.provided_by(_Reissue())],
)
