"""Pydantic models of a railbook title: the single source of truth for the YAML and the JSON schema.

A title is written as several YAML files in ``games/<title>/`` whose top-level keys are merged into
one :class:`GameSource` document.  The compiler resolves it into a :class:`Rulebook`.
The notation is documented in ``docs/FORMAT.md``.
"""

from __future__ import annotations

import datetime
import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    create_model,
    field_validator,
    model_validator,
)
from railbook.params import switchable
from railbook.params.base import PRINT_ONLY

from railbook import limits
from railbook.outputs import TITLE_ID_MAX, TITLE_ID_PATTERN, title_id_problem

from .suggest import suggestion

FORMAT_VERSION = "2.1"

Colour = Literal["white", "yellow", "green", "brown", "gray", "red", "blue", "black"]
TILE_COLOURS: tuple[str, ...] = ("yellow", "green", "brown", "gray")
ENDPOINT = re.compile(r"^(?:[0-5]|[ctoj]\d+)$")
HEX_ID = re.compile(r"^[A-Z]{1,2}\d{1,3}$")


COLOUR_NAMES: tuple[str, ...] = (
    "black",
    "white",
    "red",
    "green",
    "blue",
    "yellow",
    "orange",
    "purple",
    "gray",
    "grey",
    "brown",
    "pink",
    "navy",
    "maroon",
    "lightblue",
    "darkgreen",
    "darkblue",
    "gold",
    "teal",
    "lime",
    "cyan",
    "magenta",
    "violet",
    "turquoise",
)
"""Colour names a title may print with (docs/FORMAT.md, "Colours"); any other colour is written #rgb or #rrggbb."""
HEX_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def _colour(value: str) -> str:
    """A colour name of ``COLOUR_NAMES`` or ``#rgb``/``#rrggbb``, else an error that names the nearest name."""
    text = value.strip()
    if text.lower() in COLOUR_NAMES or HEX_COLOUR.match(text):
        return value
    if text.startswith("#"):
        raise ValueError(f"colour {value!r} is not #rgb or #rrggbb (3 or 6 hexadecimal digits)")
    hint = suggestion(text.lower(), COLOUR_NAMES) or " (a name listed in docs/FORMAT.md, or #rgb / #rrggbb)"
    raise ValueError(f"unknown colour {value!r}{hint}")


def _zone_colour(value: str) -> str:
    """A stock-market zone colour: a colour, or ``<colour>_outline`` for a frame."""
    _colour(value.strip().removesuffix("_outline"))
    return value


PrintColour = Annotated[str, AfterValidator(_colour)]
"""A colour printed on a component: a name of ``COLOUR_NAMES`` or #rgb / #rrggbb."""
ZoneColour = Annotated[str, AfterValidator(_zone_colour)]
"""A market zone's colour: a ``PrintColour``, or one followed by ``_outline``."""


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
    revenue: PhaseValue = Field(0, description="revenue: a number, or {phase colour or phase name: number}")
    slots: int = Field(1, ge=0, le=6, description="token spaces")
    group: str | None = Field(None, description="cities sharing a group count as one stop (Chicago)")
    name: str | None = Field(None, description="name printed by this city (when a hex has several)")


class Town(Strict):
    revenue: PhaseValue = Field(0, description="revenue: a number, or {phase colour or phase name: number}")
    style: Literal["dot", "bar"] = Field("dot", description="drawn as a dot or a bar", json_schema_extra=PRINT_ONLY)
    group: str | None = Field(None, description="towns sharing a group count as one stop")


class Offboard(Strict):
    revenue: PhaseValue = Field(0, description="revenue: a number, or {phase colour or phase name: number}")
    group: str | None = Field(None, description="route group: e.g. E, W or a named area")
    hidden: bool = Field(False, description="a secondary hex of a larger off-board area")


class Path(Strict):
    """Track between two endpoints: an edge 0-5, or a node ``c<i>``/``t<i>``/``o<i>``/``j<i>``."""

    a: str = Field(description="one end: an edge 0-5 or a node c<i>/t<i>/o<i>/j<i>")
    b: str = Field(description="the other end, written like a")
    terminal: bool = Field(False, description="a route may end but not continue here")
    lanes: int = Field(
        1,
        ge=1,
        description="parallel tracks this path is drawn as (printed only: the engine plays one track, so two "
        "routes of one company may not share it)",
        json_schema_extra=PRINT_ONLY,
    )

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
    name: str = Field(description="icon name (e.g. port, mine, meat)")
    sticky: bool = Field(
        False,
        description="stays on the hex when a tile is laid, for 18xx-maker (the engine keeps every printed icon; "
        "printed only)",
        json_schema_extra=PRINT_ONLY,
    )


class Track(Strict):
    """What is printed on a tile or a preprinted hex: nodes and the paths joining them."""

    cities: list[City] = Field([], description="cities, referred to as c0, c1, ... in paths")
    towns: list[Town] = Field([], description="towns, referred to as t0, t1, ...")
    offboards: list[Offboard] = Field([], description="off-board revenue areas, o0, o1, ...")
    junctions: int = Field(0, description="track junctions without a stop, j0, j1, ...")
    paths: list[PathSpec] = Field([], description="track between two endpoints")
    label: str | None = Field(None, description="upgrade label (OO, Z, Chi): only tiles with the same label upgrade it")
    icons: list[Icon] = Field([], description="icons printed on it")

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

    color: Literal["yellow", "green", "brown", "gray"] = Field(
        description="tile colour; upgrades go to the next colour of tile_rules.colour_order"
    )
    name: str | None = Field(None, description="printed name, when not just the number")


class Border(Strict):
    edge: int = Field(ge=0, le=5, description="the hexside (0-5)")
    type: Literal["impassable", "mountain", "water", "province", "edge"] = Field(
        "impassable", description="what lies along it"
    )
    cost: Money = Field(0, description="cost of building track across it")


