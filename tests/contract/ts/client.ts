// A small frontend client written against the types openapi-typescript generates from the
// service's /openapi.json (generated/api.d.ts, made by tests/contract/test_typescript.py).
// `tsc --noEmit` type-checks it: a field renamed, retyped or dropped from the contract
// breaks this file.
import type { components, paths } from "./generated/api";

type Schemas = components["schemas"];
type Json<P extends keyof paths, M extends "get" | "post"> = paths[P][M] extends {
  responses: { 200: { content: { "application/json": infer Body } } };
}
  ? Body
  : never;

export class BrassClient {
  constructor(private readonly base: string) {}

  private async call<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    const answer = await fetch(this.base + path, init);
    if (!answer.ok) {
      const error = (await answer.json()) as Schemas["Error"];
      throw new Error(`${error.error.reason}: ${error.error.message}`);
    }
    return (await answer.json()) as T;
  }

  createGame(request: Schemas["CreateGameRequest"]): Promise<Json<"/v1/games", "post">> {
    return this.call("POST", "/v1/games", undefined, request);
  }

  getGame(gameId: string, token?: string): Promise<Json<"/v1/games/{gameId}", "get">> {
    return this.call("GET", `/v1/games/${gameId}`, token);
  }

  legalActions(gameId: string, token: string): Promise<Json<"/v1/games/{gameId}/actions", "get">> {
    return this.call("GET", `/v1/games/${gameId}/actions?includeCompoundActions=true`, token);
  }

  submit(
    gameId: string,
    token: string,
    request: Schemas["SubmitActionRequest"],
  ): Promise<Json<"/v1/games/{gameId}/actions", "post">> {
    return this.call("POST", `/v1/games/${gameId}/actions`, token, request);
  }

  preview(
    gameId: string,
    token: string,
    request: Schemas["PreviewActionRequest"],
  ): Promise<Json<"/v1/games/{gameId}/actions:preview", "post">> {
    return this.call("POST", `/v1/games/${gameId}/actions:preview`, token, request);
  }

  join(gameId: string, name: string): Promise<Json<"/v1/games/{gameId}:join", "post">> {
    return this.call("POST", `/v1/games/${gameId}:join`, undefined, { name });
  }
}

/** One Server-Sent Event of the watch stream, read as the document types it. */
export function readWatchEvent(event: string, data: string): Schemas["WatchEvent"] {
  switch (event) {
    case "update":
      return { event, data: JSON.parse(data) as Schemas["WatchGameResponse"] };
    case "end":
    case "shutdown":
      return { event, data: JSON.parse(data) as Schemas["WatchStreamEnd"] };
    default:
      return { event: "error", data: JSON.parse(data) as Schemas["Error"] };
  }
}

export async function playOneDecision(client: BrassClient): Promise<string> {
  const created = await client.createGame({ players: 2, seed: "7", ruleset: "RULESET_BIRMINGHAM" });
  const seat: Schemas["SeatToken"] | undefined = created.seats[0];
  if (seat === undefined) throw new Error("no seat");
  const view = await client.getGame(created.gameId, seat.token);
  const summary: Schemas["GameSummary"] | undefined = view.state?.summary;
  const version: string = summary?.version ?? "0";
  const status: Schemas["GameStatus"] = summary?.status ?? "GAME_STATUS_UNSPECIFIED";
  const toAct: number | undefined = summary?.currentSeat;
  const token = created.seats.find((s) => s.seat === toAct)?.token ?? seat.token;
  const legal = await client.legalActions(created.gameId, token);
  const option: Schemas["LegalOption"] | undefined = legal.options[0];
  if (option === undefined) throw new Error(`no option at ${status}`);
  const name: string = option.name;
  const preview = await client.preview(created.gameId, token, { action: { optionId: option.id } });
  const previewed: string = preview.version;
  const answer = await client.submit(created.gameId, token, {
    action: { optionId: option.id },
    expectedVersion: version,
    includeLegalActions: true,
  });
  for (const event of answer.events) {
    const at: string = event.version;
    void at;
  }
  const next: number = answer.nextActions?.options.length ?? 0;
  const end = readWatchEvent("end", '{"reason":"GAME_OVER","version":"3"}');
  const ended: string = end.event === "end" ? end.data.reason : "";
  return `${name} ${previewed} ${next} ${ended}`;
}
