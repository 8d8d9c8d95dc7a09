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

  undo(
    gameId: string,
    token: string,
    request: Schemas["UndoActionRequest"],
  ): Promise<Json<"/v1/games/{gameId}:undo", "post">> {
    return this.call("POST", `/v1/games/${gameId}:undo`, token, request);
  }
}

/** What a Birmingham seat view shows a player of itself: typed fields, not free-form. */
export function describeSeat(view: Schemas["BirminghamView"], seat: number): string {
  const player: Schemas["BirminghamView.Player"] | undefined = view.playerState[seat];
  if (player === undefined) throw new Error(`no seat ${seat}`);
  const money: number = player.money;
  const cards: number = Object.values(player.hand).reduce((sum, n) => sum + n, 0);
  const tiles: Schemas["BirminghamView.Slot"][] = Object.values(view.slots);
  const mine: number = tiles.filter((tile) => tile.owner === seat).length;
  const coal: number = view.markets?.coal ?? 0;
  return `£${money}, ${cards} cards, ${mine} tiles, coal market ${coal}`;
}

/** The Undo button: the seat to act may take back `undoSteps` decisions now. */
export function undoButton(view: Schemas["BirminghamView"]): { enabled: boolean; why: string } {
  const refused: Schemas["BirminghamReason.Code"] | undefined = view.undoRefused;
  const mine: boolean = view.seat !== undefined && view.seat === view.current;
  return { enabled: mine && view.undoSteps > 0, why: refused ?? "" };
}

/** One kind of the event catalogue, read by its typed fields. */
export function describeBuilds(events: Schemas["GameEvent"][]): string[] {
  const built: string[] = [];
  for (const event of events) {
    const build: Schemas["BirminghamEvent.Build"] | undefined = event.birmingham?.build;
    if (build !== undefined) built.push(`${build.industry} ${build.level} at ${build.slot}`);
  }
  return built;
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
  const board = answer.state?.birmingham;
  const seen: string = board === undefined ? "" : describeSeat(board, toAct ?? 0);
  const built: string[] = describeBuilds(answer.events);
  // Undo the decision if the view offers it: with the version seen and a key for retries.
  let undone = "";
  if (board !== undefined && undoButton(board).enabled) {
    const after: string = answer.state?.summary?.version ?? version;
    const back = await client.undo(created.gameId, token, {
      expectedVersion: after,
      idempotencyKey: `undo-${after}`,
    });
    const taken: number = back.events[0]?.birmingham?.undo?.decisions ?? 0;
    const replayed: boolean = back.replayed;
    undone = `${taken} ${replayed}`;
  }
  return `${name} ${previewed} ${next} ${ended} ${seen} ${built.join(";")} ${undone}`;
}
