"""Rule text for players: one short sentence per typed ability, written by templates from its parameters.

Each ability type has a template for its main sentence and each known parameter a phrase; a parameter with
no phrase is left off the card (a title that needs it in words gives the ability a ``description``). No
parameter name, internal id or Python value is ever printed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .style import money

WHEN = {
    "track": "in its track step",
    "owning_corp_or_turn": "in its operating turn",
    "any": "at any time",
    "sold": "when sold to a corporation",
    "stock_round": "in a stock round",
    "operating_round": "in an operating round",
    "token": "in its token step",
    "train": "when it buys trains",
    "or_start": "at the start of each operating round",
    "par": "when the corporation is launched",
}
"""The ``when`` values in words; an unknown value is left out."""

TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times"}
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
FACTORS = {0.5: "half", 1: "its face value", 1.5: "one and a half times", 2: "twice", 3: "three times"}


@dataclass(frozen=True)
class Words:
    """What the templates need from the rulebook: the currency, place names, tiles and certificates."""

    currency: str = "${}"
    places: dict[str, str] = field(default_factory=dict)
    tile_colours: dict[str, str] = field(default_factory=dict)
    shares: dict[str, list[int]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, book: dict[str, Any] | None) -> Words:
        """The words of a compiled rulebook (an empty set for a bare ability)."""
        if not book:
            return cls()
        places = {hid: str(h["name"]) for hid, h in (book.get("hexes") or {}).items() if h.get("name")}
        colours = {tid: str(t.get("color", "")) for tid, t in (book.get("tiles") or {}).items()}
        shares = {sym: [int(s) for s in c.get("shares", [])] for sym, c in (book.get("corporations") or {}).items()}
        names = {
            sym: str(e.get("name", sym))
            for section in ("corporations", "minors")
            for sym, e in (book.get(section) or {}).items()
        }
        return cls(book["meta"].get("currency", "${}"), places, colours, shares, names)

    def money(self, value: Any) -> str:
        return money(value, self.currency)


VALUES = {
    "offboard": "off-board area",
    "bought_by_corporation_or_removed": "a corporation buys this company or it is removed",
    "corporation_or_minor": "corporation or minor company",
    "end_of_operating_round": "end of the operating round",
}
"""Data values whose words are not just the value with spaces."""


def plain(value: Any) -> str:
    """A data value in words: ``west_of_river`` → ``west of river``; lists joined with "and"."""
    if isinstance(value, list):
        return listing([plain(v) for v in value])
    return VALUES.get(str(value), str(value).replace("_", " "))


def sentence(value: str) -> str:
    """A designer's text as a sentence: a capital first letter and a full stop."""
    value = value.strip()
    if not value:
        return value
    value = value[0].upper() + value[1:]
    return value if value[-1] in ".!?)" else value + "."


