"""Plain-English text for typed abilities (private companies, minors, corporations)."""

from __future__ import annotations

from typing import Any

from .style import money

WHEN = {
    "track": "during its track step",
    "owning_corp_or_turn": "in the owning corporation's turn",
    "any": "at any time",
    "sold": "when sold to a corporation",
    "stock_round": "in a stock round",
    "operating_round": "in an operating round",
    "token": "during its token step",
    "train": "when buying trains",
    "or_start": "at the start of each operating round",
    "par": "when the corporation is launched",
}


def _list(items: list[str]) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _hexes(ab: dict[str, Any]) -> str:
    hexes = ab.get("hexes") or []
    if not hexes:
        return ""
    return f" in {_list(hexes)}" if len(hexes) <= 6 else f" in any of {len(hexes)} hexes"


def _owner(ab: dict[str, Any]) -> str:
    owner = ab.get("owner", "any")
    return {"player": " (while a player owns it)", "corporation": " (while a corporation owns it)"}.get(owner, "")


def _when(ab: dict[str, Any]) -> str:
    when = ab.get("when")
    if not when:
        return ""
    return " " + WHEN.get(str(when), f"({str(when).replace('_', ' ')})")


def _words(value: Any) -> str:
    if isinstance(value, list):
        return _list([_words(v) for v in value])
    if isinstance(value, dict):
        return ", ".join(f"{_words(k)} {_words(v)}" for k, v in value.items())
    return str(value).replace("_", " ")


def _conditions(ab: dict[str, Any], sentence: str, currency: str) -> str:
    """What the sentence does not say yet: timing, uses, connection, end, and every parameter, in words."""
    parts: list[str] = []
    when = ab.get("when")
    if when and _when(ab).strip() not in sentence:
        parts.append(_when(ab).strip())
    count = ab.get("count")
    if count and f" {count} times" not in sentence and " once" not in sentence and " twice" not in sentence:
        parts.append({1: "once", 2: "twice"}.get(count, f"{count} times"))
    if ab.get("connected") is False and "without a route" not in sentence:
        parts.append("without a route to it")
    elif ab.get("connected") is True:
        parts.append("only where the corporation's track reaches")
    if ab.get("closes_on"):
        parts.append(f"until {ab['closes_on']}")
    if ab.get("terrain") and _list(ab["terrain"]) not in sentence:
        parts.append(f"on {_list(ab['terrain'])}")
    for key, value in (ab.get("params") or {}).items():
        phrase = key.replace("_", " ")
        if value is True:
            parts.append(phrase)
        elif value is False:
            parts.append(f"not {phrase}")
        elif isinstance(value, int) and any(w in key for w in ("cost", "price", "amount", "bonus")):
            parts.append(f"{phrase} {money(value, currency)}")
        elif value is not None:
            parts.append(f"{phrase}: {_words(value)}")
    return f" ({'; '.join(parts)})" if parts else ""


def ability_text(ab: dict[str, Any], currency: str = "${}") -> str:
    """One sentence for an ability, with every condition its data gives; its own ``description`` wins."""
    if ab.get("description"):
        return str(ab["description"])
    text = _sentence(ab, currency)
    return text + _conditions(ab, text, currency) + _owner(ab) + "."


def _sentence(ab: dict[str, Any], currency: str) -> str:
    kind = ab.get("type", "")
    hexes = _hexes(ab)
    count = ab.get("count")
    amount = ab.get("amount")
    cost = ab.get("cost")
    times = {1: " once", 2: " twice"}.get(count, f" {count} times") if count else ""
    free = " at no cost" if ab.get("free") else (f" for {money(cost, currency)}" if cost else "")
    tiles = f" (tiles {_list(ab['tiles'])})" if ab.get("tiles") else ""
    if kind == "tile_lay":
        text = f"The owning corporation may lay an extra tile{hexes}{tiles}{free}{_when(ab)}"
        text += f",{times}" if times else ""
    elif kind == "teleport":
        text = f"Places a tile and a station{hexes} even without a route{free}"
    elif kind == "token":
        text = f"The owning corporation may place a station token{hexes}{free}{_when(ab)}"
    elif kind == "extra_token":
        text = f"Gives the owning corporation an extra station token{free}"
    elif kind == "reservation":
        text = f"Reserves a station spot{hexes}"
    elif kind == "blocks_hexes":
        text = f"No track may be laid{hexes} while a player owns this company"
    elif kind == "close":
        text = f"Closes {str(ab.get('when') or ab.get('closes_on') or 'when used').replace('_', ' ')}"
    elif kind == "revenue_bonus":
        text = f"Adds {money(amount or 0, currency)} to routes{hexes}"
    elif kind == "assign_hexes":
        bonus = f" (+{money(amount, currency)} for the corporation's routes there)" if amount else ""
        text = f"May be assigned to a hex{hexes}{bonus}{_when(ab)}"
    elif kind == "assign_corporation":
        bonus = f" (+{money(amount, currency)})" if amount else ""
        text = f"May be assigned to a corporation{bonus}{_when(ab)}"
    elif kind == "tile_discount":
        terrain = f" on {_list(ab['terrain'])}" if ab.get("terrain") else ""
        text = f"Saves {money(amount or 0, currency)} of terrain cost{terrain}{hexes}"
    elif kind == "hexside_discount":
        text = f"Saves {money(amount or 0, currency)} on costed hexsides{hexes}"
    elif kind == "exchange":
        corp = ab.get("corporation")
        text = f"May be exchanged for a share of {corp}" if corp else "May be exchanged for a share"
    elif kind == "shares":
        shares = ab.get("shares") or []
        names = [
            s.replace("_0", " president's certificate") if s.endswith("_0") else s.replace("_", " share ")
            for s in shares
        ]
        text = f"Comes with {_list(names)}" if names else "Comes with shares"
    elif kind == "no_buy":
        text = "Corporations may not buy this company"
    elif kind == "train_discount":
        text = f"Saves {money(amount or 0, currency)} on a train"
    elif kind == "base":
        text = "Gives a base"
    elif kind == "mine":
        text = f"A mine{hexes}" + (f" worth {money(amount, currency)}" if amount else "")
    elif kind == "income_to_president":
        text = "Its revenue goes to the president of the owning corporation"
    elif kind == "purchase_range":
        text = "May be bought by a corporation within a set price range"
    else:
        text = kind.replace("_", " ").capitalize()
    return text


def company_text(entity: dict[str, Any], currency: str = "${}") -> list[str]:
    """Description and one sentence per ability."""
    lines = []
    if entity.get("description"):
        lines.append(str(entity["description"]))
    for ab in entity.get("abilities", []) or []:
        lines.append(ability_text(ab, currency))
    return lines
