"""Input limits: where each one stops a title or a record, the undo filter, and ``--json`` on every command."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from railbook.compiler.errors import TitleError
from railbook.compiler.load import load_title

from railbook import limits
from railbook.cli import app
from railbook.records import RecordError, kept_actions, read_record
from tests.conftest import ROOT, fixture_files, run_cli


def reference_filter(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The undo/redo rule written plainly (quadratic): the oracle :func:`kept_actions` must agree with."""
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    undone: list[list[int]] = []
    for index, action in enumerate(actions):
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            live = [i for i in range(index) if kept[i] is not None and kept[i]["type"] != "message"]
            if target is None:
                group = live[-1:]
            else:
                pos = next((i for i, a in enumerate(actions) if a.get("id") == target), None)
                start = 0 if target == 0 else (pos + 1 if pos is not None else index)
                group = [i for i in live if i >= start]
            for i in group:
                kept[i] = None
            undone.append(group)
        elif kind == "redo":
            for i in undone.pop() if undone else []:
                kept[i] = actions[i]
        else:
            if kind != "message":
                undone.clear()
            kept[index] = action
    return [a for a in kept if a is not None]


ACTION = st.one_of(
    st.just({"type": "pass"}),
    st.just({"type": "message"}),
    st.just({"type": "undo"}),
    st.just({"type": "redo"}),
    st.builds(lambda t: {"type": "undo", "action_id": t}, st.integers(min_value=0, max_value=40)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ACTION, max_size=40))
def test_kept_actions_agrees_with_the_plain_rule(kinds: list[dict[str, Any]]) -> None:
    actions = [{**a, "id": i + 1} for i, a in enumerate(kinds)]
    assert kept_actions(actions) == reference_filter(actions)


@pytest.mark.parametrize("title", ["1846", "1817", "1850", "1856", "1870"])
def test_shared_records_read_and_filter_as_before(title: str) -> None:
    files = fixture_files(title)
    if not files:
        pytest.skip("shared records not available (set RAILBOOK_SHARED)")
    for path in files:
        record = read_record(path)
        assert kept_actions(record["actions"]) == reference_filter(record["actions"]), path.name


def test_undo_chain_is_linear() -> None:
    actions = [{"id": 1, "type": "pass"}] + [{"id": i + 2, "type": "undo"} for i in range(40_000)]
    assert kept_actions(actions) == []


def test_undo_work_is_capped() -> None:
    actions = [{"id": i, "type": "pass"} for i in range(1, 1001)]
    actions += [{"id": 2000 + i, "type": "undo" if i % 2 == 0 else "redo", "action_id": 0} for i in range(5000)]
    with pytest.raises(RecordError, match=r"record\.undo"):
        kept_actions(actions)


def _write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def test_record_errors_name_file_action_and_rule(tmp_path: Path) -> None:
    cases = {
        '{"actions": [{"id": 1, "type": "pass"}, {"id": 2, "type": 3}]}': "action 1 (id 2): record.malformed",
        '{"actions": [{"type": "pass"}]}': "action 0 (id None): record.id",
        '{"actions": [{"id": 1, "type": "a"}, {"id": 1, "type": "b"}, {"id": 2, "type": "undo", "action_id": 1}]}': (
            "action 2 (id 2): record.id: undo to id 1, which more than one action has"
        ),
        '{"actions": [' + "[" * 40 + "]" * 40 + "]}": "r.json:1:44: nested deeper than 32 levels",
        '{"actions": [], "seed": 1e999}': "too large a number",
        '{"actions": [}': "r.json:1:14: not JSON",
    }
    for text, expected in cases.items():
        with pytest.raises(RecordError) as info:
            read_record(_write(tmp_path / "r.json", text))
        assert expected in str(info.value), text
        assert str(info.value).startswith(str(tmp_path / "r.json")), text
    log = '{"format": "railbook-log", "actions": [{"type": "pass"}]}'
    assert read_record(_write(tmp_path / "r.json", "\ufeff" + log))["actions"] == [{"type": "pass"}]


