"""Rewrite the console transcripts of the docs with what the commands print now.

    python tests/update_docs.py                 # README.md and every page of docs/
    python tests/update_docs.py docs/cli.md     # some pages

A block whose expected output uses ``...`` (an elision chosen by hand) is left alone
and named, so it can be brought up to date by hand; so are skipped blocks. Run it
after a change that alters what a command prints, then read the diff.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_docs import FENCE, PAGES, README, ROOT, run_command, transcript  # noqa: E402

#: ``...`` as an elision: a line of its own, or after a space at the end of a line or a cell
ELISION = re.compile(r"(?:^|\s)\.\.\.(?:\s|$)", re.MULTILINE)


def update(page: Path) -> list[str]:
    """Rewrite ``page``'s console blocks; return the blocks left for a person (``page:line``)."""
    text = page.read_text()
    by_hand: list[str] = []
    pieces: list[str] = []
    end = 0
    for match in FENCE.finditer(text):
        if match.group("language") != "console":
            continue
        line = text.count("\n", 0, match.start("body"))
        steps = transcript(match.group("body"))
        if match.group("skip") is not None or any(
            ELISION.search(expected) for _, expected in steps
        ):
            by_hand.append(f"{page.relative_to(ROOT)}:{line}")
            continue
        body = "".join(
            f"$ {command}\n"
            + "".join(f"{row.rstrip()}\n" for row in run_command(command).strip("\n").splitlines())
            for command, _ in steps
        )
        pieces += [text[end : match.start("body")], body]
        end = match.end("body")
    page.write_text("".join(pieces) + text[end:])
    return by_hand


def main(argv: list[str]) -> int:
    """Update the pages named in ``argv`` (default: all); return the exit status."""
    pages = [Path(arg).resolve() for arg in argv] or [README, *PAGES]
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)  # files the commands write (--plot depths.png) go there
        for page in pages:
            for block in update(page):
                print(f"left for a person (elided with ... or skipped): {block}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
