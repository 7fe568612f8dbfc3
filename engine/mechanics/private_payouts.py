"""``private_payouts``: privates whose owning company the bank pays (or charges) when something happens.

The amounts are parameters of the private's own ability (``params`` of any of its abilities), read when the event
happens; the company owning the private then is the one paid:

* ``payouts`` {train type: $}: the first train of each type bought (from the bank's depot or from a company) or
  exported while a company owns the private pays that company once for the type ("when the first type of each
  train is purchased or exported");
  (with ``payout_on_rusting``: a train rusted by a purchase of its rust type, a company's or the depot's, counts
  as exported);
* ``scrap_values`` {train type: $}: each train of the owning company that rusts pays it its type's value;
* ``per_conversion``: each conversion of the owning company to a larger size (not a merger) pays it this (with
  ``conversion_payout_off_markers``: takes this off the station markers the conversion calls for instead);
* ``extra_interest_per_or``: the owning company owes this much more at every interest step, with loans or
  without (unpaid, it is unpaid interest like any other);
* ``payout_on_transfer``: when the owning company's privates pass to a company with a different president (an
  acquisition) or to the bank (a liquidation without a buyer), the bank pays this to the owning company's
  president (a player).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.private_payouts import DECLARATION, Params

from ..access import params_of, state_of
from ..contract import Mechanic
from ..state import BANK, ckey, kind_of, sym_of

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Train types whose first-train payout has been made."""

    paid_types: list[str] = field(default_factory=list)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


@cython.locals(g="Context")
def _params(g: Context, corp_key: str, name: str) -> Iterator[tuple[str, Any]]:
    """(private, value) of every private of ``corp_key`` whose abilities carry parameter ``name``."""
    corp = g.state.corporations.get(sym_of(corp_key))
    if corp is None:
        return
    for sym in corp.companies:
        c = g.state.companies[sym]
        if c.closed:
            continue
        for a in c.abilities:
            value = (a.spec.get("params") or {}).get(name)
            if value is not None:
                yield sym, value


@cython.locals(g="Context")
def _pay(g: Context, corp_key: str, amount: int, sym: str) -> None:
    if amount > 0:
        g.spend(BANK, corp_key, amount)
        g.log(f"{sym_of(corp_key)} collects {amount} from {sym}")


@cython.locals(g="Context")
def train_left_depot(g: Context, tid: str) -> None:
    name = g.state.trains[tid].name
    st = STATE.of(g)
    if name in st.paid_types:
        return
    for corp in g.state.corp_order:
        for sym, table in _params(g, ckey(corp), "payouts"):
            if name in table:
                st.paid_types.append(name)
                _pay(g, ckey(corp), int(table[name]), sym)
                return


@cython.locals(g="Context")
def train_bought(g: Context, buyer: str, tid: str, source: str) -> None:
    train_left_depot(g, tid)  # (a purchase from a company counts too; a type paid for is not paid again)


@cython.locals(g="Context")
def rusted_by_purchase(g: Context, tid: str) -> None:
    if PARAMS.of(g).payout_on_rusting:
        train_left_depot(g, tid)  # (counted as exported; a type paid for is not paid again)


@cython.locals(g="Context")
def train_rusted(g: Context, tid: str, owner: str) -> None:
    if kind_of(owner) != "C":
        return
    name = g.state.trains[tid].name
    for sym, table in _params(g, owner, "scrap_values"):
        if name in table:
            _pay(g, owner, int(table[name]), sym)


@cython.locals(g="Context")
def company_converted(g: Context, corp: str) -> None:
    if PARAMS.of(g).conversion_payout_off_markers:
        return  # (conversion_marker_discount)
    for sym, amount in _params(g, ckey(corp), "per_conversion"):
        _pay(g, ckey(corp), int(amount), sym)


@cython.locals(g="Context")
def conversion_marker_discount(g: Context, corp: str) -> int:
    """(``conversion_payout_off_markers``) what the company's privates take off its conversion's station markers."""
    if not PARAMS.of(g).conversion_payout_off_markers:
        return 0
    return sum(int(amount) for _, amount in _params(g, ckey(corp), "per_conversion"))


def assets_leaving(g: Context, corp: str, to: str | None) -> None:
    president = g.state.corporations[corp].owner
    if president is None or kind_of(president) != "P":
        return
    if to is not None and g.state.corporations[to].owner == president:
        return
    for sym, amount in _params(g, ckey(corp), "payout_on_transfer"):
        if int(amount) > 0:
            g.spend(BANK, president, int(amount))
            g.log(f"{g.name(president)} collects {amount} from {sym}")


def extra_interest(g: Context, corp: str) -> int:
    return sum(int(v) for _, v in _params(g, ckey(corp), "extra_interest_per_or"))


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={
        "train_left_depot": train_left_depot,
        "train_bought": train_bought,
        "train_rusted": train_rusted,
        "rusted_by_purchase": rusted_by_purchase,
        "company_converted": company_converted,
        "conversion_marker_discount": conversion_marker_discount,
        "extra_interest": extra_interest,
        "assets_leaving": assets_leaving,
    },
    state=State,
)
