"""Plain-language hints for the YAML parser's messages."""

from __future__ import annotations

import re

# (pattern of the parser's message, hint for a designer)
HINTS: tuple[tuple[str, str], ...] = (
    (
        r"^mapping values are not allowed",
        "a ':' where no key can start: indent this line like its siblings, or quote a value that contains ': '",
    ),
    (
        r"^expected <block end>, but found '<block mapping start>'",
        "this line is indented less than the keys above it but more than their parent: line it up with one of them",
    ),
    (
        r"^expected <block end>, but found '\?'",
        "a key among list items (or a list item among keys): "
        "a list's items all start with '- ' at the same indentation",
    ),
    (r"^expected <block end>, but found '<scalar>'", "text after a quoted value: quote the whole value"),
    (r"^expected <block end>, but found '[\]}]'", "a closing bracket without its opening one"),
    (r"^expected ',' or '\]'", "a '[' list is not closed: check its commas and the closing ']'"),
    (r"^expected ',' or '}'", "a '{' mapping is not closed: check its commas and the closing '}'"),
    (r"^found unexpected end of stream", "a quote is not closed: end the value with the same quote mark"),
    (r"^found undefined alias", "'*' starts a YAML alias: quote a value that begins with '*'"),
    (r"^found character '(.)' that cannot start any token", "a value cannot begin with '{0}': quote it"),
    (r"^could not find expected ':'", "a key without ':' after it (or a line indented wrongly)"),
    (r"^did not find expected key", "indentation does not line up with the keys above"),
    (r"^did not find expected '-' indicator", "a list item is not indented like the items above"),
    (r"^found a tab character", "tab character: indent with spaces"),
)


def with_hint(problem: str) -> str:
    """The parser's message with a plain-language hint first, when one is known."""
    for pattern, hint in HINTS:
        m = re.match(pattern, problem)
        if m:
            return f"{hint.format(*m.groups())} (YAML parser: {problem})"
    return problem
