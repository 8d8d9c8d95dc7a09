"""The Brass game service: gRPC + REST over the engine, with durable games.

Entry points: `brass_service.app.main.serve` (blocking, what `brass serve` runs) and
`brass_service.app.server.serve_async` (the same server as a coroutine).
"""