class Partition(Strict):
    """A river splitting a hex: track may not join edges on different sides (1870 Mississippi)."""

    a: int = Field(ge=0, le=5, description="first corner (0-5) of the river")
    b: int = Field(ge=0, le=5, description="second corner (0-5)")
    type: Literal["water", "province"] = Field("water", description="what the partition is")
    restrict: Literal["inner", "outer"] | None = Field(
        None, description="keep every path on this side (inner: edges a..b-1; outer: the rest)"
    )


class Hex(Track):
    """One map hex.  An empty mapping is a plain white hex."""

    color: Colour = Field(
        "white", description="white (empty), yellow/green/brown/gray (preprinted), red (off-board) or blue (water)"
    )
    name: str | None = Field(None, description="place name printed on the map")
    cost: Money = Field(0, description="cost of the first tile laid here")
    terrain: list[Literal["mountain", "water", "hill", "river", "swamp", "lake", "desert", "forest"]] = Field(
        [], description="terrain symbols printed (the cost is in cost)"
    )
    borders: list[Border] = Field([], description="hexsides that cost money or block track")
    partitions: list[Partition] = Field([], description="rivers splitting the hex")
    blocked_by: str | None = Field(
        None,
        description="private company whose mark is printed here (the blocking itself is the private's `blocks_hexes` "
        "ability)",
        json_schema_extra=PRINT_ONLY,
    )
    upgrades_to: list[str] | None = Field(
        None,
        description="only these tiles may be laid here (overrides the colour rule; compiled into `tile_upgrades`)",
        json_schema_extra={"x-compiled-into": "tile_upgrades"},
    )
    tags: list[str] = Field([], description="free-form markers other rules refer to (e.g. 'west_of_river')")


# ---------------------------------------------------------------------------------------- tile rules


class TileCount(Strict):
    count: int | Literal["unlimited"] = Field(description="number of copies, or unlimited")


class UpgradeException(Strict):
    """An upgrade that the colour/track/label rule alone would not give, or must forbid."""

    tiles: list[str] = Field(description="source tiles (or 'hex:<id>' for a preprinted hex)")
    to: list[str] = Field(description="tiles they may (or, with forbid, may not) be upgraded to")
    hexes: list[str] | None = Field(None, description="only in these hexes")
    phases: list[str] | None = Field(None, description="only in these phases")
    forbid: bool = Field(False, description="forbid these upgrades instead of adding them")


class TileRules(Strict):
    colour_order: list[str] = Field(list(TILE_COLOURS), description="tile colours in upgrade order")
    keep_city_count: bool = Field(True, description="an upgrade keeps the number of cities")
    keep_town_count: bool = Field(True, description="an upgrade keeps the number of towns")
    allow_town_to_city: bool = Field(False, description="towns may upgrade to a one-city tile")
    exceptions: list[UpgradeException] = Field([], description="upgrades added or forbidden beyond the general rule")


# -------------------------------------------------------------------------------------------- market


class Ordered(Strict):
    """A model that remembers the keys it was given, in the order they were written: :func:`dump_ordered` gives
    them back so (a compiled rulebook keeps the title's own order and leaves out what the title did not write)."""

    _order: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _keep_order(cls, data: Any, handler: Any) -> Any:
        model = handler(data)
        if isinstance(data, dict) and isinstance(model, Ordered):
            model._order = tuple(str(k) for k in data)
        return model


def dump_ordered(value: Any) -> Any:
    """JSON data of ``value``: an :class:`Ordered` model as the keys it was given, in their order."""
    if isinstance(value, Ordered):
        return {k: dump_ordered(getattr(value, k)) for k in value._order if k in type(value).model_fields}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [dump_ordered(v) for v in value]
    if isinstance(value, dict):
        return {k: dump_ordered(v) for k, v in value.items()}
    return value


def _within(low: int, high: int, limit: limits.Limit) -> Any:
    """A validator: a whole number from ``low`` to ``high``; outside them the error names ``limit``."""

    def check(v: int) -> int:
        if not low <= v <= high:
            raise ValueError(f"{v} is out of range: {low} to {high} (limit {limit.name})")
        return v

    return check


STEPS = limits.MARKET_STEPS.value
COLUMNS = limits.MARKET_COLUMNS.value
Steps = Annotated[
    int,
    AfterValidator(_within(-STEPS, STEPS, limits.MARKET_STEPS)),
    Field(json_schema_extra={"minimum": -STEPS, "maximum": STEPS}),
]
"""Steps of one share-price move: positive right (or up), negative left (or down)."""
PosSteps = Annotated[
    int,
    AfterValidator(_within(0, STEPS, limits.MARKET_STEPS)),
    Field(json_schema_extra={"minimum": 0, "maximum": STEPS}),
]
Column = Annotated[
    int,
    AfterValidator(_within(0, COLUMNS - 1, limits.MARKET_COLUMNS)),
    Field(json_schema_extra={"minimum": 0, "maximum": COLUMNS - 1}),
]
Direction = Literal["left", "right", "up", "down"]
_MOVE_TEXT = re.compile(r"^(left|right|up|down)_(\d{1,3})$")
_MOVE_RULE = (
    "write none or a direction and steps, e.g. left_1, right_2 (directions: left, right, up, down; "
    f"steps: 1 to {STEPS})"
)


def _move_text(v: Any) -> Any:
    m = _MOVE_TEXT.match(v) if isinstance(v, str) else None
    if v != "none" and (m is None or not 1 <= int(m.group(2)) <= STEPS):
        raise ValueError(f"{str(v)[:40]!r} is not a move: {_MOVE_RULE}")
    return v


