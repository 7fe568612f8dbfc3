"""The mechanic contract: what a rule module declares, and the hooks through which mechanics ask each other.

A *mechanic* is one rule family a title switches on in its rulebook (``mechanics: {<name>: {params}}``).  Its
module declares one :class:`Mechanic`:

* ``name`` and ``description``;
* ``params`` — a :class:`Params` model (typed, every field described, neutral defaults) that the title's
  parameters must validate against (the compiler checks it, with file and line);
* ``steps`` — the step classes it contributes (by step name), which the rulebook's round kinds list;
* ``round_types`` — the round drivers it contributes (turn structure of a round kind: ``stock``, ``draft``...);
* ``hooks`` — handlers of the hooks in :data:`HOOKS` (by hook name; an unknown name is an error at import);
* ``events`` — handlers of phase events by event type, each with the model of the event's ``params``;
* ``state`` — a dataclass holding its own part of the game state (``game.state.mechanics[name]``).

Mechanics never import each other: they answer hooks (``game.hooks``) and read each other's answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from types import FunctionType
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict


def _function() -> None:
    """A function of this module: its type is the type of the methods defined here (a compiled build's methods are
    not Python functions, and pydantic must be told to leave them alone)."""


class Params(BaseModel):
    """Base of every mechanic's (and event's) parameter model: unknown keys are errors, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, ignored_types=(type(_function),))


class _ReadOnly:
    """Base of the read-only copies :func:`read_only` makes of parameter models."""

    __slots__: tuple[str, ...] = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"


_READ_ONLY: dict[type, type[_ReadOnly]] = {}


def _read_only_class(model: type[BaseModel]) -> type[_ReadOnly]:
    """The read-only class of a parameter model: a slot per field, and the model's own methods."""
    cls = _READ_ONLY.get(model)
    if cls is None:
        fields = tuple(model.model_fields)
        namespace: dict[str, Any] = {"__slots__": fields, "__doc__": model.__doc__, "__module__": model.__module__}
        method_types = (FunctionType, type(_function))  # (a method of a module compiled or not)
        for klass in reversed(model.__mro__):
            if klass is BaseModel or not issubclass(klass, BaseModel):
                continue
            for name, value in vars(klass).items():
                if isinstance(value, method_types) and not name.startswith("__") and name not in fields:
                    namespace[name] = value
        cls = _READ_ONLY[model] = type(model.__name__, (_ReadOnly,), namespace)
    return cls


def read_only(value: Any) -> Any:
    """A validated parameter value for the engine to read: every model in it becomes an object of plain slots (a
    compiled module reads a field of a pydantic model through its ``__getattr__`` hook, which costs about twice a
    slot); lists, tuples and dicts are copied with their items converted, everything else is kept."""
    if isinstance(value, BaseModel):
        cls = _read_only_class(type(value))
        out: _ReadOnly = object.__new__(cls)
        for name in cls.__slots__:
            object.__setattr__(out, name, read_only(getattr(value, name)))
        return out
    if isinstance(value, list):
        return [read_only(v) for v in value]
    if isinstance(value, tuple):
        return tuple(read_only(v) for v in value)
    if isinstance(value, dict):
        return {k: read_only(v) for k, v in value.items()}
    return value


class NoParams(Params):
    """A mechanic or event that takes no parameters."""


@dataclass(frozen=True)
class Ref:
    """Marks a parameter value as the id of something in the rulebook; the compiler checks it exists."""

    kind: str  # corporations | minors | privates | hexes | phases | trains | tiles | market_cells


#: Ids of rulebook entities, for parameter models (checked by the compiler, with file and line).
CorporationId = Annotated[str, Ref("corporations")]
MinorId = Annotated[str, Ref("minors")]
PrivateId = Annotated[str, Ref("privates")]
HexId = Annotated[str, Ref("hexes")]
PhaseId = Annotated[str, Ref("phases")]
TrainId = Annotated[str, Ref("trains")]
TileId = Annotated[str, Ref("tiles")]


