"""The suite's own assumption: under `--dist loadgroup` (as .ci/run runs it) the tests of one
xdist_group run on one worker. pytest-xdist marks them by suffixing their node ids with the
group's name; pytest 9.2 silently stopped that (pytest-dev/pytest-xdist#1386), and the
browser, Schemathesis and TypeScript tests then ran side by side over shared files."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.xdist_group("suite-groups")


def test_loadgroup_groups_the_marked_tests(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):  # set on xdist workers
        pytest.skip("not run with --dist loadgroup: no groups to check")
    assert request.node.nodeid.endswith("@suite-groups"), request.node.nodeid
