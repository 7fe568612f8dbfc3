"""The documentation agrees with the scaffold and sends readers to no file outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

from railbook.compiler.scaffold import scaffold
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def _count(sentence: str, noun: str) -> int:
    m = re.search(rf"\b(\w+) {noun}", sentence)
    assert m, f"{noun!r} not in {sentence!r}"
    return WORDS[m.group(1)]


def test_format_describes_the_scaffold(tmp_path: Path) -> None:
    title = scaffold("demo", tmp_path)
    yaml = YAML(typ="safe")
    data: dict = {}
    for path in title.glob("*.yaml"):
        data.update(yaml.load(path.read_text(encoding="utf-8")))
    text = (ROOT / "docs" / "FORMAT.md").read_text(encoding="utf-8")
    sentence = " ".join(text.split("writes a small title that validates, compiles, renders and plays:")[1].split()[:40])
    hexes = data["map"]["hexes"].values()
    assert _count(sentence, "cities") == sum(len((h or {}).get("cities", [])) for h in hexes)
    assert _count(sentence, "off-board") == sum(1 for h in hexes if (h or {}).get("color") == "red")
    assert _count(sentence, "tiles") == len(data["manifest"])
    assert _count(sentence, "trains") == len(data["trains"])
    assert _count(sentence, "corporations") == len(data["corporations"])
    assert _count(sentence, "private") == len(data["privates"])
    assert _count(sentence, "option") == len(data["options"])
    first = data["phases"][0]
    example = text.split("phases:\n  - ", 1)[1].split("\n", 1)[0]
    assert ("on:" in example) == ("on" in first), "FORMAT.md's first phase is written as the scaffold's"


def test_no_document_points_outside_the_repository() -> None:
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        assert "../shared/" not in text and "/work/shared" not in text, doc.name
