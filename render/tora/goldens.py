"""Golden images: the canonical samples rendered and compared with stored PNGs.

A stored image matches when few pixels differ noticeably, so a new Pillow or FreeType that
shades a few edge pixels differently does not fail the tests, while any change to what is
drawn does. After an intended change, refresh the stored images with
``python -m render goldens --refresh`` (or ``make goldens``) and look at them before
committing.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops

from ..showcase import PLAYERS, write_images
from .board import board_png, private_png
from .samples import samples

GOLDEN_DIR = Path("tests/golden")
NOTICEABLE = 40  # a channel differing by more than this counts
TOLERANCE = 0.002  # at most this fraction of the pixels may differ noticeably


@dataclass(frozen=True)
class Difference:
    same_size: bool
    differing: float  # fraction of pixels that differ noticeably

    @property
    def ok(self) -> bool:
        return self.same_size and self.differing <= TOLERANCE


def rendered() -> dict[str, bytes]:
    """Every golden sample, rendered now: file name -> PNG bytes."""
    out = {}
    for sample in samples():
        draw = board_png if sample.kind == "public" else private_png
        out[f"{sample.name}.png"] = draw(sample.view, PLAYERS)
    return out


def compare(expected: bytes, actual: bytes) -> Difference:
    a = Image.open(io.BytesIO(expected)).convert("RGB")
    b = Image.open(io.BytesIO(actual)).convert("RGB")
    if a.size != b.size:
        return Difference(False, 1.0)
    worst = ImageChops.difference(a, b).split()
    over = [band.point(lambda v: 255 if v > NOTICEABLE else 0) for band in worst]
    merged = ImageChops.lighter(ImageChops.lighter(over[0], over[1]), over[2])
    histogram = merged.histogram()
    return Difference(True, histogram[255] / (a.width * a.height))


def check(directory: Path = GOLDEN_DIR) -> dict[str, Difference | None]:
    """Each sample's difference from its stored image (None: no stored image)."""
    results: dict[str, Difference | None] = {}
    for name, data in rendered().items():
        path = directory / name
        results[name] = compare(path.read_bytes(), data) if path.exists() else None
    return results


def refresh(directory: Path = GOLDEN_DIR) -> list[Path]:
    return write_images(directory, rendered())
