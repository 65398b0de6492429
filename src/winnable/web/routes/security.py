"""A CSRF token for clients that send no ``Origin`` header (scripts, tools): browsers on
this site's pages need none (see :mod:`winnable.web.security.csrf`)."""

from __future__ import annotations

from typing import TypedDict

from fastapi import APIRouter, Request

from winnable.web.deps import CsrfDep
from winnable.web.models import schemas
from winnable.web.security.csrf import TOKEN_HEADER, TOKEN_SECONDS

router = APIRouter(prefix="/api/csrf", tags=["server"])


class CsrfToken(TypedDict):
    """The API's ``CsrfToken``."""

    token: str
    header: str
    expires_in: int


@router.get("", response_model=schemas.CsrfToken)
async def csrf_token(request: Request, csrf: CsrfDep) -> CsrfToken:
    """A token to send in the ``X-CSRF-Token`` header of state-changing calls."""
    return {"token": csrf.issue(request.scope), "header": TOKEN_HEADER, "expires_in": TOKEN_SECONDS}
