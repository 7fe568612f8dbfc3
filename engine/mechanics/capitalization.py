"""``capitalization``: how a corporation gets its money and its home station.

Each corporation's ``capitalization`` (rulebook) says how its treasury fills: ``incremental`` (each certificate
bought from the treasury pays the corporation; nothing at float) or ``full`` (the bank pays par times the
number of shares: at float, or with ``full_capital_paid`` at the end of the round it floated in or at its first
operating turn).  A corporation ability ``type: base`` with ``params: {bank_subsidy: start_price}``
pays the launch price from the bank on launch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.capitalization import DECLARATION, HOME_TOKEN_STEP, Params

from .. import board, market, rounds, shares, stations
from ..access import params_of, state_of
from ..contract import Mechanic
from ..errors import illegal
from ..state import BANK, ckey, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """The capital rule each corporation got when launched (with `kind_by_train_on_sale`), the
    corporations that have started operating, and the floated ones whose full capital is still due."""

    kinds: dict[str, str] = field(default_factory=dict)
    started: list[str] = field(default_factory=list)
    capital_due: list[str] = field(default_factory=list)
    home_choice: list[str] = field(default_factory=list)  # corporations to choose their home token's city


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def train_on_sale(g: Context) -> str | None:
    """The cheapest new train the bank offers now (the next one in the depot)."""
    return g.state.trains[g.state.depot[0]].sym if g.state.depot else None


def kind_of_corp(g: Context, corp: str) -> str:
    """``corp``'s capital rule: fixed by the train on sale when it is launched (or would be, if launched now),
    else the rulebook's."""
    st = STATE.of(g)
    kind = st.kinds.get(corp)
    if kind is not None:
        return kind
    spec = str(g.book.corporations[corp].get("capitalization") or "incremental")
    table = PARAMS.of(g).kind_by_train_on_sale
    sym = train_on_sale(g)
    if spec != "by_phase" or not table or sym not in table:
        return spec
    if g.state.corporations[corp].ipoed:
        st.kinds[corp] = table[sym]
    return table[sym]


def capitalization_of(g: Context, corp: str) -> str:
    return kind_of_corp(g, corp)


def ipo_receiver(g: Context, corp: str, price: int) -> str | None:
    """Full capital and no-capital corporations' initial-offering sales pay the bank."""
    return BANK if g.hooks("capitalization_of", corp) in ("full", "none") else None


def shares_to_operate(g: Context) -> int | None:
    """Initial-offering shares that must be sold for a corporation to operate for the first time now."""
    table = PARAMS.of(g).shares_to_operate_by_train_on_sale
    if not table:
        return None
    sym = train_on_sale(g)
    return table.get(sym) if sym is not None else max(table.values())


def float_percent(g: Context, corp: str) -> int | None:
    n = shares_to_operate(g)
    return None if n is None else n * shares.share_percent(g, corp)


def operator_skips(g: Context, key: str) -> bool:
    """A corporation that has never operated needs the shares the train on sale asks for; with
    ``historical_order``, every corporation before it in the order must have floated."""
    if key[:2] == "C|" and _before_unfloated(g, key[2:]):
        g.log(f"{key[2:]} may not operate before {_before_unfloated(g, key[2:])} has floated")
        return True
    if key[:2] != "C|" or shares_to_operate(g) is None:
        return False
    corp = key[2:]
    st = STATE.of(g)
    if corp in st.started:
        return False
    pct = g.hooks("float_percent", corp) or 0  # (a mechanic may answer for a corporation not started by sales)
    if shares.percent_of(g, key, corp) > 100 - pct:
        g.log(f"{corp} has not sold enough shares to operate and is skipped")
        return True
    st.started.append(corp)
    return False


@cython.locals(g="Context")
def _before_unfloated(g: Context, corp: str) -> str | None:
    """The first corporation before ``corp`` in ``historical_order`` that is in the game and not floated."""
    order = PARAMS.of(g).historical_order
    if corp not in order:
        return None
    corps = g.state.corporations
    before = order[: order.index(corp)]
    return next((c for c in before if c in corps and not corps[c].removed and not corps[c].floated), None)


def operator_started(g: Context, key: str) -> None:
    if key[:2] == "C|" and key[2:] in STATE.of(g).capital_due:
        _pay_capital(g, key[2:])
    if PARAMS.of(g).home_token == "at_first_operation" and key[:2] == "C|":
        place_home_token(g, key[2:])


