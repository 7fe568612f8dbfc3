"""Pydantic models of a railbook title: the single source of truth for the YAML and the JSON schema.

A title is written as several YAML files in ``games/<title>/`` whose top-level keys are merged into
one :class:`GameSource` document.  The compiler resolves it into a :class:`Rulebook`.
The notation is documented in ``docs/FORMAT.md``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

FORMAT_VERSION = "1.0"

Colour = Literal["white", "yellow", "green", "brown", "gray", "red", "blue", "black"]
TILE_COLOURS: tuple[str, ...] = ("yellow", "green", "brown", "gray")
ENDPOINT = re.compile(r"^(?:[0-5]|[ctoj]\d+)$")
HEX_ID = re.compile(r"^[A-Z]{1,2}\d{1,3}$")


class Strict(BaseModel):
    """Base model: unknown keys are errors, so typos never pass silently."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# --------------------------------------------------------------------------------------------- track


Money = Annotated[int, Field(ge=0)]
"""An amount of money that may be zero but never negative."""
Price = Annotated[int, Field(gt=0)]
"""A price or amount that must be positive."""

PhaseValue = Money | dict[str, Money]
"""A value that may change by phase: a plain number, or ``{colour-or-phase-name: number}``."""


class City(Strict):
    revenue: PhaseValue = 0
    slots: int = Field(1, ge=0, le=6)
    group: str | None = Field(None, description="cities sharing a group count as one stop (Chicago)")
    name: str | None = None


class Town(Strict):
    revenue: PhaseValue = 0
    style: Literal["dot", "bar"] = "dot"
    group: str | None = None


class Offboard(Strict):
    revenue: PhaseValue = 0
    group: str | None = Field(None, description="route group: e.g. E, W or a named area")
    hidden: bool = Field(False, description="a secondary hex of a larger off-board area")


class Path(Strict):
    """Track between two endpoints: an edge 0-5, or a node ``c<i>``/``t<i>``/``o<i>``/``j<i>``."""

    a: str
    b: str
    terminal: bool = Field(False, description="a route may end but not continue here")
    lanes: int = Field(1, ge=1, description="parallel tracks this path stands for")

    @field_validator("a", "b")
    @classmethod
    def _endpoint(cls, v: str) -> str:
        if not ENDPOINT.match(str(v)):
            raise ValueError(f"bad path endpoint {v!r}: use 0-5 or c0/t0/o0/j0")
        return str(v)


def _parse_path(v: Any) -> Any:
    if isinstance(v, str):
        parts = v.replace(" ", "").split("-")
        if len(parts) != 2:
            raise ValueError(f"bad path {v!r}: write 'A-B', e.g. '0-c0' or '1-4'")
        return {"a": parts[0], "b": parts[1]}
    if isinstance(v, int):
        raise ValueError(f"bad path {v!r}: write 'A-B', e.g. '0-c0' or '1-4'")
    return v


PathSpec = Annotated[Path, Field(description="'A-B' string or {a, b, terminal}")]


class Icon(Strict):
    name: str
    sticky: bool = Field(False, description="stays on the hex when a tile is laid")


class Track(Strict):
    """What is printed on a tile or a preprinted hex: nodes and the paths joining them."""

    cities: list[City] = []
    towns: list[Town] = []
    offboards: list[Offboard] = []
    junctions: int = 0
    paths: list[PathSpec] = []
    label: str | None = None
    icons: list[Icon] = []

    @field_validator("paths", mode="before")
    @classmethod
    def _paths(cls, v: Any) -> Any:
        return [_parse_path(p) for p in v] if isinstance(v, list) else v

    @model_validator(mode="after")
    def _nodes_exist(self) -> Track:
        counts = {"c": len(self.cities), "t": len(self.towns), "o": len(self.offboards), "j": self.junctions}
        for p in self.paths:
            for end in (p.a, p.b):
                if end[0] in counts and int(end[1:]) >= counts[end[0]]:
                    raise ValueError(f"path {p.a}-{p.b}: node {end} is not defined")
        return self


