"""mkdocs hook: the committed figures (``figures/`` beside ``docs/``) become part of the site.

The pages link them as ``../figures/NAME.png``, which also resolves when the markdown is read in the repository;
on the site they live at ``figures/NAME.png``, so the links are rewritten to that, relative to each page.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).parents[1]


def on_files(files: Files, config) -> Files:
    for path in sorted((ROOT / "figures").glob("*.png")):
        files.append(File(f"figures/{path.name}", str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    depth = page.file.src_uri.count("/")  # folders between the page and docs/
    return markdown.replace("](" + "../" * (depth + 1) + "figures/", "](" + "../" * depth + "figures/")
