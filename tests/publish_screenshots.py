"""`make screenshots`: copy the README's pictures from a browser-test run into docs/screenshots, compressed.

    python -m tests.publish_screenshots build/screenshots-docs docs/screenshots

Only names docs/screenshots already holds are copied (a new picture is added there by hand, once); each is
quantized to 256 colours (Pillow, which Streamlit already installs), about a third of the bytes of the raw PNG.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image


def publish(source: Path, target: Path) -> list[str]:
    copied = []
    for shot in sorted(target.glob("*.png")):
        fresh = source / shot.name
        if not fresh.is_file():
            continue
        with Image.open(fresh) as image:
            image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(shot, optimize=True)
        copied.append(shot.name)
    return copied


def main(argv: list[str]) -> int:
    source, target = Path(argv[0]), Path(argv[1])
    copied = publish(source, target)
    missing = sorted({p.name for p in target.glob("*.png")} - set(copied))
    print(f"{len(copied)} screenshots refreshed in {target}" + (f"; not made by this run: {', '.join(missing)}"
                                                                 if missing else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
