"""The automatic actions an 18xx.games record carries beside the players' moves, for games railbook plays.

The site's client adds some actions by itself after a move (``auto_actions``), and its importer expects them
there: a record without them stops at the step that waits for one.  railbook's engine takes these actions as
notices (it checks by itself), so a game it plays has none; :class:`SiteAutoActions` adds them when a game is
written as a record (``railbook soak --records``).  Only the site's protocol is modelled here, from what its
records show; the rules stay the engine's.

* ``destination_connection`` (titles whose ``destinations`` connection runs are checked after each operator's
  turn, 1870): one by the operator whose turn just ended, naming the companies that connected then (after the
  round's last turn too, and the game's last where it ends with the round), and one by the operator whose turn
  starts (the first of an operating round names those connected at its start);
* ``destination_connection`` (titles whose destinations are checked after every tile lay, 1856): one by the
  operator once its track step is over, naming the companies that reached their destination since the last.

The site also numbers each loan (``take_loan`` and ``payoff_loan`` name one): loans are taken from the front of
the bank's list, paid off from the front of the company's own, and come back to the end of the bank's list
(also when they are redeemed or cancelled without an action); the ids run below the bank's total where the title
limits it (an id past it names no loan on the site). :class:`SiteAutoActions` keeps that ledger and names the loan
in the actions it writes.
"""

from __future__ import annotations

from typing import Any

#: steps of an operating turn up to (and including) the track step, in the titles checked after each tile lay
_UP_TO_TRACK = frozenset(
    {
        "bankrupt",
        "cash_crisis",
        "national_formation",
        "home_token",  # (a home marker placed at the turn's start: 1856 run 17 seed 300150, THB)
        "assign",
        "loan",
        "special_track",
        "special_token",
        "buy_company",
        "special_buy",
        "connection_run",
        "track",
    }
)


def _closed(game: Any, key: str) -> bool:
    """The corporation ``key`` (``C|<sym>``) has closed."""
    corp = game.state.corporations.get(key.split("|", 1)[-1])
    return corp is not None and bool(getattr(corp, "closed", False))


def _ended_at_once(game: Any) -> bool:
    """The game ended at once on the action (an end trigger ``after: immediate``), not at the end of a turn or
    round: the site ends it inside that action, with no check after the operator's turn."""
    reason = game.state.game_end_reason
    for spec in game.rulebook.get("end") or []:
        if isinstance(spec, dict) and spec.get("type") == reason:
            return spec.get("after") == "immediate"
    return True


def _checked(game: Any) -> str | None:
    spec = ((game.rulebook.get("mechanics") or {}).get("destinations")) or {}
    return spec.get("checked") if isinstance(spec, dict) else None


def _loan_ids(game: Any) -> int:
    """How many loans the site numbers: the title's ``site.loan_ids``, else the bank's total where the title limits
    it (the site's ids run from 0 below it, and an id past it names no loan), else plenty."""
    from railbook.engine.digest import site_loan_ids

    numbered = site_loan_ids(game.rulebook)
    if numbered is not None:
        return numbered
    spec = ((game.rulebook.get("mechanics") or {}).get("loans")) or {}
    total = spec.get("bank_total") if isinstance(spec, dict) else None
    return int(total) if isinstance(total, int) and total > 0 else 1000


