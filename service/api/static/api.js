// The REST API of the same origin, and the live event stream (Server-Sent Events read
// with fetch, since EventSource cannot send the seat's Authorization header).

import { language } from './i18n.js';
import { followStream, readEvents } from './sse.js';
import { readError, readUpdate } from './view.js';

export class ApiError extends Error {
  constructor(error) {
    super(error.message);
    this.reason = error.reason;
    this.status = error.status;
    this.metadata = error.metadata;
  }
}

async function call(method, path, { token, body, query } = {}) {
  let url = path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
    }
    const text = params.toString();
    if (text) url += '?' + text;
  }
  // the server's refusals and reasons in the page's language
  const headers = { 'Accept-Language': language() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(url, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (err) {
    throw new ApiError({ status: 0, reason: 'NETWORK', message: 'the server cannot be reached', metadata: {} });
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) throw new ApiError(readError(data, response.status));
  return data;
}

const enc = encodeURIComponent;

export const api = {
  openapi: () => call('GET', '/openapi.json'),
  ruleset: (name) => call('GET', `/v1/rulesets/${enc(name)}`),
  // an account's key as the token binds the caller's seat to the account
  createGame: (body, accountKey) => call('POST', '/v1/games', { body, token: accountKey }),
  listGames: (query) => call('GET', '/v1/games', { query }),
  getGame: (id, token, atVersion) =>
    call('GET', `/v1/games/${enc(id)}`, { token, query: { atVersion } }),
  legal: (id, token) => call('GET', `/v1/games/${enc(id)}/actions`, {
    token, query: { includeCompoundActions: true, includeUnavailable: true },
  }),
  // the decision after the first steps `ids` of the action in progress (nothing applied):
  // its refused options with the engine's reasons
  legalAfter: (id, token, ids) => call('GET', `/v1/games/${enc(id)}/actions`, {
    token, query: { includeUnavailable: true, afterIds: ids.join(',') },
  }),
  submit: (id, token, action, expectedVersion) => call('POST', `/v1/games/${enc(id)}/actions`, {
    token,
    body: { action, expectedVersion: String(expectedVersion), idempotencyKey: newKey() },
  }),
  preview: (id, token, action, expectedVersion) =>
    call('POST', `/v1/games/${enc(id)}/actions:preview`, {
      token, body: { action, expectedVersion: String(expectedVersion) },
    }),
  replay: (id, token) => call('GET', `/v1/games/${enc(id)}/replay`, { token }),
  join: (id, name, seat, accountKey) => call('POST', `/v1/games/${enc(id)}:join`, {
    body: seat === undefined || seat === null ? { name } : { name, seat }, token: accountKey,
  }),
  createAccount: (name, bot) => call('POST', '/v1/accounts', { body: { name, bot } }),
  account: (id) => call('GET', `/v1/accounts/${enc(id)}`),
  // whose key this is (GetAccount of "me"): a sign-in with the key alone
  accountOfKey: (key) => call('GET', '/v1/accounts/me', { token: key }),
  createChallenge: (key, body) => call('POST', '/v1/challenges', { token: key, body }),
  acceptChallenge: (key, id) => call('POST', `/v1/challenges/${enc(id)}:accept`, { token: key, body: {} }),
  declineChallenge: (key, id) => call('POST', `/v1/challenges/${enc(id)}:decline`, { token: key, body: {} }),
  leaderboard: (ruleset, query) => call('GET', `/v1/leaderboards/${enc(ruleset)}`, { query }),
  ratingHistory: (id, query) => call('GET', `/v1/accounts/${enc(id)}/ratings`, { query }),
  arena: (id) => call('GET', `/v1/arenas/${enc(id)}`),
  // the account's games (its unlisted ones too with its key)
  accountGames: (id, key, pageToken) =>
    call('GET', '/v1/games', { token: key, query: { accountId: id, pageSize: 50, pageToken } }),
  leave: (id, token) => call('POST', `/v1/games/${enc(id)}:leave`, { token, body: {} }),
  start: (id, hostToken) => call('POST', `/v1/games/${enc(id)}:start`, { token: hostToken, body: {} }),
  // An operation the server may or may not have (found in its OpenAPI document).
  operation: (op, pathParams, token, body) => {
    let path = op.path;
    for (const [k, v] of Object.entries(pathParams)) path = path.replace(`{${k}}`, enc(v));
    return call(op.method, path, { token, body });
  },
};

function newKey() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return 'web-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Follows a game's updates from `fromVersion`, resuming after a server restart or a cut
// connection from the last version received. Handlers: onUpdate(update), onStatus(text:
// 'live' | 'reconnecting' | 'ended' | 'failed'), onError(ApiError).
export function watchGame(gameId, token, fromVersion, handlers) {
  let lastVersion = fromVersion;
  let stopped = false;
  let controller = null;
  let delay = 500;
  const status = (s, detail) => handlers.onStatus && handlers.onStatus(s, detail);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function once() {
    controller = new AbortController();
    const headers = { Accept: 'text/event-stream', 'Accept-Language': language() };
    if (token) headers.Authorization = `Bearer ${token}`;
    const url = `/v1/games/${enc(gameId)}/events?fromVersion=${lastVersion}`;
    const response = await fetch(url, { headers, signal: controller.signal, cache: 'no-store' });
    if (!response.ok) {
      let body = null;
      try { body = await response.json(); } catch { body = null; }
      const error = new ApiError(readError(body, response.status));
      // a missing game or a refused token will not mend by retrying
      if ([400, 401, 403, 404].includes(response.status)) return { end: 'failed', error };
      return { retry: delay, error };
    }
    status('live');
    delay = 500;
    let retry = null;
    let outcome = null;
    await readEvents(response, ({ event, data: payload, id, retry: r }) => {
      if (r !== null) retry = r;
      if (payload === null) return false;
      if (event === 'update') {
        const update = readUpdate(payload);
        if (id !== null && /^\d+$/.test(id)) lastVersion = Number(id);
        else lastVersion = update.version;
        handlers.onUpdate(update);
        return false;
      }
      if (event === 'end') {
        outcome = { end: 'ended' };
      } else if (event === 'shutdown') {
        // the server is restarting: come back after `retry` from the last version
        outcome = { retry: retry ?? 1000, shutdown: true };
      } else if (event === 'error') {
        const error = new ApiError(readError(payload, 500));
        // the token lost its seat (SEAT_TOKEN_REVOKED, 401): retrying will not mend it
        if ([400, 401, 403, 404].includes(payload?.error?.code)) outcome = { end: 'failed', error };
        else outcome = { retry: delay, error };
      } else {
        return false;
      }
      controller.abort();
      return true;
    });
    return outcome || { retry: retry ?? delay };
  }

  (async () => {
    while (!stopped) {
      let outcome;
      try {
        outcome = await once();
      } catch (err) {
        if (stopped) return;
        outcome = { retry: delay };
      }
      if (stopped) return;
      if (outcome.end) {
        status(outcome.end, outcome.error);
        if (outcome.error && handlers.onError) handlers.onError(outcome.error);
        return;
      }
      status('reconnecting', outcome.shutdown ? 'the server is restarting' : undefined);
      await sleep(outcome.retry);
      delay = Math.min(delay * 2, 5000);
    }
  })();

  return {
    close() {
      stopped = true;
      if (controller) controller.abort();
    },
    get version() { return lastVersion; },
  };
}

// The account's stream (challenges, games started, turns, games over), live until closed.
export function watchAccount(key, onEvent, onStatus) {
  return followStream(() => '/v1/account/events', key, onEvent, {
    onStatus, language, makeError: (body, status) => new ApiError(readError(body, status)),
  });
}
