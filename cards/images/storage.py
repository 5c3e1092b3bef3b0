"""The on-disk cache of rendered card images under ``MEDIA_ROOT/card-images/``.

Files are named by the face's content digest: ``<game>/<card>/<digest>.png`` and
``<digest>.thumb.png``. A card whose data (or drawing code) changed has a new digest, so its old
files are never looked up again; writing the new ones removes the old ones from the card's folder.
Writes go to a temporary file first and are moved into place, so a reader never sees half a PNG.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.conf import settings
from PIL import Image

from cards.images.face import CardFace
from cards.images.render import VARIANTS, RenderedFace, image_digest, render_face

IMAGE_DIR = "card-images"
_TEMP_SUFFIX = ".tmp"


def card_folder(game_slug: str, card_slug: str) -> Path:
    return Path(settings.MEDIA_ROOT) / IMAGE_DIR / game_slug / card_slug


def image_path(game_slug: str, card_slug: str, digest: str, variant: str) -> Path:
    """Where the ``full`` or ``thumb`` image of a card with ``digest`` is stored."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown image variant {variant!r}; expected one of {VARIANTS}")
    suffix = ".png" if variant == "full" else f".{variant}.png"
    return card_folder(game_slug, card_slug) / f"{digest}{suffix}"


# Colours of each variant's palette: an icon is 63 pixels wide, where 64 colours look the same as
# 256 and the palette itself is a quarter of the bytes.
PALETTE_COLOURS = {"full": 256, "thumb": 256, "icon": 64}


def _write_png(image: Image.Image, path: Path, colours: int = 256) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(dir=path.parent, suffix=_TEMP_SUFFIX)
    try:
        with os.fdopen(handle, "wb") as stream:
            # Faces are flat colours, text and gentle gradients: a 256-colour palette keeps them
            # sharp at well under half the bytes of full RGB.
            palette_image = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE)
            palette_image.save(stream, format="PNG", compress_level=6)
        os.chmod(temp_name, 0o644)  # mkstemp makes it private; web servers must read it
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def _remove_stale(folder: Path, digest: str) -> int:
    """Delete the images of earlier digests from a card's folder; return how many went."""
    removed = 0
    for entry in folder.glob("*.png"):
        if not entry.name.startswith(f"{digest}."):
            entry.unlink(missing_ok=True)
            removed += 1
    return removed


def stored_images(face: CardFace) -> dict[str, Path]:
    """The paths of every image of ``face``'s current digest (they may not exist yet)."""
    digest = image_digest(face)
    return {variant: image_path(face.game_slug, face.slug, digest, variant) for variant in VARIANTS}


def ensure_card_images(
    face: CardFace, *, force: bool = False
) -> tuple[dict[str, Path], RenderedFace | None]:
    """Make sure every image (full, thumbnail, icon) of ``face``'s current digest are on disk.

    Returns their paths and, when they had to be drawn (missing, or ``force``), the rendering.
    """
    paths = stored_images(face)
    if not force and all(path.is_file() for path in paths.values()):
        return paths, None
    rendered = render_face(face)
    for variant, path in paths.items():
        _write_png(rendered.variant(variant), path, PALETTE_COLOURS[variant])
    _remove_stale(card_folder(face.game_slug, face.slug), rendered.digest)
    return paths, rendered
