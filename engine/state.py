"""The whole mutable state of a game, as plain dataclasses of JSON-compatible values.

Entities refer to each other by key strings, never by object:

* holders / owners: ``P|<player id>``, ``C|<corporation>``, ``M|<minor>``, ``X|<private>``, ``pool``,
  ``bank``, ``depot``;
* shares ``<CORP>_<index>``, trains ``<name>-<index>``, tiles ``<name>-<copy>``.

:func:`to_json` / :func:`from_json` convert a :class:`GameState` to JSON data and back without loss.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

BANK = "bank"
POOL = "pool"
DEPOT = "depot"


def pkey(player_id: str) -> str:
    return _key(_PKEYS, "P|", player_id)


def ckey(sym: str) -> str:
    return _key(_CKEYS, "C|", sym)


def mkey(sym: str) -> str:
    return _key(_MKEYS, "M|", sym)


def xkey(sym: str) -> str:
    return _key(_XKEYS, "X|", sym)


# Keys are interned (one object per text, as the names of an interned rulebook and record are: a lookup by a key is
# then settled by identity), each made once; and the symbol of each key is cut from it once.
_PKEYS: dict[str, str] = {}
_CKEYS: dict[str, str] = {}
_MKEYS: dict[str, str] = {}
_XKEYS: dict[str, str] = {}
_SYMS: dict[str, str] = {}
_SYMS_KEPT = 100_000  # a bound on each table (the keys of a game are a few hundred; a process may play many titles)


def _key(table: dict[str, str], prefix: str, sym: str) -> str:
    found = table.get(sym)
    if found is None:
        found = sys.intern(f"{prefix}{sym}")
        if len(table) < _SYMS_KEPT:
            table[sym] = found
    return found


def kind_of(key: str | None) -> str:
    """``P``, ``C``, ``M``, ``X`` or the key itself for bank/pool/depot/None."""
    if not key:
        return ""
    return key[0] if len(key) > 1 and key[1] == "|" else key


def sym_of(key: str) -> str:
    """The symbol (or player id) in a key, the key itself for bank/pool/depot (interned)."""
    syms: dict[str, str] = _SYMS
    found = syms.get(key)
    if found is None:
        found = sys.intern(key[2:] if len(key) > 1 and key[1] == "|" else key)
        if len(syms) < _SYMS_KEPT:
            syms[key] = found
    return found


# ---------------------------------------------------------------------------------------- entities


@dataclass
class Player:
    id: str
    name: str
    passed: bool = False
    bankrupt: bool = False
    companies: list[str] = field(default_factory=list)  # private syms, in acquisition order


@dataclass
class Share:
    id: str
    corp: str
    index: int
    percent: int
    president: bool
    owner: str
    buyable: bool = True


@dataclass
class Token:
    price: int
    used: bool = False
    hex: str | None = None
    city: int | None = None
    extra: bool = False  # gained from a private, not printed on the charter


@dataclass
class Ability:
    """A live copy of a rulebook ability: its use count and state change during play."""

    type: str
    spec: dict[str, Any]
    count: int | None = None
    count_this_or: int = 0
    corp_count_this_or: int = 0  # per-OR uses of an ``also_assigns`` corporation assignment
    used: bool = False
    laid_hexes: list[str] = field(default_factory=list)


@dataclass
class Corporation:
    sym: str
    cash: int = 0
    price: list[int] | None = None  # market cell [row, col]
    par: list[int] | None = None
    ipoed: bool = False
    floated: bool = False
    closed: bool = False
    removed: bool = False  # taken out of the game at setup
    owner: str | None = None  # president's holder key, or "pool" in receivership
    tokens: list[Token] = field(default_factory=list)
    trains: list[str] = field(default_factory=list)
    companies: list[str] = field(default_factory=list)
    abilities: list[Ability] = field(default_factory=list)
    assigned: list[str] = field(default_factory=list)
    operated: int = 0  # ORs in which it operated (operating history size)


@dataclass
class Minor:
    sym: str
    cash: int = 0
    owner: str | None = None
    floated: bool = False
    closed: bool = False
    tokens: list[Token] = field(default_factory=list)
    trains: list[str] = field(default_factory=list)
    assigned: list[str] = field(default_factory=list)
    operated: int = 0


@dataclass
class Company:
    """A private company (or a blank draft card)."""

    sym: str
    value: int = 0
    revenue: int = 0
    owner: str | None = None
    closed: bool = False
    removed: bool = False
    blank: bool = False
    discount: int = 0
    min_price: int = 1
    max_price: int = 0
    abilities: list[Ability] = field(default_factory=list)


@dataclass
class Train:
    id: str
    sym: str  # the train card's base name (phase trigger, rusting)
    name: str  # the face in use (variant name)
    index: int
    owner: str = DEPOT
    obsolete: bool = False
    rusted: bool = False
    operated: bool = False
    buyable: bool = True
    events_done: bool = False


@dataclass
class HexState:
    tile: str | None = None  # tile name; None = the printed track
    tile_id: str | None = None  # copy id, e.g. "7-0"
    rotation: int = 0
    tokens: list[list[str | None]] = field(default_factory=list)  # per city: slot -> entity key
    reservations: list[list[str | None]] = field(default_factory=list)  # per city: slot -> entity key
    icons: list[str] = field(default_factory=list)
    borders: list[int] = field(default_factory=list)  # edges whose hexside cost is still unpaid
    cost_paid: bool = False  # terrain cost of the printed hex paid
    assigned: list[str] = field(default_factory=list)

    def __init__(
        self,
        tile: str | None = None,
        tile_id: str | None = None,
        rotation: int = 0,
        tokens: list[list[str | None]] | None = None,
        reservations: list[list[str | None]] | None = None,
        icons: list[str] | None = None,
        borders: list[int] | None = None,
        cost_paid: bool = False,
        assigned: list[str] | None = None,
    ) -> None:
        # (written out: the compiled build's generated __init__ would import the dataclasses module again for each
        # field with a default_factory, on every call)
        self.tile = tile
        self.tile_id = tile_id
        self.rotation = rotation
        self.tokens = [] if tokens is None else tokens
        self.reservations = [] if reservations is None else reservations
        self.icons = [] if icons is None else icons
        self.borders = [] if borders is None else borders
        self.cost_paid = cost_paid
        self.assigned = [] if assigned is None else assigned


@dataclass
class StepState:
    name: str
    passed: bool = False
    acted: bool = False
    data: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self, name: str, passed: bool = False, acted: bool = False, data: dict[str, Any] | None = None
    ) -> None:
        # (written out: the compiled build's generated __init__ would import the dataclasses module again for each
        # field with a default_factory, on every call)
        self.name = name
        self.passed = passed
        self.acted = acted
        self.data = {} if data is None else data


@dataclass
class RoundState:
    kind: str  # draft | stock | operating
    round_num: int = 1
    entities: list[str] = field(default_factory=list)
    entity_index: int = 0
    steps: list[StepState] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        kind: str,
        round_num: int = 1,
        entities: list[str] | None = None,
        entity_index: int = 0,
        steps: list[StepState] | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        # (written out: the compiled build's generated __init__ would import the dataclasses module again for each
        # field with a default_factory, on every call)
        self.kind = kind
        self.round_num = round_num
        self.entities = [] if entities is None else entities
        self.entity_index = entity_index
        self.steps = [] if steps is None else steps
        self.data = {} if data is None else data


@dataclass
class SequenceState:
    """Where the game is in the rulebook's round sequence."""

    section: str = "start"  # start | cycle
    entry: int = 0  # index into the section's entries
    iteration: int = 0  # repetitions of the entry done
    index: int = -1  # round within the entry
    repeat: int = 1  # repetitions of the current entry (fixed when it starts)


