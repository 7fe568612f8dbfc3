"""What a title's print must hold, from the compiled rulebook alone: every certificate at every size a company
can have, every station token at a charter's largest size, and the markers its mechanics and privates use."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .trains import train_cards


@dataclass(frozen=True)
class CertificateSet:
    """One issue of a corporation's certificates: its percentages, the shares it is divided into and a label."""

    symbol: str
    percents: tuple[int, ...]
    shares: int
    label: str = ""


def certificate_sets(book: dict[str, Any]) -> list[CertificateSet]:
    """Per corporation, its ``shares`` issue, or every size of ``mechanics.company_sizes`` when its ``shares``
    is one of those sizes; then a national railway's second issue (``mechanics.national_railway``)."""
    mechanics = book.get("mechanics") or {}
    sizes = (mechanics.get("company_sizes") or {}).get("sizes") or {}
    national = mechanics.get("national_railway") or {}
    second = national.get("second_issue") or {}
    out: list[CertificateSet] = []
    for sym, corp in (book.get("corporations") or {}).items():
        shares = tuple(int(s) for s in corp.get("shares") or [])
        layouts = {key: tuple(int(p) for p in size.get("certificates") or []) for key, size in sizes.items()}
        if shares and shares in layouts.values():
            for key, percents in sorted(layouts.items(), key=lambda kv: _number(kv[0])):
                out.append(CertificateSet(sym, percents, _share_count(key, percents), f"{key}-share company"))
        elif shares:
            out.append(CertificateSet(sym, shares, _share_count(None, shares)))
        if sym == national.get("national") and second.get("certificates"):
            percents = tuple(int(p) for p in second["certificates"])
            out.append(CertificateSet(sym, percents, _share_count(None, percents), "second issue"))
    return out


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 0.0


