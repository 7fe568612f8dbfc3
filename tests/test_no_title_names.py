"""No title-specific code in the engine: no title of ``games/`` is named in the engine's, the route optimiser's or
the mechanic declarations' code (issue 36).  A title may be named only in a comment or docstring that cites a rule
of its rulebook, written ``<title> §<section>`` or ``<title> [<section>]`` ("(1846 §6.5)"): the rule is general,
the citation says where it was read.  Facts about how one title is represented elsewhere (18xx.games' phase names)
belong in that title's YAML (its ``site`` section), never in a table of the engine keyed by the title."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from railbook.compiler.load import available_titles

ROOT = Path(__file__).resolve().parent.parent
CODE = sorted(p for d in ("engine", "routes", "params") for ext in ("*.py", "*.pxd") for p in (ROOT / d).rglob(ext))


def _titles() -> list[str]:
    return sorted(available_titles())


def title_mentions(text: str, titles: list[str]) -> list[tuple[int, str]]:
    """(line, token) of every mention of a title that is not a rule citation in a comment or docstring."""
    named = re.compile(r"(?<![\w.])(" + "|".join(re.escape(t) for t in titles) + r")(?![\w])")
    cited = re.compile(r"(?<![\w.])(" + "|".join(re.escape(t) for t in titles) + r")\s*(?:§|\[)")
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        found = named.findall(tok.string)
        if not found:
            continue
        if tok.type in (tokenize.COMMENT, tokenize.STRING) and len(cited.findall(tok.string)) == len(found):
            continue
        out.append((tok.start[0], tok.string[:80]))
    return out


def test_no_title_is_named_in_engine_code() -> None:
    titles = _titles()
    assert "1846" in titles and "18Chesapeake" in titles
    found = [
        f"{path.relative_to(ROOT)}:{line}: {token}"
        for path in CODE
        for line, token in title_mentions(path.read_text(encoding="utf-8"), titles)
    ]
    assert not found, "title names in engine code:\n  " + "\n  ".join(found)


def test_the_check_tells_a_citation_from_a_title_table() -> None:
    code = (
        'SITE = {"1856": 1}  # a table keyed by a title\n'
        "x = 1846\n"
        "# a rule read in (1846 §6.5) and 1850 [5.1]\n"
        '"""1817 does this"""\n'
    )
    assert [line for line, _ in title_mentions(code, ["1817", "1846", "1850", "1856"])] == [1, 2, 4]
