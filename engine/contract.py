"""The mechanic contract: what a rule module declares, and the hooks through which mechanics ask each other.

A *mechanic* is one rule family a title switches on in its rulebook (``mechanics: {<name>: {params}}``).  It has
two modules of its name: ``railbook.params.<name>`` declares what the compiler reads (a
:class:`~railbook.params.base.Declaration`: name, description, the parameter model, the names of its steps and
round types, its phase events' parameter models) and imports nothing of the engine; the rule module
``railbook.engine.mechanics.<name>`` supplies the code, as one :class:`Mechanic` built by :meth:`Mechanic.of`:

* ``name``, ``description``, ``params`` — from the declaration (``params``: a :class:`Params` model, typed,
  every field described, neutral defaults, that the title's parameters must validate against);
* ``steps`` — the step classes it contributes (by step name), which the rulebook's round kinds list;
* ``round_types`` — the round drivers it contributes (turn structure of a round kind: ``stock``, ``draft``...);
* ``hooks`` — handlers of the hooks in :data:`HOOKS` (by hook name; an unknown name is an error at import; a
  ``FIRST`` hook's handler with its declared priority, :class:`First`);
* ``events`` — handlers of phase events by event type, each with the model of the event's ``params``;
* ``state`` — a dataclass holding its own part of the game state (``game.state.mechanics[name]``, read through
  ``STATE = state_of(DECLARATION, State)``; its parameters through ``PARAMS = params_of(DECLARATION, Params)``, both
  from :mod:`railbook.engine.access`);
* ``provides`` — the objects by which it provides the interfaces its declaration names, and ``requires`` /
  ``uses`` (from the declaration) those it calls.

Mechanics never import each other: they answer hooks (``game.hooks``: broadcasts any mechanic may answer) and call
the typed interfaces one mechanic provides (:mod:`railbook.engine.interfaces`).  docs/MECHANIC_CONTRACT.md tells
how to add a mechanic, a step, a hook or an interface.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from types import FunctionType
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from railbook.params.base import Declaration, NoParams, Params

if TYPE_CHECKING:
    from . import cython_shim as cython  # (typed for the strict type check of the public API)
else:
    try:
        import cython
    except ImportError:  # (only the compiled build reads these declarations)
        from . import cython_shim as cython


def _function() -> None:
    """A function of this module: its type is the type of a compiled build's methods (see :func:`_read_only_class`)."""


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


