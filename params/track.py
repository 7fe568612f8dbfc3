"""The ``track`` mechanic's parameters and declaration (its rules: ``engine/mechanics/track.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration, HexId, PhaseId, TileId
from railbook.params.base import Params as BaseParams

Permission = Literal["yes", "no", "if_not_upgraded"]


class TileLay(BaseParams):
    """One tile action of a turn: whether it may lay a new (yellow) tile and whether it may upgrade."""

    lay: Permission = Field(
        "yes", description="may lay a tile on an empty hex (`if_not_upgraded`: only if no upgrade was made this turn)"
    )
    upgrade: Permission = Field(
        "yes", description="may upgrade a tile (`if_not_upgraded`: only if no upgrade was made this turn)"
    )
    cost: int = Field(0, ge=0, description="extra $ this tile action costs")
    not_on_hex_laid_this_turn: bool = Field(
        False, description="this tile action may not upgrade a hex already laid or upgraded this turn"
    )


class Params(BaseParams):
    """Tile actions per operating turn and their costs."""

    lays: list[TileLay] = Field(default_factory=lambda: [TileLay()], description="the tile actions of a turn, in order")
    min_cost: int = Field(0, ge=0, description="every tile lay or upgrade costs at least this ($)")
    new_track_must_be_usable: bool = Field(
        True, description="an upgrade must add track the corporation can use, or upgrade a city it reaches"
    )
    first_turn_lays: list[TileLay] | None = Field(
        None,
        description="the tile actions of a corporation's first operating turn (None: as `lays`)",
    )
    forbidden_rotations: dict[HexId, dict[TileId, list[int]]] = Field(
        default_factory=dict,
        description="hex -> tile -> rotations (0-5) that tile may not take there",
    )
    downgrades: dict[TileId, TileId] = Field(
        default_factory=dict,
        description="tile -> tile that may replace it as a downgrade (e.g. a town to plain track), in "
        "`downgrade_phases`",
    )
    downgrade_phases: list[PhaseId] = Field(default_factory=list, description="phases allowing `downgrades`")
    brown_city_max_exits: bool = Field(
        False,
        description="a brown tile on an ordinary (unlabelled) city must have the most exits of the brown tiles that "
        "fit there (on the map, keeping the old track)",
    )
    terrain_cost_every_lay: list[HexId] = Field(
        [], description="hexes whose `cost` is paid on every tile laid there (each upgrade too), not only the first"
    )
    open_while_lay_private_buyable: bool = Field(
        False,
        description="the track step stays open (to be passed) after the turn's lays while the corporation could buy a "
        "player's private with a `tile_lay` ability for the track step (in a phase where companies buy privates), or "
        "owns a private whose extra lay (`params.extra_lay`) is still usable, or whose lay counted as one of the "
        "corporation's own (`params.normal_lay`) is still unused (as on 18xx.games)",
    )
    special_lays_end_at_forfeit: bool = Field(
        False,
        description="once a private's second lay of a pair laid together (`params.lay_together`) is forfeited by "
        "another action (not another such private's lay), no private lays track for the rest of that operating round "
        "(18xx.games; the rulebooks let a corporation use its privates at any time while operating)",
    )
    private_token_opens_step: Literal["ability_hexes", "own_network"] = Field(
        "ability_hexes",
        description="a private's station-marker ability (a marker in the place of the company's own) keeps the "
        "token step open for a company that cannot place a marker of its own: `ability_hexes` while a city of the "
        "ability's hexes has room (the private places the marker; the company may pass); `own_network` only while a "
        "city the company's own network reaches has room, the private's free marker counting as affordable "
        "(18xx.games, whose private marker is usable until the routes are run: the ability's own timing)",
    )
    unconnected_city_tokens: Literal["keep_number", "layer_places"] = Field(
        "keep_number",
        description="station tokens in a hex of several cities without track when its first tile is laid: "
        "`keep_number` keeps each in the city of the same number; `layer_places` lifts them and the laying "
        "company puts each back, free, in a city of that hex with room (18xx.games)",
    )


#: The names of the steps track contributes (a round kind lists them in the rulebook).
TRACK_AND_TOKEN_STEP = "track_and_token"
TRACK_STEP = "track"
TOKEN_STEP = "token"
SPECIAL_TRACK_STEP = "special_track"


DECLARATION = Declaration(
    name="track",
    description="tile lays per turn and their costs (with the turn's station token)",
    params=Params,
    steps=(TRACK_AND_TOKEN_STEP, TRACK_STEP, TOKEN_STEP, SPECIAL_TRACK_STEP),
    provides=("TileLays",),
    uses=("PrivateCompanies",),
)
