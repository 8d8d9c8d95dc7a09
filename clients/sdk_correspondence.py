"""GameClient's calls for play by correspondence: webhooks (docs/WEBHOOKS.md) and the
export of finished games (docs/RECORDS.md). A mixin of brass_clients.sdk.GameClient, which
makes the calls (_call, _server_stream) and maps failures to BrassError."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from brass_service.gen import game_service_pb2 as pb


class CorrespondenceCalls:
    """Webhooks of an account (its key) or of a seat or host of a game (its token), and the
    operator's export of finished games."""

    if TYPE_CHECKING:
        operator_token: str | None

        def _call(self, method: str, request: Any, token: str | None = None,
                  retry: bool = True) -> Any: ...

        def _server_stream(self, method: str, request: Any, token: str | None,
                           timeout: float | None = None) -> Iterator[Any]: ...

    def create_webhook(self, token: str, url: str, *, account_id: str = "",
                       game_id: str = "", events: Sequence[str] = ()
                       ) -> pb.CreateWebhookResponse:
        """Registers a webhook: `account_id` with the account's key, or `game_id` with a
        seat's or the host's token as `token`. The answer's `secret` (whsec_...) is shown
        this once: the receiver verifies every delivery with it. Not retried (a retry after
        a lost answer would register a second one)."""
        request = pb.CreateWebhookRequest(account_id=account_id, game_id=game_id, url=url,
                                          events=list(events))
        return self._call("CreateWebhook", request, token, retry=False)  # type: ignore[no-any-return]

    def list_webhooks(self, token: str, *, account_id: str = "", game_id: str = ""
                      ) -> list[pb.Webhook]:
        """The owner's webhooks, oldest first, without their secrets."""
        request = pb.ListWebhooksRequest(account_id=account_id, game_id=game_id)
        return list(self._call("ListWebhooks", request, token).webhooks)

    def delete_webhook(self, token: str, webhook_id: str) -> None:
        """Deletes a webhook and the deliveries it still had (its owner's key or token)."""
        self._call("DeleteWebhook", pb.DeleteWebhookRequest(webhook_id=webhook_id), token,
                   retry=False)

    def webhook_deliveries(self, token: str, webhook_id: str, *, page_size: int = 0,
                           page_token: str = "") -> pb.ListWebhookDeliveriesResponse:
        """A page of the webhook's deliveries still pending and given up (dead), newest
        first; `next_page_token` of the answer asks for the next."""
        request = pb.ListWebhookDeliveriesRequest(webhook_id=webhook_id, page_size=page_size,
                                                  page_token=page_token)
        return self._call("ListWebhookDeliveries", request, token)  # type: ignore[no-any-return]

    def export_games(
        self,
        *,
        ruleset: str | None = None,
        players: int | None = None,
        rated: bool | None = None,
        created_after: float | None = None,
        created_before: float | None = None,
        limit: int | None = None,
        timeout: float | None = None,
    ) -> Iterator[str]:
        """Finished games, newest first, as game-export.v1 JSON documents (the lines of
        GET /v1/games:export; brass.records.read_export rebuilds and checks them). The
        operator's only. Times are Unix seconds; unset filters keep every game.

        Not retried: export again from the last game received (created_before)."""
        request = pb.ExportGamesRequest(players=players, rated=rated, limit=limit)
        if ruleset is not None:
            request.ruleset = pb.Ruleset.Value(f"RULESET_{ruleset.upper()}")
        for name, moment in (("created_after", created_after),
                             ("created_before", created_before)):
            if moment is not None:
                getattr(request, name).FromNanoseconds(round(moment * 1e9))
        for response in self._server_stream("ExportGames", request, self.operator_token,
                                            timeout):
            yield response.record