class Tile(Track):
    """A laid tile (catalogue or title-specific)."""

    color: Literal["yellow", "green", "brown", "gray"]
    name: str | None = Field(None, description="printed name, when not just the number")


class Border(Strict):
    edge: int = Field(ge=0, le=5)
    type: Literal["impassable", "mountain", "water", "province", "edge"] = "impassable"
    cost: Money = 0


class Partition(Strict):
    """A river splitting a hex: track may not join edges on different sides (1870 Mississippi)."""

    a: int = Field(ge=0, le=5)
    b: int = Field(ge=0, le=5)
    type: Literal["water", "province"] = "water"
    restrict: Literal["inner", "outer"] | None = None


class Hex(Track):
    """One map hex.  An empty mapping is a plain white hex."""

    color: Colour = "white"
    name: str | None = None
    cost: Money = Field(0, description="cost of the first tile laid here")
    terrain: list[Literal["mountain", "water", "hill", "river", "swamp", "lake", "desert", "forest"]] = []
    borders: list[Border] = []
    partitions: list[Partition] = []
    blocked_by: str | None = Field(None, description="private company whose hex this is; closed until sold")
    upgrades_to: list[str] | None = Field(
        None, description="only these tiles may be laid here (overrides the colour rule)"
    )
    tags: list[str] = Field([], description="free-form markers other rules refer to (e.g. 'west_of_river')")


# ---------------------------------------------------------------------------------------- tile rules


class TileCount(Strict):
    count: int | Literal["unlimited"]


class UpgradeException(Strict):
    """An upgrade that the colour/track/label rule alone would not give, or must forbid."""

    tiles: list[str] = Field(description="source tiles (or 'hex:<id>' for a preprinted hex)")
    to: list[str]
    hexes: list[str] | None = Field(None, description="only in these hexes")
    phases: list[str] | None = Field(None, description="only in these phases")
    forbid: bool = False


class TileRules(Strict):
    colour_order: list[str] = list(TILE_COLOURS)
    keep_city_count: bool = Field(True, description="an upgrade keeps the number of cities")
    keep_town_count: bool = Field(True, description="an upgrade keeps the number of towns")
    allow_town_to_city: bool = Field(False, description="towns may upgrade to a one-city tile")
    exceptions: list[UpgradeException] = []


# -------------------------------------------------------------------------------------------- market


class Market(Strict):
    """The stock market.

    ``rows`` are written as strings of cells separated by blanks: a price followed by letters from
    ``legend`` (e.g. ``100p`` a par cell, ``40y`` a yellow zone cell); ``.`` is no cell.
    """

    type: Literal["1d", "2d"] = "2d"
    legend: dict[str, str] = Field(default_factory=dict, description="cell letter -> cell kind")
    rows: list[str]
    par_prices: list[int] | None = Field(None, description="explicit par values, when not marked in the grid")
    movement: dict[str, Any] = Field(default_factory=dict, description="movement rule parameters")
    zone_colours: dict[str, str] = Field(default_factory=dict, description="cell kind -> colour for printing")

    @field_validator("legend")
    @classmethod
    def _legend(cls, v: dict[str, str]) -> dict[str, str]:
        for letter in v:
            if not re.fullmatch(r"[a-z]", letter):
                raise ValueError(f"legend key {letter!r} must be one lower-case letter")
        return v


CELL_KINDS = (
    "par",
    "no_cert_limit",
    "unlimited_holding",
    "multiple_buy",
    "ledge",
    "hard_ledge",
    "close",
    "end_game",
    "liquidation",
    "acquisition",
    "safe_par",
    "max_price",
    "up_arrow",
    "down_arrow",
    "par_reissue",
    "repar",
    "ignore_one_sale",
)


# -------------------------------------------------------------------------------------------- trains


class Distance(Strict):
    """How many stops of which kinds a train may visit and how many of them pay."""

    nodes: list[Literal["city", "town", "offboard"]] = ["city", "town", "offboard"]
    visit: Annotated[int, Field(ge=1)] | Literal["unlimited"]
    pay: Annotated[int, Field(ge=1)] | Literal["unlimited"]


