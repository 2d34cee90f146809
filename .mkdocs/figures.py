"""mkdocs hook: the committed figures (``figures/`` beside ``docs/``) become part of the site, with thumbnails.

The pages link them as ``../figures/NAME.png`` (and their data as ``../figures/NAME.csv``), which also resolves when
the markdown is read in the repository; on the site they live at ``figures/NAME.png``, so the links are rewritten to
that, relative to each page. The gallery (``figures.md``) shows each picture as a thumbnail, drawn at build time
into ``figures/thumbs/`` (480 px wide), that links to the full PNG: the page would otherwise load every figure.

The gallery's examples run in the build's process with the test suite's compilation cache (``.cache/jax``, or
``REGCONTACT_TEST_COMPILATION_CACHE``): after a test run (``tests/test_examples.py`` runs each example) they load
their compiled solves instead of compiling them again.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).parents[1]
THUMB_WIDTH = 480
GALLERY = "figures.md"
_thumbs = tempfile.TemporaryDirectory(prefix="regcontact-thumbs-")


def _thumbnail(path: Path, out: Path) -> None:
    from PIL import Image

    with Image.open(path) as image:
        image.thumbnail((THUMB_WIDTH, THUMB_WIDTH * 4))
        image.save(out, optimize=True)


def on_startup(command, dirty) -> None:
    import os

    from regcontact.compliant.compilation_cache import use_compilation_cache

    use_compilation_cache(os.environ.get("REGCONTACT_TEST_COMPILATION_CACHE") or ROOT / ".cache" / "jax")


def on_files(files: Files, config) -> Files:
    site, urls = config["site_dir"], config["use_directory_urls"]
    thumbs = Path(_thumbs.name)
    (thumbs / "figures" / "thumbs").mkdir(parents=True, exist_ok=True)
    for path in sorted((ROOT / "figures").glob("*.png")):
        files.append(File(f"figures/{path.name}", str(ROOT), site, urls))
        _thumbnail(path, thumbs / "figures" / "thumbs" / path.name)
        files.append(File(f"figures/thumbs/{path.name}", str(thumbs), site, urls))
    for path in sorted((ROOT / "figures").glob("*.csv")):
        files.append(File(f"figures/{path.name}", str(ROOT), site, urls))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    depth = page.file.src_uri.count("/")  # folders between the page and docs/
    markdown = markdown.replace("](" + "../" * (depth + 1) + "figures/", "](" + "../" * depth + "figures/")
    if page.file.src_uri == GALLERY:  # images (not links) show the thumbnail
        markdown = re.sub(r"(!\[[^\]]*\]\()figures/", r"\1figures/thumbs/", markdown)
    return markdown