class Combine(StrEnum):
    """How the answers of several handlers of one hook combine."""

    NOTIFY = "notify"  # every handler runs, in mechanic order; no answer
    FIRST = "first"  # the handler of the highest declared priority that answers (not None) wins; else the default
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
    "ability_used_up": _h(N, "owner ability", "an ability's `count` reached 0 (it was removed just before)"),
    "phase_reached": _h(N, "phase", "a phase started (after its events)"),
    "company_sold": _h(N, "company corp", "a private company was bought by a corporation"),
    "privates_closed": _h(N, "event", "a phase event closed the private companies"),
    "company_closing": _h(N, "company owner", "private `company` is closing; `owner` still holds it"),
    "company_acquired": _h(N, "company player", "a player acquired a private company from the bank"),
    "stock_purchase": _h(
        A,
        "player corp shares price",
        "a player is buying `shares` of `corp` for `price` in a stock round: a rule may act first (e.g. take a market "
        "certificate out of the game, or have him pay for another certificate instead); true when the purchase "
        "itself is then void",
        False,
    ),
    # questions
    "round_entities": _h(F, "kind", "the entities taking part in a round of `kind`, in order", []),
    "in_receivership": _h(A, "entity", "the corporation has no president and runs by the rules for that", False),
    "buying_power": _h(S, "entity purpose", "money an operator can raise beyond its treasury for `purpose`", 0),
    "block_or_start": _h(A, "", "something must happen before the first operator of an OR may act", False),
    "acquisition_extra_cost": _h(S, "company", "$ a player pays beyond a private's price when acquiring it", 0),
    "may_buy_company": _h(L, "company corp", "no rule forbids `corp` buying private `company` now", True),
    "applied_use_counts": _h(
        L,
        "company",
        "an ability of private `company` applied to its owner's own move counts as the private's use (its closing "
        "after use)",
        True,
    ),
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
    "must_withhold": _h(
        A, "entity", "the corporation must withhold its earnings now (it has no dividend choice)", False
    ),
    "price_fixed": _h(A, "corp", "`corp`'s share price does not move now, for any reason", False),
    "never_closes": _h(A, "corp", "`corp` cannot close: its price stops one cell short of a closing cell", False),
    "may_buy_train": _h(L, "corp train", "no rule forbids `corp` buying `train` (an id)", True),
    "face_price_trade": _h(A, "buyer seller", "a train passing between these companies goes at its face value", False),
    "may_discard_train": _h(L, "corp train", "`corp` may discard `train` when over its limit", True),
    "forced_train_purchase": _h(
        F, "corp", "whether trainless `corp` must buy a train now (None: the ordinary must-own-a-train rule)"
    ),
    "may_launch": _h(L, "corp", "a player may start `corp` (par it) in a stock round", True),
    "stock_obligation": _h(
        F, "player", "a corporation of which `player` must buy a share before anything else in this stock turn"
    ),
    "cert_weight": _h(F, "corp", "certificate-limit count of one ordinary certificate of `corp` (None: 1)"),
    "cert_allowance": _h(S, "player", "certificates `player` may hold above the limit (never buying while at it)", 0),
    "tile_downgrades": _h(F, "hex", "tile -> tile that may replace it on `hex` now, dropping its towns (None: none)"),
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
    "holding_exempt": _h(A, "player corp", "`player` may keep his holding of `corp` above the share limit now", False),
    "record_notice": _h(
        A, "action", "the action is a notice of the recording site that a mechanic checks or ignores (not a move)"
    ),
    "extra_bonus_specs": _h(
        N, "corp out", "route bonus specs (engine/bonuses.py) a mechanic adds for `corp` now: appended to `out`"
    ),
    "closed_operator_trains": _h(
        A, "key", "the trains of the closing operator `key` were placed (else they leave the game)", False
    ),
    "obsolete_count_for_limit": _h(A, "", "obsolete trains count toward the train limit", False, static=True),
    "privates_count_for_cert_limit": _h(
        L, "", "a player's private companies count toward the limit", True, static=True
    ),
    "cert_excess_allowed": _h(
        L, "", "a player below the limit may buy a certificate that takes him above it by a part", True, static=True
    ),
    "dividend_paid": _h(N, "corp per_share", "`corp` paid its holders `per_share` $ for each share (shorts pay it)"),
    "operator_skips": _h(A, "operator", "the operator does not operate this turn (e.g. not yet enough sold)", False),
    "ipo_receiver": _h(F, "corp price", "who is paid `price` for an initial-offering sale of `corp` now (None: it)"),
    "capitalization_of": _h(F, "corp", "the capital rule of `corp` now: incremental, full, escrow or none", None),
    "float_percent": _h(F, "corp", "% of `corp` to sell from its treasury for it to float now (None: the rulebook's)"),
    "destination_reached": _h(N, "corp", "a corporation reached its destination (its effect happens now)"),
    "revenue_deduction": _h(S, "entity", "$ taken from this turn's earnings before they are paid or withheld", 0),
    "value_adjustment": _h(S, "player", "$ added to (or taken from) a player's value by rules such as debts", 0),
    "train_left_depot": _h(N, "train", "a new train (an id) left the bank's depot: bought from it or exported"),
    "train_bought": _h(
        N, "buyer train source", "`buyer` (a key) bought `train` (an id) from `source` (a key or depot)"
    ),
    "train_rusted": _h(N, "train owner", "`owner`'s train (an id) rusted and left the game"),
    "rusted_by_purchase": _h(
        N, "train", "a train (an id; a company's, or one the bank's depot held) rusted by a purchase of its rust type"
    ),
    "extra_interest": _h(S, "corp", "$ `corp` (a symbol) owes at its interest step beyond its loans' interest", 0),
    "company_converted": _h(N, "corp", "`corp` (a symbol) converted to its next size (not by a merger)"),
    "conversion_marker_discount": _h(
        S, "corp", "$ taken off the station markers `corp` (a symbol) buys for its conversion", 0
    ),
    "assets_leaving": _h(
        N,
        "corp to",
        "`corp`'s privates (a symbol's) are about to pass to company `to` (a symbol), or to the bank (None); its "
        "president is still its president",
    ),
}


StepClass = type
RoundType = Any


