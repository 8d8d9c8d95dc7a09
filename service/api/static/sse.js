// Server-Sent Events read with fetch (EventSource cannot send an Authorization header):
// the blocks of a response body, each as { event, data, id, retry }.

export async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
      const parsed = parseBlock(block);
      // a handler's true stops the reading (an end, a shutdown, an error)
      if (parsed && onEvent(parsed)) return;
    }
  }
}

function parseBlock(block) {
  let event = 'message';
  const data = [];
  let id = null;
  let retry = null;
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
  if (!data.length) return retry === null ? null : { event, data: null, id, retry };
  return { event, data: JSON.parse(data.join('\n')), id, retry };
}

// Follows a stream at `url()` (re-read at each connection) with `token`, reconnecting after
// a cut or a server restart (backing off to 5 s); `onEvent(parsed)` gets each event and
// returns true to end the stream. Handlers: onStatus('live' | 'reconnecting' | 'ended' |
// 'failed', error?). A refusal that retrying will not mend (400, 401, 403, 404) ends it.
export function followStream(url, token, onEvent, { onStatus, makeError, language } = {}) {
  let stopped = false;
  let controller = null;
  let delay = 500;
  const status = (s, detail) => onStatus && onStatus(s, detail);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  (async () => {
    while (!stopped) {
      let retry = delay;
      try {
        controller = new AbortController();
        const headers = { Accept: 'text/event-stream' };
        if (language) headers['Accept-Language'] = language();
        if (token) headers.Authorization = `Bearer ${token}`;
        const response = await fetch(url(), { headers, signal: controller.signal, cache: 'no-store' });
        if (!response.ok) {
          let body = null;
          try { body = await response.json(); } catch { body = null; }
          const error = makeError ? makeError(body, response.status) : new Error(String(response.status));
          if ([400, 401, 403, 404].includes(response.status)) {
            status('failed', error);
            return;
          }
        } else {
          status('live');
          delay = 500;
          let ended = false;
          await readEvents(response, (parsed) => {
            if (parsed.retry !== null) retry = parsed.retry;
            if (parsed.data === null) return false;
            if (parsed.event === 'shutdown') return true;
            ended = Boolean(onEvent(parsed));
            return ended;
          });
          controller.abort();
          if (ended) {
            status('ended');
            return;
          }
        }
      } catch {
        if (stopped) return;
      }
      if (stopped) return;
      status('reconnecting');
      await sleep(retry);
      delay = Math.min(delay * 2, 5000);
    }
  })();
  return {
    close() {
      stopped = true;
      if (controller) controller.abort();
    },
  };
}