def _steps_or_move(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        if not -STEPS <= v <= STEPS:
            raise ValueError(f"{v} is out of range: -{STEPS} to {STEPS} steps (limit market_steps)")
        return v
    if isinstance(v, str):
        return _move_text(v)
    raise ValueError(f"{str(v)[:40]!r} is not a move: a number of steps (-{STEPS} to {STEPS}), or {_MOVE_RULE}")


MoveText = Annotated[str, AfterValidator(_move_text)]
"""A price move written as text: ``none``, or ``<direction>_<steps>`` (``left_1``, ``right_2``)."""
StepsOrMove = Annotated[int | str, AfterValidator(_steps_or_move)]
"""A price move: a number of steps (negative: left or down), or written as text (:data:`MoveText`)."""


class SaleMove(Ordered):
    """How selling shares moves the price."""

    who: Literal["president", "anyone"] = Field("anyone", description="whose sales move the price")
    move: Steps = Field(-1, description="steps per unit sold (negative: down or left)")
    per: Literal["share", "corporation_per_turn", "full_10_percent"] = Field(
        "share", description="the unit: each share, each corporation once a turn, or each full 10%"
    )
    direction: Direction | None = Field(None, description="in a 2d market, the direction of the move")


class EndOfStockRound(Ordered):
    """Moves at the end of a stock round, corporations in share price order (highest first)."""

    sold_out: StepsOrMove | None = Field(None, description="move of a sold-out corporation (default: 1 up)")
    sold_out_sizes: list[Annotated[int, Field(ge=1, le=100)]] | None = Field(
        None, description="only corporations of these numbers of shares count as sold out"
    )
    pool_shares: StepsOrMove | None = Field(None, description="move of a corporation with shares in the pool")
    then_per_market_share: StepsOrMove | None = Field(None, description="a further move per share in the pool (market)")
    over_100_percent: StepsOrMove | None = Field(
        None,
        description="move of a sold-out corporation more than 100% held by players (short sales; default: as sold_out)",
    )


class UpMove(Ordered):
    """A 2d market's UP move."""

    rows: PosSteps = Field(1, description="rows up")
    top_row: Literal["down_right", "stay"] = Field("stay", description="from the top row: one right and down, or stay")
    max_price: Money | None = Field(None, description="a token at this price or above stays")


class DownMove(Ordered):
    """A 2d market's DOWN move (the bottom of a column always stops the token)."""

    per_share: PosSteps = Field(1, description="rows down per share sold")
    soft_ledge_absorbs: PosSteps = Field(
        0, description="a token with at most this many moves left stops on the soft ledge"
    )


class SideMove(Ordered):
    """A 2d market's RIGHT or LEFT move."""

    columns: PosSteps = Field(1, description="columns moved")
    blocked: Direction | Literal["stay"] | None = Field(
        None,
        description="where the token goes when the move is blocked at a row's end or a missing cell (None: a RIGHT "
        "move goes up, a LEFT move down)",
    )


class Movement(Ordered):
    """The stock market's movement rules (``market.movement``): every key is a rule the engine plays."""

    sale: SaleMove | Literal["none"] | None = Field(None, description="how sales move the price; none: never")
    end_of_stock_round: EndOfStockRound | None = Field(None, description="moves at the end of a stock round")
    up: UpMove | None = Field(None, description="a 2d market's UP move (rows, top_row, max_price); 1d: UP is right")
    down: DownMove | None = Field(
        None, description="a 2d market's DOWN move (per_share, soft_ledge_absorbs); 1d: DOWN is left"
    )
    right: SideMove | None = Field(None, description="a 2d market's RIGHT move (columns, blocked)")
    left: SideMove | None = Field(None, description="a 2d market's LEFT move (columns, blocked)")
    floor_col: Column | None = Field(None, description="1d: no move left of this column")
    ceiling_col: Column | None = Field(None, description="1d: no move right of this column")
    liquidation_col: Column | None = Field(None, description="column a liquidated company moves to")
    loan_taken: MoveText | None = Field(None, description="move per loan taken")
    loan_repaid: MoveText | None = Field(None, description="move per loan repaid")
    ledge_kind: str | None = Field(None, description="the cell kind of the area below the soft ledge")

    @field_validator("ledge_kind")
    @classmethod
    def _kind(cls, v: str | None) -> str | None:
        if v is not None and v not in CELL_KINDS:
            raise ValueError(f"unknown cell kind '{v}'; choose from {', '.join(CELL_KINDS)}")
        return v


class Market(Strict):
    """The stock market.

    ``rows`` are written as strings of cells separated by blanks: a price followed by letters from
    ``legend`` (e.g. ``100p`` a par cell, ``40y`` a yellow zone cell); ``.`` is no cell.
    """

    type: Literal["1d", "2d"] = Field("2d", description="1d: one row; 2d: a grid")
    legend: dict[str, str] = Field(default_factory=dict, description="cell letter -> cell kind")
    rows: list[str] = Field(description="cells as text: a price and legend letters, '.' for no cell")
    par_prices: list[int] | None = Field(None, description="explicit par values, when not marked in the grid")
    movement: Movement = Field(default_factory=lambda: Movement(), description="movement rule parameters")
    zone_colours: dict[str, ZoneColour] = Field(
        default_factory=dict,
        description="cell kind -> colour for printing (a colour, or <colour>_outline)",
        json_schema_extra=PRINT_ONLY,
    )

    @field_validator("rows")
    @classmethod
    def _rows(cls, v: list[str]) -> list[str]:
        if len(v) > limits.MARKET_ROWS.value:
            raise ValueError(f"more than {limits.MARKET_ROWS.value} rows (limit market_rows)")
        for r, row in enumerate(v):
            if len(row.split()) > limits.MARKET_COLUMNS.value:
                raise ValueError(f"row {r} has more than {limits.MARKET_COLUMNS.value} cells (limit market_columns)")
        return v

    @model_validator(mode="after")
    def _moves_fit(self) -> Market:
        mv = self.movement
        width = max((len(row.split()) for row in self.rows), default=0)
        for name in ("floor_col", "ceiling_col", "liquidation_col"):
            col = getattr(mv, name)
            if col is not None and col >= width:
                raise ValueError(f"movement.{name}: column {col} is past the widest row ({width} cells)")
        if self.type == "1d":
            for name in ("up", "down", "right", "left"):
                if getattr(mv, name) is not None:
                    raise ValueError(
                        f"movement.{name}: a 1d market moves along its row (UP is right, DOWN is left); "
                        "up, down, right and left are a 2d market's moves"
                    )
        elif mv.ceiling_col is not None or mv.floor_col is not None:
            raise ValueError("movement.floor_col and ceiling_col are a 1d market's bounds")
        return self

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

    nodes: list[Literal["city", "town", "offboard"]] = Field(
        ["city", "town", "offboard"], description="kinds of stop this row counts"
    )
    visit: Annotated[int, Field(ge=1)] | Literal["unlimited"] = Field(
        description="how many such stops the train may visit"
    )
    pay: Annotated[int, Field(ge=1)] | Literal["unlimited"] = Field(
        description="how many of them count for revenue (the best ones)"
    )


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
    name: str = Field(description="name of this face (e.g. 3/5)")
    distance: list[Distance] = Field(description="stops it may visit and count")
    price: Price = Field(description="price of this face")
    multiplier: int = Field(1, ge=1, description="revenue multiplier of this face")
    no_towns: bool = Field(False, description="this face skips towns")

    @field_validator("distance", mode="before")
    @classmethod
    def _dist(cls, v: Any) -> Any:
        return _parse_distance(v)


class Event(Strict):
    """Something that happens when a train is first bought or a phase starts."""

    type: str = Field(description="what happens (e.g. close_companies, remove_reservations)")
    params: dict[str, Any] = Field(
        {},
        description="parameters of the event, validated by the model its mechanic declares for the event type",
        json_schema_extra={"x-typed-by": "events"},
    )


class Train(Strict):
    distance: list[Distance] = Field(description="stops it may visit and count")
    price: Price = Field(description="price from the bank")
    count: Count = Field(description="copies in the bank: a number, unlimited, or {players: number}")
    rusts_on: str | None = Field(None, description="train name whose first purchase rusts this one")
    obsolete_on: str | None = Field(None, description="train name after which this one runs once more")
    variants: list[TrainVariant] = Field(
        [], description="other faces of the same card: a bought train takes one face for good"
    )
    multiplier: int = Field(1, ge=1, description="revenue multiplier (1 for ordinary trains, 2 for doubles)")
    no_towns: bool = Field(False, description="skips towns (express/diesel style)")
    available_on: str | None = Field(None, description="phase from which it may be bought")
    discount: dict[str, Money] = Field({}, description="amount off the price when trading in a train of that name")
    events: list[Event] = Field([], description="what happens when the first one is bought")

    @field_validator("distance", mode="before")
    @classmethod
    def _dist(cls, v: Any) -> Any:
        return _parse_distance(v)


class Phase(Strict):
    name: str = Field(description="phase name as printed (and as records use it)")
    on: str | None = Field(None, description="train name whose first purchase starts this phase")
    tiles: list[Literal["yellow", "green", "brown", "gray"]] = Field(description="tile colours that may be laid")
    train_limit: Annotated[int, Field(ge=0)] | dict[str, Annotated[int, Field(ge=0)]] = Field(
        description="number, or per corporation type"
    )
    operating_rounds: int = Field(2, ge=1, description="operating rounds between stock rounds")
    offboard: str | None = Field(None, description="off-board column key in force (default: last tile colour)")
    status: list[str] = Field([], description="flags other rules look up (e.g. can_buy_companies)")
    events: list[Event] = Field([], description="what happens when the phase starts")


# ------------------------------------------------------------------------------------------- entities


class AbilityParams(Strict):
    """Further parameters of an ability (``params:``), each read by the rule that plays its ability type
    (docs/FORMAT.md, "Abilities").  An unknown key is an error."""

    # tile lays (tile_lay, teleport, tile_discount, blocks_hexes)
    extra: bool | None = Field(None, description="tile_lay: a lay on top of the turn's normal lays")
    extra_lay: bool | None = Field(None, description="tile_lay: as `extra` (the track step stays open for it)")
    after_normal_lay: bool | None = Field(
        None,
        description="tile_lay: usable only once the owning corporation has made one of its own lays of the turn (a "
        "tile, or what takes a lay's place); None/false: before it too",
    )
    normal_lay: bool | None = Field(None, description="tile_lay: the lay is one of the turn's normal lays")
    consumes_tile_lay: bool | None = Field(None, description="tile_lay, mine: the lay uses up one of the turn's lays")
    any_label: bool | None = Field(None, description="tile_lay: the tile may go on a hex of any label")
    discount: Money | None = Field(None, description="tile_lay: $ off the terrain cost of the lay")
    per_or: Annotated[int, Field(ge=1)] | None = Field(None, description="uses allowed per operating round")
    one_per_hex: bool | None = Field(None, description="tile_lay: at most one of its lays in each hex")
    lay_together: bool | None = Field(None, description="tile_lay: all its lays in one go")
    must_connect: list[str] | None = Field(
        None,
        description="tile_lay: two hexes the lays must join; the new track of each tile lies on a way between them",
    )
    must_connect_each_other: bool | None = Field(None, description="tile_lay: its lays must join each other")
    must_lay_all: bool | None = Field(
        None, description="tile_lay: once the first of its lays is made, the others must follow (no pass between)"
    )
    requires_unconnected: list[str] | None = Field(
        None, description="tile_lay: usable only while these hexes are not joined by track"
    )
    pays_mine_rights: bool | None = Field(
        None,
        description="tile_lay: one of its lays may instead pay for the rights to the mine hexes where those rights "
        "take a yellow lay (mechanic `mines`, action `choose_ability`; it counts as a lay in the mine hex)",
    )
    hex_tag: str | None = Field(None, description="tile_lay: lays only in hexes carrying this tag")
    outside_tag_allowed: Annotated[int, Field(ge=0)] | None = Field(
        None, description="tile_lay: lays allowed outside the `hex_tag` hexes"
    )
    home_extra_for: list[str] | None = Field(
        None, description="tile_lay: corporations that get it as an extra lay before their first operation"
    )
    hexsides: list[str] | None = Field(None, description="tile_discount: hexsides (`<hex>-<edge>`) it makes free")
    blocks: Literal["partition_crossing"] | None = Field(
        None, description="blocks_hexes: what it blocks instead of the whole hex (track crossing a partition)"
    )
    tile_lay_costs: list[Money] | None = Field(None, description="the owner's cost of its first, second... lay")
    closes_private: bool | None = Field(None, description="using it closes the private")
    lost_if_hex_built: bool | None = Field(
        None,
        description="the ability is lost once a tile is laid in one of its `hexes` other than by its own private (the "
        "private stays open, even with `closes_when_used`)",
    )
    closes_when_used: bool | None = Field(
        None,
        description="the private closes once this ability is used up (its `count` reaches 0; None/false: it stays "
        "open without the ability)",
    )
    max_per_hex: Annotated[int, Field(ge=1)] | None = Field(
        None,
        description="assign_hexes: at most this many markers of its kind in one hex (every private's `assign_hexes` "
        "markers of the same `token` name count)",
    )
    upgrade: bool | None = Field(
        None,
        description='tile_lay: printed "lay or upgrade" (the engine allows an upgrade wherever the ability\'s tiles '
        "fit)",
        json_schema_extra=PRINT_ONLY,
    )
    token: str | None = Field(
        None,
        description="assign_hexes, mine: the name of the marker, printed; markers of one name are one kind for "
        "`max_per_hex`",
    )
    plus_terrain: bool | None = Field(
        None,
        description='tile_lay: printed "plus the terrain cost" (the engine charges terrain unless `free`)',
        json_schema_extra=PRINT_ONLY,
    )
    replaces_normal_lay: bool | None = Field(
        None,
        description="tile_lay: printed as taking the place of the normal lay (the engine counts it as its track "
        "step does)",
        json_schema_extra=PRINT_ONLY,
    )
    uses_owner_marker: bool | None = Field(
        None,
        description="token: printed as one of the owner's own station tokens, and no private marker in the inventory",
        json_schema_extra=PRINT_ONLY,
    )
    either_city: bool | None = Field(
        None, description='token: printed "in either city" of the hex', json_schema_extra=PRINT_ONLY
    )
    per_train: bool | None = Field(
        None,
        description="revenue_bonus: printed as a bonus to each train (the engine's route bonus pays each route)",
        json_schema_extra=PRINT_ONLY,
    )
    # tokens (token, reservation)
    city: Annotated[int, Field(ge=0)] | None = Field(None, description="token, reservation: the city (c<i>) of the hex")
    slot: Annotated[int, Field(ge=0)] | None = Field(None, description="reservation: the token slot reserved")
    until: str | None = Field(
        None, description="reservation: when it ends (`bought_by_corporation...`: once a corporation buys it)"
    )
    cost_if_unconnected: Money | None = Field(None, description="token: price of the token where unconnected")
    extra_token: bool | None = Field(None, description="token: a token beyond the corporation's own")
    extra_action: bool | None = Field(None, description="token: placed besides the turn's token placement")
    # revenue (revenue_bonus, assign_hexes)
    per: Literal["visited_stop"] | None = Field(None, description="revenue_bonus: `amount` per visited stop")
    where: Literal["assigned_hex"] | None = Field(None, description="revenue_bonus: only at the assigned hex")
    per_icon: str | None = Field(None, description="revenue_bonus: the icon whose printed value the bonus is")
    beneficiary: Literal["assigned_company", "owning_corporation"] | None = Field(
        None, description="revenue_bonus: who earns the bonus"
    )
    event: Literal["yellow_tile_laid"] | None = Field(None, description="revenue_bonus: paid when this happens")
    requires_train: bool | None = Field(None, description="revenue_bonus: paid only to an owner with a train")
    right: str | None = Field(None, description="revenue_bonus: the name of the right it stands for (printed)")
    markers: list[dict[str, Any]] | None = Field(None, description="assign_hexes: the marker's states, in order")
    bonus_for: Literal["all_companies", "owner_only"] | None = Field(
        None, description="assign_hexes: whose routes earn the marker's bonus"
    )
    also_assigns: str | None = Field(None, description="assign_hexes: a corporation assigned with the hex")
    steps: list[str] | None = Field(None, description="assign_hexes: the steps in which it may be used")
    phases: list[str] | None = Field(None, description="the phases in which it may be used")
    # companies (shares, exchange, close, base, purchase_range)
    buyer_sets_par: bool | None = Field(None, description="shares: the buyer of the private sets the par")
    closes_after_par: bool | None = Field(None, description="shares: the private closes once the par is set")
    random: Literal["president"] | None = Field(
        None, description="shares: the certificate is a president's certificate of a corporation drawn at random"
    )
    from_: list[Literal["ipo", "pool"]] | None = Field(
        None, alias="from", description="exchange: where the share may come from"
    )
    after_use: Literal["end_of_operating_round"] | None = Field(None, description="close: when it closes once used")
    bank_subsidy: Literal["start_price"] | None = Field(None, description="base: the bank pays the start price")
    min_factor: float | None = Field(None, gt=0, description="purchase_range: the lowest price, x face value")
    max_factor: float | None = Field(None, gt=0, description="purchase_range: the highest price, x face value")
    train: str | None = Field(None, description="train: the train it brings")
    # mines
    adjacent_to: list[str] | None = Field(
        None,
        description="mine: some track end of the tile must lead to a stop of these kinds that connects to it, or to a "
        "city that could after upgrades",
    )
    not_next_to_labels: list[str] | None = Field(
        None, description="mine: no neighbouring hex may hold a tile with one of these labels when the tile is laid"
    )
    waives_terrain_cost: Money | None = Field(None, description="mine: $ of terrain cost waived")
    # private payouts (description abilities of privates_payouts)
    payouts: dict[str, Money] | None = Field(None, description="train -> $ paid when a train of it is bought")
    scrap_values: dict[str, Money] | None = Field(None, description="train -> $ paid when one is scrapped")
    per_conversion: Money | None = Field(None, description="$ paid at each conversion")
    extra_interest_per_or: Money | None = Field(None, description="$ of extra interest each operating round")
    payout_on_transfer: Money | None = Field(
        None,
        description="$ the bank pays the owning company's president when the company's privates pass to a company "
        "with another president (an acquisition) or to the bank (a liquidation)",
    )
    cash_on_assign: Money | None = Field(None, description="$ the company gets when assigned")
    closes_on_ipo_payment: bool | None = Field(None, description="closes when its price is paid in an IPO")


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
        "tile_discount",
        "exchange",
        "shares",
        "no_buy",
        "base",
        "mine",
        "description",
        "extra_token",
        "income_to_president",
        "purchase_range",
        "train",
    ] = Field(description="what the ability does")
    when: str | None = Field(None, description="timing, e.g. 'track', 'owning_corp_or_turn', 'any'")
    owner: Literal["player", "corporation", "any"] = Field(
        "any", description="who may use it: the player owning it, a corporation owning it, or either"
    )
    hexes: list[str] = Field([], description="hexes it applies to")
    tiles: list[str] = Field([], description="tiles it may lay")
    count: int | None = Field(None, description="times it may be used (none: unlimited)")
    amount: int | None = Field(None, description="money involved (a bonus, a discount)")
    cost: int | None = Field(None, description="what using it costs")
    free: bool = Field(False, description="the tile lay or token costs nothing")
    connected: bool | None = Field(None, description="must the hex be reachable by the owning corporation's track")
    closes_on: str | None = Field(None, description="phase or train that ends this ability")
    corporation: str | None = Field(None, description="corporation it concerns")
    shares: list[str] = Field([], description="share certificates involved (e.g. PRR_1)")
    terrain: list[str] = Field([], description="terrain types it concerns (e.g. a mountain discount)")
    description: str | None = Field(
        None, description="text printed on the card instead of the generated wording", json_schema_extra=PRINT_ONLY
    )
    params: AbilityParams = Field(
        default_factory=AbilityParams, description="further parameters of the ability (see docs/FORMAT.md)"
    )

    @model_validator(mode="after")
    def _lifetime_params(self) -> Ability:
        """The parameters of how long it lasts need what they count or watch."""
        p = self.params
        if p.closes_when_used and self.count is None:
            raise ValueError("params.closes_when_used needs a `count` (the private closes when it reaches 0)")
        if p.lost_if_hex_built and not self.hexes:
            raise ValueError("params.lost_if_hex_built needs `hexes` (the ability is lost when one is built)")
        if p.max_per_hex is not None and self.type != "assign_hexes":
            raise ValueError(f"params.max_per_hex is an assign_hexes parameter, not {self.type}'s")
        return self