class Combine(StrEnum):
    """How the answers of several handlers of one hook combine."""

    NOTIFY = "notify"  # every handler runs, in mechanic order; no answer
    FIRST = "first"  # the last-registered handler that answers (not None) wins; else the default
    SUM = "sum"  # the answers are added (contributions, e.g. buying power)
    ANY = "any"  # true when any handler answers true
    ALL = "all"  # false when any handler answers false


@dataclass(frozen=True)
class Hook:
    """A question or notification mechanics exchange: its arguments (after the game) and how answers combine."""

    combine: Combine
    args: tuple[str, ...]
    doc: str
    default: Any = None
    static: bool = False  # the answer depends only on the rulebook and the arguments (asked once per game)


def _h(combine: Combine, args: str, doc: str, default: Any = None, static: bool = False) -> Hook:
    return Hook(combine, tuple(a for a in args.split() if a), doc, default, static)


N, F, S, A, L = Combine.NOTIFY, Combine.FIRST, Combine.SUM, Combine.ANY, Combine.ALL

#: Every hook the engine knows.  A mechanic handling a hook not listed here fails at import.
HOOKS: dict[str, Hook] = {
    # life cycle
    "install": _h(N, "", "the game object is built (derived tables, route bonuses)"),
    "setup": _h(N, "", "a new game's initial state is built"),
    "seeded_setup": _h(N, "part", "a named part of the seeded random setup runs now (e.g. `draft_deck`)"),
    "company_removed": _h(N, "company", "a private company was taken out of the game at setup"),
    "round_started": _h(N, "kind", "a round of `kind` started"),
    "round_finished": _h(N, "kind", "a round of `kind` finished, before the next starts"),
    "stock_round_finished": _h(N, "", "end-of-stock-round price moves and clean-ups"),
    "or_set_finished": _h(N, "", "the last operating round of a set finished"),
    "operating_round_started": _h(N, "", "an operating round started, before anyone operates (private income)"),
    "operator_started": _h(N, "operator", "an operator's turn in an operating round started"),
    "after_operating_action": _h(N, "action", "an action in an operating round was processed"),
    "preprocess": _h(N, "action entity", "an action is about to be processed"),
    "action_processed": _h(N, "action entity", "an action was processed, before round transitions"),
    "corporation_floated": _h(N, "corp", "a corporation floated"),
    "corporation_launched": _h(N, "corp", "a corporation's president bought its first certificate (par)"),
    "corporation_closed": _h(N, "corp", "a corporation left the game"),
    "ability_removed": _h(N, "owner ability", "an ability was used up or removed"),
    "phase_reached": _h(N, "phase", "a phase started (after its events)"),
    "company_sold": _h(N, "company corp", "a private company was bought by a corporation"),
    "privates_closed": _h(N, "event", "a phase event closed the private companies"),
    "company_closing": _h(N, "company owner", "private `company` is closing; `owner` still holds it"),
    "phase_closes_privates": _h(A, "phase", "the start of `phase` has an event that closes the privates", False),
    "company_acquired": _h(N, "company player", "a player acquired a private company from the bank"),
    # questions
    "round_entities": _h(F, "kind", "the entities taking part in a round of `kind`, in order", []),
    "in_receivership": _h(A, "entity", "the corporation has no president and runs by the rules for that", False),
    "buying_power": _h(S, "entity purpose", "money an operator can raise beyond its treasury for `purpose`", 0),
    "purchase_bundle": _h(F, "player bundle", "the bundle a player actually buys when asking for `bundle`"),
    "block_or_start": _h(A, "", "something must happen before the first operator of an OR may act", False),
    "emergency_bundles": _h(F, "corp", "bundles a corporation may issue now to raise money for a train", []),
    "emergency_issue": _h(F, "corp bundle", "issue a bundle for an emergency train purchase; $ raised"),
    "acquisition_extra_cost": _h(S, "company", "$ a player pays beyond a private's price when acquiring it", 0),
    "may_buy_company": _h(L, "company corp", "no rule forbids `corp` buying private `company` now", True),
    "issuable_cash": _h(S, "corp", "$ a corporation could raise by issuing shares now", 0),
    "holding_limit": _h(F, "corp", "most % of a corporation one player may hold", 100),
    "share_unit": _h(F, "corp", "% of one share of `corp` now (None: from its charter's certificates)"),
    "ipo_by_auction": _h(
        A, "", "companies start by an auction of the president's certificate, not a par", False, static=True
    ),
    "stock_turn_options": _h(
        A,
        "player",
        "the player may do something else in his stock turn (start an auction, act for a company, short)",
        False,
    ),
    "pool_limit": _h(F, "corp", "most % of a corporation the pool may hold", 100, static=True),
    "company_price_range": _h(F, "company", "(min, max) price a corporation may pay for a private"),
    "unlimited_train_copies": _h(F, "train", "copies of an unlimited train the depot holds", 20),
    "end_check": _h(F, "", "timing of a game-end trigger that holds (None: none)"),
    "end_now": _h(A, "timing", "the game ends now, for a trigger of `timing`", False),
    "end_game": _h(F, "reason manual", "end the game"),
    "player_value": _h(F, "player", "a player's value (final score)", 0),
    "update_cert_limit": _h(N, "", "recompute the certificate limit"),
    "route_bonus": _h(S, "corp route stops routes", "$ the bonuses add to a route counting `stops`", 0),
    "lay_allowed": _h(L, "corp hex tile rotation", "no rule forbids `corp` laying `tile` on `hex` at `rotation`", True),
    "turn_lay": _h(
        F,
        "entity corp action tiles discount",
        "lay a tile of `tiles` for `corp` as one of its turn's lays, by `entity` (a private's ability), `discount` $ "
        "off the hex's cost; the hex laid (None: nothing lays tiles)",
    ),
    "ability_lay": _h(
        F,
        "entity corp action owner ability",
        "lay a tile for `corp` by `entity` under `ability` (held by `owner`), besides the turn's lays, in its hexes "
        "and tiles, without a connection; the hex laid (None: nothing lays tiles)",
    ),
    "unconnected_turn_lay": _h(
        F,
        "entity corp action owner ability",
        "lay a tile for `corp` as one of its turn's lays by `entity` under `ability` (held by `owner`), in its hexes "
        "and tiles, without a connection, paying as the ability says; the hex laid (None: nothing lays tiles)",
    ),
    "must_withhold": _h(
        A, "entity", "the corporation must withhold its earnings now (it has no dividend choice)", False
    ),
    "price_fixed": _h(A, "corp", "`corp`'s share price does not move on dividends now", False),
    "never_closes": _h(A, "corp", "`corp` cannot close: its price stops one cell short of a closing cell", False),
    "may_buy_train": _h(L, "corp train", "no rule forbids `corp` buying `train` (an id)", True),
    "face_price_trade": _h(A, "buyer seller", "a train passing between these companies goes at its face value", False),
    "may_discard_train": _h(L, "corp train", "`corp` may discard `train` when over its limit", True),
    "forced_train_purchase": _h(
        F, "corp", "whether trainless `corp` must buy a train now (None: the ordinary must-own-a-train rule)"
    ),
    "may_launch": _h(L, "corp", "a player may start `corp` (par it) in a stock round", True),
    "national_railway_settled": _h(A, "", "the national railway's formation has been settled (formed or not)", False),
    "stock_obligation": _h(
        F, "player", "a corporation of which `player` must buy a share before anything else in this stock turn"
    ),
    "cert_weight": _h(F, "corp", "certificate-limit count of one ordinary certificate of `corp` (None: 1)"),
    "cert_allowance": _h(S, "player", "certificates `player` may hold above the limit (never buying while at it)", 0),
    "tile_downgrades": _h(F, "hex", "tile -> tile that may replace it on `hex` now, dropping its towns (None: none)"),
    "turn_lay_open": _h(A, "corp", "`corp` may still lay a new (yellow) tile as one of its turn's lays now", False),
    "use_turn_lay": _h(F, "corp", "a yellow lay of `corp`'s turn is used up without a tile (None: none left)"),
    "turn_lay_cost": _h(F, "corp", "$ `corp`'s next tile lay of its turn costs beyond terrain (None: none open)"),
    "turn_lay_price": _h(
        F,
        "corp plan discount",
        "$ `corp` pays in all to lay `plan` (a board.LayPlan) as its next tile lay of the turn, `discount` $ off the "
        "hex's cost (None: none open)",
    ),
    "check_route": _h(N, "corp route", "a mechanic's route rule: raise an illegal action when `route` breaks it"),
    "route_forbidden_hexes": _h(N, "corp out", "add to `out` the hexes `corp` (a symbol) may not enter on a route"),
    "company_buy_window": _h(
        F, "company corp", "(min, max) $ when a rule lets `corp` buy private `company` outside the buying phases"
    ),
    "buy_company_step_open": _h(
        A, "corp", "the blocking buy-company step waits for `corp` to pass though it has nothing to buy", False
    ),
    "defer_sale_move": _h(
        A, "corp shares percent seller president", "a sale's price move waits (e.g. for price protection)", False
    ),
    "cert_exempt": _h(
        A, "player corp", "`player`'s shares of `corp` do not count toward the certificate limit now", False
    ),
    "company_buy_phase": _h(A, "", "corporations may buy private companies in the current phase", False),
    "holding_exempt": _h(A, "player corp", "`player` may keep his holding of `corp` above the share limit now", False),
    "reissue_par": _h(F, "corp", "the market cell [row, col] of `corp`'s par if it reissued its shares now"),
    "shares_reissued": _h(N, "corp", "`corp` (a symbol) put its redeemed shares back on sale"),
    "record_notice": _h(
        A, "action", "the action is a notice of the recording site that a mechanic checks or ignores (not a move)"
    ),
    "extra_bonus_specs": _h(
        N, "corp out", "route bonus specs (engine/bonuses.py) a mechanic adds for `corp` now: appended to `out`"
    ),
    "closed_operator_trains": _h(
        A, "key", "the trains of the closing operator `key` were placed (else they leave the game)", False
    ),
    "sells_in_blocks": _h(A, "", "a player sells a corporation's shares at most once per turn", False, static=True),
    "obsolete_count_for_limit": _h(A, "", "obsolete trains count toward the train limit", False, static=True),
    "privates_count_for_cert_limit": _h(
        L, "", "a player's private companies count toward the limit", True, static=True
    ),
    "must_buy_train": _h(A, "entity", "the operator must buy a train now", False),
    "withheld": _h(N, "entity", "an operator withheld (or could not pay) its earnings"),
    "liquidate": _h(N, "corp", "`corp` (a symbol) goes to the liquidation zone now (to be sold)"),
    "in_liquidation": _h(A, "corp", "`corp` (a symbol) is in the liquidation zone", False),
    "dividend_paid": _h(N, "corp per_share", "`corp` paid its holders `per_share` $ for each share (shorts pay it)"),
    "player_owes": _h(
        N, "player amount corp", "`player` owes the bank `amount` $ he lacks (a cash crisis; `corp`: the cause)"
    ),
    "bankrupt_check": _h(A, "", "the bankruptcy limit of the game has been reached", False),
    "presidency_vacated": _h(N, "corp", "a bankrupt president left a corporation with no president"),
    "trainless_buy": _h(N, "entity", "a corporation without a president buys a train by itself"),
    "operator_skips": _h(A, "operator", "the operator does not operate this turn (e.g. not yet enough sold)", False),
    "ipo_receiver": _h(F, "corp price", "who is paid `price` for an initial-offering sale of `corp` now (None: it)"),
    "capitalization_of": _h(F, "corp", "the capital rule of `corp` now: incremental, full, escrow or none", None),
    "float_percent": _h(F, "corp", "% of `corp` to sell from its treasury for it to float now (None: the rulebook's)"),
    "destination_reached": _h(N, "corp", "a corporation reached its destination (its effect happens now)"),
    "revenue_deduction": _h(S, "entity", "$ taken from this turn's earnings before they are paid or withheld", 0),
    "value_adjustment": _h(S, "player", "$ added to (or taken from) a player's value by rules such as debts", 0),
    "loans_outstanding": _h(F, "corp", "loans `corp` has outstanding", 0),
    "loan_repay_price": _h(F, "", "$ it costs to repay one loan", 0),
    "loans_repaid": _h(N, "corp count", "`count` of `corp`'s loans were repaid (by a rule outside the loans mechanic)"),
    "may_take_loan": _h(A, "corp", "`corp` (a symbol) may take a loan now", False),
    "take_loan": _h(N, "corp", "`corp` (a symbol) takes one loan now"),
    "loan_room": _h(
        F,
        "corp extra",
        "loans `corp` may still take, `extra` loans returned to the bank first (negative: over its cap)",
        0,
    ),
    "transfer_loans": _h(N, "corp to", "`corp`'s loans pass to `to` (a symbol; None: back to the bank, unpaid)"),
    "transfer_bonus_rights": _h(
        N, "corp to", "`corp`'s bonus rights pass to `to` (symbols; a right `to` already holds goes back to the bank)"
    ),
    "conversion_target": _h(F, "corp", "the size `corp` would convert to now (None: it cannot convert)"),
    "convert_company": _h(F, "corp", "`corp` converts to its next size now; (markers it must buy, $ each)"),
    "train_left_depot": _h(N, "train", "a new train (an id) left the bank's depot: bought from it or exported"),
    "train_bought": _h(
        N, "buyer train source", "`buyer` (a key) bought `train` (an id) from `source` (a key or depot)"
    ),
    "train_rusted": _h(N, "train owner", "`owner`'s train (an id) rusted and left the game"),
    "extra_interest": _h(S, "corp", "$ `corp` (a symbol) owes at its interest step beyond its loans' interest", 0),
    "company_converted": _h(N, "corp", "`corp` (a symbol) converted to its next size (not by a merger)"),
    "player_bankrupt": _h(
        N, "player corp", "`player` goes bankrupt in a cash crisis (`corp`: the company whose interest he owed)"
    ),
}


