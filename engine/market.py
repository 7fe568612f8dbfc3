"""The stock market: share-price cells, moves and the arrival order of markers inside a cell.

A corporation's position is ``[row, col]``; ``state.market["row,col"]`` lists the corporations in the
cell in arrival order (a marker entering a cell goes below those already there).  Moves follow the
18xx conventions: on a 1-D market ``up``/``down`` are ``right``/``left``; on a 2-D market ``right`` at
the row end goes up and ``left`` at the row start goes down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cint import CInt
    from .context import Context


def cell_key(pos: list[int] | tuple[int, int]) -> str:
    return f"{pos[0]},{pos[1]}"


def _exists(g: Context, r: int, c: int) -> bool:
    return g.book.cell(r, c) is not None


def step(g: Context, pos: list[int], direction: str) -> list[int]:
    """The cell one move from ``pos`` (the same cell when the move is blocked)."""
    r, c = pos
    grid = g.book.market_grid
    if g.book.market_1d:
        if direction in ("right", "up"):
            ceiling = _movement(g).get("ceiling_col")
            if ceiling is not None and c + 1 > int(ceiling):
                return [r, c]
            return [r, c + 1] if c + 1 < len(grid[r]) and _exists(g, r, c + 1) else [r, c]
        floor = int((g.book.market.get("movement") or {}).get("floor_col", 0))
        return [r, c - 1] if c - 1 >= floor and _exists(g, r, c - 1) else [r, c]
    if direction in ("left", "right"):
        spec = _movement(g).get(direction)
        side = spec if isinstance(spec, dict) else {}
        blocked = side.get("blocked") or ("up" if direction == "right" else "down")
        for _ in range(int(side.get("columns", 1))):
            pos = _column_step(g, pos, direction, blocked)
        return pos
    if direction == "down":
        return [r + 1, c] if r + 1 < len(grid) and _exists(g, r + 1, c) else [r, c]
    if direction == "up":
        up = _movement(g).get("up") or {}
        for _ in range(int(up.get("rows", 1))):
            pos = _row_up(g, pos, up)
        return pos
    raise ValueError(direction)


def _column_step(g: Context, pos: list[int], direction: str, blocked: str) -> list[int]:
    """One column left or right in a 2d market; where that cell is missing (or, to the right, across the soft
    ledge), the move goes ``blocked`` instead (``movement.right.blocked``; ``stay``: no move)."""
    r, c = pos
    dc = 1 if direction == "right" else -1
    dest = [r, c + dc]
    if 0 <= c + dc < len(g.book.market_grid[r]) and _exists(g, r, c + dc):
        if direction == "left" or not crosses_ledge(g, pos, dest):
            return dest
    if blocked == "stay":
        return [r, c]
    if blocked in ("left", "right"):
        return _column_step(g, pos, blocked, "stay")
    return step(g, pos, blocked)


def _row_up(g: Context, pos: list[int], up: dict[str, Any]) -> list[int]:
    """One row up in a 2d market (``movement.up``: ``max_price`` stays, ``top_row: down_right``)."""
    r, c = pos
    top = up.get("max_price")
    if top is not None and price_at(g, pos) >= int(top):
        return [r, c]
    if r - 1 >= 0 and _exists(g, r - 1, c):
        return [r - 1, c]
    if r == 0 and up.get("top_row") == "down_right" and _exists(g, r + 1, c + 1):
        return [r + 1, c + 1]
    return [r, c]


def _movement(g: Context) -> dict[str, Any]:
    return g.book.market.get("movement") or {}


def ledge_kind(g: Context) -> str | None:
    """The market cell kind of the area below the soft ledge (``movement.ledge_kind``), if the market has one."""
    kind = _movement(g).get("ledge_kind")
    return str(kind) if kind else None


def crosses_ledge(g: Context, src: list[int], dst: list[int]) -> bool:
    """A move from above the soft ledge into the area below it."""
    kind = ledge_kind(g)
    return kind is not None and kind not in kinds_at(g, src) and kind in kinds_at(g, dst)


def ledge_stops(g: Context, pos: list[int], below: list[int], remaining: int) -> bool:
    """A sale's move from ``pos`` to ``below`` with ``remaining`` moves left (this one included) stops on the soft
    ledge: it would cross it and no more than ``movement.down.soft_ledge_absorbs`` moves are left (1: a token
    that should move exactly one more space across the ledge stops on it; one with more to go crosses)."""
    absorbs = int((_movement(g).get("down") or {}).get("soft_ledge_absorbs", 0))
    return remaining <= absorbs and crosses_ledge(g, pos, below)


def drop(g: Context, corp: str, shares: int) -> None:
    """The price move for ``shares`` shares sold: ``movement.down.per_share`` rows down each (one), stopping on the
    soft ledge as :func:`ledge_stops` says; the bottom of a column stops the token."""
    per_share = int((_movement(g).get("down") or {}).get("per_share", 1)) if not g.book.market_1d else 1
    rows = shares * per_share
    for i in range(rows):
        c = g.state.corporations[corp]
        if ledge_stops(g, c.price, step(g, c.price, "down"), rows - i):
            break
        move(g, corp, "down")


def relative(g: Context, pos: list[int], directions: list[str]) -> list[int]:
    """The cell reached by several moves (used to price issued/redeemed shares)."""
    for d in directions:
        pos = step(g, pos, d)
    return pos


def price_at(g: Context, pos: list[int] | None) -> int:
    cell = _cell(g, pos) if pos is not None else None
    return cell["price"] if cell else 0  # type: ignore[no-any-return]


def kinds_at(g: Context, pos: list[int] | None) -> list[str]:
    cell = _cell(g, pos) if pos is not None else None
    return cell["kinds"] if cell else []  # type: ignore[no-any-return]


def _cell(g: Context, pos: list[int]) -> dict[str, Any] | None:
    """``Book.cell`` inlined (asked many times per action: a C function in compiled builds, the position read as C
    integers)."""
    row: CInt = pos[0]
    col: CInt = pos[1]
    grid: list[list[dict[str, Any] | None]] = g.book.market_grid
    if 0 <= row < len(grid):
        cells: list[dict[str, Any] | None] = grid[row]
        if 0 <= col < len(cells):
            return cells[col]
    return None


def place(g: Context, corp: str, pos: list[int]) -> None:
    """Put a marker on a cell (at the bottom of the cell's stack)."""
    g.epoch += 1
    c = g.state.corporations[corp]
    c.price = list(pos)
    g.state.market.setdefault(cell_key(pos), []).append(corp)


def remove(g: Context, corp: str) -> None:
    c = g.state.corporations[corp]
    if c.price is None:
        return
    stack = g.state.market.get(cell_key(c.price))
    if stack and corp in stack:
        stack.remove(corp)
        if not stack:
            del g.state.market[cell_key(c.price)]


def move(g: Context, corp: str, direction: str, times: int = 1) -> None:
    """Move ``corp``'s marker ``times`` cells ``direction`` (not at all while a rule holds its price: hook
    ``price_fixed``)."""
    if g.hooks("price_fixed", corp):
        return
    for _ in range(times):
        c = g.state.corporations[corp]
        new = step(g, c.price, direction)
        if new == c.price:
            continue
        if "close" in kinds_at(g, new) and g.hooks("never_closes", corp):
            break  # it stops one cell short of closing
        remove(g, corp)
        place(g, corp, new)


def position_in_cell(g: Context, corp: str) -> int:
    c = g.state.corporations[corp]
    stack = g.state.market.get(cell_key(c.price)) or []
    return stack.index(corp) if corp in stack else 0


def sort_key(g: Context, corp: str) -> tuple:
    """Operating order key: higher price first, then further right, then higher row, then arrival."""
    c = g.state.corporations[corp]
    if c.price is None:
        return (1, 0, 0, 0, 0, corp)
    return (0, -price_at(g, c.price), -c.price[1], c.price[0], position_in_cell(g, corp), corp)
