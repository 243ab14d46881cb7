"""The page itself: ``index.html`` with ``<html lang>`` in the language the browser asks for first
(``Accept-Language``) among those the client has a catalog for, so that the first page is announced
and drawn in it before any script runs."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.languages import CATALOG_DIR, best_language, catalog_languages

FRONTEND_DIR = CATALOG_DIR.parent
ENGLISH_ROOT = '<html lang="en">'

router = APIRouter(include_in_schema=False)


def index_page(request: Request) -> HTMLResponse:
    page = (FRONTEND_DIR / "index.html").read_text(encoding="utf-8")
    language = best_language(request.headers.get("accept-language", ""), catalog_languages())
    return HTMLResponse(page.replace(ENGLISH_ROOT, f'<html lang="{language}">', 1),
                        headers={"Vary": "Accept-Language"})


router.add_api_route("/", index_page, methods=["GET", "HEAD"])
router.add_api_route("/index.html", index_page, methods=["GET", "HEAD"])
