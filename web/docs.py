"""Help pages rendered from the repository's own guides (``docs/*.md``), so the site and the
files never say different things: a page is rendered on request from the file as it is now,
and the rendering is kept only while the file is unchanged (same size and modification time)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import markdown
from django.conf import settings

EXTENSIONS = ["tables", "fenced_code", "toc", "sane_lists"]


@dataclass(frozen=True)
class HelpPage:
    """A guide rendered to HTML: its first heading as the title, and its table of contents."""

    title: str
    html: str
    toc: list[dict[str, object]]
    source: str
    """The file's path in the repository (``docs/query-language.md``)."""


_rendered: dict[Path, tuple[tuple[int, int], HelpPage]] = {}


def help_page(name: str) -> HelpPage:
    """``docs/<name>.md`` as HTML; raises FileNotFoundError when there is no such guide."""
    path = Path(settings.DOCS_DIR) / f"{name}.md"
    status = path.stat()
    stamp = (status.st_mtime_ns, status.st_size)
    cached = _rendered.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    renderer = markdown.Markdown(
        extensions=EXTENSIONS, extension_configs={"toc": {"permalink": False}}
    )
    html = renderer.convert(path.read_text(encoding="utf-8"))
    toc = list(getattr(renderer, "toc_tokens", []))
    title = str(toc[0]["name"]) if toc else name.replace("-", " ").capitalize()
    page = HelpPage(title=title, html=html, toc=toc, source=f"docs/{path.name}")
    _rendered[path] = (stamp, page)
    return page
