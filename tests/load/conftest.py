"""Fixtures of the load, fault and bad-input suites: the service suite's server fixtures
(tests/service/conftest.py and helpers.py), reused as they are."""

from __future__ import annotations

from service.conftest import Backend, backend, server  # noqa: F401  (fixtures re-exported)
from service.helpers import ServerProcess  # noqa: F401
