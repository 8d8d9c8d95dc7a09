"""Benchmarks and generators run by hand or by tests (`python -m brass_service.tools.NAME`),
never by the server: nothing in the runtime modules imports them."""
