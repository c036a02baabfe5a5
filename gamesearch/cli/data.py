"""``gamesearch data``: download the published reference data the plugins register."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.text import Text

from gamesearch.cli._common import print_json, registry
from gamesearch.cli._output import console, table
from gamesearch.cli._progress import interruptible, progress, report_interruption
from gamesearch.datasets import DataSet, FetchOutcome, data_folder, fetch, is_intact
from gamesearch.errors import InvalidOptionError


def data_sets() -> Mapping[str, DataSet]:
    """Return every data set the installed plugins register, by name."""
    return registry().data_sets


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "data",
        help="download the reference data sets that plugins publish (such as Pons' Connect Four "
        "sets)",
        description="Download the published data files of a data set that a plugin registers "
        "(for connect4: Pons' benchmark sets and the UCI table, which solve-bench, uci-check "
        "and batch read) into the user's cache folder, each checked against its SHA-256 "
        "checksum: a download that does not match is deleted, never kept. Files already "
        "there and intact are not downloaded again.",
        epilog="examples:\n  gamesearch data fetch connect4       # 6.1 MB unpacked, seconds on a "
        "fast line\n"
        "  gamesearch data list connect4\n"
        "  gamesearch data fetch connect4 --data ./c4data\n"
        "The folder is --data DIR if given, else $GAMESEARCH_<NAME>_DATA if set (such as "
        "$GAMESEARCH_CONNECT4_DATA), else the cache folder.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    names = ", ".join(sorted(data_sets())) or "none installed"
    fetch_parser = actions.add_parser(
        "fetch",
        help="download a data set and check every file",
        description="Download a data set and check every file.",
    )
    list_parser = actions.add_parser(
        "list",
        help="show each file of a data set and whether it is there",
        description="Show each file of a data set and whether it is there.",
    )
    for action in (fetch_parser, list_parser):
        action.add_argument("name", metavar="NAME", help=f"the data set ({names})")
        action.add_argument(
            "--data", type=Path, metavar="DIR", help="the folder to keep the files in"
        )
        action.add_argument("--json", action="store_true", help="print one JSON object")
    fetch_parser.add_argument(
        "--mirror",
        metavar="URL",
        help="download each file from URL/NAME instead of its published address (the checksums "
        "still apply)",
    )
    fetch_parser.set_defaults(handler=run_fetch)
    list_parser.set_defaults(handler=run_list)


def _data_set(name: str) -> DataSet:
    known = data_sets()
    if name not in known:
        raise InvalidOptionError(
            f"no data set {name!r}; expected one of {', '.join(sorted(known))}"
        )
    return known[name]


def run_fetch(args: argparse.Namespace) -> int:
    data_set = _data_set(args.name)
    folder = data_folder(data_set, args.data)
    missing = [file for file in data_set.files if not is_intact(file, folder)]
    total = sum(file.bytes_to_download for file in missing)
    outcomes: list[FetchOutcome] = []
    with (
        interruptible() as stop,
        progress(f"downloading {data_set.name}", total, unit="bytes") as bar,
    ):
        base = 0
        for file in data_set.files:

            def received(done: int, base: int = base, name: str = file.name) -> None:
                bar.set_completed(base + done, note=name)

            outcomes.append(fetch(file, folder, mirror=args.mirror, on_bytes=received))
            if file in missing:
                base += file.bytes_to_download
                bar.set_completed(base, note=file.name)
    report = {
        "data_set": data_set.name,
        "folder": str(folder),
        "files": [
            {
                "name": o.file.name,
                "bytes": o.file.size,
                "sha256": o.file.sha256,
                "downloaded": o.downloaded,
            }
            for o in outcomes
        ],
    }
    if args.json:
        print_json(report)
    else:
        out = console()
        for outcome in outcomes:
            state = "downloaded and checked" if outcome.downloaded else "already there, checked"
            out.print(f"{outcome.file.name:<16} {outcome.file.size:>10,} bytes  {state}")
        out.print(
            f"{len(outcomes)} of {len(data_set.files)} files of {data_set.name} in {str(folder)!r}"
        )
    if stop.interrupted:
        return report_interruption(len(outcomes), len(data_set.files), "files")
    return 0


def run_list(args: argparse.Namespace) -> int:
    data_set = _data_set(args.name)
    folder = data_folder(data_set, args.data)
    files: list[dict[str, Any]] = [
        {
            "name": f.name,
            "bytes": f.size,
            "sha256": f.sha256,
            "url": f.url,
            "present": is_intact(f, folder),
        }
        for f in data_set.files
    ]
    if args.json:
        print_json(
            {
                "data_set": data_set.name,
                "description": data_set.description,
                "folder": str(folder),
                "files": files,
            }
        )
        return 0
    out = console()
    grid = table(
        f"{data_set.description}, in {str(folder)!r}",
        ("file", "there", "published at", "bytes"),
        numeric_from=3,
    )
    for entry in files:
        grid.add_row(
            Text(entry["name"]),
            "yes" if entry["present"] else "no",
            Text(entry["url"]),
            f"{entry['bytes']:,}",
        )
    out.print(grid)
    if not all(entry["present"] for entry in files):
        hint = data_set.fetch_command(args.data)
        out.print(f"run '{hint}' to download the missing files")
    return 0
