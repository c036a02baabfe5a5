"""Every hook spec is documented in docs/plugin-hooks.md (and nothing else is)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from gamesearch.plugins import PROJECT, HookSpecs

PAGE = Path(__file__).resolve().parent.parent / "docs" / "plugin-hooks.md"
HEADING = re.compile(r"^##\s+`?(\w+)\((.*?)\)`?\s*$", re.MULTILINE)


def hook_specs() -> dict[str, inspect.Signature]:
    marker = f"{PROJECT}_spec"
    return {
        name: inspect.signature(function)
        for name, function in inspect.getmembers(HookSpecs, inspect.isfunction)
        if hasattr(function, marker)
    }


def documented() -> dict[str, list[str]]:
    return {
        name: [argument.strip() for argument in arguments.split(",") if argument.strip()]
        for name, arguments in HEADING.findall(PAGE.read_text())
    }


def test_the_hook_specs_are_found() -> None:
    assert "gamesearch_register_games" in hook_specs()


def test_every_hook_spec_has_a_section_on_the_hooks_page() -> None:
    missing = sorted(set(hook_specs()) - set(documented()))
    assert not missing, f"hooks not documented in {PAGE.name}: {missing}"


def test_the_hooks_page_documents_no_hook_that_does_not_exist() -> None:
    stale = sorted(set(documented()) - set(hook_specs()))
    assert not stale, f"{PAGE.name} documents hooks that are not specs: {stale}"


def test_each_documented_hook_has_the_arguments_of_its_spec() -> None:
    for name, arguments in documented().items():
        spec = [parameter for parameter in hook_specs()[name].parameters if parameter != "self"]
        assert arguments == spec, (
            f"{name}: documented ({', '.join(arguments)}), spec ({', '.join(spec)})"
        )


def test_every_hook_spec_has_a_docstring() -> None:
    for name in hook_specs():
        assert inspect.getdoc(getattr(HookSpecs, name)), f"{name} has no docstring"