def _pay_capital(g: Context, corp: str) -> None:
    """The bank pays a fully capitalised corporation par times its number of shares."""
    st = STATE.of(g)
    if corp in st.capital_due:
        st.capital_due.remove(corp)
    c = g.state.corporations[corp]
    if c.closed or c.par is None:
        return
    total = market.price_at(g, c.par) * (100 // shares.share_percent(g, corp))
    if total > 0:
        g.spend(BANK, ckey(corp), total)
        g.log(f"{corp} receives its capital of {total}")


def round_finished(g: Context, kind: str) -> None:
    """``full_capital_paid: end_of_stock_round``: the corporations floated in this round receive their capital."""
    if PARAMS.of(g).full_capital_paid == "end_of_stock_round":
        for corp in list(STATE.of(g).capital_due):
            _pay_capital(g, corp)


def corporation_floated(g: Context, corp: str) -> None:
    g.log(f"{corp} floats")
    if g.hooks("capitalization_of", corp) == "full":
        if PARAMS.of(g).full_capital_paid == "at_float":
            _pay_capital(g, corp)
        elif corp not in STATE.of(g).capital_due:
            STATE.of(g).capital_due.append(corp)
    if PARAMS.of(g).home_token == "at_float":
        place_home_token(g, corp)


def corporation_launched(g: Context, corp: str) -> None:
    if corp in STATE.of(g).kinds:
        g.log(f"{corp} is a {STATE.of(g).kinds[corp]} capital corporation")
    after_par(g, corp)
    if PARAMS.of(g).home_token == "at_launch":
        place_home_token(g, corp)


def after_par(g: Context, corp: str) -> None:
    c = g.state.corporations[corp]
    for a in list(c.abilities):
        params = a.spec.get("params") or {}
        if a.type == "base" and params.get("bank_subsidy") == "start_price" and a.spec.get("when") in (None, "par"):
            amount = market.price_at(g, c.price)
            if amount > 0:
                g.spend(BANK, ckey(corp), amount)
                g.log(f"{corp} receives a {amount} subsidy")
            g.remove_ability(ckey(corp), a)


@cython.locals(g="Context")
def place_home_token(g: Context, corp: str) -> None:
    c = g.state.corporations[corp]
    if not c.tokens or c.tokens[0].used:
        return
    home = g.book.corporations[corp].get("home")
    homes = home if isinstance(home, list) else [home] if home else []
    key = ckey(corp)
    for h in homes:
        hex_id = h["hex"]
        hs = g.state.hexes[hex_id]
        if not hs.tokens:
            continue
        if board.hex_tokened_by(g, hex_id, key):
            continue
        if (h.get("whole_hex") or h.get("choose_city")) and home_cities(g, corp, hex_id) and _city_chosen(g, hex_id):
            st = STATE.of(g)
            if corp not in st.home_choice:
                st.home_choice.append(corp)
            g.log(f"{corp} must choose the city of its home token on {hex_id}")
            return
        city = next((i for i, res in enumerate(hs.reservations) if key in res), int(h.get("city", 0)))
        if _put_home(g, corp, hex_id, city):
            return


def _city_chosen(g: Context, hex_id: str) -> bool:
    """A home holding the whole hex goes into a city the corporation chooses where the hex's tile has track and
    several cities, and the round offers the choice (its ``home_token`` step); else into its first city."""
    if len(g.state.hexes[hex_id].tokens) < 2 or not board.track(g, hex_id).paths:
        return False
    return bool(rounds.steps_named(g, HOME_TOKEN_STEP))


def home_cities(g: Context, corp: str, hex_id: str) -> list[int]:
    """The cities of ``hex_id`` with a slot free for ``corp``'s home token."""
    key = ckey(corp)
    return [ci for ci in range(len(g.state.hexes[hex_id].tokens)) if board.free_slot(g, hex_id, ci, key) is not None]


def _put_home(g: Context, corp: str, hex_id: str, city: int) -> bool:
    """``corp``'s home token into ``city`` of ``hex_id``, its reservations there lifted; False without a free slot."""
    c = g.state.corporations[corp]
    key = ckey(corp)
    hs = g.state.hexes[hex_id]
    slot = board.free_slot(g, hex_id, city, key)
    if slot is None:
        return False
    hs.tokens[city][slot] = key
    for res in hs.reservations:
        for i, r in enumerate(res):
            if r == key:
                res[i] = None
    tok = c.tokens[0]
    tok.used, tok.hex, tok.city = True, hex_id, city
    g.log(f"{corp} places its home token on {hex_id}")
    board.invalidate(g, {hex_id}, key)
    return True


class HomeToken(Step):
    """A corporation whose home holds a whole hex (``home.whole_hex``), or whose home city is not fixed
    (``home.choose_city``), on a tile of several cities with track chooses the city of its home token before anything
    else of its turn."""

    name = HOME_TOKEN_STEP
    description = "Place the home token"
    offers = frozenset({"place_token"})

    def _pending(self) -> str | None:
        found = STATE.of(self.g).home_choice
        return ckey(found[0]) if found else None

    def blocks(self) -> bool:
        return self._pending() is not None

    def active_entities(self) -> list[str]:
        pending = self._pending()
        return [pending] if pending else super().active_entities()

    def actions(self, entity: str) -> list[str]:
        return ["place_token"] if entity == self._pending() else []

    def _home_hex(self, corp: str) -> str | None:
        home = self.g.book.corporations[corp].get("home")
        homes = home if isinstance(home, list) else [home] if home else []
        return next((str(h["hex"]) for h in homes if h.get("whole_hex") or h.get("choose_city")), None)

    def legal(self, entity: str) -> list[dict[str, Any]]:
        if entity != self._pending():
            return []
        g, corp = self.g, sym_of(entity)
        hex_id = self._home_hex(corp)
        if hex_id is None:
            return []
        return [
            {
                "type": "place_token",
                "choices": [{"city": stations.city_id(g, hex_id, ci)} for ci in home_cities(g, corp, hex_id)],
            }
        ]

    def process_place_token(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        if entity != self._pending():
            raise illegal("home.choice", f"{sym_of(entity)} has no home token to place")
        corp = sym_of(entity)
        hex_id, ci = stations.parse_city(g, action.get("city"))
        if hex_id != self._home_hex(corp) or ci not in home_cities(g, corp, hex_id):
            raise illegal("home.choice", f"{corp} places its home token in a free city of {self._home_hex(corp)} only")
        _put_home(g, corp, hex_id, ci)
        STATE.of(g).home_choice.remove(corp)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={HOME_TOKEN_STEP: HomeToken},
    hooks={
        "corporation_floated": corporation_floated,
        "corporation_launched": corporation_launched,
        "capitalization_of": capitalization_of,
        "ipo_receiver": ipo_receiver,
        "float_percent": float_percent,
        "operator_skips": operator_skips,
        "operator_started": operator_started,
        "round_finished": round_finished,
    },
    state=State,
)