StepClass = type
RoundType = Any


@dataclass(frozen=True)
class Mechanic:
    """A rule module's declaration (see the module docstring)."""

    name: str
    description: str
    params: type[Params] = NoParams
    steps: dict[str, StepClass] = field(default_factory=dict)
    round_types: dict[str, RoundType] = field(default_factory=dict)
    hooks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    events: dict[str, tuple[type[Params], Callable[..., Any]]] = field(default_factory=dict)
    state: type | None = None
    implemented: bool = True

    def __post_init__(self) -> None:
        unknown = sorted(set(self.hooks) - set(HOOKS))
        if unknown:
            raise TypeError(f"mechanic {self.name}: unknown hooks {', '.join(unknown)} (known: {', '.join(HOOKS)})")


def check_unique(mechanics: Iterable[Mechanic]) -> None:
    """No two mechanics contribute the same step, round type or event."""
    seen: dict[tuple[str, str], str] = {}
    for m in mechanics:
        for kind, names in (("step", m.steps), ("round type", m.round_types), ("event", m.events)):
            for n in names:
                other = seen.setdefault((kind, n), m.name)
                if other != m.name:
                    raise TypeError(f"{kind} {n!r} is contributed by both {other} and {m.name}")


class Hooks:
    """The hooks of one game: each hook's handlers from the switched-on mechanics, in registry order.

    ``game.hooks(name, *args)`` asks (or tells) every handler of hook ``name`` and combines the answers as the
    hook says.  Each hook gets a dispatcher of its own when the game is built (the engine calls hooks in its
    inner loops).
    """

    def __init__(self, game: Any, mechanics: Iterable[Mechanic]):
        self.game = game
        self.table: dict[str, list[Callable[..., Any]]] = {name: [] for name in HOOKS}
        for m in mechanics:
            for name, fn in m.hooks.items():
                self.table[name].append(fn)
        self._dispatch = {name: _dispatcher(game, HOOKS[name], fns) for name, fns in self.table.items()}
        for name, spec in HOOKS.items():
            if spec.static:
                self._dispatch[name] = _once(self._dispatch[name])

    def __call__(self, name: str, *args: Any) -> Any:
        return self._dispatch[name](*args)

    def caller(self) -> Callable[..., Any]:
        """``hooks(name, *args)`` as a plain function (what ``game.hooks`` is: cheaper to call than the object).  A
        hook no mechanic handles answers its constant without a call (a third of the calls in a replay); the others
        run their handlers and combine the answers right here (:func:`_combined`), one call deep, as the hook's
        dispatcher would (a static hook keeps its dispatcher, which remembers its answers)."""
        g = self.game
        plans: dict[str, tuple[int, tuple[Callable[..., Any], ...], Any]] = {}
        for name, fns in self.table.items():
            if not fns:
                continue
            spec = HOOKS[name]
            if spec.static:
                plans[name] = (_DISPATCH, (self._dispatch[name],), None)
            else:
                plans[name] = _plan(spec, fns)
        constant: dict[str, Any] = {n: _unhandled(HOOKS[n]) for n in self._dispatch if not self.table[n]}

        def hooks(name: str, *args: Any) -> Any:
            plan = plans.get(name)
            if plan is None:
                return constant[name]
            return _combined(plan[0], plan[1], plan[2], g, args)

        return hooks


