"""``reissue``: a company puts its redeemed shares back on sale at a new par.

A reissue is a company action in the stock round (see ``company_stock_actions``).  The shares go to the
initial offering and are sold there like initial shares at the new par; the company receives the money as
they sell (incremental capitalisation from then on); it cannot pay for a redemption in the same stock round
(a company redeems only with the cash it had at the round's start, ``company_stock_actions``).  The new par is the
value of ``par_values`` nearest ``market_fraction`` x the current market price (or the ``table`` entry for
that price, where given), never below the old par when ``never_below_old_par`` (hook ``reissue_par``: the
market cell of that par).  ``requires_empty_ipo`` and ``per_stock_round`` are checked by the company action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from .. import market
from ..contract import Mechanic
from ..contract import Params as BaseParams

if TYPE_CHECKING:
    from ..context import Context


class Params(BaseParams):
    """When redeemed shares may be reissued and at which par."""

    requires_empty_ipo: bool = Field(True, description="only when no share of the company is left in the IPO")
    per_stock_round: int = Field(1, ge=1, description="reissues a company may make per stock round")
    all_redeemed_shares: bool = Field(True, description="a reissue puts back all the shares the company holds")
    par_values: list[int] = Field(min_length=1, description="the par values a reissue may choose from, ascending ($)")
    market_fraction: float = Field(
        gt=0, le=1, description="the new par is the par value nearest this fraction of the current market price"
    )
    tie: Literal["higher", "lower"] = Field("higher", description="which par value wins when two are equally near")
    never_below_old_par: bool = Field(True, description="the new par is at least the company's old par")
    above_top_par: Literal["top_par", "nearest_top_row_cell"] = Field(
        "top_par",
        description="when the computed par is above the highest of `par_values`: use the highest, or the "
        "market's top-row cell nearest the computed value",
    )
    max_par: int | None = Field(None, gt=0, description="a cap on the new par ($); none when null")
    table: dict[int, int] = Field(
        {},
        description="market price -> new par as printed on the board; where a price is listed it replaces the "
        "computation (the old-par floor still applies)",
    )
    min_market_price: dict[int, int] = Field(
        {},
        description="par value -> the lowest market price at which a reissue may take that par (the small "
        "bracketed numbers on the par boxes)",
    )


@dataclass(slots=True)
class State:
    """The companies that have reissued shares (incrementally capitalised from then on)."""

    reissued: list[str] = field(default_factory=list)


def _p(g: Context) -> Params:
    return g.params["reissue"]  # type: ignore[return-value]


def shares_reissued(g: Context, corp: str) -> None:
    st: State = g.state.mechanics["reissue"]
    if corp not in st.reissued:
        st.reissued.append(corp)


def capitalization_of(g: Context, corp: str) -> str | None:
    """A company that reissued is paid for its initial-offering shares as they sell (hook ``capitalization_of``)."""
    st: State = g.state.mechanics["reissue"]
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


def reissue_par(g: Context, corp: str) -> list[int] | None:
    """The market cell of ``corp``'s par after a reissue now: a par box of that price, else the top-row cell
    nearest that price."""
    c = g.state.corporations[corp]
    if c.price is None or c.par is None:
        return None
    value = new_par_price(_p(g), market.price_at(g, c.price), market.price_at(g, c.par))
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


MECHANIC = Mechanic(
    name="reissue",
    description="redeemed shares go back to the IPO at a new par",
    params=Params,
    hooks={"reissue_par": reissue_par, "shares_reissued": shares_reissued, "capitalization_of": capitalization_of},
    state=State,
)
