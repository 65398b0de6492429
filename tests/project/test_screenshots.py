"""Screenshots are written again only when the page they show changed (the clock aside).

``tests/browser/screenshots.py`` needs Chromium to take them; what it decides about a
render is checked here on pictures drawn with Pillow and a stand-in for the page.
"""

from __future__ import annotations

import io

from required import require_module
from screenshots import Shots, looks_same

CLOCK = (300.0, 10.0, 40.0, 12.0)


def render(text_colour=(20, 20, 20), clock="0:03", card_at=50, size=(390, 844)) -> bytes:
    """A page: a background, a card, and the clock's text."""
    Image = require_module("PIL.Image", "pip install -e '.[test]'")
    ImageDraw = require_module("PIL.ImageDraw", "pip install -e '.[test]'")
    image = Image.new("RGB", size, (11, 90, 50))
    draw = ImageDraw.Draw(image)
    draw.rectangle((card_at, 100, card_at + 60, 190), fill=(250, 250, 245), outline=text_colour)
    draw.text((CLOCK[0] + 2, CLOCK[1]), clock, fill=(240, 240, 240))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def quantised(png: bytes) -> bytes:
    """What pngquant makes of it, near enough: a palette of 64 colours, dithered."""
    Image = require_module("PIL.Image", "pip install -e '.[test]'")
    out = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").quantize(64, dither=Image.Dither.FLOYDSTEINBERG).save(out, "PNG")
    return out.getvalue()


class Page:
    """A stand-in for a Playwright page: its screenshot and where its clock is."""

    def __init__(self, png: bytes, clock: tuple[float, float, float, float] | None = CLOCK) -> None:
        self.png, self.clock = png, clock

    def screenshot(self, animations: str = "allow") -> bytes:
        assert animations == "disabled"
        return self.png

    def locator(self, selector: str):
        page = self

        class Found:
            def all(self):
                return [] if page.clock is None or selector != "#timer" else [Box()]

        class Box:
            def bounding_box(self):
                x, y, width, height = page.clock
                return {"x": x, "y": y, "width": width, "height": height}

        return Found()


def test_a_pngquant_file_looks_the_same_as_its_render_but_not_as_another_page(tmp_path):
    old = tmp_path / "old.png"
    old.write_bytes(quantised(render(clock="0:02")))
    assert looks_same(render(clock="0:05"), old, [CLOCK])
    assert not looks_same(render(clock="0:05"), old, [])  # the clock is what differs
    assert not looks_same(render(card_at=58), old, [CLOCK])
    assert not looks_same(render(text_colour=(200, 30, 30)), old, [CLOCK])
    assert not looks_same(render(size=(844, 390)), old, [CLOCK])


def test_an_unchanged_page_keeps_its_file_and_a_changed_one_is_written(tmp_path):
    shots = Shots(tmp_path)
    shots.save(Page(render(clock="0:01")), "game-phone.png")
    written = (tmp_path / "game-phone.png").read_bytes()
    shots.save(Page(render(clock="0:04")), "game-phone.png")  # the clock reads more, nothing else changed
    assert (tmp_path / "game-phone.png").read_bytes() == written
    shots.save(Page(render(card_at=70)), "game-phone.png")
    assert (tmp_path / "game-phone.png").read_bytes() != written
    assert (shots.written, shots.kept) == (["game-phone.png", "game-phone.png"], ["game-phone.png"])


def test_a_shot_made_with_pngquant_is_kept_when_the_page_is_the_same(tmp_path):
    (tmp_path / "lobby-phone.png").write_bytes(quantised(render()))
    (tmp_path / "rules-phone.png").write_bytes(quantised(render()))
    shots = Shots(tmp_path)
    shots.save(Page(render(), clock=None), "lobby-phone.png")
    shots.save(Page(render(card_at=120), clock=None), "rules-phone.png")
    assert (tmp_path / "lobby-phone.png").read_bytes() == quantised(render())
    assert (tmp_path / "rules-phone.png").read_bytes() != quantised(render())
    assert (shots.written, shots.kept) == (["rules-phone.png"], ["lobby-phone.png"])
