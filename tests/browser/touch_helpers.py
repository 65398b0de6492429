"""What the touch, timed-loss and click-to-move browser tests share: a finger's drag
through the DevTools protocol, axe-core's verdict on the page as it is, and a
language's catalogue for the words a test looks for."""

from __future__ import annotations

import time

from required import require_module

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
"""The rules axe-core checks: WCAG 2.1, levels A and AA."""


def axe_violations(page) -> list[str]:
    """axe-core's WCAG 2.1 A/AA violations on the page in its current state (a card
    picked up, a dialog open...), one line each: the rule and the first nodes."""
    axe = require_module("axe_playwright_python.sync_playwright", "pip install axe-playwright-python")
    results = axe.Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]})
    return [f"{v['id']}: {v['help']} " + "; ".join(f"{n['target']}: {n.get('failureSummary', '')}" for n in v["nodes"][:3])
            for v in results.response["violations"]]


def touch_drag(page, start: tuple[float, float], end: tuple[float, float], steps: int = 12) -> None:
    """A finger put down at ``start``, moved to ``end`` in ``steps`` and lifted: real
    touch events (and the pointer events the browser makes of them)."""
    cdp = page.context.new_cdp_session(page)
    try:
        (x0, y0), (x1, y1) = start, end
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        for step in range(1, steps + 1):
            point = {"x": x0 + (x1 - x0) * step / steps, "y": y0 + (y1 - y0) * step / steps}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
            time.sleep(0.016)  # a frame: the page sees the finger move
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def middle(box: dict, y: float | None = None) -> tuple[float, float]:
    """The middle of a bounding box (at height ``y`` inside it, if given)."""
    return box["x"] + box["width"] / 2, box["y"] + (box["height"] / 2 if y is None else y)


def translate(locale: str, text: str) -> str:
    """``text`` in ``locale`` from the site's catalogue (English as it is)."""
    from winnable.web.pages import i18n

    return text if locale == "en" else i18n.gettext(locale, text)


def ntranslate(locale: str, singular: str, plural: str, n: int) -> str:
    from winnable.web.pages import i18n

    return i18n.ngettext(locale, singular, plural, n)
