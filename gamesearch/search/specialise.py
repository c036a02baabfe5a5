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
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

Template = TypeVar("Template", bound=Callable[..., Any])

#: the comparisons that swap when a branch is mirrored for the other side
_MIRRORED_COMPARISONS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Gt: ast.Lt,
    ast.Lt: ast.Gt,
    ast.GtE: ast.LtE,
    ast.LtE: ast.GtE,
}
#: the calls that swap when a branch is mirrored (of values)
_MIRRORED_CALLS = {"max": "min", "min": "max"}


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
    values: Iterable[str] | None = None,
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
            node.orelse = mirror(node.body, swaps, values)
    folded = _Folds(dict(nones), dict(flags or {})).visit(tree)
    assert isinstance(folded, ast.Module)
    _filled(folded)
    drop_unread_parameters(function)
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


def mirror(
    branch: list[ast.stmt], swaps: tuple[str, str], values: Iterable[str] | None = None
) -> list[ast.stmt]:
    """Return a copy of ``branch`` for the other side, as if its values were negated.

    The two names of ``swaps`` (the bounds) exchanged, and ``INFINITY`` and
    ``NEGATIVE_INFINITY``; a value's comparisons (``>`` and ``<``, ``>=`` and ``<=``)
    exchanged, a value plus a number made the value minus it and the other way round
    (``beta - 1`` becomes ``alpha + 1``), ``max`` and ``min`` of values exchanged;
    ``True`` and ``False`` exchanged (the side handed to a child). Two neighbouring
    arguments of a call that both read a bound are a window ``(low, high)``: each is
    mirrored and they change places, so ``(alpha, alpha + 1)`` becomes
    ``(beta - 1, beta)`` and ``(alpha, beta)`` stays. ``values`` names the variables that
    hold values besides the bounds (``best``, ``value``): with it, only comparisons,
    sums and ``max`` / ``min`` that read a value are mirrored (a depth or a ply is
    not); without it, every comparison is a value's.
    """
    mirrored_branch = [copy.deepcopy(statement) for statement in branch]
    one, other = swaps
    exchange = {one: other, other: one, "INFINITY": "NEGATIVE_INFINITY"}
    exchange["NEGATIVE_INFINITY"] = "INFINITY"
    bounds = set(exchange)
    value_names = None if values is None else {*bounds, *values}

    def reads_value(node: ast.AST, names: set[str] | None = value_names) -> bool:
        return names is None or _reads(node, names)

    nodes = [node for statement in mirrored_branch for node in ast.walk(statement)]
    for node in nodes:  # (decided on the names as written: both sets are symmetric)
        if isinstance(node, ast.Compare) and reads_value(node):
            node.ops = [_MIRRORED_COMPARISONS.get(type(op), type(op))() for op in node.ops]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            if _is_number(node.right) and _reads(node.left, value_names or bounds):
                node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
        elif isinstance(node, ast.Call):
            function = node.func
            if isinstance(function, ast.Name) and function.id in _MIRRORED_CALLS:
                if reads_value(node):
                    function.id = _MIRRORED_CALLS[function.id]
            _exchange_windows(node.args, bounds)
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            node.value = not node.value
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in exchange:
            node.id = exchange[node.id]
    return mirrored_branch


def _exchange_windows(arguments: list[ast.expr], bounds: set[str]) -> None:
    """Exchange each two neighbouring ``arguments`` that both read one of ``bounds``."""
    index = 0
    while index + 1 < len(arguments):
        low, high = arguments[index], arguments[index + 1]
        if _reads(low, bounds) and _reads(high, bounds):
            arguments[index], arguments[index + 1] = high, low
            index += 2
        else:
            index += 1


def _reads(node: ast.AST, names: set[str]) -> bool:
    """Return whether ``node`` reads one of ``names``."""
    return any(isinstance(part, ast.Name) and part.id in names for part in ast.walk(node))


def _is_number(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    )


def drop_unread_parameters(function: ast.FunctionDef) -> None:
    """Take from each function defined inside ``function`` the parameters its body never
    reads, and from each of its calls their arguments, until none is left to take.

    A parameter stays when the function is used otherwise than called (by its name, or
    through a parameter that its calls hand it to, as a core hands itself on as
    ``again``), when a call passes ``*`` or ``**`` arguments, or when an argument it
    would drop calls something (dropping it would skip the call).
    """
    dropped = True
    while dropped:
        everywhere = list(ast.walk(function))
        inner = [node for node in everywhere[1:] if isinstance(node, ast.FunctionDef)]
        dropped = any(_drop_unread(definition, everywhere) for definition in inner)