@dataclass(frozen=True)
class First:
    """A handler of a ``FIRST`` hook with its declared priority.  Of the switched-on mechanics' handlers of such a
    hook, the one of the highest priority that answers (not None) wins; a handler given plainly has priority 0.  Two
    switched-on mechanics answering one ``FIRST`` hook at the same priority are refused when a game is built (the
    registry's order decides nothing)."""

    fn: Callable[..., Any]
    priority: int


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
    #: hook -> the declared priority of this mechanic's handler of that ``FIRST`` hook (see :class:`First`)
    priorities: dict[str, int] = field(default_factory=dict)
    #: interface name -> the object this mechanic provides it by (:mod:`railbook.engine.interfaces`)
    provides: dict[str, Any] = field(default_factory=dict)
    requires: tuple[str, ...] = ()  # interfaces a title switching this mechanic on must provide
    uses: tuple[str, ...] = ()  # interfaces this mechanic asks for, and does without when none provides them

    def __post_init__(self) -> None:
        unknown = sorted(set(self.hooks) - set(HOOKS))
        if unknown:
            raise TypeError(f"mechanic {self.name}: unknown hooks {', '.join(unknown)} (known: {', '.join(HOOKS)})")
        for name in self.priorities:
            if name not in self.hooks or HOOKS[name].combine is not Combine.FIRST:
                raise TypeError(f"mechanic {self.name}: hook {name} is not a FIRST hook it handles: no priority")

    def priority(self, hook: str) -> int:
        """The declared priority of this mechanic's handler of ``FIRST`` hook ``hook`` (0 unless declared)."""
        return self.priorities.get(hook, 0)

    @classmethod
    def of(
        cls,
        declaration: Declaration,
        *,
        steps: dict[str, StepClass] | None = None,
        round_types: dict[str, RoundType] | None = None,
        hooks: dict[str, Callable[..., Any] | First] | None = None,
        events: dict[str, Callable[..., Any]] | None = None,
        state: type | None = None,
        provides: Iterable[tuple[str, Any]] = (),
    ) -> Mechanic:
        """The rule module of a mechanic :class:`Declaration` (``railbook.params.<name>``): the code of each step,
        round type and phase event it declares, by name, and its hooks (a ``FIRST`` hook's handler with its priority:
        :class:`First`), state and the providers of the interfaces it declares to provide
        (``Interface.provided_by``); a name the declaration does not list, or one it lists without code, is a
        TypeError at import."""
        steps, round_types, events, provided = steps or {}, round_types or {}, events or {}, dict(provides)
        for kind, declared, given in (
            ("steps", declaration.steps, steps),
            ("round types", declaration.round_types, round_types),
            ("events", tuple(declaration.events), events),
            ("interfaces provided", declaration.provides, provided),
        ):
            if tuple(given) != declared:
                raise TypeError(f"mechanic {declaration.name}: {kind} {list(given)} differ from its declaration's")
        return cls(
            name=declaration.name,
            description=declaration.description,
            params=declaration.params,
            steps=steps,
            round_types=round_types,
            hooks={name: fn.fn if isinstance(fn, First) else fn for name, fn in (hooks or {}).items()},
            events={etype: (declaration.events[etype], fn) for etype, fn in events.items()},
            state=state,
            implemented=declaration.implemented,
            priorities={name: fn.priority for name, fn in (hooks or {}).items() if isinstance(fn, First)},
            provides=provided,
            requires=declaration.requires,
            uses=declaration.uses,
        )


