// The signed-in account of this browser (id, name, bot, key), in localStorage: the key is
// sent only in the Authorization header of this origin's API, and signing out forgets it.

import { saved } from './store.js';

const KEY = 'brass.account.v1';

export function account() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || 'null');
    return data && data.id && data.key ? data : null;
  } catch {
    return null;
  }
}

export function accountKey() {
  const signed = account();
  return signed ? signed.key : undefined;
}

export function signIn(id, name, bot, key) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ id, name, bot: Boolean(bot), key }));
  } catch {
    // storage disabled: signed in for nothing beyond this call
  }
}

export function signOut() {
  const signed = account();
  // the games opened with the key as their seat's token forget it too
  if (signed) saved.forgetToken(signed.key);
  try { localStorage.removeItem(KEY); } catch { /* nothing kept */ }
}

// Opens the account's seat of a game with its key, unless this browser holds the seat's
// own token already (the key acts for the account's seat as that token would).
export function holdSeat(gameId, seat) {
  const signed = account();
  if (signed && !saved.seatToken(gameId, seat)) saved.addSeat(gameId, seat, signed.key);
}
