"""What the docs' example images of every game share: the players they show, and writing
them out."""

from __future__ import annotations

from pathlib import Path

from .status import StatusInfo

PLAYERS = StatusInfo(challenger="Aiko", opposition="Bram", deadline="due in 11 h")


def write_images(directory: Path, images: dict[str, bytes]) -> list[Path]:
    """Write each image under its name in ``directory`` (created if missing)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in images.items():
        path = directory / name
        path.write_bytes(data)
        written.append(path)
    return written
