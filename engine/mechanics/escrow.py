"""``escrow``: part of a company's share money is held by the bank until the company reaches its destination.

Applies to corporations whose capital rule (hook ``capitalization_of``, mechanic ``capitalization``) is
``escrow``.  Initial-offering sales pay the corporation until ``shares_paid_to_company`` shares have been
sold from its treasury; the money of later sales goes to the bank, which keeps count of it.  When the
corporation reaches its destination (hook ``destination_reached``, from ``destinations``) the bank pays it the
money held, and from then on (``later_sales_pay_company``) initial-offering sales pay the corporation directly.
A corporation that reaches its destination before it is launched starts with its sales paying it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from railbook.params.escrow import DECLARATION, Params

from .. import shares
from ..access import params_of, state_of
from ..contract import First, Mechanic
from ..state import BANK, ckey

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Money the bank holds for each corporation, and the corporations whose escrow has been released."""

    held: dict[str, int] = field(default_factory=dict)
    released: list[str] = field(default_factory=list)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


@cython.locals(g="Context")
def held(g: Context, corp: str) -> int:
    """Money the bank holds in escrow for ``corp``."""
    return STATE.of(g).held.get(corp, 0)


@cython.locals(g="Context")
def ipo_receiver(g: Context, corp: str, price: int) -> str | None:
    st = STATE.of(g)
    if g.hooks("capitalization_of", corp) != "escrow":
        return None
    if corp in st.released:
        return None if PARAMS.of(g).later_sales_pay_company else BANK
    sold = (100 - shares.percent_of(g, ckey(corp), corp)) // shares.share_percent(g, corp)
    if sold < PARAMS.of(g).shares_paid_to_company:
        return None
    st.held[corp] = st.held.get(corp, 0) + price
    g.log(f"{price} of the sale of {corp} is held in escrow")
    return BANK


@cython.locals(g="Context")
def destination_reached(g: Context, corp: str) -> None:
    st = STATE.of(g)
    if corp in st.released or g.hooks("capitalization_of", corp) != "escrow":
        return
    st.released.append(corp)
    amount = st.held.pop(corp, 0)
    if amount > 0:
        g.spend(BANK, ckey(corp), amount)
        g.log(f"{corp} receives {amount} from escrow")


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={
        # escrow holds sales that capitalization's rule (priority 0) would pay the company
        "ipo_receiver": First(ipo_receiver, 10),
        "destination_reached": destination_reached,
    },
    state=State,
)