def _parse_distance(v: Any) -> Any:
    if isinstance(v, int):
        return [{"visit": v, "pay": v}]
    if isinstance(v, str):
        if v == "unlimited":
            return [{"visit": "unlimited", "pay": "unlimited"}]
        m = re.fullmatch(r"(\d+)/(\d+)", v)
        if m:
            return [{"visit": int(m.group(2)), "pay": int(m.group(1))}]
        m = re.fullmatch(r"(\d+)\+(\d+)", v)
        if m:
            return [
                {"nodes": ["city", "offboard"], "visit": int(m.group(1)), "pay": int(m.group(1))},
                {"nodes": ["town"], "visit": int(m.group(2)), "pay": int(m.group(2))},
            ]
        raise ValueError(f"bad distance {v!r}: use N, 'N/M', 'N+M' or 'unlimited'")
    return v


Count = Annotated[int, Field(ge=0)] | Literal["unlimited"] | dict[int, Annotated[int, Field(ge=0)]]
"""A count, 'unlimited', or a table by number of players."""


class TrainVariant(Strict):
    name: str
    distance: list[Distance]
    price: Price
    multiplier: int = Field(1, ge=1)
    no_towns: bool = False

    @field_validator("distance", mode="before")
    @classmethod
    def _dist(cls, v: Any) -> Any:
        return _parse_distance(v)


class Event(Strict):
    """Something that happens when a train is first bought or a phase starts."""

    type: str
    params: dict[str, Any] = {}


class Train(Strict):
    distance: list[Distance]
    price: Price
    count: Count
    rusts_on: str | None = Field(None, description="train name whose first purchase rusts this one")
    obsolete_on: str | None = Field(None, description="train name after which this one runs once more")
    variants: list[TrainVariant] = []
    multiplier: int = Field(1, ge=1, description="revenue multiplier (1 for ordinary trains, 2 for doubles)")
    no_towns: bool = Field(False, description="skips towns (express/diesel style)")
    available_on: str | None = Field(None, description="phase from which it may be bought")
    discount: dict[str, Money] = Field({}, description="amount off the price when trading in a train of that name")
    events: list[Event] = []
    salvage: Money | None = Field(None, description="what the bank pays for it when it is scrapped")

    @field_validator("distance", mode="before")
    @classmethod
    def _dist(cls, v: Any) -> Any:
        return _parse_distance(v)


class Phase(Strict):
    name: str
    on: str | None = Field(None, description="train name whose first purchase starts this phase")
    tiles: list[Literal["yellow", "green", "brown", "gray"]]
    train_limit: Annotated[int, Field(ge=0)] | dict[str, Annotated[int, Field(ge=0)]] = Field(
        description="number, or per corporation type"
    )
    operating_rounds: int = Field(2, ge=1, description="operating rounds between stock rounds")
    offboard: str | None = Field(None, description="off-board column key in force (default: last tile colour)")
    status: list[str] = []
    events: list[Event] = []


# ------------------------------------------------------------------------------------------- entities


class Ability(Strict):
    """A typed ability of a private company, minor or corporation."""

    type: Literal[
        "tile_lay",
        "teleport",
        "token",
        "reservation",
        "blocks_hexes",
        "close",
        "revenue_bonus",
        "assign_hexes",
        "assign_corporation",
        "tile_discount",
        "hexside_discount",
        "exchange",
        "shares",
        "no_buy",
        "train_discount",
        "base",
        "mine",
        "description",
        "extra_token",
        "income_to_president",
        "purchase_range",
    ]
    when: str | None = Field(None, description="timing, e.g. 'track', 'owning_corp_or_turn', 'any'")
    owner: Literal["player", "corporation", "any"] = "any"
    hexes: list[str] = []
    tiles: list[str] = []
    count: int | None = None
    amount: int | None = None
    cost: int | None = None
    free: bool = False
    connected: bool | None = None
    closes_on: str | None = None
    corporation: str | None = None
    shares: list[str] = []
    terrain: list[str] = []
    description: str | None = None
    params: dict[str, Any] = {}


