// What this browser remembers: the seat tokens it holds and the games it hosts, in
// localStorage (never sent anywhere but in the Authorization header of this origin's API).

const KEY = 'brass.web.v1';

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || '{}');
    return { games: data.games || {} };
  } catch {
    return { games: {} };
  }
}

function save(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // storage full or disabled: the page still works for this visit
  }
}

function entry(data, gameId) {
  if (!data.games[gameId]) data.games[gameId] = { seats: {}, host: null, links: {}, when: Date.now() };
  return data.games[gameId];
}

export const saved = {
  seatToken(gameId, seat) {
    const g = load().games[gameId];
    return g && g.seats[seat] ? g.seats[seat] : null;
  },
  seats(gameId) {
    const g = load().games[gameId];
    return g ? Object.keys(g.seats).map(Number).sort() : [];
  },
  addSeat(gameId, seat, token) {
    const data = load();
    const g = entry(data, gameId);
    g.seats[seat] = token;
    g.when = Date.now();
    save(data);
  },
  forgetSeat(gameId, seat) {
    const data = load();
    const g = data.games[gameId];
    if (g) delete g.seats[seat];
    save(data);
  },
  // Forgets every seat held with this token (an account's key, on signing out).
  forgetToken(token) {
    const data = load();
    for (const g of Object.values(data.games)) {
      for (const [seat, held] of Object.entries(g.seats)) if (held === token) delete g.seats[seat];
    }
    save(data);
  },
  // This browser's token of a finished game's rematch ({ seat, token }), kept with the
  // finished game until the rematch starts.
  rematch(gameId) {
    const g = load().games[gameId];
    return g && g.rematch ? g.rematch : null;
  },
  setRematch(gameId, seat, token) {
    const data = load();
    entry(data, gameId).rematch = { seat, token };
    save(data);
  },
  hostToken(gameId) {
    const g = load().games[gameId];
    return g ? g.host : null;
  },
  // The invite links the host made (seat -> token), shown again on the game's page.
  inviteTokens(gameId) {
    const g = load().games[gameId];
    return g ? g.links || {} : {};
  },
  addHosted(gameId, hostToken, links) {
    const data = load();
    const g = entry(data, gameId);
    g.host = hostToken;
    g.links = links;
    save(data);
  },
  games() {
    const data = load();
    return Object.entries(data.games)
      .map(([gameId, g]) => ({ gameId, seats: Object.keys(g.seats).map(Number), host: Boolean(g.host), when: g.when }))
      .sort((a, b) => b.when - a.when);
  },
};

export function inviteUrl(gameId, seat, token) {
  return `${location.origin}/#/play/${encodeURIComponent(gameId)}/${seat}/${encodeURIComponent(token)}`;
}

export function joinUrl(gameId, seat) {
  return `${location.origin}/#/join/${encodeURIComponent(gameId)}${seat === undefined ? '' : '/' + seat}`;
}

export function watchUrl(gameId) {
  return `${location.origin}/#/game/${encodeURIComponent(gameId)}`;
}
