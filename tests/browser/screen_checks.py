"""What the screen tests measure in the page: text cut or off the screen, a page that
scrolls sideways, and axe-core's WCAG 2.1 A/AA violations."""

from __future__ import annotations

import json
from pathlib import Path

from touch_helpers import still

LANGUAGES = ("en", "fr", "nl")

WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, "resultTypes": ["violations"]}
"""axe-core's rules for WCAG 2.0 and 2.1, levels A and AA."""

# Every visible element with text of its own (the card table aside: the cards are
# drawn): cut by an ellipsis or by its box (scrollWidth > clientWidth), or reaching past
# the screen's edge; a select whose chosen option is wider than its box; an icon
# squashed under 8 px; and the page itself wider than the screen.
CUT_OR_OFF = """
() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) out.push({what: "the page scrolls sideways", scroll: doc.scrollWidth, client: doc.clientWidth});
  const visible = (n) => {
    if (n.closest("[hidden]") || n.closest("details:not([open]) > :not(summary)")) return false;
    const popover = n.closest("[popover]");
    if (popover && !popover.matches(":popover-open")) return false;
    const s = getComputedStyle(n);
    if (s.visibility === "hidden" || s.display === "none") return false;
    const r = n.getBoundingClientRect();
    return r.width > 1 && r.height > 1;  // a visually hidden name is 1 x 1
  };
  const name = (n) => n.id ? "#" + n.id : n.tagName.toLowerCase() + (typeof n.className === "string" && n.className ? "." + n.className.trim().split(/\\s+/).join(".") : "");
  const probe = document.createElement("span");
  probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;left:-9999px;top:0";
  document.body.append(probe);
  for (const n of document.querySelectorAll("body *")) {
    if (n === probe || n.closest("#table") || !visible(n)) continue;
    const s = getComputedStyle(n);
    if (n.tagName === "SELECT") {
      const option = n.options[n.selectedIndex];
      if (!option) continue;
      probe.style.font = s.font;
      probe.textContent = option.textContent;
      const room = n.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      const need = probe.getBoundingClientRect().width;
      if (need > room + 1) out.push({what: "a choice cut", node: name(n), text: option.textContent, need: Math.round(need), room: Math.round(room)});
      continue;
    }
    if (n.tagName.toLowerCase() === "svg") {
      const r = n.getBoundingClientRect();
      if (r.width < 8 || r.height < 8) out.push({what: "an icon squashed", node: name(n), width: Math.round(r.width), height: Math.round(r.height)});
      continue;
    }
    if (n.closest("svg")) continue;
    const text = [...n.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join("").trim();
    if (!text) continue;
    const r = n.getBoundingClientRect();
    if (r.right > doc.clientWidth + 1 || r.left < -1) out.push({what: "off the screen", node: name(n), text: text.slice(0, 40), left: Math.round(r.left), right: Math.round(r.right)});
    if (s.display !== "inline" && n.scrollWidth > n.clientWidth + 1) out.push({what: s.textOverflow === "ellipsis" ? "cut by an ellipsis" : "cut", node: name(n), text: text.slice(0, 40), scroll: n.scrollWidth, client: n.clientWidth});
  }
  probe.remove();
  return out;
}
"""


def cut_or_off(page) -> list[dict]:
    """What is cut, squashed or off the screen in ``page`` now (empty when nothing)."""
    return page.evaluate(CUT_OR_OFF)


def axe_violations(page) -> list[str]:
    """axe-core's WCAG 2.1 A/AA violations in ``page`` as it is now, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    still(page)  # colours judged as they settle: not halfway through a dialog's fade-in
    results = Axe().run(page, options=WCAG)
    found = []
    for violation in results.response.get("violations", []):
        targets = [", ".join(map(str, node.get("target", []))) for node in violation.get("nodes", [])][:4]
        found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    return found


def lang_url(server, path: str, lang: str) -> str:
    return server.url(path + ("&" if "?" in path else "?") + f"lang={lang}")


def dump(findings) -> str:
    return json.dumps(findings, ensure_ascii=False, indent=1)[:3000]


HERE = Path(__file__).parent


# The table as a player sees it (issue 34): every covered card shows its corner (the rank
# and the suit, the top 27 % of the card) unless it is tucked inside a run of its suit
# (its neighbours say what it is); no card lies on a card of another place; and, with the
# page scrolled to its top, every card is on the screen and under no fixed bar (the
# toolbar docked at the bottom, a header that stays). The cards shown but never played
# (the stock's backs, the completed runs, the hole's pile, the pairs taken out) aside.
CORNER = 0.27
TABLE_PROBLEMS = """
(corner) => {
  const out = [];
  const cards = [...document.querySelectorAll("#table .card")].filter((n) => !n.closest(".stock, .run-slot, .hole-stack, .removed"));
  const rect = (n) => n.getBoundingClientRect();
  const what = (n) => (n.dataset.card || "back") + "@" + (n.dataset.place || "?") + ":" + (n.dataset.index || "?");
  const boxes = cards.map(rect);
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  cards.forEach((n, i) => {
    const r = boxes[i];
    const z = Number(getComputedStyle(n).zIndex) || 0;
    cards.forEach((m, j) => {
      if (i === j || !meets(r, boxes[j])) return;
      if (m.parentElement !== n.parentElement) {
        if (i < j) out.push({what: "cards of two places overlap", cards: [what(n), what(m)]});
        return;
      }
      if (!n.dataset.card || n.classList.contains("tucked") || (Number(getComputedStyle(m).zIndex) || 0) <= z) return;
      const q = boxes[j];
      if (q.top < r.top + corner * r.height - 0.5) out.push({what: "a rank corner covered", card: what(n), shows: Math.round(((q.top - r.top) / r.height) * 1000) / 1000});
    });
  });
  const bars = [...document.querySelectorAll("body *")].filter((n) => {
    const s = getComputedStyle(n);
    if (s.position !== "fixed" && s.position !== "sticky") return false;
    if (n.closest("[hidden], .message, .overlay, .menu, .review, .drag-ghost, #suit-sprite") || s.display === "none" || s.visibility === "hidden") return false;
    const b = rect(n);
    return b.width > 1 && b.height > 1;
  });
  const saved = window.scrollY;
  window.scrollTo(0, 0);
  const now = cards.map(rect);
  cards.forEach((n, i) => {
    const r = now[i];
    if (r.bottom > innerHeight + 0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.left < -0.5) out.push({what: "a card off the screen", card: what(n), top: Math.round(r.top), bottom: Math.round(r.bottom)});
    for (const bar of bars) if (meets(r, rect(bar))) out.push({what: "a card under a fixed bar", card: what(n), bar: bar.id || bar.className});
  });
  window.scrollTo(0, saved);
  return out;
}
"""


def table_problems(page) -> list[dict]:
    """What is wrong with the table as drawn now (see :data:`TABLE_PROBLEMS`), empty when nothing."""
    return page.evaluate(TABLE_PROBLEMS, CORNER)


HEADER_ROWS = """() => {
  const top = document.querySelector(".play-top");
  const kids = [...top.children].filter((n) => getComputedStyle(n).display !== "none" && n.getBoundingClientRect().width > 1);
  const rows = new Set(kids.map((n) => Math.round(n.getBoundingClientRect().top + n.getBoundingClientRect().height / 2) >> 3));
  return {rows: rows.size, height: Math.round(top.getBoundingClientRect().height)};
}"""
"""How many rows the game page's header stands in (its children's middles, to 8 px), and its height."""