class Private(Strict):
    name: str = Field(description="name printed on the card")
    value: Money = Field(description="face value: what it costs in the initial auction or sale")
    revenue: Money | dict[str, Money] = Field(
        0, description="income paid each operating round: a number or {phase: number}"
    )
    abilities: list[Ability] = Field([], description="typed abilities")
    minor: str | None = Field(None, description="minor that comes with this private (an independent)")
    group: str | None = Field(None, description="removal or draft group")
    closes_on: str | None = Field(None, description="phase that closes it (None: never, or by mechanic)")
    description: str | None = Field(None, description="text printed on the card", json_schema_extra=PRINT_ONLY)
    color: PrintColour | None = Field(None, description="card colour", json_schema_extra=PRINT_ONLY)


class Home(Strict):
    hex: str = Field(description="hex of the home station")
    city: int = Field(0, description="city index (c<i>) in that hex")
    whole_hex: bool = Field(
        False,
        description="until the home station is placed, no other corporation may place a station in any city of the "
        "hex (its reservation holds the whole hex; e.g. 1830's Erie in Buffalo on 18xx.games); placed on a tile with "
        "track and several cities, the corporation chooses the city (a `place_token` in the round's `home_token` "
        "step, where the round kind lists it; else the first city)",
    )
    choose_city: bool = Field(
        False,
        description="the home's city is not fixed: placed on a tile with track and several cities with room, the "
        "corporation chooses the city (a `place_token` in the round's `home_token` step); else the reserved or first "
        "city (e.g. 1856's THB in Hamilton's two cities on 18xx.games)",
    )


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
    name: str = Field(description="full name")
    home: Home | list[Home] | None = Field(
        None, description="home station(s): a hex id, {hex, city}, or a list of them"
    )
    tokens: list[Money] = Field(description="cost of each station token, the home token first")
    shares: list[Annotated[int, Field(gt=0)]] = Field(
        [20, 10, 10, 10, 10, 10, 10, 10, 10], description="certificate percentages"
    )
    float_percent: int = Field(60, ge=0, le=100, description="percentage sold from the IPO that floats it")
    capitalization: Literal["full", "incremental", "escrow", "none", "by_phase"] = Field(
        "full", description="how it receives money for its shares"
    )
    destination: str | None = Field(None, description="destination hex (mechanics.destinations)")
    color: PrintColour = Field(
        description="colour of its charter, tokens and certificates", json_schema_extra=PRINT_ONLY
    )
    text_color: PrintColour = Field(
        "white", description="colour of text printed on its colour", json_schema_extra=PRINT_ONLY
    )
    type: str | None = Field(None, description="corporation type (e.g. size class) for type rules")
    abilities: list[Ability] = Field([], description="typed abilities (e.g. a reserved token)")
    coordinates_reserved: list[str] = Field(
        [],
        description="hexes where its reserved spot is printed (the reservation itself is a `reservation` or `token` "
        "ability)",
        json_schema_extra=PRINT_ONLY,
    )
    max_ownership_percent: int | None = Field(None, description="most a player may own (default: the stock round rule)")
    always_market_price: bool = Field(False, description="IPO shares are sold at the market price")
    description: str | None = Field(None, description="text printed on its charter", json_schema_extra=PRINT_ONLY)

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
    name: str = Field(description="full name")
    home: Home | None = Field(None, description="home station: a hex id or {hex, city}")
    tokens: list[Money] = Field([0], description="cost of each station token, the home token first")
    color: PrintColour = Field("#888888", description="colour of its charter and tokens", json_schema_extra=PRINT_ONLY)
    text_color: PrintColour = Field(
        "white", description="colour of text printed on its colour", json_schema_extra=PRINT_ONLY
    )
    cash: Money = Field(0, description="treasury at the start")
    train: str | None = Field(None, description="train it starts with")
    abilities: list[Ability] = Field([], description="typed abilities")

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
    privates_removed: list[str] = Field([], description="private companies out of the game at this player count")
    notes: str | None = Field(None, description="remarks for this player count", json_schema_extra=PRINT_ONLY)


