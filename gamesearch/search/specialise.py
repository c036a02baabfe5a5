"""Loops written once and specialised when a search is built.

A hot loop that serves several kinds of search tests at every node what the search
has on: a table, a tracer, the side to move. Those answers are known before the search
starts, so :func:`specialise` compiles the loop's template again with them folded in:
each test of a name known to be ``None`` (or known not to be) becomes its kept branch,
and the loop costs nothing for what the search does not use. Its caller keeps the
compiled function per combination (``functools.cache``), so a template is compiled once
per combination a process uses.

The template is ordinary Python in its own module (its tests, tracebacks and coverage
point at its lines), with one construct of its own: a branch whose body is the call
``mirrored()`` is compiled as a copy of the branch before it for the other side (see
:func:`mirror`), so a loop with one branch per side is written once.

Hot path: none here; this runs once per combination of a template's switches.
"""

from __future__ import annotations
import __future__

import ast
import copy
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

Template = TypeVar("Template", bound=Callable[..., Any])

#: the comparisons that swap when a branch is mirrored for the other side
_MIRRORED_COMPARISONS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Gt: ast.Lt,
    ast.Lt: ast.Gt,
    ast.GtE: ast.LtE,
    ast.LtE: ast.GtE,
}


def mirrored() -> None:
    """Stand, in a template, for the branch before it mirrored for the other side; only
    :func:`specialise` gives it a meaning (a template is never run as written).

    :raises AssertionError: always, when run.
    """
    raise AssertionError("mirrored() marks a branch of a template: specialise() the template")


def specialise(
    template: Template,
    nones: Mapping[str, bool],
    *,
    flags: Mapping[str, bool] | None = None,
    swaps: tuple[str, str] = ("alpha", "beta"),
) -> Template:
    """Return ``template`` compiled with the tests of ``nones``' and ``flags``' names folded in.

    ``nones`` maps a name to whether it is ``None`` in every call of the result: each
    ``name is None`` and ``name is not None`` in the template becomes ``True`` or
    ``False``; ``flags`` maps a name to its truth in every call (a switch), and each
    test of the bare name (``if name``, ``not name``) becomes that. Each ``if``,
    conditional expression and ``and`` / ``or`` they decide keeps only what runs (a
    name stays where it is read as a value; the template reads the switches' ``and`` /
    ``or`` for their truth). ``swaps`` names the two bounds a :func:`mirror` exchanges.
    The result is the template's function, with its globals and its source file and
    lines (compiled anew at each call: the caller keeps it).
    """
    function = _definition(template)
    function.decorator_list = []
    tree = ast.Module(body=[function], type_ignores=[])
    for node in ast.walk(function):  # each "else: mirrored()" becomes the branch before it
        if isinstance(node, ast.If) and len(node.orelse) == 1 and _is_mirrored(node.orelse[0]):
            node.orelse = mirror(node.body, swaps)
    folded = _Folds(dict(nones), dict(flags or {})).visit(tree)
    assert isinstance(folded, ast.Module)
    ast.fix_missing_locations(folded)
    code = compile(
        folded,
        template.__code__.co_filename,
        "exec",
        flags=__future__.annotations.compiler_flag,
        dont_inherit=True,
    )
    namespace: dict[str, Any] = {}
    exec(code, template.__globals__, namespace)  # noqa: S102 (the project's own template)
    return namespace[template.__name__]  # type: ignore[no-any-return]


def _definition(template: Callable[..., Any]) -> ast.FunctionDef:
    """Return the definition of ``template`` parsed from its module's file, at its lines
    (the whole file is parsed: quicker than cutting the function out of it)."""
    code = template.__code__
    with open(code.co_filename, encoding="utf-8") as source:
        module = ast.parse(source.read(), code.co_filename)
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef) and node.name == code.co_name:
            starts = [node.lineno, *(decorator.lineno for decorator in node.decorator_list)]
            if code.co_firstlineno in starts:
                return node
    raise ValueError(f"no definition of {template.__qualname__!r} in {code.co_filename!r}")


def mirror(branch: list[ast.stmt], swaps: tuple[str, str]) -> list[ast.stmt]:
    """Return a copy of ``branch`` for the other side: the two names of ``swaps`` (the
    bounds) exchanged where they are read or set, though not where they are passed to a
    call (a call takes the bounds in their order); ``>`` and ``<`` (and ``>=``, ``<=``)
    exchanged; ``INFINITY`` and ``NEGATIVE_INFINITY`` exchanged; ``True`` and ``False``
    exchanged (the side handed to a child)."""
    mirrored_branch = [copy.deepcopy(statement) for statement in branch]
    one, other = swaps
    exchange = {one: other, other: one, "INFINITY": "NEGATIVE_INFINITY"}
    exchange["NEGATIVE_INFINITY"] = "INFINITY"
    passed: set[int] = set()
    for statement in mirrored_branch:
        for node in ast.walk(statement):
            if isinstance(node, ast.Call):
                passed.update(id(argument) for argument in node.args if argument)
    for statement in mirrored_branch:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and node.id in exchange:
                if node.id in swaps and id(node) in passed:
                    continue
                node.id = exchange[node.id]
            elif isinstance(node, ast.Compare):
                node.ops = [_MIRRORED_COMPARISONS.get(type(op), type(op))() for op in node.ops]
            elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
                node.value = not node.value
    return mirrored_branch


def _is_mirrored(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Name)
        and statement.value.func.id == "mirrored"
    )


class _Folds(ast.NodeTransformer):
    """Fold the tests of names whose ``None``-ness or truth is known, and the branches
    they decide."""

    def __init__(self, nones: dict[str, bool], flags: dict[str, bool]) -> None:
        self.nones = nones
        self.flags = flags

    def known(self, test: ast.expr) -> bool | None:
        """Return the value of ``test`` when the known names decide it, else ``None``."""
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            subject, (operator,), (against,) = test.left, test.ops, test.comparators
            is_none_test = isinstance(against, ast.Constant) and against.value is None
            if is_none_test and isinstance(subject, ast.Name) and subject.id in self.nones:
                if isinstance(operator, ast.Is):
                    return self.nones[subject.id]
                if isinstance(operator, ast.IsNot):
                    return not self.nones[subject.id]
        if isinstance(test, ast.Name) and test.id in self.flags:
            return self.flags[test.id]
        if isinstance(test, ast.Constant) and isinstance(test.value, bool):
            return test.value
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.known(test.operand)
            return None if inner is None else not inner
        return None

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)
        deciding = isinstance(node.op, ast.Or)  # the value that decides an or, else an and
        rest: list[ast.expr] = []
        for value in node.values:
            known = self.known(value)
            if known is deciding:  # it decides: what follows it never runs
                rest.append(ast.copy_location(ast.Constant(deciding), value))
                break
            if known is None:
                rest.append(value)
        if not rest:
            return ast.copy_location(ast.Constant(not deciding), node)
        if len(rest) == 1:
            return rest[0]
        node.values = rest
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        known = self.known(node.test)
        if known is None:
            return node
        return node.body if known else node.orelse

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        known = self.known(node.test)
        if known is None:
            return node
        kept = node.body if known else node.orelse
        return kept or [ast.copy_location(ast.Pass(), node)]