def check_priorities(mechanics: Iterable[Mechanic]) -> None:
    """No two of ``mechanics`` answer a ``FIRST`` hook at the same priority (TypeError naming them)."""
    seen: dict[tuple[str, int], str] = {}
    for m in mechanics:
        for name in m.hooks:
            if HOOKS[name].combine is Combine.FIRST:
                other = seen.setdefault((name, m.priority(name)), m.name)
                if other != m.name:
                    raise TypeError(
                        f"mechanics {other} and {m.name} both answer hook {name} at priority {m.priority(name)}: "
                        "declare which wins (contract.First)"
                    )


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
    """The hooks of one game: each hook's handlers from the switched-on mechanics, in registry order (a ``FIRST``
    hook's by their declared priorities, lowest first: the last asked first).

    ``game.hooks(name, *args)`` asks (or tells) every handler of hook ``name`` and combines the answers as the
    hook says.  What a set of mechanics makes of its hooks is worked out once (:class:`_HookTables`); a game only
    adds the memory of its static hooks' answers.
    """

    def __init__(self, game: Any, mechanics: Iterable[Mechanic]):
        self.game = game
        tables = _tables_of(list(mechanics))
        self.table = tables.table
        plans = dict(tables.plans)
        for name in tables.static:
            plans[name] = (_DISPATCH, (_once(_dispatcher(game, HOOKS[name], self.table[name])),), None)
        self._hooks = _asker(game, plans, tables.constant)

    def __call__(self, name: str, *args: Any) -> Any:
        return self._hooks(name, *args)

    def caller(self) -> Callable[..., Any]:
        """``hooks(name, *args)`` as a plain function (what ``game.hooks`` is: cheaper to call than the object).  A
        hook no mechanic handles answers its constant without a call (a third of the calls in a replay); the others
        run their handlers and combine the answers right here (:func:`_combined`), one call deep, as the hook's
        dispatcher would (a static hook keeps its dispatcher, which remembers its answers)."""
        return self._hooks


def _asker(
    g: Any, plans: dict[str, tuple[int, tuple[Callable[..., Any], ...], Any]], constant: dict[str, Any]
) -> Callable[..., Any]:
    """:meth:`Hooks.caller`'s function: each hook's plan run for game ``g``, or its constant."""

    @cython.locals(table="dict", fixed="dict", plan="tuple")
    def hooks(name: str, *args: Any) -> Any:
        table, fixed = plans, constant  # (typed locals: the compiled build looks them up as dicts)
        plan = table.get(name)
        if plan is None:
            return fixed[name]
        return _combined(plan[0], plan[1], plan[2], g, args)

    return hooks


class _HookTables:
    """What one set of mechanics makes of the hooks, the same for every game that switches them on: each hook's
    handlers in the order asked, the plans :func:`_combined` runs (static hooks apart: their answers are kept per
    game), and the answers of hooks no mechanic handles."""

    def __init__(self, mechanics: list[Mechanic]):
        check_priorities(mechanics)
        self.mechanics = mechanics  # (kept: the cache's key is their ids and their handlers')
        ranked: dict[str, list[tuple[int, Callable[..., Any]]]] = {name: [] for name in HOOKS}
        for m in mechanics:
            for name, fn in m.hooks.items():
                ranked[name].append((m.priority(name) if HOOKS[name].combine is Combine.FIRST else 0, fn))
        self.table: dict[str, list[Callable[..., Any]]] = {
            name: [fn for _, fn in sorted(fns, key=lambda e: e[0])] for name, fns in ranked.items()
        }
        self.static = [name for name, fns in self.table.items() if fns and HOOKS[name].static]
        self.plans: dict[str, tuple[int, tuple[Callable[..., Any], ...], Any]] = {
            name: _plan(HOOKS[name], fns) for name, fns in self.table.items() if fns and not HOOKS[name].static
        }
        self.constant: dict[str, Any] = {name: _unhandled(HOOKS[name]) for name, fns in self.table.items() if not fns}


_TABLES: dict[tuple[int, ...], _HookTables] = {}


def _tables_of(mechanics: list[Mechanic]) -> _HookTables:
    """The (cached) hook tables of ``mechanics``, as their hook handlers are now (the tables keep the mechanics and
    handlers the key names, so no other object can take their ids)."""
    key = tuple(id(m) for m in mechanics) + tuple(id(fn) for m in mechanics for fn in m.hooks.values())
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = _HookTables(mechanics)
    return found


_DISPATCH, _ANSWER, _NOTIFY, _FIRST, _SUM, _ANY, _ALL = range(7)


def _plan(spec: Hook, fns: list[Callable[..., Any]]) -> tuple[int, tuple[Callable[..., Any], ...], Any]:
    """How :func:`_combined` runs a hook's handlers: (kind, handlers in the order asked, default answer)."""
    c, default = spec.combine, spec.default
    if c is Combine.NOTIFY:
        return _NOTIFY, tuple(fns), None
    if len(fns) == 1 and (c is Combine.SUM or (c is Combine.FIRST and default is None)):
        return _ANSWER, tuple(fns), None  # the handler's answer is the hook's
    if c is Combine.FIRST:
        return _FIRST, tuple(reversed(fns)), default  # (the highest priority asked first)
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