class EndParams(Strict):
    """Parameters of a game-end trigger."""

    players_left: Annotated[int, Field(ge=0)] | None = Field(
        None,
        description="`bankrupt`: the game ends once this many players or fewer are left (None: at the first "
        "bankruptcy)",
    )
    turn: Annotated[int, Field(ge=1)] | None = Field(None, description="`turn_limit`: the turn that ends the game")
    train: str | None = Field(None, description="`final_train`: the train type whose last copy bought ends the game")
    price: Price | None = Field(
        None,
        description="`stock_market`: a share price at or above this ends the game (None: a price in an `end_game` "
        "cell)",
    )
    final_set_ors: dict[Annotated[str, Field(pattern=r"^triggered_in_or_\d+$")], Annotated[int, Field(ge=1)]] | None = (
        Field(
            None,
            description="operating rounds of the final set by the operating round the trigger fired in "
            "(`{triggered_in_or_1: 2, triggered_in_or_2: 3}`)",
        )
    )


class EndTrigger(Strict):
    type: Literal["bank", "bankrupt", "all_closed", "stock_market", "final_phase", "final_train", "turn_limit"] = Field(
        description="what ends the game"
    )
    after: Literal["immediate", "current_or", "full_or", "one_more_full_or_set", "current_round"] = Field(
        "full_or", description="when the game ends once triggered"
    )
    params: EndParams = Field(default_factory=EndParams, description="parameters (e.g. {turn: 100})")


