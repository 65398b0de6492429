"""The pages under the server's real Content-Security-Policy (the other browser tests
bypass it to wait on JavaScript expressions): nothing is refused, everything draws."""

from __future__ import annotations

from browser_helpers import TIMEOUT


def test_pages_and_docs_run_under_the_strict_policy(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None)
    page.on("pageerror", lambda error: refused.append(str(error)))
    try:
        response = page.goto(server.url("/"))
        assert "default-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector(".game-tile")
        page.goto(server.url("/play/black-hole?deal=2"))
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#table .card")
        page.goto(server.url("/rules/black-hole"))
        page.wait_for_selector("h1")
        docs = page.goto(server.url("/docs"))
        assert "cdn" not in page.content().lower()
        assert docs.headers["x-frame-options"] == "DENY"
        page.wait_for_selector(".swagger-ui .info")  # Swagger UI drew the API from /openapi.json
        page.wait_for_selector(".opblock-summary-path[data-path='/api/games']")
    finally:
        context.close()
    assert refused == []
