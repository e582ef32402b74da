"""Draws the console's app icons (api/static/console/icons/icon-*.png), the favicon's bank note
at the sizes a phone's home screen asks for: 192 and 512 px, and a maskable 512 px whose note
stays inside the safe zone (the middle 80 %) that a launcher's mask never cuts.

Run once after a change of the drawing, and commit the PNGs (the server never runs this):
    pip install -e '.[icons]' && python tools/console_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parents[1] / "api" / "static" / "console" / "icons"
GREEN = "#14532d"  # the top bar's (--brand), as in favicon.svg
NOTE = "#bbf7d0"
SUPERSAMPLE = 4  # drawn larger, then scaled down: smooth edges without an anti-aliasing pass


def draw(size: int, *, maskable: bool) -> Image.Image:
    """The icon at ``size`` px: a rounded tile, or (maskable) a full square for the mask."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    unit = big / 32  # favicon.svg's grid
    if maskable:
        pen.rectangle((0, 0, big, big), fill=GREEN)
        # The note well inside the safe zone, the middle circle of radius 40 %.
        scale, offset = 0.85, big * 0.075
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=6 * unit, fill=GREEN)
        scale, offset = 1.0, 0.0

    def box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        return (
            offset + x * unit * scale,
            offset + y * unit * scale,
            offset + (x + w) * unit * scale,
            offset + (y + h) * unit * scale,
        )

    pen.rounded_rectangle(box(5, 9, 22, 14), radius=2 * unit * scale, fill=NOTE)
    pen.ellipse(box(12, 12, 8, 8), fill=GREEN)  # the coin in the middle of the note
    pen.ellipse(box(14.5, 14.5, 3, 3), fill=NOTE)
    for x in (7, 23):  # the note's corner marks
        pen.ellipse(box(x, 15, 2, 2), fill=GREEN)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        draw(size, maskable=maskable).save(ICONS / name, optimize=True)
        print(ICONS / name)


if __name__ == "__main__":
    main()
