"""The documentation's links hold: every relative link in README.md names a file that exists,
and every page under docs/ is in mkdocs.yml's nav (`make docs` builds the site with --strict,
which checks the links between pages and their anchors; this checks what it does not see)."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# [text](target): the target up to a space (a title) or the closing parenthesis.
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)


def relative_links(markdown: str) -> list[str]:
    """Link targets that point into the repository (no scheme, not an in-page anchor), without
    their anchor; code blocks are left out (a shell example is not a link)."""
    prose = FENCE.sub("", markdown)
    targets = (m.group(1) for m in MARKDOWN_LINK.finditer(prose))
    return [t.split("#", 1)[0] for t in targets
            if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I) and not t.startswith("#")]


def broken_links(markdown_file: Path) -> list[str]:
    base = markdown_file.parent
    return [t for t in relative_links(markdown_file.read_text()) if not (base / t).exists()]


def nav_pages(nav: object) -> set[str]:
    """Every page named in an mkdocs nav, at any depth (a page, `Title: page`, or a section)."""
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, list):
        return set().union(*(nav_pages(item) for item in nav)) if nav else set()
    if isinstance(nav, dict):
        return set().union(*(nav_pages(value) for value in nav.values())) if nav else set()
    return set()


def pages_missing_from_nav(docs: Path, mkdocs_yml: Path) -> list[str]:
    nav = nav_pages(yaml.safe_load(mkdocs_yml.read_text())["nav"])
    return sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md")
                  if p.relative_to(docs).as_posix() not in nav)


def test_every_relative_link_in_the_readme_resolves_to_a_file():
    assert relative_links((ROOT / "README.md").read_text()), "the README links into docs/"
    assert broken_links(ROOT / "README.md") == []


def test_every_docs_page_is_in_the_nav():
    assert pages_missing_from_nav(DOCS, ROOT / "mkdocs.yml") == []


def test_a_broken_link_is_found(tmp_path):
    page = tmp_path / "README.md"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("# here\n")
    page.write_text("[ok](docs/here.md#top) [gone](docs/gone.md) [web](https://example.com) [in](#x)\n"
                    "```sh\necho [not](a-link.md)\n```\n")
    assert broken_links(page) == ["docs/gone.md"]


def test_a_page_missing_from_the_nav_is_found(tmp_path):
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    for name in ("index.md", "a.md", "sub/b.md", "sub/orphan.md"):
        (docs / name).write_text("# page\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text("nav:\n  - index.md\n  - A: a.md\n  - Section:\n      - B: sub/b.md\n")
    assert pages_missing_from_nav(docs, config) == ["sub/orphan.md"]
