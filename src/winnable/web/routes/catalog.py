"""The games the server plays."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from winnable.web import schemas
from winnable.web.service import catalog

router = APIRouter(prefix="/api/catalog", tags=["games"])


@router.get("", response_model=list[schemas.CatalogEntry])
async def get_catalog() -> list[dict[str, Any]]:
    """Every game the server plays."""
    return CATALOG


CATALOG = catalog()