_DISPATCH, _ANSWER, _NOTIFY, _FIRST, _SUM, _ANY, _ALL = range(7)


def _plan(spec: Hook, fns: list[Callable[..., Any]]) -> tuple[int, tuple[Callable[..., Any], ...], Any]:
    """How :func:`_combined` runs a hook's handlers: (kind, handlers in the order asked, default answer)."""
    c, default = spec.combine, spec.default
    if c is Combine.NOTIFY:
        return _NOTIFY, tuple(fns), None
    if len(fns) == 1 and (c is Combine.SUM or (c is Combine.FIRST and default is None)):
        return _ANSWER, tuple(fns), None  # the handler's answer is the hook's
    if c is Combine.FIRST:
        return _FIRST, tuple(reversed(fns)), default
    if c is Combine.SUM:
        return _SUM, tuple(fns), None
    return (_ANY if c is Combine.ANY else _ALL), tuple(fns), None


def _call(fn: Callable[..., Any], g: Any, args: tuple[Any, ...]) -> Any:
    """``fn(g, *args)``, for the commonest numbers of arguments without building a tuple of them."""
    n = len(args)
    if n == 1:
        return fn(g, args[0])
    if n == 2:
        return fn(g, args[0], args[1])
    if n == 0:
        return fn(g)
    if n == 3:
        return fn(g, args[0], args[1], args[2])
    return fn(g, *args)


