"""The ``exchange`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/exchange.py``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Exchanging a private for a share: the rules every ``exchange`` ability follows."""

    share_limit: Literal["enforced", "ignored"] = Field(
        "enforced", description="whether the holder may end above the share limit of the corporation"
    )


EXCHANGE_STEP = "exchange"

DECLARATION = Declaration(
    name="exchange",
    description="a private company traded for a share of a corporation",
    params=Params,
    steps=(EXCHANGE_STEP,),
)