class Site(Strict):
    """How 18xx.games represents the title, where it differs from the rulebook: facts for comparing a game with the
    site's (``railbook replay --digest``, docs/CONFORMANCE.md); they change no rule."""

    phase_names: dict[str, str] = Field(
        {},
        description="rulebook phase name -> the site's name of that phase, where they differ (the site may name "
        "phases after trains)",
    )
    floated_from_first_turn: bool = Field(
        False,
        description="the site counts a corporation as floated only from the start of its first operating turn, "
        "not from the sale that floats it",
    )
    private_closing_fails_in_phases: list[str] = Field(
        [],
        description="the site's engine fails once a private company owned by a public company has closed with it "
        "in one of these phases (rulebook phase names; it asks who owns that private): the soak player writing a "
        "record for the site has no company buy a private in these phases",
    )
    unowned_private_income_fails: list[str] = Field(
        [],
        description="the site's engine fails when it pays the privates' income while one of these privates has no "
        "owner (an initial round ended by everyone passing with it unsold; it asks who owns that private): the soak "
        "player writing a record for the site has no player pass while one is unsold and he may do anything else, "
        "and no bid that leaves him less than its price free",
    )
    closing_stalls_stock_round: bool = Field(
        False,
        description="the site's engine keeps a stock round waiting on a player it offers nothing when a "
        "corporation closed in the turn that just ended and the next two players have nothing to do (it skips "
        "them with a stale step): the soak player writing a record for the site plays another move of that turn "
        "where it can",
    )
    closing_leaves_graph_stale: bool = Field(
        False,
        description="the site's engine keeps its route graph when a corporation closes and its station markers "
        "leave the map, until the next tile lay or marker placement: till then it judges lays and markers as if "
        "those markers were still there; the soak player writing a record for the site makes no lay or placement "
        "that the map with them would not allow, where it can do anything else",
    )
    removed_tile_copies_first: bool = Field(
        False,
        description="where an option lowers a tile's count, the site takes that tile's first copies out of the game "
        "(ids `<tile>-0`, `<tile>-1`, ...) and keeps the ids of the others: a record written for the site names the "
        "n-th copy `<tile>-<n + the copies taken out>`",
    )
    redemption_fails_on_lone_president_certificate: bool = Field(
        False,
        description="the site's engine fails on a company's redemption when none of its shares is in the open market "
        "and its president holds his certificate alone, unless as much as the most any other player holds (it lists "
        "a share of his to redeem): the soak player writing a record for the site makes no redemption then",
    )
    route_memo_keeps_train_duty: bool = Field(
        False,
        description="the site's route graph keeps a route it once found for a company, whatever the map does later, "
        "and holds a company with no train but such a route to its train purchase (its check of a lay that lifts a "
        "company's marker finds the route the marker had in another city): the soak player writing a record for "
        "the site has such a company buy a train where it can, not pass",
    )
    loan_ids: int | None = Field(
        None,
        ge=1,
        description="how many loans the site numbers (ids 0 up to this less one; a loan paid off goes to the end "
        "of its list), where the rulebook sets no bank total: a record written for the site names its loans so",
    )


