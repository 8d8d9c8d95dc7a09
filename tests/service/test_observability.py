"""Operators' view: JSON request logs without secrets, Prometheus metrics, health, reflection."""

from __future__ import annotations

import json
import random

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from brass_clients.sdk import BrassError

from .conftest import Backend
from .helpers import ServerProcess, play_random_grpc, play_random_rest, rest_get_status


def test_request_logs_are_json_with_context_and_no_secrets(backend: Backend) -> None:
    server = backend.start_server("logs")
    with server.client() as client:
        created = client.create_game(players=2, seed=12)
        tokens = [s.token for s in created.seats]
        play_random_grpc(client, created.game_id, tokens, random.Random(1), max_submissions=3)
        try:
            client.submit_action(created.game_id, tokens[0], 10**6)
        except BrassError:
            pass
    rest = server.rest()
    play_random_rest(rest, created.game_id, tokens, random.Random(2), max_submissions=2)
    server.stop()
    lines = [json.loads(line) for line in server.log_text().splitlines() if line.startswith("{")]
    requests = [line for line in lines if line.get("event") == "request"]
    submits = [r for r in requests if r["method"] == "SubmitAction"]
    assert {r["transport"] for r in submits} == {"grpc", "rest"}
    for line in submits:
        assert line["game_id"] == created.game_id
        assert isinstance(line["latency_ms"], float)
        assert line["seat"] in (0, 1)
        assert isinstance(line["version"], int)
        assert line["outcome"] in ("OK", "UNKNOWN_ACTION")
    assert any(r["outcome"] == "UNKNOWN_ACTION" for r in submits)
    text = server.log_text()
    for token in tokens:
        assert token not in text, "a seat token was logged"


def test_metrics_count_requests_latency_games_and_watchers(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=3)
        stream = client.watch_game(created.game_id)
        next(stream)
        metrics = _metrics(server)
        assert metrics["brass_active_watchers"] >= 1
        stream.close()
    assert metrics["brass_active_games"] >= 1
    assert any(
        key.startswith("brass_requests_total{") and 'method="CreateGame"' in key
        and 'outcome="OK"' in key for key in metrics
    )
    assert any(key.startswith("brass_request_latency_seconds_bucket{") for key in metrics)


def _metrics(server: ServerProcess) -> dict[str, float]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=10)
    connection.request("GET", "/metrics")
    response = connection.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type", "").startswith("text/plain")
    values: dict[str, float] = {}
    for line in response.read().decode().splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.rpartition(" ")
            values[key] = float(value)
    connection.close()
    return values


def test_health_and_reflection(server: ServerProcess) -> None:
    assert rest_get_status(server.http_port, "/healthz") == 200
    with grpc.insecure_channel(server.grpc_target) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "brass.v1.GameService"):
            reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        replies = reflection.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=10
        )
        names = {s.name for reply in replies for s in reply.list_services_response.service}
        assert {"brass.v1.GameService", "grpc.health.v1.Health"} <= names


def test_reflection_v1_answers_like_v1alpha(server: ServerProcess) -> None:
    # grpcurl and Postman ask v1 first; its messages are v1alpha's on the wire
    with grpc.insecure_channel(server.grpc_target) as channel:
        call = channel.stream_stream(
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
            request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
            response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
        )
        requests = [reflection_pb2.ServerReflectionRequest(list_services=""),
                    reflection_pb2.ServerReflectionRequest(
                        file_containing_symbol="brass.v1.GameService")]
        replies = list(call(iter(requests), timeout=10))
    names = {s.name for s in replies[0].list_services_response.service}
    assert {"brass.v1.GameService", "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection"} <= names
    assert replies[1].file_descriptor_response.file_descriptor_proto  # the schema itself
