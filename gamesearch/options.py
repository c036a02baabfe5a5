"""One option schema for games and searchers: declared once, read once, strictly.

A game declares its options as :class:`Option` specs (``Game.options``); a searcher
declares them as attrs fields whose ``metadata`` holds the help and the checks
(``minimum``, ``maximum``, ``choices``): :func:`field_options` turns those fields
into the same specs. Every front end (the command line, the web service, the batch
runner, the Python API) reads a value through :meth:`Option.read`:

- text (a command line, a searcher spec, a JSON string) must be the value's exact
  canonical text: an integer is written as JSON writes it (``10``, ``-3``; not
  ``1_0``, `` 3 ``, ``+3``, ``03`` or ``3.0``), a number as a finite JSON number
  (``0.5``, ``2e-3``; not ``nan`` or ``inf``), a boolean as ``true``/``false``
  (or ``on``/``off``, ``yes``/``no``), a choice as one of its words, and an optional
  value's absence as ``none``;
- a typed value (JSON or Python) must already be of the option's type: a boolean is
  not an integer, a whole number is an integer, every number is finite.

Then ranges and choices are checked. Every refusal is an
:class:`~gamesearch.errors.InvalidOptionError` worded one way:
``option 'depth' must be an integer or none: '1_0'``, ``option 'rows' must be <= 20:
30``, ``unknown option 'width'; valid options: ...``, each after the name of what
the options belong to when it is known (``searcher 'alphabeta': ...``).
"""

from __future__ import annotations

import enum
import math
import re
import types
import typing
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from gamesearch.errors import InvalidOptionError

#: an integer's canonical text: JSON's (no sign but ``-``, no leading zero, no ``_``)
_INTEGER_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)")
#: a number's canonical text: a JSON number
_NUMBER_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
#: no option's text is longer (reading huge digit strings is slow)
_LONGEST_TEXT = 100
#: the words a boolean option reads, exactly as written here
TRUE_WORDS = ("true", "on", "yes")
FALSE_WORDS = ("false", "off", "no")
#: how an optional option's absence is written
NONE_TEXT = "none"

_KIND_WORDS: dict[Any, str] = {
    int: "an integer",
    float: "a finite number",
    bool: "true or false",
    str: "text",
}


def kind_in_words(kind: Any) -> str:
    """Return an option type as a user reads it: ``"an integer"``, ``"true or false"``, ..."""
    if kind is type(None):
        return NONE_TEXT
    if kind in _KIND_WORDS:
        return _KIND_WORDS[kind]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return "one of " + ", ".join(str(member.value) for member in kind)
    return getattr(kind, "__name__", str(kind))


_REFUSED: Any = object()


@attrs.frozen
class Option:
    """One option a game or a searcher accepts (board size, depth, a switch, ...).

    ``type`` is ``int``, ``float``, ``bool``, ``str``, an :class:`enum.Enum` whose
    values are text, or ``Any`` (a value is taken as given, ``None`` too); ``optional``
    allows ``None`` (written ``none``). ``minimum`` and
    ``maximum`` bound a number (both inclusive); ``choices`` lists the only values
    allowed, when there is such a list (the web page offers it as a menu).
    """

    name: str
    type: Any
    default: Any
    help: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[Any, ...] | None = None
    optional: bool = False

    @property
    def expected(self) -> str:
        """Return what a value must be, in words: ``"an integer or none"``."""
        words = kind_in_words(self.type)
        return f"{words} or {NONE_TEXT}" if self.optional else words

    def read(self, value: Any) -> Any:
        """Return ``value`` (canonical text or an already typed value) read and checked.

        :raises InvalidOptionError: when the value is not of the option's type, or is
            outside its range or choices.
        """
        if isinstance(value, str) and self.type is not str:
            return self._checked(self._from_text(value), value)
        return self.check(value)

    def check(self, value: Any) -> Any:
        """Return the typed ``value`` when it fits this option (text is not read).

        :raises InvalidOptionError: when the value is not of the option's type, or is
            outside its range or choices.
        """
        return self._checked(self._typed(value), value)

    def convert(self, value: Any) -> Any:
        """Return ``value`` read and checked (the same as :meth:`read`).

        :raises InvalidOptionError: as :meth:`read` does.
        """
        return self.read(value)

    def text(self, value: Any) -> str:
        """Return the canonical text of a valid ``value`` (what :meth:`read` reads back)."""
        if value is None:
            return NONE_TEXT
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, enum.Enum):
            return str(value.value)
        if isinstance(value, float):
            return repr(value)
        return str(value)

    # ---------------------------------------------------------------- reading
    def _refuse(self, value: Any, what: str | None = None) -> InvalidOptionError:
        return InvalidOptionError(
            f"option {self.name!r} must be {what or self.expected}: {value!r}"
        )

    def _checked(self, typed: Any, given: Any) -> Any:
        if typed is _REFUSED:
            raise self._refuse(given)
        if typed is None:
            return None
        # (a value out of range or choices is named as read: "must be >= 1: 0")
        if self.choices is not None and typed not in self.choices:
            words = ", ".join(self.text(choice) for choice in self.choices)
            raise self._refuse(typed, f"one of {words}")
        if self.minimum is not None and typed < self.minimum:
            raise self._refuse(typed, f">= {self.minimum}")
        if self.maximum is not None and typed > self.maximum:
            raise self._refuse(typed, f"<= {self.maximum}")
        return typed

    def _from_text(self, text: str) -> Any:
        """Return the value of canonical ``text``, or :data:`_REFUSED`."""
        kind = self.type
        if self.optional and text == NONE_TEXT:
            return None
        if len(text) > _LONGEST_TEXT:
            return _REFUSED
        if kind is bool:
            return True if text in TRUE_WORDS else False if text in FALSE_WORDS else _REFUSED
        if kind is int:
            return int(text) if _INTEGER_TEXT.fullmatch(text) else _REFUSED
        if kind is float:
            if not _NUMBER_TEXT.fullmatch(text):
                return _REFUSED
            number = float(text)
            return number if math.isfinite(number) else _REFUSED
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            for member in kind:
                if member.value == text:
                    return member
            return _REFUSED
        if kind is Any:
            return text
        try:  # a plugin's own type, built from its text
            return kind(text)
        except (TypeError, ValueError):
            return _REFUSED

    def _typed(self, value: Any) -> Any:
        """Return the typed ``value`` if it is of this option's type, or :data:`_REFUSED`."""
        kind = self.type
        if kind is Any:  # a type the schema cannot check (``None`` included): as given
            return value
        if value is None:
            return None if self.optional else _REFUSED
        if kind is bool:
            return value if isinstance(value, bool) else _REFUSED
        if isinstance(value, bool):  # a boolean is no number
            return _REFUSED
        if kind is int:
            return value if isinstance(value, int) else _REFUSED
        if kind is float:
            is_number = isinstance(value, (int, float))
            return value if is_number and math.isfinite(value) else _REFUSED
        if isinstance(kind, type):
            return value if isinstance(value, kind) else _REFUSED
        return value


