"""`python -m brass_service`: the same server `brass serve` starts."""

from __future__ import annotations

import argparse
import os

from .app.config import DEFAULT_GRPC_PORT, DEFAULT_HTTP_PORT
from .app.main import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m brass_service", description=__doc__)
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("BRASS_GRPC_PORT", DEFAULT_GRPC_PORT)),
        help="gRPC port (env BRASS_GRPC_PORT, default %(default)s)",
    )
    parser.add_argument(
        "--http-port", type=int,
        default=int(os.environ.get("BRASS_HTTP_PORT", DEFAULT_HTTP_PORT)),
        help="REST port (env BRASS_HTTP_PORT, default %(default)s)",
    )
    parser.add_argument(
        "--database-url", default=os.environ.get("BRASS_DATABASE_URL") or None,
        help="postgresql://… or sqlite:///path (env BRASS_DATABASE_URL; default: SQLite file "
        "brass-games.sqlite3 in the working directory)",
    )
    parser.add_argument(
        "--log-level", default=os.environ.get("BRASS_LOG_LEVEL", "info"),
        choices=["debug", "info", "warning", "error"], help="env BRASS_LOG_LEVEL",
    )
    parser.add_argument(
        "--workers", type=int, default=int(os.environ.get("BRASS_WORKERS", 1)),
        help="server processes sharing the ports and the store (env BRASS_WORKERS, "
        "default %(default)s; about one core each)",
    )
    parser.add_argument(
        "--cors-origins", default=None,
        help="browser origins allowed to call the REST API, comma separated, or '*' "
        "(env BRASS_CORS_ORIGINS; default: none, CORS off)",
    )
    parser.add_argument(
        "--trusted-proxies", default=None,
        help="comma-separated addresses or CIDR networks of proxies whose forwarding header "
        "(BRASS_FORWARDED_HEADER: x-forwarded-for or forwarded) names the client (env "
        "BRASS_TRUSTED_PROXIES; default none)",
    )
    parser.add_argument(
        "--operator-token", default=None,
        help="the bearer token that RunBatch and CreateGameFromPosition need and that is "
        "free of the creation quota (env BRASS_OPERATOR_TOKEN, which keeps it out of the "
        "process list; default none: those calls are refused)",
    )
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.cors_origins is not None:
        os.environ["BRASS_CORS_ORIGINS"] = args.cors_origins  # read by every worker
    serve(args.port, args.http_port, args.database_url, args.log_level, args.workers,
          trusted_proxies=args.trusted_proxies, operator_token=args.operator_token)


if __name__ == "__main__":
    main()
