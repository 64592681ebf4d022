"""What people read stays true to the repository: every relative link in the
docs resolves (file and #anchor), the README lists every user document,
every `senet-board` command and option the docs name exists, and the
README's Python example prints what it shows."""

import doctest
import re
from pathlib import Path

import pytest

from host_tools import cli

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", ROOT / "hardware" / "README.md"]
              + list((ROOT / "docs").glob("*.md")) + list((ROOT / "docs" / "dev").glob("*.md")))

_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _text(path):
    """The Markdown of ``path`` without its fenced code blocks."""
    return _FENCE.sub("", path.read_text(encoding="utf-8"))


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.

    >>> slug("The board loop: hello, maintenance, self-test")
    'the-board-loop-hello-maintenance-self-test'
    >>> slug("9. A visitor alone at a museum board")
    '9-a-visitor-alone-at-a-museum-board'
    """
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", _text(path), re.M)}


def links(path):
    """(target file, anchor or None) of each relative link in ``path``."""
    for m in _LINK.finditer(_text(path)):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):          # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        yield (path.parent / file_part).resolve() if file_part else path, anchor or None


def broken_links(path):
    bad = []
    for target, anchor in links(path):
        if not target.exists():
            bad.append("%s: no file %s" % (path.name, target.name))
        elif anchor is not None and anchor not in anchors(target):
            bad.append("%s: no #%s in %s" % (path.name, anchor, target.name))
    return bad


def test_slug_examples():
    assert doctest.run_docstring_examples(slug, {"slug": slug}) is None
    assert slug("## `museum`".lstrip("# ")) == "museum"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path):
    assert broken_links(path) == []


def test_a_broken_link_is_found(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other page\n## A part\n", encoding="utf-8")
    page.write_text("[ok](other.md#a-part) [self](#top) [gone](missing.md) [bad](other.md#no-part)\n"
                    "# Top\n```\n[in code](ignored.md)\n```\n", encoding="utf-8")
    assert broken_links(page) == ["page.md: no file missing.md", "page.md: no #no-part in other.md"]


def test_readme_lists_every_user_document():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\]\((docs/[^)#]+\.md)\)", readme.split("## Documentation", 1)[1]))
    present = {str(p.relative_to(ROOT)) for p in DOCS if p.parent.name in ("docs", "dev")}
    assert present - listed == set()


def _commands_named(text):
    """(subcommand, options) of each ``senet-board CMD ...`` written in ``text``."""
    for m in re.finditer(r"senet-board ([a-z]+)([^`|\n]*)", text):
        yield m.group(1), re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", m.group(2))


def _options(command):
    parser = cli.build_parser([command])
    sub = next(a for a in parser._actions if a.dest == "command")
    return set(sub.choices[command]._option_string_actions)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_senet_board_commands_and_options_exist(path):
    wrong = []
    for command, options in _commands_named(path.read_text(encoding="utf-8")):
        if command not in cli.COMMANDS:
            wrong.append("senet-board %s" % command)
            continue
        known = _options(command)
        wrong += ["senet-board %s %s" % (command, o) for o in options if o not in known]
    assert wrong == []


def test_readme_names_every_subcommand():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [c for c in cli.COMMANDS if "`%s`" % c not in readme] == []


def test_readme_python_example():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", readme, re.S | re.M)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.tries > 0 and runner.failures == 0


def test_the_shipped_pin_map_passes_the_documented_check(capsys):
    # hardware/README.md and docs/hardware.md: python -m host_tools.hardware check hardware/pinmap.json
    from host_tools.hardware.command import main
    assert main(["check", str(ROOT / "hardware" / "pinmap.json")]) == 0
    assert "pin map OK" in capsys.readouterr().out


def _events_emitted():
    """Every event name the firmware writes, read from its sources."""
    names = set()
    for path in sorted((ROOT / "firmware").rglob("*.py")):
        names.update(re.findall(r'"event": *"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return names


def test_protocol_doc_names_every_event_the_firmware_sends():
    protocol = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    emitted = _events_emitted()
    assert {"hello", "move", "throw", "museum", "health", "switch"} <= emitted
    assert sorted(e for e in emitted if '"event": "%s"' % e not in protocol) == []


def test_protocol_doc_names_every_museum_event():
    protocol = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    museum = (ROOT / "firmware" / "museum.py").read_text(encoding="utf-8")
    whats = set(re.findall(r'"what": *"([a-z_]+)"', museum))
    assert "offer" in whats
    assert sorted(w for w in whats if "`%s`" % w not in protocol) == []


def _flat(prefix, value):
    if isinstance(value, dict) and value:
        for k in value:
            yield from _flat(prefix + "." + k if prefix else k, value[k])
    else:
        yield prefix, value


def test_config_doc_gives_every_key_with_its_default():
    import json
    from firmware.config import DEFAULTS
    doc = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    wrong = []
    for key, value in _flat("", DEFAULTS):
        default = json.dumps(value, separators=(", ", ": "))
        if "| `%s` | `%s` |" % (key, default) not in doc:
            wrong.append("%s = %s" % (key, default))
    assert wrong == []


def test_lights_doc_shows_every_role_of_the_table():
    from firmware.lights import STYLES
    doc = (ROOT / "docs" / "lights.md").read_text(encoding="utf-8")
    assert sorted(r for r in STYLES if "| %s |" % (r or "(dark)") not in doc) == []