def listing(items: list[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [str(i) for i in items if str(i)]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _where(ab: dict[str, Any], w: Words, last: str = "or") -> str:
    """ " in Cleveland (D14) or Toledo (E17)": place names for a few hexes, coordinates only for many."""
    hexes = [str(h) for h in ab.get("hexes") or []]
    if not hexes:
        return ""
    if len(hexes) > 6:
        return " in one of " + ", ".join(hexes)
    names = {w.places.get(h) for h in hexes}
    if len(names) == 1 and None not in names:
        return f" in {names.pop()} ({', '.join(hexes)})"
    if len(hexes) <= 2:
        return " in " + listing([f"{w.places[h]} ({h})" if h in w.places else h for h in hexes], last)
    return " in " + listing(hexes, last)


def _tiles(ab: dict[str, Any], w: Words, count: int | None, extra: bool) -> str:
    """ "one extra yellow tile", "up to two extra tiles (#7, #8 or #9)"."""
    tiles = [str(t) for t in ab.get("tiles") or []]
    colours = {w.tile_colours.get(t, "") for t in tiles}
    colour = f"{colours.pop()} " if len(colours) == 1 and "" not in colours else ""
    many = bool(count and count > 1)
    noun = ("extra " if extra else "") + colour + ("tiles" if many else "tile")
    if many:
        amount = f"up to {NUMBERS.get(count or 0, count)} "
    elif count == 1:
        amount = "one "
    else:
        amount = "an " if noun[0] in "aeiou" else "a "
    which = f" ({listing([f'#{t}' for t in tiles], 'or')})" if tiles and len(tiles) <= 4 else ""
    return amount + noun + which


def _subject(ab: dict[str, Any]) -> str:
    return {"player": "The owning player", "corporation": "The owning corporation"}.get(
        ab.get("owner", "any"), "The owner"
    )


def _cost(ab: dict[str, Any], w: Words) -> str:
    params = ab.get("params") or {}
    if ab.get("free"):
        return " at no cost"
    if ab.get("cost"):
        plus = " plus terrain costs" if params.get("plus_terrain") else ""
        return f" for {w.money(ab['cost'])}{plus}"
    if params.get("discount"):
        return f" for {w.money(params['discount'])} less than usual"
    return ""


def _when(ab: dict[str, Any]) -> str:
    when = WHEN.get(str(ab.get("when") or ""), "")
    return f" {when}" if when else ""


def _reach(ab: dict[str, Any]) -> str:
    if ab.get("connected") is False:
        return ", even without a route to it"
    if ab.get("connected") is True:
        return " where its track reaches"
    return ""


def _tile_lay(ab: dict[str, Any], w: Words) -> str:
    params = ab.get("params") or {}
    normal = params.get("normal_lay") or params.get("replaces_normal_lay")
    tiles = _tiles(ab, w, ab.get("count"), not normal)
    verb = "lay or upgrade" if params.get("upgrade") else "lay"
    text = f"{_subject(ab)} may {verb} {tiles}{_where(ab, w)}{_cost(ab, w)}{_when(ab)}{_reach(ab)}"
    if normal:
        text += ", as its normal tile lay"
    return text


def _token(ab: dict[str, Any], w: Words) -> str:
    params = ab.get("params") or {}
    city = " in either city of" if params.get("either_city") else ""
    where = _where(ab, w)
    if city and where:
        where = city + where[3:]
    own = "one of its own station tokens" if params.get("uses_owner_marker") else "a station token"
    if params.get("extra_token"):
        own = "an extra station token"
    return f"{_subject(ab)} may place {own}{where}{_cost(ab, w)}{_when(ab)}{_reach(ab)}"


def _revenue_bonus(ab: dict[str, Any], w: Words) -> str:
    params = ab.get("params") or {}
    amount = w.money(ab.get("amount") or 0)
    who = {
        "assigned_company": "the company it is assigned to",
        "owning_corporation": "the owning corporation",
    }.get(str(params.get("beneficiary", "")), "the owning corporation")
    if params.get("event") == "yellow_tile_laid":
        terrain = f" in a {listing(ab.get('terrain') or [], 'or')} hex" if ab.get("terrain") else ""
        return f"{who.capitalize()} receives {amount} from the bank each time it lays a yellow tile{terrain}"
    if params.get("requires_train") or ab.get("when") == "or_start":
        cond = " if it owns a train" if params.get("requires_train") else ""
        return f"At the start of each operating round, {who} receives {amount} from the bank{cond}"
    if params.get("per") == "visited_stop":
        one = " of one of its trains" if params.get("trains") == 1 else ""
        return f"{who.capitalize()} adds {amount} to the run{one} for each stop it visits"
    per = " per train" if params.get("per_train") else ""
    where = " to the assigned hex" if params.get("where") == "assigned_hex" else _where(ab, w).replace(" in ", " to ")
    if params.get("per_icon"):
        where += f", for each {plain(params['per_icon'])} symbol there"
    right = f"As holder of the {plain(params['right'])} rights, " if params.get("right") else ""
    subject = who if right else who.capitalize()
    return f"{right}{subject} adds {amount}{per} to each route{where}"


def _assign_hexes(ab: dict[str, Any], w: Words) -> str:
    params = ab.get("params") or {}
    marker = f"the {plain(params['token'])} marker" if params.get("token") else "its marker"
    bonus = ""
    if ab.get("amount") and not params.get("markers"):
        bonus = f": routes there earn {w.money(ab['amount'])} more"
    return f"{_subject(ab)} may place {marker}{_where(ab, w)}{_when(ab)}{_reach(ab)}{bonus}"


def _purchase_range(ab: dict[str, Any], w: Words) -> str:
    params = ab.get("params") or {}
    low, high = params.get("min_factor"), params.get("max_factor")
    if low is None and high is None:
        return "A corporation may buy it within a set price range"
    phases = params.get("phases")
    when = f" in phase {listing([str(p) for p in phases])}" if phases else ""
    return f"A corporation may buy it{when} for {_factor(low)} to {_factor(high)} its face value".replace(
        "its face value its face value", "its face value"
    )


def _factor(value: Any) -> str:
    if value is None:
        return "any price"
    return FACTORS.get(float(value), f"{value} times")


def _shares(ab: dict[str, Any], w: Words) -> str:
    names = []
    for cert in ab.get("shares") or []:
        sym, _, index = str(cert).rpartition("_")
        sizes = w.shares.get(sym, [])
        pct = f"{sizes[int(index)]}% " if index.isdigit() and int(index) < len(sizes) else ""
        kind = "president's certificate" if index == "0" else "share"
        names.append(f"the {pct}{kind} of {sym}" if sym else str(cert))
    return f"Comes with {listing(names)}" if names else "Comes with shares"


def _mine(ab: dict[str, Any], w: Words) -> str:
    count = ab.get("count")
    tokens = f"{NUMBERS.get(count, count)} mine tokens" if count and count > 1 else "a mine token"
    terrain = f" {listing(ab.get('terrain') or [], 'or')}" if ab.get("terrain") else ""
    hexes = [str(h) for h in ab.get("hexes") or []]
    each = "each " if count and count > 1 else ""
    where = f", {each}on a{terrain} hex ({', '.join(hexes)})" if terrain and hexes else _where(ab, w)
    worth = f"; each adds {w.money(ab['amount'])} to routes through it" if ab.get("amount") else ""
    return f"{_subject(ab)} may place {tokens}{where}{_when(ab)}{worth}"


TEMPLATES: dict[str, Callable[[dict[str, Any], Words], str]] = {
    "tile_lay": _tile_lay,
    "teleport": lambda ab, w: (
        f"{_subject(ab)} may lay a tile and place a station{_where(ab, w)}{_cost(ab, w)}, even without a route to it"
    ),
    "token": _token,
    "extra_token": lambda ab, w: f"{_subject(ab)} gets one extra station token{_cost(ab, w)}",
    "reservation": lambda ab, w: f"A station spot{_where(ab, w, 'and')} is reserved for the owner (marked on the map)",
    "blocks_hexes": lambda ab, w: f"While a player owns this company, no track may be laid{_where(ab, w, 'and')}",
    "close": lambda ab, w: "This company closes when its ability is used",
    "revenue_bonus": _revenue_bonus,
    "assign_hexes": _assign_hexes,
    "tile_discount": lambda ab, w: (
        f"{_subject(ab)} pays {w.money(ab.get('amount') or 0)} less for laying track"
        + (f" on {listing(ab.get('terrain') or [], 'or')} hexes" if ab.get("terrain") else "")
        + _where(ab, w)
    ),
    "exchange": lambda ab, w: (
        f"The owner may exchange it for a share of {ab['corporation']}"
        if ab.get("corporation")
        else "The owner may exchange it for a share"
    ),
    "shares": _shares,
    "no_buy": lambda ab, w: "Corporations may not buy this company",
    "base": lambda ab, w: "The company gets a base",
    "mine": _mine,
    "income_to_president": lambda ab, w: "Its revenue is paid to the president of the owning corporation",
    "purchase_range": _purchase_range,
}


def _per_or(value: Any, ab: dict[str, Any], w: Words) -> str:
    n = int(value)
    return "At most once per operating round." if n == 1 else f"At most {n} times per operating round."


def _markers(value: Any, ab: dict[str, Any], w: Words) -> str:
    parts = []
    for marker in value if isinstance(value, list) else []:
        if not isinstance(marker, dict):
            continue
        name = plain(marker.get("name", "")).capitalize() or "A"
        bits = [f"+{w.money(marker.get('amount', 0))} for the owner"]
        if marker.get("others_amount"):
            bits.append(f"+{w.money(marker['others_amount'])} for other companies")
        text = f"{name} marker: {listing(bits)}"
        if marker.get("closes_private"):
            text += "; placing it closes this company"
        parts.append(text + ".")
    return " ".join(parts)


def _max_per_hex(value: Any, ab: dict[str, Any], w: Words) -> str:
    n = int(value)
    kind = plain(str((ab.get("params") or {}).get("token") or "such"))
    return f"At most {NUMBERS.get(n, n)} {kind} marker{'' if n == 1 else 's'} per hex."


def _phase_list(value: Any) -> str:
    return listing([str(v) for v in value]) if isinstance(value, list) else str(value)


def _steps(value: Any, ab: dict[str, Any], w: Words) -> str:
    return f"Only in its {listing([plain(v) for v in value], 'or')} step." if isinstance(value, list) else ""


def _range_phase(value: Any, label: str, w: Words) -> str:
    if not isinstance(value, dict):
        return ""
    buyers = f"only {listing([str(b) for b in value['buyers']])} may buy it, " if value.get("buyers") else ""
    if "min" in value or "max" in value:
        price = f"for {w.money(value.get('min', 0))} to {w.money(value.get('max', 0))}"
    else:
        price = f"for {_factor(value.get('min_factor'))} to {_factor(value.get('max_factor'))} its face value"
        price = price.replace("its face value its face value", "its face value")
    return f"In {label}, {buyers}{price}."


Phrase = Callable[[Any, dict[str, Any], Words], str]

#: where an exchanged share comes from, in the players' words
_SOURCES = {"ipo": "the initial offering", "pool": "the open market", "market": "the open market"}

PHRASES: dict[str, Phrase] = {
    # tile lays
    "any_label": lambda v, ab, w: "Labels do not restrict the tile." if v else "",
    "consumes_tile_lay": lambda v, ab, w: "This uses the corporation's tile lay for the turn." if v else "",
    "closes_private": lambda v, ab, w: "Using it closes this company." if v else "Using it leaves this company open.",
    "closes_when_used": lambda v, ab, w: "This company closes once it is used up." if v else "",
    "lost_if_hex_built": lambda v, ab, w: "The power is lost once another tile is laid there." if v else "",
    "lay_together": lambda v, ab, w: "The tiles are laid in the same turn." if v else "",
    "must_connect_each_other": lambda v, ab, w: "The two tiles must connect to each other." if v else "",
    "must_lay_all": lambda v, ab, w: "Once the first tile is laid, the others must be laid too." if v else "",
    "must_connect": lambda v, ab, w: f"The tiles must join {listing([str(h) for h in v])}." if v else "",
    "requires_unconnected": lambda v, ab, w: f"Only while no track joins {listing([str(h) for h in v])}." if v else "",
    "one_per_hex": lambda v, ab, w: "At most one tile per hex." if v else "",
    "per_or": _per_or,
    "random": lambda v, ab, w: (
        "The certificate is that of a corporation drawn at random when the game is set up." if v else ""
    ),
    # exchanges
    "from": lambda v, ab, w: (
        f"The share comes from {listing([_SOURCES.get(str(x), str(x)) for x in v], 'or')}." if v else ""
    ),
    "hex_tag": lambda v, ab, w: f"Only in hexes {plain(v)}.",
    "outside_tag_allowed": lambda v, ab, w: f"{NUMBERS.get(int(v), v)} of the lays may be elsewhere.".capitalize(),
    "home_extra_for": lambda v, ab, w: f"For {listing([str(c) for c in v])}, in its home hex, it is an extra lay.",
    "normal_lay": lambda v, ab, w: "",
    "extra": lambda v, ab, w: "",
    "extra_lay": lambda v, ab, w: "",
    "discount": lambda v, ab, w: "",
    # tokens
    "cost_if_unconnected": lambda v, ab, w: f"It costs {w.money(v)} if the token is not connected.",
    "extra_action": lambda v, ab, w: "This is in addition to its normal token placement." if v else "",
    "city": lambda v, ab, w: "",
    "slot": lambda v, ab, w: "",
    "extra_token": lambda v, ab, w: "",
    "until": lambda v, ab, w: (
        f"It lasts until {plain(v).replace('bought by corporation', 'a corporation buys it')}." if v else ""
    ),
    # markers and bonuses
    "token": lambda v, ab, w: "",
    "upgrade": lambda v, ab, w: "",
    "plus_terrain": lambda v, ab, w: "",
    "replaces_normal_lay": lambda v, ab, w: "",
    "either_city": lambda v, ab, w: "",
    "uses_owner_marker": lambda v, ab, w: "",
    "per_train": lambda v, ab, w: "",
    "markers": _markers,
    "phases": lambda v, ab, w: f"Only in phase {_phase_list(v)}." if ab.get("type") != "purchase_range" else "",
    "steps": _steps,
    "also_assigns": lambda v, ab, w: f"It also assigns the port to a {plain(v)}.",
    "max_per_hex": _max_per_hex,
    "bonus_for": lambda v, ab, w: {
        "all_companies": "The bonus counts for every company's routes.",
        "owner_only": "Only the owner earns the bonus.",
    }.get(str(v), ""),
    "beneficiary": lambda v, ab, w: "",
    "where": lambda v, ab, w: "",
    "per": lambda v, ab, w: "",
    "per_icon": lambda v, ab, w: "",
    "right": lambda v, ab, w: "",
    "event": lambda v, ab, w: "",
    "requires_train": lambda v, ab, w: "",
    # mines
    "waives_terrain_cost": lambda v, ab, w: f"The token replaces the {w.money(v)} terrain cost.",
    "adjacent_to": lambda v, ab, w: f"The hex must be next to a {listing([plain(x) for x in v], 'or')}.",
    "not_next_to_labels": lambda v, ab, w: (
        f"Not next to a hex whose tile is labelled {listing([str(x) for x in v], 'or')}." if v else ""
    ),
    # purchases and shares
    "min_factor": lambda v, ab, w: "",
    "max_factor": lambda v, ab, w: "",
    "buyer_sets_par": lambda v, ab, w: "The buyer sets its par price." if v else "",
    "closes_after_par": lambda v, ab, w: "This company closes once the par price is set." if v else "",
    "after_use": lambda v, ab, w: (
        f"It closes at the {plain(v)} in which it is used.".replace("end of", "end of the") if v else ""
    ),
    "bank_subsidy": lambda v, ab, w: "When it is launched, the bank pays it its start price." if v else "",
    "hexsides": lambda v, ab, w: f"The same goes for {listing([plain(x) for x in v], 'or')} hexsides.",
    "blocks": lambda v, ab, w: "",
    "payout_on_transfer": lambda v, ab, w: (
        f"The bank pays {w.money(v)} to the owning company's president when another president's company acquires "
        "it, or the bank liquidates it."
    ),
}
"""A phrase per known parameter ("" when the main sentence already says it or it is bookkeeping)."""


def _tail(ab: dict[str, Any], sentence: str) -> list[str]:
    """Sentences for the common fields the main sentence leaves out: uses and end."""
    out = []
    count = ab.get("count")
    if count and ab.get("type") not in ("tile_lay", "mine", "extra_token"):
        out.append(f"{TIMES.get(count, f'{count} times').capitalize()} per game.")
    if ab.get("closes_on"):
        out.append(f"Until phase {ab['closes_on']}.")
    return out


def ability_text(ab: dict[str, Any], currency: str = "${}", words: Words | None = None) -> str:
    """The ability in words for players; its own ``description`` wins."""
    if ab.get("description"):
        return sentence(str(ab["description"]))
    w = words or Words(currency=currency)
    kind = str(ab.get("type", ""))
    template = TEMPLATES.get(kind)
    main = template(ab, w) if template else kind.replace("_", " ").capitalize()
    parts = [main.rstrip(".") + "."]
    parts += _tail(ab, main)
    for key, value in (ab.get("params") or {}).items():
        phrase = PHRASES.get(key)
        said = phrase(value, ab, w) if phrase and value is not None else ""
        if said:
            parts.append(said)
    return " ".join(parts)


def company_text(entity: dict[str, Any], currency: str = "${}", book: dict[str, Any] | None = None) -> list[str]:
    """Its ``description``, then one paragraph per ability (a private's description replaces them)."""
    words = Words.of(book) if book else Words(currency=currency)
    lines = []
    if entity.get("description"):
        lines.append(sentence(str(entity["description"])))
        if "value" in entity:
            return lines
    for ab in entity.get("abilities", []) or []:
        lines.append(ability_text(ab, words.currency, words))
    return lines


def unknown_params(book: dict[str, Any]) -> list[str]:
    """Parameters of the rulebook's abilities that have no phrase (and no ``description`` to cover them)."""
    missing = []
    for section in ("privates", "corporations", "minors"):
        for entity in (book.get(section) or {}).values():
            if entity.get("description") and section == "privates":
                continue
            for ab in entity.get("abilities") or []:
                if ab.get("description"):
                    continue
                missing += [k for k in ab.get("params") or {} if k not in PHRASES]
    return sorted(set(missing))
