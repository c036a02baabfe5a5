"""Shared fixtures and hypothesis settings."""

from __future__ import annotations

import os

# pytest-xdist's workers inherit COLUMNS from the run (80 when there is no terminal):
# the command line would then wrap its tables at that width, where a test run in one
# process sees the width of a pipe. Every test sees the same environment either way.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci", parent=settings.get_profile("default"), print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
# The fast tier (`make test-fast` passes --hypothesis-profile=fast): a property test that
# names no example count of its own tries 25 examples instead of hypothesis' 100; the
# whole suite (`make test`) tries them all. A test that names its count keeps it.
settings.register_profile("fast", parent=settings(), max_examples=25)
