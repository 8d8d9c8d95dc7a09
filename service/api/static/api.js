// The REST API of the same origin, and the live event stream (Server-Sent Events read
// with fetch, since EventSource cannot send the seat's Authorization header).

import { language } from './i18n.js';
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
  createGame: (body) => call('POST', '/v1/games', { body }),
  listGames: (query) => call('GET', '/v1/games', { query }),
  getGame: (id, token, atVersion) =>
    call('GET', `/v1/games/${enc(id)}`, { token, query: { atVersion } }),
  legal: (id, token) => call('GET', `/v1/games/${enc(id)}/actions`, {
    token, query: { includeCompoundActions: true, includeUnavailable: true },
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
  join: (id, name, seat) => call('POST', `/v1/games/${enc(id)}:join`, {
    body: seat === undefined || seat === null ? { name } : { name, seat },
  }),
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
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let retry = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { retry: retry ?? delay };
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
        let event = 'message';
        const data = [];
        let id = null;
        for (const line of block.split(/\r?\n/)) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const val = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = val;
          else if (field === 'data') data.push(val);
          else if (field === 'id') id = val;
          else if (field === 'retry' && /^\d+$/.test(val)) retry = Number(val);
        }
        if (!data.length) continue;
        const payload = JSON.parse(data.join('\n'));
        if (event === 'update') {
          const update = readUpdate(payload);
          if (id !== null && /^\d+$/.test(id)) lastVersion = Number(id);
          else lastVersion = update.version;
          handlers.onUpdate(update);
        } else if (event === 'end') {
          controller.abort();
          return { end: 'ended' };
        } else if (event === 'shutdown') {
          // the server is restarting: come back after `retry` from the last version
          controller.abort();
          return { retry: retry ?? 1000, shutdown: true };
        } else if (event === 'error') {
          controller.abort();
          const error = new ApiError(readError(payload, 500));
          // the token lost its seat (SEAT_TOKEN_REVOKED, 401): retrying will not mend it
          if ([400, 401, 403, 404].includes(payload?.error?.code)) return { end: 'failed', error };
          return { retry: delay, error };
        }
      }
    }
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
