"""The Brass game service: gRPC + REST over the engine, with durable games.

Entry points: `brass_service.server.serve` (blocking) and `serve_async`.
"""