@dataclass
class GameState:
    title: str
    options: list[str]
    seed: int
    players: list[Player]  # current order (priority first)
    player_ids: list[str]  # seating order at start
    cash: dict[str, int]  # holder key -> cash (bank included)
    corporations: dict[str, Corporation]
    minors: dict[str, Minor]
    companies: dict[str, Company]
    shares: dict[str, Share]
    holdings: dict[str, dict[str, list[str]]]  # holder -> corp -> share ids, in arrival order
    market: dict[str, list[str]]  # "row,col" -> corporations there, in arrival order
    trains: dict[str, Train]
    depot: list[str]  # upcoming trains, in order
    discarded: list[str]
    hexes: dict[str, HexState]
    tiles_out: dict[str, list[str]]  # tile name -> copy ids on the map
    phase: int = 0
    turn: int = 1
    round: RoundState | None = None
    operating_rounds: int = 2
    cert_limit: int = 0
    bank_broken: bool = False
    finished: bool = False
    game_end_reason: str | None = None
    final_turn: int | None = None
    manually_ended: bool = False
    last_action_entity: str | None = None
    last_action_type: str | None = None
    actions_done: int = 0
    corp_order: list[str] = field(default_factory=list)  # corporations in play, rulebook order
    log: list[str] = field(default_factory=list)
    sequence: SequenceState = field(default_factory=SequenceState)
    mechanics: dict[str, Any] = field(default_factory=dict)  # each mechanic's own state slot, by name
    extra: dict[str, Any] = field(default_factory=dict)


