"""Typed interfaces between mechanics: what one mechanic offers another, by a direct call instead of a hook.

A hook (:data:`railbook.engine.contract.HOOKS`) is a broadcast: any mechanic may answer it, and the answers combine.
An *interface* is a service exactly one mechanic provides and others call: loans, the turn's tile lays, a company's
conversion to its next size...  Each is a :class:`typing.Protocol` here with an :class:`Interface` key of the same
name:

* the providing mechanic declares it (``provides=("Loans",)`` in its ``railbook.params`` declaration) and hands an
  object of the protocol to its rule module (``Mechanic.of(..., provides=[LOANS.provided_by(_Loans())])``);
* a mechanic that cannot work without it declares ``requires=("Loans",)``: the compiler (``railbook validate``)
  and the engine refuse, with a located error, a title whose switched-on mechanics leave it unprovided; it calls
  ``LOANS.of(g).outstanding(g, corp)``;
* a mechanic that works with or without it declares ``uses=("Loans",)`` and asks ``LOANS.get(g)``, which is None
  when no switched-on mechanic provides it.

The methods take the game's context ``g`` first, as hook handlers do (a provider is shared by every game of a
rulebook, so it keeps nothing of a game).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from .board import LayPlan
    from .context import Context
    from .shares import Bundle
    from .state import Ability

T = TypeVar("T")


@dataclass(frozen=True)
class Interface(Generic[T]):
    """The key of an interface: its name (as declarations spell it) and its protocol."""

    name: str
    protocol: type

    def of(self, g: Context) -> T:
        """The provider of a required interface (the installer has checked there is one)."""
        found: T = g.rules.interfaces[self.name]  # (an annotation, not typing.cast: a call in compiled code)
        return found

    def get(self, g: Context) -> T | None:
        """The provider of a used interface, or None when no switched-on mechanic provides it."""
        found: T | None = g.rules.interfaces.get(self.name)
        return found

    def provided_by(self, provider: T) -> tuple[str, T]:
        """``(name, provider)`` for ``Mechanic.of(provides=...)``: a provider lacking a method of the protocol is a
        TypeError at import."""
        missing = [n for n in _members(self.protocol) if not callable(getattr(provider, n, None))]
        if missing:
            raise TypeError(f"{type(provider).__name__} does not provide {self.name}: no {', '.join(missing)}")
        return self.name, provider


def _members(protocol: type) -> list[str]:
    return [n for n, v in vars(protocol).items() if not n.startswith("_") and callable(v)]


class Loans(Protocol):
    """A company's loans from the bank (provided by ``loans``)."""

    def outstanding(self, g: Context, corp: str) -> int:
        """Loans ``corp`` (a symbol) has outstanding."""
        ...

    def repay_price(self, g: Context) -> int:
        """$ it costs to repay one loan."""
        ...

    def repaid(self, g: Context, corp: str, count: int) -> None:
        """``count`` of ``corp``'s loans were repaid (by a rule outside the loans mechanic: the money is paid)."""
        ...

    def may_take(self, g: Context, corp: str) -> bool:
        """``corp`` (a symbol) may take a loan now."""
        ...

    def take(self, g: Context, corp: str) -> None:
        """``corp`` (a symbol) takes one loan now."""
        ...

    def room(self, g: Context, corp: str, extra: int) -> int:
        """Loans ``corp`` may still take, ``extra`` loans returned to the bank first (negative: over its cap)."""
        ...

    def transfer(self, g: Context, corp: str, to: str | None) -> None:
        """``corp``'s loans pass to ``to`` (a symbol; None: back to the bank, unpaid)."""
        ...

    def owes(self, g: Context, player: str, amount: int, corp: str) -> None:
        """``player`` owes the bank ``amount`` $ he lacks (a cash crisis: he must sell; ``corp``: the cause)."""
        ...

    def pay_debts(self, g: Context) -> None:
        """Players who owe money and have cash again (paid to them since) pay what it covers."""
        ...

    def crisis_from(self, g: Context, player: str | None) -> None:
        """``player`` was president of the company last settled (sold or liquidated): with ``crisis_order``
        ``seat_from_last_company`` the cash crises then open are taken in seat order from him."""
        ...