def _drop_unread(definition: ast.FunctionDef, everywhere: list[ast.AST]) -> bool:
    """Drop one unread parameter of ``definition`` (``everywhere``: every node of the
    template) if it can; return whether it did."""
    arguments = definition.args
    if arguments.vararg or arguments.kwarg or arguments.posonlyargs:
        return False
    parameters = [argument.arg for argument in arguments.args]
    inside = [node for statement in definition.body for node in ast.walk(statement)]
    # its calls: by its name anywhere, and inside it through the parameters that its
    # calls hand it to (``again``)
    aliases: set[str] = set()
    while True:
        calls = _calls_of(everywhere, {definition.name}) + _calls_of(inside, aliases)
        handed = {
            parameters[index]
            for call in calls
            for index, argument in enumerate(call.args[: len(parameters)])
            if isinstance(argument, ast.Name) and argument.id in {definition.name, *aliases}
        }
        if handed <= aliases:
            break
        aliases |= handed
    seen = {id(call.func) for call in calls}
    seen.update(
        id(argument)
        for call in calls
        for index, argument in enumerate(call.args[: len(parameters)])
        if parameters[index] in aliases
    )
    for nodes, names in ((everywhere, {definition.name}), (inside, aliases)):
        for node in nodes:
            if isinstance(node, ast.Name) and node.id in names and id(node) not in seen:
                return False  # used otherwise than called: its calls cannot all be seen
            if isinstance(node, (ast.Nonlocal, ast.Global)) and names & set(node.names):
                return False
            if isinstance(node, ast.arg) and node.arg in names:
                return False  # a parameter of an inner function hides it
    if (
        sum(
            isinstance(node, ast.FunctionDef) and node.name == definition.name
            for node in everywhere
        )
        != 1
    ):
        return False
    for call in calls:
        if any(isinstance(argument, ast.Starred) for argument in call.args):
            return False
        if any(keyword.arg is None for keyword in call.keywords):
            return False
    # a parameter handed to its own place in a call of the function is not read for that
    passed_on = {
        id(argument)
        for call in calls
        for index, argument in enumerate(call.args[: len(parameters)])
        if isinstance(argument, ast.Name) and argument.id == parameters[index]
    }
    read = {  # (stored or read)
        node.id for node in inside if isinstance(node, ast.Name) and id(node) not in passed_on
    }
    read.update(name for node in inside if isinstance(node, ast.Nonlocal) for name in node.names)
    for index, parameter in enumerate(parameters):
        passed = [_argument(call, index, parameter) for call in calls]
        if parameter in read or any(argument and _calls(argument) for argument in passed):
            continue
        del arguments.args[index]
        first_default = len(parameters) - len(arguments.defaults)
        if index >= first_default:
            del arguments.defaults[index - first_default]
        for call in calls:
            if index < len(call.args):
                del call.args[index]
            call.keywords = [keyword for keyword in call.keywords if keyword.arg != parameter]
        return True
    return False


def _calls_of(nodes: list[ast.AST], names: set[str]) -> list[ast.Call]:
    """Return the calls among ``nodes`` of a function by one of ``names``."""
    return [
        node
        for node in nodes
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names
    ]


def _argument(call: ast.Call, index: int, name: str) -> ast.expr | None:
    """Return what ``call`` passes for the parameter ``name`` at ``index`` (``None``: its
    default)."""
    if index < len(call.args):
        return call.args[index]
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)


def _calls(node: ast.AST) -> bool:
    """Return whether evaluating ``node`` may run code of its own (a call, a yield)."""
    effects = (ast.Call, ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)
    return any(isinstance(part, effects) for part in ast.walk(node))


def _is_mirrored(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Name)
        and statement.value.func.id == "mirrored"
    )


def _filled(tree: ast.AST) -> None:
    """Give each block that folding left empty a ``pass`` (a block without statements is
    no Python; a ``pass`` left beside other statements would cost an instruction)."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if body == []:
            body.append(ast.copy_location(ast.Pass(), node))
        if isinstance(node, ast.Try) and not node.handlers and not node.finalbody:
            node.finalbody.append(ast.copy_location(ast.Pass(), node))


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
        return node.body if known else node.orelse  # (a body left empty: see _filled)