class Option(Strict):
    description: str = Field(description="what the option changes, as shown to players")
    overlay: dict[str, Any] = Field(
        default_factory=dict,
        description="deep merge over the title: mappings merge, lists replace, null deletes a key",
    )
    default: bool = Field(False, description="on unless turned off")
    site_before: datetime.date | None = Field(
        None,
        description="18xx.games played this (without naming it) in games created before this date: a record "
        "replay turns it on for them",
    )
    excludes: list[str] = Field(
        default_factory=list, description="options this one turns off (e.g. a default option it returns from)"
    )


def _title_id(v: Any) -> Any:
    problem = title_id_problem(v)
    if problem:
        raise ValueError(problem)
    return v


TitleId = Annotated[
    str,
    AfterValidator(_title_id),
    Field(
        description="short title id (the folder name): a letter or digit, then letters, digits, '_', '-' or '.'",
        json_schema_extra={"pattern": TITLE_ID_PATTERN, "maxLength": TITLE_ID_MAX},
    ),
]
"""A title id: a name, never a path (``railbook/outputs.py``)."""


class Meta(Strict):
    title: TitleId
    full_name: str = Field(description="full printed name", json_schema_extra=PRINT_ONLY)
    designer: str | None = Field(None, description="designer(s)", json_schema_extra=PRINT_ONLY)
    publisher: str | None = Field(None, description="publisher", json_schema_extra=PRINT_ONLY)
    edition: str | None = Field(None, description="edition this data follows", json_schema_extra=PRINT_ONLY)
    rulebook: str | None = Field(None, description="file name of the rulebook this data follows")
    sources: list[str] = Field([], description="where the data comes from", json_schema_extra=PRINT_ONLY)
    currency: str = Field(
        "${}", description="money format: {} is replaced by the amount (e.g. $ {})", json_schema_extra=PRINT_ONLY
    )
    site_id: str | None = Field(None, description="title name used in 18xx.games records")


