"""What the touch, timed-loss and click-to-move browser tests share: a finger's drag
through the DevTools protocol, axe-core's verdict on the page as it is, and a
language's catalogue for the words a test looks for."""

from __future__ import annotations

import time

from required import require_module

# A winning line of Black Widow deal 5, recorded (the solver's line of an earlier engine):
# the Spider tests stop at positions of this line, whatever the solver finds today. After
# its first 30 moves column 7 holds 2♦ under A♦, and the next move is 7>8x2.
WIDOW_5_LINE = (
    "9>8 9>7 4>3 4>3 deal 2>9 1>7 1>9 deal 3>9 8>2 4>2 8>10 5>4 4>2x2 4>5 4>5 4>2 2>4x3 "
    "8>2x2 4>8x4 5>4x3 5>8 3>5 7>3 7>2x2 deal 2>10 9>2 7>4 7>8x2 9>2x2 6>9 7>9 7>6 7>5 "
    "7>4 9>4x2 9>7x3 9>10 10>4x3 deal 3>8 5>3 9>5 5>10x3 9>2 9>1 1>7x3 8>9 10>8x3 6>4 "
    "deal 5>2 5>9x2 2>3x2 3>2x3 3>6x2 5>3 5>7 5>8 6>9x3 9>7 8>6x2 8>6x4 6>10x8 6>9 4>6x6 "
    "10>4x4 8>10x8 1>6x2 1>3 6>1x9 10>3x3 1>6x9 10>1x6 8>10 10>8x4 10>5 9>10x7 10>2x8 "
    "4>9x9 6>4x10 4>6x5 7>4x5 3>7x5 6>4x6 3>6x4 4>3x6 3>4x7 3>5 4>3x7 3>8x8 8>4x13 8>5 "
    "3>5 3>1 8>1 2>3x13 2>5x9 6>2x4 9>6x5 6>8x6 6>9 5>9x8 7>6x7 8>7x6 2>8x5 2>7 3>7x3 "
    "9>2x11 2>7x12 7>2x12 2>7x13 2>9 8>2x5 4>9x10 1>4x9 2>8x6 2>5 8>5x2 6>8x7 1>2 9>1x12 "
    "3>9x9 7>3x12 5>7x7 1>6x13 2>1 1>9x2 10>1x2 10>9 8>10x11 10>5x12 10>4 10>7 1>10x2 "
    "6>7x4 4>6x4 10>1x3 10>4 9>4x3 1>9x3 9>1x2 6>9x2 3>6x2 7>3x2 1>7x2 9>1x7 6>9x7 3>6x7 "
    "1>3x7"
).split()

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
"""The rules axe-core checks: WCAG 2.1, levels A and AA."""


def still(page) -> None:
    """Wait until no finite animation runs (a dialog's fade-in, a card's flight), so that
    colours are judged as they settle."""
    page.wait_for_function("""() => document.getAnimations().every((a) => a.playState !== "running"
        || a.effect.getComputedTiming().iterations === Infinity)""")


def axe_violations(page) -> list[str]:
    """axe-core's WCAG 2.1 A/AA violations on the page in its current state (a card
    picked up, a dialog open...), once it stands still, one line each: the rule and the
    first nodes."""
    axe = require_module("axe_playwright_python.sync_playwright", "pip install axe-playwright-python")
    still(page)
    results = axe.Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]})
    return [
        f"{v['id']}: {v['help']} " + "; ".join(f"{n['target']}: {n.get('failureSummary', '')}" for n in v["nodes"][:3])
        for v in results.response["violations"]
    ]


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
