"""A package's public names imported when first used, so that importing it stays cheap."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, homes: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return the ``__getattr__`` and ``__dir__`` of the package ``package``, whose public
    names live in the modules ``homes`` gives (a name's module is imported when the name is
    first read, and the name is kept in ``namespace``, the package's globals, from then on).
    """

    def __getattr__(name: str) -> Any:
        """Return the public name ``name``, importing its module when first asked for.

        :raises AttributeError: for a name the package does not have.
        """
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value  # (found directly from now on)
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *homes})

    return __getattr__, __dir__