def _combined(kind: int, fns: tuple[Callable[..., Any], ...], default: Any, g: Any, args: tuple[Any, ...]) -> Any:
    """A hook's answer from its handlers ``fns`` as its plan says (see :func:`_plan`)."""
    if kind == _ANSWER:
        return _call(fns[0], g, args)
    if kind == _NOTIFY:
        for fn in fns:
            _call(fn, g, args)
        return None
    if kind == _ANY:
        for fn in fns:
            if _call(fn, g, args):
                return True
        return False
    if kind == _ALL:
        for fn in fns:
            if not _call(fn, g, args):
                return False
        return True
    if kind == _FIRST:
        for fn in fns:
            value = _call(fn, g, args)
            if value is not None:
                return value
        return default
    if kind == _SUM:
        out = 0
        for fn in fns:
            out += _call(fn, g, args)
        return out
    return fns[0](*args)  # _DISPATCH


def _once(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` asked once per distinct arguments."""
    answers: dict[tuple[Any, ...], Any] = {}

    def cached(*args: Any) -> Any:
        try:
            return answers[args]
        except KeyError:
            value = answers[args] = fn(*args)
            return value

    return cached


def _unhandled(spec: Hook) -> Any:
    """What a hook no mechanic handles answers."""
    return True if spec.combine is Combine.ALL else spec.default


def _dispatcher(g: Any, spec: Hook, fns: list[Callable[..., Any]]) -> Callable[..., Any]:
    """A function of the hook's arguments that runs the handlers and combines their answers (as ``game.hooks``)."""
    if not fns:
        answer = _unhandled(spec)
        return lambda *args: answer
    kind, ordered, default = _plan(spec, fns)
    return lambda *args: _combined(kind, ordered, default, g, args)
