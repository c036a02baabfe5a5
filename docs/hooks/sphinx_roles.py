"""MkDocs hook: Sphinx cross-reference roles in docstrings (``:class:`Game```) read as code.

mkdocstrings renders a docstring's prose as Markdown, where a role stays as the
literal text ``:class:`` before the name; this hook drops the role and keeps the name.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|mod|exc|data|obj|const):(?=<code>)")


def on_page_content(html: str, **kwargs: Any) -> str:
    """Return the page's HTML without the role prefixes."""
    return ROLE.sub("", html)