# ----------------------------------------------------------------------------------- serialisation

_SCALARS = (str, int, bool, float, type(None))
_FIELDS: dict[type, tuple[str, ...]] = {}
_BUILDERS: dict[type, list[tuple[str, Any]]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The field types of a dataclass: its annotations, which a native class of the compiled build does not keep
    (and whose ``dataclasses.fields`` types are its C-level ones): there they are read from the module's source."""
    if "__annotations__" in cls.__dict__:
        return get_type_hints(cls)
    module = sys.modules[cls.__module__]
    source = Path(module.__file__ or "").with_name(cls.__module__.rsplit(".", 1)[-1] + ".py")
    found: dict[str, str] = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for s in node.body:
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
                    found[s.target.id] = ast.unparse(s.annotation)
    namespace = vars(module)
    return {name: eval(text, namespace) for name, text in found.items()}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELDS[cls] = names
    return names


def to_json(obj: Any) -> Any:
    """Plain JSON data of a state object (dataclasses become dicts, tuples lists)."""
    t = type(obj)
    if t in _SCALARS:
        return obj
    if t is list or t is tuple:
        return [v if type(v) in _SCALARS else to_json(v) for v in obj]
    if t is dict:
        return {k: v if type(v) in _SCALARS else to_json(v) for k, v in obj.items()}
    encode = _ENCODERS.get(t)
    if encode is None:
        if not dataclasses.is_dataclass(obj):
            return obj
        encode = _ENCODERS[t] = _encoder(t)
    return encode(obj)


_ENCODERS: dict[type, Any] = {}
_SCALAR_HINTS = {str, int, bool, float, type(None)}


def _scalar_hint(tp: Any) -> bool:
    """A field type whose values are JSON scalars as they are (``int``, ``str | None``, ...)."""
    if tp in _SCALAR_HINTS:
        return True
    origin, args = get_origin(tp), get_args(tp)
    if origin is None or origin in (list, tuple, dict, set, frozenset):
        return False
    return bool(args) and all(a in _SCALAR_HINTS for a in args)


def _optional(tp: Any) -> Any:
    """``A`` for ``A | None`` (any other union: None)."""
    args = get_args(tp)
    if get_origin(tp) in (list, tuple, dict, set, frozenset) or type(None) not in args:
        return None
    rest = [a for a in args if a is not type(None)]
    return rest[0] if len(rest) == 1 else None


def _element(tp: Any) -> Any:
    """The element type of ``list[T]`` / ``tuple[T, ...]`` (None for anything else)."""
    origin, args = get_origin(tp), get_args(tp)
    if origin is list and len(args) == 1:
        return args[0]
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


def _encode_expr(tp: Any, src: str, depth: int) -> str:
    """A Python expression writing ``src`` (of type ``tp``) as :func:`to_json` would: containers of scalars are
    copied in place, whatever else through ``enc``."""
    if _scalar_hint(tp):
        return src
    inner_tp = _optional(tp)
    if inner_tp is not None:
        inner = _encode_expr(inner_tp, src, depth)
        return src if inner == src else f"(None if {src} is None else {inner})"
    item = _element(tp)
    if item is not None:
        v = f"x{depth}"
        inner = _encode_expr(item, v, depth + 1)
        return f"list({src})" if inner == v else f"[{inner} for {v} in {src}]"
    args = get_args(tp)
    if get_origin(tp) is dict and len(args) == 2:
        k, v = f"k{depth}", f"v{depth}"
        inner = _encode_expr(args[1], v, depth + 1)
        return f"dict({src})" if inner == v else f"{{{k}: {inner} for {k}, {v} in {src}.items()}}"
    return f"enc({src})"


def _encoder(cls: type) -> Any:
    """A function writing one dataclass as a dict: scalar fields and containers of them copied, the others
    through :func:`to_json` (generated once per class; the state is encoded after every action by soaks and
    saves)."""
    hints = _hints(cls)
    items = [f"{name!r}: {_encode_expr(hints.get(name, Any), f'o.{name}', 0)}" for name in _field_names(cls)]
    namespace: dict[str, Any] = {"enc": to_json}
    exec(f"def encode(o):\n    return {{{', '.join(items)}}}\n", namespace)  # field names and types only
    return namespace["encode"]


def from_json(cls: type, data: dict[str, Any]) -> Any:
    """Rebuild a dataclass of type ``cls`` from :func:`to_json` data."""
    decode = _DECODERS.get(cls)
    if decode is None:
        decode = _DECODERS[cls] = _decoder(cls)
    try:
        return decode(data)
    except KeyError:  # data written before a field existed: the field keeps its default
        builders = _builders(cls)
        return cls(**{name: build(data[name]) for name, build in builders if name in data})


_DECODERS: dict[type, Any] = {}


def _builders(cls: type) -> list[tuple[str, Any]]:
    """Per field, a function building its value from JSON data (for data that lacks some fields), made from the
    same expressions as :func:`_decoder`."""
    builders = _BUILDERS.get(cls)
    if builders is None:
        hints = _hints(cls)
        builders = []
        for name in _field_names(cls):
            namespace: dict[str, Any] = {"fj": from_json}
            expr = _decode_expr(hints[name], "v", 0, namespace)
            builders.append((name, eval(f"lambda v: {expr}", namespace)))  # made from field types only
        _BUILDERS[cls] = builders
    return builders


def _decode_expr(tp: Any, src: str, depth: int, namespace: dict[str, Any]) -> str:
    """A Python expression building a value of type ``tp`` from the JSON data ``src`` (lists, dicts and
    dataclasses may be null; whatever else is taken as it is)."""
    origin = get_origin(tp)
    if origin is None and isinstance(tp, type) and dataclasses.is_dataclass(tp):
        name = f"c{len(namespace)}"
        namespace[name] = tp
        return f"(None if {src} is None else fj({name}, {src}))"
    item = _element(tp)
    if item is not None:
        v = f"x{depth}"
        inner = _decode_expr(item, v, depth + 1, namespace)
        built = f"list({src})" if inner == v else f"[{inner} for {v} in {src}]"
        return f"(None if {src} is None else {built})"
    args = get_args(tp)
    if origin is dict:
        k, v = f"k{depth}", f"v{depth}"
        inner = _decode_expr(args[1], v, depth + 1, namespace) if len(args) == 2 else v
        built = f"dict({src})" if inner == v else f"{{{k}: {inner} for {k}, {v} in {src}.items()}}"
        return f"(None if {src} is None else {built})"
    inner_tp = _optional(tp)
    if inner_tp is not None:
        return _decode_expr(inner_tp, src, depth, namespace)
    return src


def _decoder(cls: type) -> Any:
    """A function building one dataclass from a dict holding every field, each field's value built by code made
    from its type (generated once per class, as :func:`_encoder` is)."""
    namespace: dict[str, Any] = {"cls": cls, "fj": from_json}
    hints = _hints(cls)
    items = [f"{name}={_decode_expr(hints[name], f'd[{name!r}]', 0, namespace)}" for name in _field_names(cls)]
    exec(f"def decode(d):\n    return cls({', '.join(items)})\n", namespace)  # field names and types only
    return namespace["decode"]


def clone(state: GameState) -> GameState:
    """A deep copy of a state."""
    import pickle

    return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