class SiteAutoActions:
    """Follows one game, action by action, and tells the automatic actions the site adds after each."""

    def __init__(self, game: Any) -> None:
        self.loans_free: list[int] = list(range(_loan_ids(game)))  # the bank's loans, by id, in the site's order
        self.loans_held: dict[str, list[int]] = {}
        self.cash = dict(game.state.cash)  # before the action to come
        self.prices = self._prices(game)  # the corporations' market cells before the action to come
        self.checked = _checked(game)
        self.operator, self.reached = self._now(game)
        self.op_round = self._op_round(game)
        self.round_key = self._round_key(game)  # the round the action to come starts in
        self.starting: str | None = None  # an operator whose turn started and has not had its notice yet
        self.noticed: str | None = None  # (after each tile lay) the operator whose track step was noticed
        self.told = list(self.reached)  # companies named in a notice already
        self.turn_checked: str | None = None  # (after each turn) the operator whose turn's check was written while
        # it stays the operator for a connection run

    @staticmethod
    def _now(game: Any) -> tuple[str | None, list[str]]:
        r = game.state.round
        op = r.data.get("current_operator") if r is not None and r.kind == "operating" else None
        st = game.state.mechanics.get("destinations")
        return op, list(getattr(st, "reached", []) or [])

    @staticmethod
    def _prices(game: Any) -> dict[str, Any]:
        out = {}
        for sym, corp in game.state.corporations.items():
            price = getattr(corp, "price", None)
            out[sym] = list(price) if price is not None else None
        return out

    @staticmethod
    def _op_round(game: Any) -> tuple[int, int] | None:
        """Which operating round the game is in (None outside one)."""
        r = game.state.round
        return (game.state.turn, r.round_num) if r is not None and r.kind == "operating" else None

    @staticmethod
    def _round_key(game: Any) -> tuple[Any, ...]:
        r = game.state.round
        return (game.state.turn, r.kind, r.round_num) if r is not None else (game.state.turn,)

    def _notice(self, key: str, game: Any) -> dict[str, Any]:
        _, reached = self._now(game)
        new = [c for c in reached if c not in self.told]
        self.told.extend(new)
        return {
            "type": "destination_connection",
            "entity": key.split("|", 1)[1],
            "entity_type": "corporation",
            "corporations": new,
        }

    def action(self, game: Any, action: dict[str, Any]) -> dict[str, Any]:
        """The action just processed as the site writes it (loans, token slots, assignment targets, draft prices,
        share percentages and a company's price for its own shares named), its loan ledger brought up to date."""
        atype = action.get("type")
        before, self.cash = self.cash, dict(game.state.cash)
        prices, self.prices = self.prices, self._prices(game)
        # (an action that also began a round paid that round's incomes: its cash change tells no share's price)
        same_round = self.round_key == self._round_key(game)
        self.round_key = self._round_key(game)
        if atype in ("buy_shares", "sell_shares") and isinstance(action.get("shares"), list):
            ids = [str(x) for x in action["shares"]]
            percent = sum(game.state.shares[x].percent for x in ids if x in game.state.shares)
            if "percent" not in action and 0 < percent <= 100:  # (shares gone since, e.g. a short covered: unnamed)
                action = {**action, "percent": percent}
            entity = str(action.get("entity"))
            if action.get("entity_type") == "corporation" and "share_price" not in action and ids and same_round:
                key = f"C|{entity}"
                each = abs(self.cash.get(key, 0) - before.get(key, 0)) // len(ids)
                cell = prices.get(entity)  # (the market's price as the action found it: the site's bundle's price)
                if cell is not None:
                    from railbook.engine.market import price_at

                    if each != price_at(game.context, cell):  # (the site names only a price off the market's)
                        action = {**action, "share_price": each}  # a company's own shares, issued or redeemed
        if atype == "place_token" and action.get("slot") is None and isinstance(action.get("city"), str):
            slot = _slot(game, action)
            if slot is not None:
                action = {**action, "slot": slot}
        elif atype == "assign" and "target_type" not in action:
            target = str(action.get("target"))
            st = game.state
            kind = "company" if target in st.companies else "corporation" if target in st.corporations else "hex"
            kind = "minor" if target in st.minors else kind
            action = {**action, "target_type": kind}
        elif atype == "bid" and action.get("price") is None and action.get("company") in game.state.companies:
            company = game.state.companies[action["company"]]
            action = {**action, "price": company.value}
        if atype in ("take_loan", "payoff_loan") and action.get("loan") is None:
            corp = str(action.get("entity"))
            held = self.loans_held.get(corp) or []
            loan = self.loans_free[0] if atype == "take_loan" else held[0] if held else None
            if loan is not None:
                action = {**action, "loan": loan}
                if atype == "take_loan":
                    self.loans_free.remove(loan)
                    self.loans_held.setdefault(corp, []).append(loan)
                else:
                    held.remove(loan)
                    self.loans_free.append(loan)
        self._sync_loans(game)
        return action

    def _sync_loans(self, game: Any) -> None:
        st = game.state.mechanics.get("loans")
        counts: dict[str, int] = dict(getattr(st, "loans", {}) or {}) if st is not None else {}
        for corp in sorted(set(counts) | set(self.loans_held)):
            held = self.loans_held.setdefault(corp, [])
            while len(held) > counts.get(corp, 0):
                self.loans_free.append(held.pop())  # redeemed or cancelled: from the end of the company's list
            while len(held) < counts.get(corp, 0):
                held.append(self.loans_free.pop(0))

    def after(self, game: Any) -> list[dict[str, Any]]:
        """The automatic actions that follow the action just processed."""
        if self.checked is None:
            return []
        before, before_round = self.operator, self.op_round
        self.operator, _ = self._now(game)
        self.op_round = self._op_round(game)
        if game.state.finished:
            if self.checked == "after_every_tile_lay":
                # (a game that ends in a company's turn before its track step was checked -- its run closed the
                # last company: the site checks after that step first; differential seed 100001, action 318)
                return [self._notice(before, game)] if before is not None and self.noticed != before else []
            ended_turn = before is not None and not _closed(game, before) and not _ended_at_once(game)
            # (a connection run ended the game: the check after the operator's turn came before the run)
            ended_turn = ended_turn and self.turn_checked != before
            if self.checked != "after_every_tile_lay" and ended_turn:
                return [self._notice(before, game)]  # (the check after the game's last turn comes before its end)
            return []
        if self.checked == "after_every_tile_lay":
            return self._after_tile_lays(game, before, self.op_round != before_round)
        # (the same company may end one operating round and open the next: its turn has ended all the same)
        return self._after_turns(game, before, self.op_round != before_round)

    def _after_turns(self, game: Any, before: str | None, new_round: bool = False) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        now = self.operator
        if now == before and before is not None and not new_round and self._runs_after_turn(game):
            # (its turn is over and a connection run comes next, its own or another company's that the check after
            # its turn found: the operator stays the operator for the run; the check after its turn names the
            # company -- an operating round's last company's own run, or the next company's: bot seed 180004)
            out.append(self._notice(before, game))
            self.turn_checked = before
            return out
        if now != before or (new_round and now is not None and before is not None):
            checked, self.turn_checked = self.turn_checked, None
            if before is not None:
                # (a company that closed in its turn has no check after it; one whose check came before the
                # connection run that followed its turn has had it)
                if not _closed(game, before) and checked != before:
                    out.append(self._notice(before, game))  # the check after its turn (the round's last one's too)
            elif now is not None:
                out.append(self._notice(now, game))  # the check at the start of the operating round
                self.starting = None
                return out
            self.starting = now
        if self.starting is not None and game.acting_entities() == [self.starting]:
            out.append(self._notice(self.starting, game))  # the check at the start of its turn
            self.starting = None
        return out

    def _runs_after_turn(self, game: Any) -> bool:
        """A connection run is under way, and a company the check would name has not been named yet."""
        st = game.state.mechanics.get("destinations")
        pending = list(getattr(st, "pending", []) or [])
        reached = list(getattr(st, "reached", []) or [])
        return bool(pending) and any(c not in self.told for c in reached)

    def _after_tile_lays(self, game: Any, before: str | None, new_round: bool = False) -> list[dict[str, Any]]:
        from railbook.engine import rounds

        out: list[dict[str, Any]] = []
        now = self.operator
        # (the same company may end one operating round and open the next: a new turn all the same)
        turned = now != before or (new_round and now is not None and before is not None)
        if before is not None and turned and self.noticed != before:
            out.append(self._notice(before, game))  # its turn ended inside the track step
        if now is None:
            return out
        if turned:
            self.noticed = None
        if self.noticed != now:
            step = rounds.active_step(game.context)
            # (markers lifted by a first tile on a hex of unconnected cities are put back before the site's check)
            lifted = bool(game.state.round.data.get("lifted_tokens"))
            # (the loan step comes before the track step and blocks again for repayments after the trains)
            track_over = any(not s.active() for s in rounds.steps_named(game.context, "track"))
            if (step is None or step.name not in _UP_TO_TRACK or track_over) and not lifted:
                out.append(self._notice(now, game))
                self.noticed = now
        return out


def _slot(game: Any, action: dict[str, Any]) -> int | None:
    """The city slot a ``place_token`` just filled (the site names it): the city is ``<tile id>-<city index>``, the
    tile id of a printed hex ``<hex>-<n>``."""
    tile_id, _, index = str(action["city"]).rpartition("-")
    if not index.isdigit():
        return None
    entity = str(action.get("entity"))
    key = f"M|{entity}" if entity in game.state.minors else f"C|{entity}"
    for hex_id, hx in game.state.hexes.items():
        if hx.tile_id != tile_id and not (hx.tile_id is None and tile_id.split("-")[0] == hex_id):
            continue
        cities = hx.tokens
        if int(index) < len(cities) and key in cities[int(index)]:
            return int(cities[int(index)].index(key))
    return None