def read_options(
    specs: Iterable[Option], given: Mapping[str, Any], *, owner: str | None = None
) -> dict[str, Any]:
    """Return the given option values read and checked, by name (unset ones left out).

    ``owner`` names what the options belong to in a message (``"searcher 'mcts'"``).

    :raises InvalidOptionError: for an unknown name or a bad value.
    """
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    prefix = f"{owner}: " if owner else ""
    if unknown:
        valid = ", ".join(sorted(known)) or "none"
        raise InvalidOptionError(f"{prefix}unknown option {unknown[0]!r}; valid options: {valid}")
    try:
        return {name: known[name].read(value) for name, value in given.items()}
    except InvalidOptionError as error:
        raise InvalidOptionError(f"{prefix}{error}") from None


def resolve_options(
    specs: Sequence[Option], given: Mapping[str, Any], *, owner: str | None = None
) -> dict[str, Any]:
    """Return every option of ``specs`` with its default or its read given value.

    :raises InvalidOptionError: for an unknown name or a bad value.
    """
    read = read_options(specs, given, owner=owner)
    return {spec.name: read.get(spec.name, spec.default) for spec in specs}


# ------------------------------------------------------- options as attrs fields
def option_field(
    default: Any,
    help: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    choices: Sequence[Any] | None = None,
    **field_arguments: Any,
) -> Any:
    """Return an attrs field declaring an option: its default, help and checks.

    The type comes from the field's annotation (``int | None`` is an optional
    integer); :func:`field_options` reads it all back as an :class:`Option`.
    """
    metadata: dict[str, Any] = {"help": help}
    if minimum is not None:
        metadata["minimum"] = minimum
    if maximum is not None:
        metadata["maximum"] = maximum
    if choices is not None:
        metadata["choices"] = tuple(choices)
    return attrs.field(default=default, metadata=metadata, **field_arguments)


_FIELD_OPTIONS: dict[type, dict[str, Option]] = {}


def field_options(cls: type) -> dict[str, Option]:
    """Return the options of an attrs class's settable fields, by option name.

    An option's name is the field's without a leading ``_``; its type is the
    annotation's (``None`` in a union makes it optional); its help, range and
    choices are the field's ``metadata``. A field whose annotation names no type
    the schema knows, or does not resolve at run time (a name imported for type
    checking only), is read as it is given, ``None`` included. Worked out once per class.
    """
    found = _FIELD_OPTIONS.get(cls)
    if found is not None:
        return found
    try:
        attrs.resolve_types(cls)
    except (NameError, TypeError):  # an annotation that does not resolve: read as given
        pass
    options = {}
    for field in attrs.fields(cls):
        if not field.init:
            continue
        kind, optional = _annotation_kind(field.type)
        name = field.name.lstrip("_")
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = None
        options[name] = Option(
            name,
            kind,
            default,
            field.metadata.get("help", ""),
            minimum=field.metadata.get("minimum"),
            maximum=field.metadata.get("maximum"),
            choices=field.metadata.get("choices"),
            optional=optional,
        )
    _FIELD_OPTIONS[cls] = options
    return options


