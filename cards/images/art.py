"""Generated card art: a picture that tells cards apart, drawn from the card's own data.

Every card of a type used to share one picture (the type's emblem on a sunburst). The art here is
derived from what identifies a card: its game, name, card type, subtypes, branch, rarity and
printed numbers are hashed (``art_seed``), and the hash picks the composition (a rosette, rings,
bands or a constellation), the hue that tints the branch colour, the positions, sizes and turns of
every shape. Printed numbers show too: the rosette has as many petals as the card's numbers add up
to (folded into 5-12), and the rings one ring per point of cost (at most 6). The same card always
gives the same picture (the hash, not a random generator, chooses everything), and two cards of
one type and branch differ wherever any of those fields differ.

The drawing is Pillow primitives on one translucent overlay pasted once, so it costs a few
milliseconds per face. The file digest (``cards.images.face.face_digest``) covers every field
hashed here and this module's code, so a changed field or a changed drawing gives a new image.
"""

from __future__ import annotations

import colorsys
import hashlib
import math

from PIL import Image, ImageDraw

from cards.images.face import CardFace
from cards.images.layout import Box
from cards.images.paint import RGB, Painter, darken, lighten, mix

COMPOSITIONS = ("rosette", "rings", "bands", "constellation")


def art_seed(face: CardFace) -> bytes:
    """The bytes every choice of a face's art derives from: a hash of the card's own data."""
    parts = [
        face.game_slug,
        face.name,
        face.type_slug,
        ",".join(face.subtypes),
        face.branch_slug or "",
        face.rarity_slug or "",
        ";".join(f"{n.column}={n.value}" for n in face.numbers),
    ]
    return hashlib.sha256("\x1f".join(parts).encode()).digest()


class _Choices:
    """Deterministic numbers read from a seed (SHA-256 in counter mode): no global RNG."""

    def __init__(self, seed: bytes):
        self._seed = seed
        self._counter = 0
        self._pool = b""

    def _byte(self) -> int:
        if not self._pool:
            self._pool = hashlib.sha256(self._seed + self._counter.to_bytes(4, "big")).digest()
            self._counter += 1
        value, self._pool = self._pool[0], self._pool[1:]
        return value

    def unit(self) -> float:
        """A number in [0, 1)."""
        return ((self._byte() << 8) | self._byte()) / 65536

    def between(self, low: float, high: float) -> float:
        return low + (high - low) * self.unit()

    def pick(self, count: int) -> int:
        """An index in ``range(count)``."""
        return min(count - 1, int(self.unit() * count))


def _tint(base: RGB, hue_shift: float, amount: float) -> RGB:
    """``base`` mixed with a copy of itself turned round the colour wheel by ``hue_shift``."""
    h, lightness, s = colorsys.rgb_to_hls(*(c / 255 for c in base))
    r, g, b = colorsys.hls_to_rgb((h + hue_shift) % 1.0, lightness, max(s, 0.35))
    return mix(base, (round(r * 255), round(g * 255), round(b * 255)), amount)


def _numbers_total(face: CardFace) -> int:
    return sum(abs(n.value) for n in face.numbers if isinstance(n.value, int))


def _cost(face: CardFace) -> int:
    cost = face.number("cost")
    return cost.value if cost is not None and isinstance(cost.value, int) else 0


def _shade_a_field(
    draw: ImageDraw.ImageDraw, choose: _Choices, width: int, height: int, shade: RGB
) -> None:
    """Shade the part of the picture on one side of a line through it: the line's angle and
    where it crosses come from the hash, so two cards' fields cover different parts of the art
    (a large area, where the shapes drawn over it may be small)."""
    angle = choose.between(0, math.tau)
    dx, dy = math.cos(angle), math.sin(angle)
    px, py = width * choose.between(0.25, 0.75), height * choose.between(0.25, 0.75)
    far = 2 * math.hypot(width, height)
    # The half-plane left of the line (px, py) + t(dx, dy), as a quadrilateral that covers it.
    nx, ny = -dy, dx
    draw.polygon(
        [
            (px - dx * far, py - dy * far),
            (px + dx * far, py + dy * far),
            (px + dx * far + nx * far, py + dy * far + ny * far),
            (px - dx * far + nx * far, py - dy * far + ny * far),
        ],
        fill=(*shade, 120),
    )