class MapSpec(Strict):
    layout: Literal["pointy", "flat"] = Field(description="pointy: hexes with a vertex up; flat: with a side up")
    axes: dict[Literal["x", "y"], Literal["letter", "number"]] | None = Field(
        None, description="which part of a hex id (letter or number) is x and which is y"
    )
    parity: Literal["even", "odd"] = Field(
        "even", description="parity of x + y shared by every hex id (1856's ids are all odd)"
    )
    hexes: dict[str, Hex | None] = Field(description="hex id -> hex (empty: a plain white hex)")

    @field_validator("hexes")
    @classmethod
    def _ids(cls, v: dict[str, Any]) -> dict[str, Any]:
        for hex_id in v:
            if not HEX_ID.match(hex_id):
                raise ValueError(f"bad hex id {hex_id!r}: use letters then digits, e.g. E11")
        return v


def _mechanics_model() -> type[BaseModel]:
    """The ``mechanics`` mapping: one optional, typed parameter model per declared mechanic (railbook.params)."""
    fields: dict[str, Any] = {
        name: (m.params | None, Field(None, description=m.description)) for name, m in switchable().items()
    }
    return create_model(
        "Mechanics",
        __config__=ConfigDict(extra="forbid"),
        __doc__="The mechanics a title switches on, each with its typed parameters (docs/MECHANICS.md).",
        **fields,
    )


Mechanics = _mechanics_model()


class GameSource(Strict):
    """Everything a title's YAML files declare, merged."""

    meta: Meta = Field(description="title, designer, sources")
    players: dict[int, PlayerSetup] = Field(description="player count -> starting cash, bank and certificate limit")
    cert_limit_by: Literal["players", "corporations", "corporations_and_closures"] = Field(
        "players", description="what a certificate-limit table is keyed by"
    )
    map: MapSpec = Field(description="the map")
    tiles: dict[str, Tile] = Field({}, description="title-specific tiles; catalogue tiles need not be repeated")
    manifest: dict[str, int | Literal["unlimited"]] = Field(description="tile id -> number of copies (or unlimited)")
    tile_rules: TileRules = Field(TileRules(), description="how tiles upgrade")
    market: Market = Field(description="the stock market")
    trains: dict[str, Train] = Field(description="train name -> train, in the order the bank sells them")
    phases: list[Phase] = Field(description="phases in order")
    corporations: dict[str, Corporation] = Field(description="symbol -> corporation")
    minors: dict[str, Minor] = Field({}, description="symbol -> minor company")
    privates: dict[str, Private] = Field({}, description="symbol -> private company")
    mechanics: Mechanics = Field(default_factory=Mechanics)  # type: ignore[valid-type]
    rounds: Rounds = Field(
        default_factory=lambda: Rounds.model_validate(DEFAULT_ROUNDS),
        description="the round sequence and each round kind's steps (default: stock round, then the phase's "
        "operating rounds)",
    )
    end: list[EndTrigger] = Field([], description="what ends the game")
    options: dict[str, Option] = Field({}, description="option name -> option (variants)")
    site: Site = Field(default_factory=Site, description="how 18xx.games represents the title (for comparisons)")


class StepRef(Strict):
    """A step of a round kind, contributed by a mechanic (docs/MECHANICS.md lists each mechanic's steps)."""

    step: str = Field(description="the step's name")
    blocks: bool | None = Field(
        None, description="this place of the step blocks the round until its entity passes (None: the step's own rule)"
    )


class RoundKind(Strict):
    """A kind of round: its turn structure (a round type contributed by a mechanic) and its steps in order."""

    type: str = Field(description="the round type: `stock`, `operating` (core) or one a mechanic contributes")
    steps: list[str | StepRef] = Field(description="the steps, in the order they act")

    @field_validator("steps")
    @classmethod
    def _refs(cls, v: list[str | StepRef]) -> list[str | StepRef]:
        return [StepRef(step=x) if isinstance(x, str) else x for x in v]


class RoundGroup(Strict):
    """Rounds that follow each other, the group repeated."""

    rounds: list[str] = Field(description="round kinds, in order")
    repeat: Annotated[int, Field(ge=1)] | Literal["operating_rounds"] = Field(
        1, description="repetitions of the group; `operating_rounds`: the current phase's number of operating rounds"
    )


class Rounds(Strict):
    """The round sequence: the ``start`` rounds once, then the ``cycle`` over and over (one cycle = one turn)."""

    start: list[str | RoundGroup] = Field([], description="rounds played once at the start (e.g. an auction)")
    cycle: list[str | RoundGroup] = Field(description="the repeating sequence of rounds")
    kinds: dict[str, RoundKind] = Field(description="each round kind used above")

    @field_validator("start", "cycle")
    @classmethod
    def _groups(cls, v: list[str | RoundGroup]) -> list[str | RoundGroup]:
        return [RoundGroup(rounds=[x]) if isinstance(x, str) else x for x in v]

    @model_validator(mode="after")
    def _kinds_known(self) -> Rounds:
        for section in (self.start, self.cycle):
            for group in section:
                for kind in group.rounds:  # type: ignore[union-attr]
                    if kind not in self.kinds:
                        raise ValueError(f"round kind {kind!r} is not defined in rounds.kinds")
        return self


DEFAULT_ROUNDS = {
    "cycle": ["stock", {"rounds": ["operating"], "repeat": "operating_rounds"}],
    "kinds": {
        "stock": {"type": "stock", "steps": ["stock"]},
        "operating": {"type": "operating", "steps": ["track_and_token", "route", "dividend", "buy_train"]},
    },
}


class CatalogueSource(Strict):
    """``games/common/tiles.yaml``: the standard numbered tiles every title may use."""

    tiles: dict[str, Tile] = Field(description="tile id -> tile")