class TileLays(Protocol):
    """The yellow tile lays of an operating company's turn (provided by ``track``), for rules that lay tiles or use
    a lay up otherwise (a mine)."""

    def lay(
        self, g: Context, entity: str, corp: str, action: dict[str, Any], tiles: list[str] | None, discount: int
    ) -> str | None:
        """Lay a tile of ``tiles`` for ``corp`` as one of its turn's lays, by ``entity`` (a private's ability),
        ``discount`` $ off the hex's cost; the hex laid."""
        ...

    def unconnected_lay(
        self, g: Context, entity: str, corp: str, action: dict[str, Any], owner: str, ability: Ability
    ) -> str:
        """Lay a tile for ``corp`` as one of its turn's lays by ``entity`` under ``ability`` (held by ``owner``), in
        the ability's hexes and tiles, without a connection; the hex laid (e.g. a teleport)."""
        ...

    def ability_lay(
        self, g: Context, entity: str, corp: str, action: dict[str, Any], owner: str, ability: Ability
    ) -> str:
        """Lay a tile for ``corp`` by ``entity`` under ``ability`` (held by ``owner``), besides the turn's lays, in
        its hexes and tiles, without a connection; the hex laid (e.g. a private's lay when it is sold)."""
        ...

    def open(self, g: Context, corp: str) -> bool:
        """``corp`` may still lay a new (yellow) tile as one of its turn's lays now."""
        ...

    def use(self, g: Context, corp: str) -> bool | None:
        """A yellow lay of ``corp``'s turn is used up without a tile (None: none left)."""
        ...

    def cost(self, g: Context, corp: str) -> int | None:
        """$ ``corp``'s next tile lay of its turn costs beyond terrain (None: none open)."""
        ...

    def price(self, g: Context, corp: str, plan: LayPlan, discount: int) -> int | None:
        """$ ``corp`` pays in all to lay ``plan`` as its next lay of the turn, ``discount`` $ off the hex's cost
        (None: none open)."""
        ...

    def private_lay(self, g: Context, corp: str, hex_id: str, param: str) -> tuple[str, Ability] | None:
        """A private's extra lay ``corp`` could use now for ``hex_id`` without a tile, under an ability carrying
        ``params.<param>`` (its owner key and the ability), or None."""
        ...

    def spend_private_lay(self, g: Context, owner: str, ability: Ability, hex_id: str) -> None:
        """That private's lay is used up for ``hex_id`` without a tile."""
        ...


class Conversions(Protocol):
    """A company's conversion to its next size (provided by ``company_sizes``)."""

    def target(self, g: Context, corp: str) -> int | None:
        """The size ``corp`` would convert to now (None: it cannot convert)."""
        ...

    def convert(self, g: Context, corp: str) -> tuple[int, int] | None:
        """``corp`` converts to its next size now; (markers it must buy, $ each)."""
        ...


class Liquidation(Protocol):
    """The liquidation zone of the market, where companies go to be sold (provided by ``mergers``)."""

    def liquidate(self, g: Context, corp: str) -> None:
        """``corp`` (a symbol) goes to the liquidation zone now."""
        ...

    def in_liquidation(self, g: Context, corp: str) -> bool:
        """``corp`` (a symbol) is in the liquidation zone."""
        ...


class EmergencyIssue(Protocol):
    """Shares a trainless company may issue to raise money for a train (provided by ``issue_redeem``)."""

    def bundles(self, g: Context, corp: str) -> list[Bundle]:
        """Bundles ``corp`` (a key) may issue now to raise money for a train."""
        ...

    def issue(self, g: Context, corp: str, bundle: Bundle) -> int:
        """Issue ``bundle`` for an emergency train purchase; $ raised."""
        ...


class RedemptionRules(Protocol):
    """The limits of redeeming shares (the ``issue_redeem`` parameters a company's stock turn follows)."""

    @property
    def redeem_per_stock_round(self) -> int | None: ...
    @property
    def max_treasury_shares(self) -> int | None: ...
    @property
    def min_shares_outside(self) -> int | None: ...
    @property
    def redeem_from(self) -> str: ...
    @property
    def redeem_not_before(self) -> str: ...


class Redemption(Protocol):
    """A company's buying back its own shares (provided by ``issue_redeem``)."""

    def rules(self, g: Context) -> RedemptionRules:
        """The limits a redemption follows."""
        ...


class StockMarket(Protocol):
    """The stock round's rules of trading (provided by ``stock_round``)."""

    def no_trade_zones(self, g: Context) -> list[str]:
        """Market zones whose shares may not be sold (nor bought)."""
        ...

    def sells_in_blocks(self, g: Context) -> bool:
        """A player sells a corporation's shares at most once per turn."""
        ...

    def sale_timing_ok(self, g: Context, player: str, corp: str) -> bool:
        """The rule of when shares may be sold (``stock_round.sell_after``) lets ``player`` sell ``corp`` now (an
        emergency sale too)."""
        ...


class Bankruptcy(Protocol):
    """What a bankruptcy allows (provided by ``bankruptcy``)."""

    def forced_sales_may_change_presidency(self, g: Context) -> str:
        """Whether a forced sale may change a presidency: ``any``, ``not_of_corporation_in_need`` or ``none``."""
        ...

    def limit_reached(self, g: Context) -> bool:
        """The bankruptcies the game-end trigger allows have all happened."""
        ...

    def player_bankrupt(self, g: Context, player: str, corp: str | None) -> None:
        """``player`` goes bankrupt in a cash crisis (``corp``: the company whose interest he owed)."""
        ...