def _share_count(key: str | None, percents: tuple[int, ...]) -> int:
    """How many shares an issue is divided into: the size's name when it is a number, else 100 over the
    smallest certificate."""
    if key is not None and key.isdigit():
        return int(key)
    return max(1, 100 // min(percents)) if percents else 1


def station_count(book: dict[str, Any], sym: str) -> int:
    """Station tokens of a corporation at its largest size: its ``tokens``, the most markers a charter holds
    (``company_sizes.max_markers``) or a national railway's token count, whichever is more."""
    corp = (book.get("corporations") or {}).get(sym) or (book.get("minors") or {}).get(sym) or {}
    mechanics = book.get("mechanics") or {}
    counts = [len(corp.get("tokens") or [0])]
    if sym in (book.get("corporations") or {}):
        counts.append(int((mechanics.get("company_sizes") or {}).get("max_markers") or 0))
    national = mechanics.get("national_railway") or {}
    if sym == national.get("national"):
        counts.append(int((national.get("tokens") or {}).get("count") or 0))
    return max(counts)


def station_costs(book: dict[str, Any], sym: str) -> list[int]:
    """The cost of each station spot on a charter at its largest size (extra spots at the marker price)."""
    corp = (book.get("corporations") or {}).get(sym) or {}
    costs = [int(c) for c in corp.get("tokens") or [0]]
    mechanics = book.get("mechanics") or {}
    national = mechanics.get("national_railway") or {}
    price = (mechanics.get("company_sizes") or {}).get("marker_price")
    if sym == national.get("national"):
        price = (national.get("tokens") or {}).get("new_marker_price") or price
    price = int(price or (costs[-1] if costs else 0))
    return costs + [price] * (station_count(book, sym) - len(costs))


def loan_count(book: dict[str, Any]) -> int:
    """Loan markers: the bank's total when the rules give one, else the most every corporation may owe
    (the largest cap by size, or one per share of its largest issue)."""
    loans = (book.get("mechanics") or {}).get("loans") or {}
    if not loans:
        return 0
    if isinstance(loans.get("bank_total"), int):
        return int(loans["bank_total"])
    national = ((book.get("mechanics") or {}).get("national_railway") or {}).get("national")
    total = 0
    for sym, corp in (book.get("corporations") or {}).items():
        if sym == national:
            continue
        caps = [int(v) for v in (loans.get("cap_by_size") or {}).values()]
        total += max(caps) if caps else max(1, 100 // min(int(s) for s in corp.get("shares") or [100]))
    return total


def edge_markers(book: dict[str, Any]) -> list[str]:
    """The corporation of each edge token (``mechanics.edge_tokens.areas``: area → corporations)."""
    areas = ((book.get("mechanics") or {}).get("edge_tokens") or {}).get("areas") or {}
    return [str(sym) for corps in areas.values() for sym in corps or []]


def short_count(book: dict[str, Any]) -> int:
    """Short-sale markers per corporation: the most shorts any size allows
    (``mechanics.short_selling.max_shorts_by_size``)."""
    shorts = ((book.get("mechanics") or {}).get("short_selling") or {}).get("max_shorts_by_size") or {}
    return max((int(v) for v in shorts.values()), default=0)


def rights_markers(book: dict[str, Any]) -> int:
    """Mine-rights tokens the bank sells (``mechanics.mines.rights.tokens``)."""
    rights = ((book.get("mechanics") or {}).get("mines") or {}).get("rights") or {}
    return int(rights.get("tokens") or 0) if isinstance(rights, dict) else 0


PLACED = {"assign_hexes", "reservation", "token", "teleport", "mine", "base"}
"""Private abilities that put a marker on the map."""


def private_markers(book: dict[str, Any]) -> list[tuple[str, str]]:
    """(private, marker name) per marker a private places: as many as its ability's uses or
    ``mechanics.mines.tokens_by_private`` say, one for a marker whose ``markers`` are the states of one counter,
    none for a token taken from the corporation's own; abilities of one private naming the same marker share it."""
    by_private = ((book.get("mechanics") or {}).get("mines") or {}).get("tokens_by_private") or {}
    out: list[tuple[str, str]] = []
    for sym, priv in (book.get("privates") or {}).items():
        need: dict[str, int] = {}
        for ab in priv.get("abilities") or []:
            kind = str(ab.get("type", ""))
            params = ab.get("params") or {}
            if kind not in PLACED or params.get("uses_owner_marker"):
                continue
            name = str(params.get("token") or {"mine": "mine", "reservation": "reserved"}.get(kind, "marker"))
            if kind == "mine":
                count = int(by_private.get(sym) or ab.get("count") or 1)
            elif kind == "assign_hexes" and not isinstance(params.get("markers"), list):
                count = int(ab.get("count") or 1)
            else:
                count = 1
            need[name] = max(need.get(name, 0), count)
        for name, count in need.items():
            out += [(sym, name)] * count
    return out


COMPONENT_OF = {
    "tiles": "tiles",
    "certificates": "certificates",
    "charters": "charters",
    "private companies": "privates",
    "train cards": "trains",
    "station tokens": "tokens",
    "market tokens": "tokens",
    "destination markers": "tokens",
    "loan markers": "tokens",
    "short markers": "tokens",
    "edge markers": "tokens",
    "mine rights markers": "tokens",
    "private markers": "tokens",
}
"""The component (``--only`` name) that prints each counted thing."""


def counts(book: dict[str, Any], unlimited: int = 6, components: tuple[str, ...] | None = None) -> dict[str, int]:
    """How many of each thing the print holds (the figures on the render summary), for ``components`` only
    when given."""
    corps = book.get("corporations") or {}
    minors = book.get("minors") or {}
    tally: Counter[str] = Counter()
    tally["tiles"] = sum(
        unlimited if t.get("count") == "unlimited" else int(t.get("count") or 0)
        for t in (book.get("tiles") or {}).values()
    )
    tally["certificates"] = sum(len(s.percents) for s in certificate_sets(book))
    tally["charters"] = len(corps) + len(minors)
    tally["private companies"] = len(book.get("privates") or {})
    tally["train cards"] = len(train_cards(book, unlimited))
    tally["station tokens"] = sum(station_count(book, sym) for sym in [*corps, *minors])
    tally["market tokens"] = len(corps)
    tally["destination markers"] = sum(1 for c in corps.values() if c.get("destination"))
    tally["loan markers"] = loan_count(book)
    tally["short markers"] = short_count(book) * len(corps)
    tally["edge markers"] = len(edge_markers(book))
    tally["mine rights markers"] = rights_markers(book)
    tally["private markers"] = len(private_markers(book))
    return {k: v for k, v in tally.items() if v and (components is None or COMPONENT_OF[k] in components)}


def tally_text(tally: dict[str, int]) -> str:
    """ "160 station tokens, 1 private marker"."""
    parts = []
    for thing, n in tally.items():
        if n == 1:
            thing = thing[:-3] + "y" if thing.endswith("ies") else thing.removesuffix("s")
        parts.append(f"{n} {thing}")
    return ", ".join(parts)
