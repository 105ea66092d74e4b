"""The documentation holds together: every relative link leads to a file that exists, the
README stays a front page that names the course's commands, and the generated tables have
the markers their benchmark scripts write between (benchmarks/docs_tables.py)."""

from __future__ import annotations

import re
import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import docs_tables

DOCUMENTS = sorted(
    [
        REPO / name
        for name in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md")
        if (REPO / name).is_file()
    ]
    + list((REPO / "docs").glob("*.md"))
)
# Where a markdown link or image points: [text](target) or ![alt](target "title").
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
# The benchmarks that write a table into docs/performance.md, and the command behind each.
TABLES = {
    "bench": ("run.py", "make bench"),
    "bench-load": ("load_bench.py", "make bench-load"),
    "bench-grade": ("grade_bench.py", "make bench-grade"),
}


def links(text: str) -> list[str]:
    """The targets of the text's markdown links, outside code (where they are examples)."""
    return LINK.findall(CODE.sub("", FENCE.sub("", text)))


def relative(target: str) -> bool:
    return not re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("#")


def heading_anchors(text: str) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as -."""
    anchors = set()
    for heading in re.findall(r"^#+\s+(.*?)\s*$", FENCE.sub("", text), re.M):
        plain = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower())
        anchors.add(plain.replace(" ", "-"))
    return anchors


def test_the_documents_are_found():
    names = {p.relative_to(REPO).as_posix() for p in DOCUMENTS}
    assert {
        "README.md",
        "CHANGELOG.md",
        "CONTRIBUTING.md",
        "docs/maintainers.md",
        "docs/instructors.md",
        "docs/security.md",
        "docs/feedback.md",
        "docs/authoring.md",
        "docs/performance.md",
        "docs/hub.md",
    } <= names


@pytest.mark.parametrize("page", DOCUMENTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_leads_to_a_file_that_exists(page):
    text = page.read_text()
    broken = []
    for target in filter(relative, links(text)):
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve()
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in heading_anchors(where.read_text()):
            broken.append(f"{target}: no heading #{anchor} there")
    assert not broken, f"{page.relative_to(REPO)}: " + "; ".join(broken)


def test_links_are_found_in_text_but_not_in_code():
    text = (
        '[a](docs/a.md) and ![b](../images/b.png "title") and [c](https://x.org) and '
        "`[d](nowhere.md)`\n```\n[e](nowhere.md)\n```\n"
    )
    assert links(text) == ["docs/a.md", "../images/b.png", "https://x.org"]
    assert [t for t in links(text) if relative(t)] == ["docs/a.md", "../images/b.png"]
    assert heading_anchors("# What students receive\n## `make bench`: a, b") == {
        "what-students-receive",
        "make-bench-a-b",
    }


def test_the_readme_is_a_front_page_that_names_the_commands_and_links_the_docs():
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 150, "the README is a front page: move detail to docs/"
    for command in ("make lab", "make test"):  # CI runs `make test` (.ci/run)
        assert command in readme, command
    linked = {t.partition("#")[0] for t in links(readme) if relative(t)}
    assert {
        "docs/maintainers.md",
        "docs/instructors.md",
        "docs/security.md",
        "docs/feedback.md",
        "docs/authoring.md",
        "docs/performance.md",
        "docs/hub.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
    } <= linked
    # Generated tables and the course's settings live elsewhere now.
    assert "<!--" not in readme and 'COURSE_REPO = "' not in readme


@pytest.mark.parametrize("name", TABLES)
def test_each_generated_table_has_its_markers_and_its_command(name):
    script, command = TABLES[name]
    page = docs_tables.PERFORMANCE.read_text()
    start, end = docs_tables.markers(name)
    assert page.count(start) == 1 and page.count(end) == 1, name
    table = page[page.index(start) + len(start) : page.index(end)]
    before = page[: page.index(start)].rsplit("\n## ", 1)[-1]
    assert f"`{command}` writes this" in before, f"name the command above the {name} table"
    assert table.strip().startswith(f"Measured by `{command}`"), name
    assert f'splice("{name}",' in (REPO / "benchmarks" / script).read_text(), script


def test_splice_replaces_only_what_is_between_the_markers(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nwords\n<!-- t:start -->\nold\n<!-- t:end -->\nmore words\n")
    docs_tables.splice("t", "new table\n", page)
    assert page.read_text() == (
        "# Title\n\nwords\n<!-- t:start -->\nnew table\n<!-- t:end -->\nmore words\n"
    )
    docs_tables.splice("t", "new table\n", page)  # the same text twice: the same page
    assert page.read_text().count("new table") == 1
    with pytest.raises(ValueError, match="needs the lines"):
        docs_tables.splice("other", "x", page)
    assert "new table" in page.read_text()


def test_make_alone_says_what_every_documented_command_does():
    import subprocess

    makefile = (REPO / "Makefile").read_text()
    documented = re.findall(r"^## .*\n(?:(?:##|\.|[A-Z_]+ *[?:]?=).*\n)*([a-z-]+):", makefile, re.M)
    said = subprocess.run(
        ["make", "-s", "--no-print-directory"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    listed = re.findall(r"^  make (\S+) +\S", said, re.M)
    assert listed == documented and {"lab", "test", "grade", "help"} <= set(listed), said