class PrivateCompanies(Protocol):
    """How private companies pay, count, close and sell to companies (provided by ``private_companies``)."""

    def no_income_from_phase(self, g: Context) -> str | None:
        """The phase from which privates pay no income (None: they pay while open)."""
        ...

    def count_in_final_value(self, g: Context) -> bool:
        """A player's privates count at face value in his final value."""
        ...

    def closed_by_phase(self, g: Context, phase: str) -> bool:
        """The start of ``phase`` has an event that closes the privates."""
        ...

    def buy_phase(self, g: Context) -> bool:
        """Corporations may buy private companies in the current phase."""
        ...


class Trains(Protocol):
    """Train buying (provided by ``trains``)."""

    def must_buy(self, g: Context, entity: str) -> bool:
        """The operator must buy a train now."""
        ...


class Reissue(Protocol):
    """A company's putting its redeemed shares back on sale (provided by ``reissue``)."""

    def par(self, g: Context, corp: str) -> list[int] | None:
        """The market cell [row, col] of ``corp``'s par if it reissued its shares now (None: it may not)."""
        ...

    def reissued(self, g: Context, corp: str) -> None:
        """``corp`` (a symbol) put its redeemed shares back on sale."""
        ...


class NationalRailway(Protocol):
    """The national railway's formation (provided by ``national_railway``)."""

    def settled(self, g: Context) -> bool:
        """The national railway's formation has been settled (formed or not)."""
        ...

    def formed(self, g: Context) -> bool:
        """The national railway has formed (its formation settled with companies absorbed)."""
        ...


class BonusRights(Protocol):
    """Route bonus rights a company holds (provided by ``routes``)."""

    def transfer(self, g: Context, corp: str, to: str) -> None:
        """``corp``'s bonus rights pass to ``to`` (symbols; a right ``to`` already holds goes back to the bank)."""
        ...


class Receivership(Protocol):
    """Corporations without a president, run by the receivership rules (provided by ``receivership``).  Whether a
    corporation is in receivership is the hook ``in_receivership``, which the engine asks too."""

    def purchase_bundle(self, g: Context, player: str, bundle: Bundle) -> Bundle:
        """The bundle ``player`` actually buys when asking for ``bundle`` (a pool president's certificate may count
        as one share)."""
        ...

    def withheld(self, g: Context, entity: str, owned_train: bool) -> None:
        """``entity`` withheld (or could not pay) its earnings; ``owned_train``: it owned a train at its route
        step (an obsolete train that ran and left after the run counts)."""
        ...

    def trainless_buy(self, g: Context, entity: str | None) -> None:
        """``entity``, a corporation without a president, buys a train by itself (if it must)."""
        ...

    def presidency_vacated(self, g: Context, corp: str) -> None:
        """A bankrupt president left ``corp`` with no president."""
        ...


LOANS: Interface[Loans] = Interface("Loans", Loans)
TILE_LAYS: Interface[TileLays] = Interface("TileLays", TileLays)
CONVERSIONS: Interface[Conversions] = Interface("Conversions", Conversions)
LIQUIDATION: Interface[Liquidation] = Interface("Liquidation", Liquidation)
EMERGENCY_ISSUE: Interface[EmergencyIssue] = Interface("EmergencyIssue", EmergencyIssue)
REDEMPTION: Interface[Redemption] = Interface("Redemption", Redemption)
STOCK_MARKET: Interface[StockMarket] = Interface("StockMarket", StockMarket)
BANKRUPTCY: Interface[Bankruptcy] = Interface("Bankruptcy", Bankruptcy)
PRIVATE_COMPANIES: Interface[PrivateCompanies] = Interface("PrivateCompanies", PrivateCompanies)
REISSUE: Interface[Reissue] = Interface("Reissue", Reissue)
NATIONAL_RAILWAY: Interface[NationalRailway] = Interface("NationalRailway", NationalRailway)
BONUS_RIGHTS: Interface[BonusRights] = Interface("BonusRights", BonusRights)
TRAINS: Interface[Trains] = Interface("Trains", Trains)
RECEIVERSHIP: Interface[Receivership] = Interface("Receivership", Receivership)

#: Every interface, by name.
INTERFACES: dict[str, Interface[Any]] = {
    i.name: i
    for i in (
        LOANS,
        TILE_LAYS,
        CONVERSIONS,
        LIQUIDATION,
        EMERGENCY_ISSUE,
        REDEMPTION,
        STOCK_MARKET,
        BANKRUPTCY,
        PRIVATE_COMPANIES,
        REISSUE,
        NATIONAL_RAILWAY,
        BONUS_RIGHTS,
        TRAINS,
        RECEIVERSHIP,
    )
}