def _title_with(tmp_path: Path, demo_title: Path, extra: str) -> Path:
    target = tmp_path / "t"
    target.mkdir()
    for path in demo_title.glob("*.yaml"):
        (target / path.name).write_bytes(path.read_bytes())
    (target / "extra.yaml").write_text(extra, encoding="utf-8")
    return target


def test_yaml_limits_are_located(tmp_path: Path, demo_title: Path) -> None:
    bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 8)
    )
    cases = {
        bomb: "extra.yaml:5:",
        "k: " + "[" * 50 + "]" * 50 + "\n": "extra.yaml:1:43: nested deeper than 40 levels",
        "k: " + "7" * 2000 + "\n": "extra.yaml:1:4: a number with more than 1,000 digits",
        "k: &a [1]\n" + "".join(f"k{i}: *a\n" for i in range(1001)): "extra.yaml:1002:",
    }
    for n, (text, expected) in enumerate(cases.items()):
        (tmp_path / str(n)).mkdir()
        folder = _title_with(tmp_path / str(n), demo_title, text)
        with pytest.raises(TitleError) as info:
            load_title(folder)
        assert expected in str(info.value), str(info.value)
        assert len(str(info.value).splitlines()) == 1


def test_bom_and_merge_keys_load(tmp_path: Path, demo_title: Path) -> None:
    game = demo_title / "game.yaml"
    game.write_bytes(b"\xef\xbb\xbf" + game.read_bytes())
    assert run_cli("validate", str(demo_title)).returncode == 0
    folder = _title_with(tmp_path, demo_title, "x-base: &b {a: 1}\nx-use:\n  <<: *b\n  c: 2\n")
    assert load_title(folder).data["x-use"] == {"a": 1, "c": 2}


def test_limits_table_in_format_doc() -> None:
    text = (ROOT / "docs" / "FORMAT.md").read_text(encoding="utf-8")
    assert limits.markdown_table() in text, "docs/FORMAT.md's table of input limits is out of date"


def test_every_command_takes_json() -> None:
    from railbook.cli import _register_optional

    _register_optional()

    def leaves(command: Any, name: str) -> list[tuple[str, Any]]:
        subs = getattr(command, "commands", None)
        if subs is None:
            return [(name, command)]
        return [leaf for sub, cmd in subs.items() for leaf in leaves(cmd, f"{name} {sub}".strip())]

    found = leaves(typer.main.get_command(app), "")
    missing = [name for name, cmd in found if not any("--json" in p.opts for p in cmd.params)]
    assert len(found) > 8 and not missing, f"commands without --json: {missing}"


def test_json_successes_and_errors(tmp_path: Path, demo_title: Path) -> None:
    ok = run_cli("validate", str(demo_title), "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout) == {"titles": {str(demo_title): "ok"}}
    made = run_cli("new", "fresh", "--dir", str(tmp_path), "--json")
    assert made.returncode == 0 and json.loads(made.stdout) == {"created": str(tmp_path / "fresh")}
    (demo_title / "game.yaml").write_text("meta: [\n", encoding="utf-8")
    bad = run_cli("compile", str(demo_title), "--out", str(tmp_path / "out"), "--json")
    error = json.loads(bad.stdout)
    assert bad.returncode == 1 and bad.stderr == ""
    assert error["where"].endswith("game.yaml:2:1") and error["error"]
    usage = run_cli("info", "--json")
    assert usage.returncode == 1 and json.loads(usage.stdout)["where"] == "command line"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@given(JSON_VALUES)
def test_interned_copies_keep_the_data_and_share_one_object_per_text(value: Any) -> None:
    from railbook.jsonio import interned

    copy = interned(value)
    assert copy == value
    assert all(s is sys.intern(s) for s in _strings(copy))


def test_records_are_read_with_their_names_interned(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"title": "1846", "actions": [{"type": "pass", "entity": "B&" + "O", "id": 1}]}))
    action = read_record(path)["actions"][0]
    assert action["entity"] is sys.intern("B&O")
    assert next(k for k in action if k == "entity") is sys.intern("entity")
