"""Python clients of the Brass game service: SDKs (sync and asyncio), CLI, bots."""