def draw_generated_art(painter: Painter, face: CardFace, base: RGB, box: Box) -> str:
    """Fill ``box`` with the face's generated art in shades of ``base``; return the composition
    drawn (the layout records the box as ``boxes["art"]`` and the composition as a point
    ``art-<composition>``)."""
    choose = _Choices(art_seed(face))
    hue_shift = choose.between(-0.12, 0.12)
    top = lighten(_tint(base, hue_shift, 0.5), choose.between(0.3, 0.6))
    bottom = darken(_tint(base, -hue_shift, 0.4), choose.between(0.15, 0.4))
    painter.vertical_gradient(box, top, bottom)
    composition = COMPOSITIONS[choose.pick(len(COMPOSITIONS))]
    overlay = Image.new("RGBA", (box.width, box.height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    light = lighten(_tint(base, hue_shift * 2, 0.6), 0.65)
    dark = darken(_tint(base, -hue_shift * 2, 0.6), 0.45)
    width, height = box.width, box.height
    # Two fields, one light and one dark, so one of them shows whatever the base colour; and two
    # cards whose first lines happen to fall close still differ in the second.
    _shade_a_field(draw, choose, width, height, light)
    _shade_a_field(draw, choose, width, height, dark)
    cx = width * choose.between(0.3, 0.7)
    cy = height * choose.between(0.35, 0.65)
    reach = math.hypot(width, height)
    if composition == "rosette":
        petals = 5 + _numbers_total(face) % 8
        turn = choose.between(0, math.tau)
        length = reach * choose.between(0.3, 0.5)
        spread = math.pi / petals * choose.between(0.35, 0.8)
        for index in range(petals):
            angle = turn + math.tau * index / petals
            tip = (cx + length * math.cos(angle), cy + length * math.sin(angle))
            side = length * 0.45
            left = (cx + side * math.cos(angle - spread), cy + side * math.sin(angle - spread))
            right = (cx + side * math.cos(angle + spread), cy + side * math.sin(angle + spread))
            color = light if index % 2 == 0 else dark
            draw.polygon([(cx, cy), left, tip, right], fill=(*color, 120))
    elif composition == "rings":
        rings = 2 + min(_cost(face), 6)
        step = reach * choose.between(0.05, 0.09)
        for index in range(rings, 0, -1):
            r = step * index * 1.4
            color = light if index % 2 else dark
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r),
                outline=(*color, 150),
                width=max(3, round(step * 0.45)),
            )
    elif composition == "bands":
        bands = 3 + choose.pick(5)
        angle = choose.between(0, math.pi)
        dx, dy = math.cos(angle), math.sin(angle)
        nx, ny = -dy, dx
        spacing = reach / (bands * 1.6)
        for index in range(-bands, bands + 1):
            offset = index * spacing + choose.between(-spacing * 0.2, spacing * 0.2)
            half = spacing * choose.between(0.15, 0.35)
            ox, oy = cx + nx * offset, cy + ny * offset
            color = light if index % 2 else dark
            draw.polygon(
                [
                    (ox - dx * reach + nx * half, oy - dy * reach + ny * half),
                    (ox + dx * reach + nx * half, oy + dy * reach + ny * half),
                    (ox + dx * reach - nx * half, oy + dy * reach - ny * half),
                    (ox - dx * reach - nx * half, oy - dy * reach - ny * half),
                ],
                fill=(*color, 90),
            )
    else:  # constellation
        stars = 7 + _numbers_total(face) % 9
        points = [
            (width * choose.between(0.05, 0.95), height * choose.between(0.08, 0.92))
            for _ in range(stars)
        ]
        draw.line(points, fill=(*light, 140), width=3)
        for index, (x, y) in enumerate(points):
            r = choose.between(5, 16)
            color = light if index % 3 else dark
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(*color, 190))
    # A scatter of small marks in every composition: where the name's hash puts them.
    for _ in range(6 + choose.pick(7)):
        x, y = width * choose.unit(), height * choose.unit()
        r = choose.between(4, 14)
        sides = 3 + choose.pick(4)
        turn = choose.between(0, math.tau)
        shape = [
            (
                x + r * math.cos(turn + math.tau * k / sides),
                y + r * math.sin(turn + math.tau * k / sides),
            )
            for k in range(sides)
        ]
        draw.polygon(shape, fill=(*(light if choose.pick(2) else dark), 110))
    painter.image.paste(overlay, (box.x0, box.y0), overlay)
    painter.layout.points[f"art-{composition}"] = box.center
    painter.layout.boxes["art"] = box
    return composition
