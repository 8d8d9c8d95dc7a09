"""The transports: the gRPC servicer, the REST gateway (routes, request reading, the plain
operations, the streams, the aiohttp app), the lean HTTP front on the REST port, the OpenAPI
document and the web page. Each turns requests into GameService calls and answers back;
none decides anything of a game.
"""