def check_fields(instance: Any) -> None:
    """Check every settable field of the attrs ``instance`` against its option.

    :raises InvalidOptionError: naming the first field whose value does not fit.
    """
    cls = type(instance)
    checks = _FIELD_CHECKS.get(cls)
    if checks is None:
        options = field_options(cls)
        checks = tuple(
            (field.name, options[field.name.lstrip("_")])
            for field in attrs.fields(cls)
            if field.init
        )
        _FIELD_CHECKS[cls] = checks
    for name, option in checks:
        option.check(getattr(instance, name))


_FIELD_CHECKS: dict[type, tuple[tuple[str, Option], ...]] = {}


def configure(cls: type, given: Mapping[str, Any], *, owner: str) -> Any:
    """Return an instance of the attrs class ``cls`` made from option values ``given``.

    Each value (canonical text or typed) is read by the field's :class:`Option`;
    ``owner`` names the class in a message (``"searcher 'mcts'"``).

    :raises InvalidOptionError: for an unknown option or a bad value.
    """
    values = read_options(field_options(cls).values(), given, owner=owner)
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:  # a check of the class's own
        raise InvalidOptionError(f"{owner}: {error}") from None


def _annotation_kind(annotation: Any) -> tuple[Any, bool]:
    """Return the one type an annotation names and whether ``None`` is allowed.

    An annotation of several types (or none the schema can check) is ``Any``.
    """
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        kinds = typing.get_args(annotation)
    else:
        kinds = (annotation,)
    optional = type(None) in kinds
    others = [kind for kind in kinds if kind is not type(None)]
    if len(others) == 1 and isinstance(others[0], type):
        kind = others[0]
        known = kind in _KIND_WORDS or issubclass(kind, enum.Enum)
        return (kind if known else Any), optional
    return Any, optional


# ----------------------------------------- the readers this schema replaced (one release)
def deprecated(old: str, new: str) -> None:
    """Warn (:class:`DeprecationWarning`, at the caller's caller) that ``old`` became ``new``."""
    warnings.warn(
        f"{old} is deprecated and goes in the next release; use {new}",
        DeprecationWarning,
        stacklevel=3,
    )


def convert_strictly_deprecated(kind: Any, value: Any) -> Any:
    """Return ``value`` read as ``kind``, or ``object()`` when refused (deprecated).

    Formerly ``gamesearch.game._convert_strictly``; use :meth:`Option.read`.
    """
    deprecated("gamesearch.game._convert_strictly", "gamesearch.options.Option.read")
    try:
        return Option("value", kind, None, "").read(value)
    except InvalidOptionError:
        return _REFUSED


def check_option_value_deprecated(label: str, value: Any, kinds: tuple[Any, ...]) -> None:
    """Raise unless ``value`` fits an option of types ``kinds`` (deprecated).

    Formerly ``gamesearch.web.service.check_option_value``; use :meth:`Option.read`.

    :raises InvalidOptionError: when the value does not fit.
    """
    deprecated("gamesearch.web.service.check_option_value", "gamesearch.options.Option.read")
    others = [kind for kind in kinds if kind is not type(None)]
    kind = others[0] if len(others) == 1 else Any
    name = label.removeprefix("option ").strip("'\"")
    Option(name, kind, None, "", optional=type(None) in kinds).read(value)


def check_finite_deprecated(label: str, values: Mapping[str, Any]) -> None:
    """Raise when a number of ``values`` is not finite (deprecated).

    Formerly ``gamesearch.web.service._check_finite``; use :meth:`Option.read`.

    :raises InvalidOptionError: naming the first such value.
    """
    deprecated("gamesearch.web.service._check_finite", "gamesearch.options.Option.read")
    for name, value in values.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidOptionError(f"{label} {name!r} must be a finite number: {value!r}")


def _field_option(field: attrs.Attribute) -> Option:  # type: ignore[type-arg]
    kind, optional = _annotation_kind(field.type)
    return Option(field.name.lstrip("_"), kind, None, "", optional=optional)


def convert_text_deprecated(field: attrs.Attribute, text: str) -> Any:  # type: ignore[type-arg]
    """Return option text read as the field's type (deprecated).

    Formerly ``gamesearch.search.base._convert_text``; use :func:`field_options`.

    :raises InvalidOptionError: when the text is not the type's canonical text.
    """
    deprecated("gamesearch.search.base._convert_text", "gamesearch.options.field_options")
    return _field_option(field).read(text)


def check_typed_deprecated(field: attrs.Attribute, value: Any) -> Any:  # type: ignore[type-arg]
    """Return the typed value when it fits the field's type (deprecated).

    Formerly ``gamesearch.search.base._check_typed``; use :func:`field_options`.

    :raises InvalidOptionError: when it does not fit.
    """
    deprecated("gamesearch.search.base._check_typed", "gamesearch.options.field_options")
    return _field_option(field).check(value)