class Private(Strict):
    name: str
    value: Money = Field(description="face value: what it costs in the initial auction or sale")
    revenue: Money | dict[str, Money] = 0
    abilities: list[Ability] = []
    minor: str | None = Field(None, description="minor that comes with this private (an independent)")
    group: str | None = Field(None, description="removal or draft group")
    closes_on: str | None = Field(None, description="phase that closes it (None: never, or by mechanic)")
    description: str | None = None
    color: str | None = None


class Home(Strict):
    hex: str
    city: int = 0


def _parse_home(v: Any) -> Any:
    if isinstance(v, str):
        return {"hex": v}
    return v


def homes_of(entity: Corporation | Minor) -> list[Home]:
    """An entity's home stations as a list (none, one, or several)."""
    if entity.home is None:
        return []
    return entity.home if isinstance(entity.home, list) else [entity.home]


class Corporation(Strict):
    name: str
    home: Home | list[Home] | None = None
    tokens: list[Money] = Field(description="cost of each station token, the home token first")
    shares: list[Annotated[int, Field(gt=0)]] = Field(
        [20, 10, 10, 10, 10, 10, 10, 10, 10], description="certificate percentages"
    )
    float_percent: int = Field(60, ge=0, le=100, description="percentage sold from the IPO that floats it")
    capitalization: Literal["full", "incremental", "escrow", "none", "by_phase"] = "full"
    destination: str | None = None
    color: str
    text_color: str = "white"
    type: str | None = Field(None, description="corporation type (e.g. size class) for type rules")
    abilities: list[Ability] = []
    coordinates_reserved: list[str] = Field([], description="extra reserved token spots (hex ids)")
    max_ownership_percent: int | None = None
    always_market_price: bool = False
    description: str | None = None

    @field_validator("home", mode="before")
    @classmethod
    def _home(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [_parse_home(h) for h in v]
        return _parse_home(v)

    @model_validator(mode="after")
    def _shares_100(self) -> Corporation:
        if sum(self.shares) != 100:
            raise ValueError(f"shares total {sum(self.shares)}%, not 100%")
        return self


class Minor(Strict):
    name: str
    home: Home | None = None
    tokens: list[Money] = [0]
    color: str = "#888888"
    text_color: str = "white"
    cash: Money = 0
    train: str | None = Field(None, description="train it starts with")
    split: Literal["half", "owner", "treasury"] = "half"
    abilities: list[Ability] = []

    @field_validator("home", mode="before")
    @classmethod
    def _home(cls, v: Any) -> Any:
        return _parse_home(v)


class PlayerSetup(Strict):
    cash: Price = Field(description="starting cash of each player")
    bank: Price | Literal["unlimited"] = Field(
        description="money in the bank at the start; the players' starting cash is paid from it"
    )
    cert_limit: Annotated[int, Field(ge=1)] | dict[int, Annotated[int, Field(ge=1)]] = Field(
        description="number, or table keyed by what `cert_limit_by` names (e.g. corporations in play)"
    )
    trains_removed: dict[str, Annotated[int, Field(ge=0)]] = Field({}, description="trains taken out of the game")
    notes: str | None = None


class EndTrigger(Strict):
    type: Literal["bank", "bankrupt", "all_closed", "stock_market", "final_phase", "final_train", "turn_limit"]
    after: Literal["immediate", "current_or", "full_or", "one_more_full_or_set", "current_round"] = "full_or"
    params: dict[str, Any] = {}


class Option(Strict):
    description: str
    overlay: dict[str, Any] = Field(
        default_factory=dict,
        description="deep merge over the title: mappings merge, lists replace, null deletes a key",
    )
    default: bool = False


class Meta(Strict):
    title: str
    full_name: str
    designer: str | None = None
    publisher: str | None = None
    edition: str | None = None
    rulebook: str | None = Field(None, description="file name of the rulebook this data follows")
    sources: list[str] = []
    currency: str = "${}"
    site_id: str | None = Field(None, description="title name used in 18xx.games records")


class MapSpec(Strict):
    layout: Literal["pointy", "flat"]
    axes: dict[Literal["x", "y"], Literal["letter", "number"]] | None = None
    parity: Literal["even", "odd"] = Field(
        "even", description="parity of x + y shared by every hex id (1856's ids are all odd)"
    )
    hexes: dict[str, Hex | None]

    @field_validator("hexes")
    @classmethod
    def _ids(cls, v: dict[str, Any]) -> dict[str, Any]:
        for hex_id in v:
            if not HEX_ID.match(hex_id):
                raise ValueError(f"bad hex id {hex_id!r}: use letters then digits, e.g. E11")
        return v


MECHANICS: dict[str, str] = {
    "draft": "private draft with blank cards and last-card price drop",
    "bid_box_auction": "initial stock round with privates bought in order or bid on (bid boxes)",
    "nomination_auction": "player nominates a private and all bid; seed money",
    "random_removal": "seeded random removal of companies by group",
    "independents": "minors owned by a player that split revenue",
    "stock_round": "sell/buy turn structure and limits",
    "company_stock_actions": "corporations act in the stock round",
    "price_protection": "a president buys shares another player sold",
    "issue_redeem": "corporation issues and redeems its own shares",
    "reissue": "redeemed shares go back to the IPO at a new par",
    "short_selling": "players sell shares they do not own",
    "capitalization": "how a corporation receives its money",
    "escrow": "money held until a destination is reached",
    "company_sizes": "2/5/10-share companies, conversions",
    "mergers": "merger and acquisition rounds",
    "loans": "corporations take loans with interest",
    "national_railway": "a government railway formed from merged companies",
    "receivership": "corporation with its president certificate in the pool",
    "dividends": "dividend options and share price movement",
    "track": "tile lays per turn and their costs",
    "tokens": "station token rules",
    "destinations": "reaching a destination triggers an effect",
    "routes": "route rules and bonuses",
    "trains": "train buying, limits, export, emergency buy",
    "private_companies": "purchase windows and closure",
    "bankruptcy": "what a failed emergency buy does",
    "game_end": "what ends the game",
    "final_value": "how a player's final value is computed",
    "operating_order": "order in which corporations operate",
    "certificate_limit": "how the certificate limit is looked up",
    "edge_tokens": "tokens on off-board edges that double revenue",
    "mines": "mine tokens and mine revenue",
    "river_companies": "companies that own river crossings",
}


class Mechanic(BaseModel):
    """A named rule module switched on by the title, with free parameters documented per mechanic."""

    model_config = ConfigDict(extra="allow")


class GameSource(Strict):
    """Everything a title's YAML files declare, merged."""

    meta: Meta
    players: dict[int, PlayerSetup]
    cert_limit_by: Literal["players", "corporations", "corporations_and_closures"] = "players"
    map: MapSpec
    tiles: dict[str, Tile] = Field({}, description="title-specific tiles; catalogue tiles need not be repeated")
    manifest: dict[str, int | Literal["unlimited"]]
    tile_rules: TileRules = TileRules()
    market: Market
    trains: dict[str, Train]
    phases: list[Phase]
    corporations: dict[str, Corporation]
    minors: dict[str, Minor] = {}
    privates: dict[str, Private] = {}
    mechanics: dict[str, dict[str, Any]] = {}
    end: list[EndTrigger] = []
    options: dict[str, Option] = {}

    @field_validator("mechanics")
    @classmethod
    def _known_mechanics(cls, v: dict[str, Any]) -> dict[str, Any]:
        for name in v:
            if name not in MECHANICS:
                raise ValueError(f"unknown mechanic {name!r}; known: {', '.join(sorted(MECHANICS))}")
        return v


class CatalogueSource(Strict):
    """``games/common/tiles.yaml``: the standard numbered tiles every title may use."""

    tiles: dict[str, Tile]
