"""The ``private_companies`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/private_companies.py``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration, PhaseId, PrivateId
from railbook.params.base import Params as BaseParams


class PriceBound(BaseParams):
    """One end of the price range of a private: a fixed amount or a multiple of the face value."""

    amount: int | None = Field(None, ge=0, description="a fixed $ amount (takes precedence)")
    face_value_times: float = Field(1.0, ge=0, description="otherwise: the face value times this (rounded up)")


class Params(BaseParams):
    """Corporations buying private companies from players; marker assignments; closures."""

    buy_phases: list[PhaseId] | None = Field(
        None, description="phases in which corporations may buy privates (None: phases with status can_buy_companies)"
    )
    min_price: PriceBound = Field(
        default_factory=lambda: PriceBound(face_value_times=0.5), description="lowest price a corporation may pay"
    )
    max_price: PriceBound = Field(
        default_factory=lambda: PriceBound(face_value_times=2.0), description="highest price a corporation may pay"
    )
    closure_exceptions_owned_by: Literal["anyone", "corporation", "player"] = Field(
        "anyone",
        description="a private listed as an exception of a `close_companies` event survives only when owned so",
    )
    no_income_from_phase: PhaseId | None = Field(
        None, description="from this phase no private pays income (None: they pay while open)"
    )
    count_in_final_value: bool = Field(
        True,
        description="privates a player still owns count at face value in his final value",
    )
    closes_after_own_use_only: list[PrivateId] = Field(
        default_factory=list,
        description="privates whose closing after use (`close` with `after_use`) counts only the uses they make "
        "as the acting entity: their ability applied to the owner's own move (a station the owner places where "
        "the private makes it free) does not close them",
    )


class CloseCompanies(BaseParams):
    """Event ``close_companies``: the private companies close."""

    except_: list[PrivateId] = Field(default_factory=list, alias="except", description="privates that stay open")
    except_while_unused: list[PrivateId] = Field(
        default_factory=list,
        description="privates that stay open while an ability with a count has uses left (one whose uses run "
        "out afterwards stays open, with nothing left to do, until a later closure)",
    )


class RemoveMarkers(BaseParams):
    """Event ``remove_markers``: the listed privates' markers leave the map and the corporations."""

    privates: list[PrivateId] = Field(description="privates whose assignments are removed")


#: The names of the steps private_companies contributes (a round kind lists them in the rulebook).
BUY_COMPANY_STEP = "buy_company"
ASSIGN_STEP = "assign"


DECLARATION = Declaration(
    name="private_companies",
    description="corporations buy privates from players; private markers; closure of the privates",
    params=Params,
    steps=(BUY_COMPANY_STEP, ASSIGN_STEP),
    events={"close_companies": CloseCompanies, "remove_markers": RemoveMarkers},
    provides=("PrivateCompanies",),
)
