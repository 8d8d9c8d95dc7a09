// #/account: sign in with an account's id and key (or create an account: its key is shown
// once), then the account's games, its challenges (live over the account's stream) and a
// form to challenge another account. The key is kept in this browser (session.js).

import { api, watchAccount } from './api.js';
import { capabilities } from './caps.js';
import { announce, h, replace } from './dom.js';
import { t } from './i18n.js';
import { account, holdSeat, signIn, signOut } from './session.js';
import { isFinished, isWaiting, readSummary } from './view.js';

// The key of an account just created, shown once on the next screen (never stored apart
// from the signed-in account).
let freshKey = null;

export function errorBox() {
  return h('p', { class: 'error', role: 'alert', hidden: true });
}

export function showError(box, err) {
  box.hidden = false;
  box.textContent = err.reason ? `${err.message} (${err.reason})` : String(err.message || err);
}

// A ruleset's name; unset (RULESET_UNSPECIFIED, as a challenge made without one) is Birmingham.
export function rulesetName(ruleset) {
  const name = String(ruleset || '').replace(/^RULESET_/, '').toLowerCase();
  return t(`ruleset.${!name || name === 'unspecified' ? 'birmingham' : name}`);
}

// A form's submit: the error line hidden, the button held down while `action` runs, a
// refusal shown in the error line.
export function onSubmit(form, submit, err, action) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.hidden = true;
    submit.disabled = true;
    try {
      await action();
    } catch (error) {
      showError(err, error);
    } finally {
      submit.disabled = false;
    }
  });
}

function field(id, label, input, hint) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), input,
    hint ? h('small', { id: `${id}-hint` }, hint) : null);
}

function signInForm(go) {
  const err = errorBox();
  const key = h('input', { id: 'signin-key', type: 'password', required: true, autocomplete: 'current-password', maxlength: 200, 'aria-describedby': 'signin-key-hint' });
  const submit = h('button', { type: 'submit', class: 'primary' }, t('account.signIn'));
  const form = h('form', { class: 'signin-form', 'aria-labelledby': 'signin-heading' },
    field('signin-key', t('account.key'), key, t('account.keyHint')), err, submit);
  onSubmit(form, submit, err, async () => {
    const found = (await api.accountOfKey(key.value.trim())).account;
    signIn(found.accountId, found.name, found.bot, key.value.trim());
    announce(t('account.signedInAs', { name: found.name }));
    go('#/account', true);
  });
  return form;
}

function createForm(go) {
  const err = errorBox();
  const name = h('input', { id: 'account-name', type: 'text', required: true, maxlength: 64, autocomplete: 'nickname' });
  const bot = h('input', { id: 'account-bot', type: 'checkbox' });
  const submit = h('button', { type: 'submit', class: 'primary' }, t('account.createButton'));
  const form = h('form', { class: 'account-create-form', 'aria-labelledby': 'account-create-heading' },
    field('account-name', t('account.name'), name),
    h('div', { class: 'field inline' }, h('label', { for: 'account-bot' }, bot, ' ', t('account.isBot'))),
    err, submit);
  onSubmit(form, submit, err, async () => {
    const made = await api.createAccount(name.value.trim(), bot.checked);
    signIn(made.account.accountId, made.account.name, made.account.bot, made.key);
    freshKey = made.key;
    go('#/account', true);
  });
  return form;
}

// A button that copies `text` (the field's text selected first, for copying by hand),
// and says whether it could.
function copyButton(input, text, label) {
  const said = h('span', { class: 'note', 'aria-live': 'polite' });
  const copy = h('button', { type: 'button', class: 'copy' }, label);
  copy.addEventListener('click', async () => {
    if (input.select) input.select();
    try {
      await navigator.clipboard.writeText(text);
      said.textContent = t('account.copied');
    } catch {
      said.textContent = t('account.copyByHand');
    }
  });
  return [copy, said];
}

// The key of the account just made: shown once, with a copy button and a warning.
function keyCard(key) {
  const input = h('input', { id: 'new-key', type: 'text', readonly: true, value: key, class: 'key-text', 'aria-describedby': 'new-key-warning' });
  return h('section', { class: 'card key-card', role: 'region', 'aria-labelledby': 'new-key-heading' },
    h('h2', { id: 'new-key-heading' }, t('account.yourKey')),
    h('p', { id: 'new-key-warning', class: 'warning' }, t('account.keyWarning')),
    h('div', { class: 'toolbar' }, h('label', { for: 'new-key', class: 'sr-only' }, t('account.key')), input,
      copyButton(input, key, t('account.copy'))));
}

function seatOf(raw, accountId) {
  const seat = (raw.seats || []).find((s) => s.accountId === accountId);
  return seat ? Number(seat.seat || 0) : null;
}

function statusText(summary) {
  return t(`status.${summary.status.replace(/^GAME_STATUS_/, '').toLowerCase() || 'unspecified'}`);
}

// "My games": ListGames by account (with the key: its unlisted ones too), a page at a time.
function myGames(signed, go) {
  const list = h('ul', { class: 'game-list my-games' });
  const err = errorBox();
  const more = h('button', { type: 'button', hidden: true }, t('account.moreGames'));
  let next = '';
  async function load(reset) {
    err.hidden = true;
    try {
      const answer = await api.accountGames(signed.id, signed.key, reset ? undefined : next);
      if (reset) replace(list);
      for (const raw of answer.games || []) list.append(gameRow(raw, signed, go));
      if (!list.children.length) list.append(h('li', {}, t('account.noGames')));
      next = answer.nextPageToken || '';
      more.hidden = !next;
    } catch (error) {
      showError(err, error);
    }
  }
  more.addEventListener('click', () => load(false));
  load(true);
  return { element: h('div', {}, err, list, more), reload: () => load(true) };
}

function gameRow(raw, signed, go) {
  const summary = readSummary(raw);
  const seat = seatOf(raw, signed.id);
  const id = encodeURIComponent(summary.gameId);
  const others = summary.seats.filter((s) => s.seat !== seat)
    .map((s) => (s.open ? t('account.openSeat') : s.name)).join(', ');
  const actions = [];
  if (seat !== null && !isFinished(summary)) {
    actions.push(h('a', {
      href: `#/game/${id}/${seat}`, class: 'button play-mine', 'data-game-id': summary.gameId,
      onclick: () => holdSeat(summary.gameId, seat),
    }, isWaiting(summary) ? t('lobby.open') : t('account.play')));
  } else {
    actions.push(h('a', { href: `#/game/${id}`, class: 'button' }, t('lobby.open')));
  }
  if (isFinished(summary)) actions.push(h('a', { href: `#/replay/${id}`, class: 'button' }, t('lobby.replay')));
  const meta = [rulesetName(summary.ruleset), statusText(summary),
    raw.rated ? t('account.rated') : null,
    seat !== null ? t('lobby.seatN', { n: seat + 1 }) : null,
    others ? t('account.against', { names: others }) : null].filter(Boolean).join(' · ');
  return h('li', { class: 'game-row', 'data-game-id': summary.gameId },
    h('span', { class: 'game-title' }, summary.gameId),
    h('span', { class: 'game-meta' }, meta),
    h('span', { class: 'game-actions' }, actions));
}

// Names of accounts by id, read once each (GetAccount).
const names = new Map();
function accountName(id) {
  if (!names.has(id)) names.set(id, api.account(id).then((a) => a.account.name).catch(() => id));
  return names.get(id);
}

function challengeRow(c, signed, go, err) {
  const incoming = c.challengerId !== signed.id;
  const challenged = [c.challengedId, ...(c.moreChallengedIds || [])];
  const who = h('span', { class: 'game-title' }, incoming ? c.challengerId : challenged.join(', '));
  const ids = incoming ? [c.challengerId] : challenged;
  Promise.all(ids.map(accountName)).then((list) => { who.textContent = list.join(', '); });
  const status = String(c.status || '').replace(/^CHALLENGE_STATUS_/, '').toLowerCase();
  const actions = [];
  const act = (label, cls, call) => h('button', {
    type: 'button', class: cls, onclick: async (e) => {
      e.target.disabled = true;
      err.hidden = true;
      try { await call(); } catch (error) { showError(err, error); e.target.disabled = false; }
    },
  }, label);
  const mine = incoming && !(c.acceptedIds || []).includes(signed.id);
  if (status === 'open' && mine) {
    actions.push(act(t('challenge.accept'), 'primary accept', async () => {
      const done = (await api.acceptChallenge(signed.key, c.challengeId)).challenge;
      announce(t('challenge.accepted'));
      if (done.gameId) openChallengeGame(done, signed, go);
    }));
  }
  if (status === 'open') {
    actions.push(act(incoming ? t('challenge.decline') : t('challenge.withdraw'), 'decline',
      () => api.declineChallenge(signed.key, c.challengeId)));
  }
  if (status === 'accepted' && c.gameId) {
    actions.push(h('a', {
      href: `#/game/${encodeURIComponent(c.gameId)}/${challengeSeat(c, signed.id)}`, class: 'button open-game',
      onclick: () => holdSeat(c.gameId, challengeSeat(c, signed.id)),
    }, t('account.play')));
  }
  const players = 1 + challenged.length;
  const meta = [rulesetName(c.ruleset),
    t('lobby.playersN', { n: players }), c.rated ? t('account.rated') : t('challenge.unrated'),
    t(`challenge.status.${status || 'open'}`)].join(' · ');
  return h('li', { class: 'game-row challenge', 'data-challenge-id': c.challengeId, 'data-status': status },
    who, h('span', { class: 'game-meta' }, meta), h('span', { class: 'game-actions' }, actions));
}

// The challenger sits in seat 0, the challenged in the order named.
function challengeSeat(c, accountId) {
  const order = [c.challengerId, c.challengedId, ...(c.moreChallengedIds || [])];
  return Math.max(0, order.indexOf(accountId));
}

function openChallengeGame(c, signed, go) {
  const seat = challengeSeat(c, signed.id);
  holdSeat(c.gameId, seat);
  go(`#/game/${encodeURIComponent(c.gameId)}/${seat}`);
}

// The form that challenges other accounts (one for 2 players, two or three for more).
async function challengeForm(signed) {
  const caps = await capabilities();
  const err = errorBox();
  const sent = h('p', { class: 'note', 'aria-live': 'polite' });
  const rulesets = h('select', { id: 'challenge-ruleset' },
    caps.rulesets.map((r) => h('option', { value: r }, rulesetName(r))));
  const players = h('select', { id: 'challenge-players' },
    [2, 3, 4].map((n) => h('option', { value: n }, t('lobby.playersN', { n }))));
  const opponents = h('div', { class: 'opponents' });
  const rated = h('input', { id: 'challenge-rated', type: 'checkbox', checked: true });
  function drawOpponents() {
    const old = [...opponents.querySelectorAll('input')].map((i) => i.value);
    replace(opponents, ...Array.from({ length: Number(players.value) - 1 }, (_, i) => field(
      `challenge-opponent-${i}`, t('challenge.opponent', { n: i + 1 }),
      h('input', { id: `challenge-opponent-${i}`, type: 'text', required: true, maxlength: 64, value: old[i] || '' }))));
  }
  players.addEventListener('change', drawOpponents);
  drawOpponents();
  const submit = h('button', { type: 'submit', class: 'primary' }, t('challenge.send'));
  const form = h('form', { class: 'challenge-form', 'aria-labelledby': 'challenge-new-heading' },
    h('h3', { id: 'challenge-new-heading' }, t('challenge.new')),
    field('challenge-ruleset', t('lobby.ruleset'), rulesets),
    field('challenge-players', t('lobby.players'), players), opponents,
    h('div', { class: 'field inline' }, h('label', { for: 'challenge-rated' }, rated, ' ', t('challenge.rated'))),
    err, submit, sent);
  onSubmit(form, submit, err, async () => {
    sent.textContent = '';
    const ids = [...opponents.querySelectorAll('input')].map((i) => i.value.trim());
    await api.createChallenge(signed.key, {
      accountId: ids[0], moreAccountIds: ids.slice(1), ruleset: rulesets.value, rated: rated.checked,
    });
    sent.textContent = t('challenge.sent');
    announce(t('challenge.sent'));
  });
  return form;
}

function signedInPage(root, go, signed) {
  const streamState = h('span', { class: 'connection', role: 'status' }, t('account.connecting'));
  const err = errorBox();
  const incoming = h('ul', { class: 'game-list incoming', 'aria-labelledby': 'incoming-heading' });
  const outgoing = h('ul', { class: 'game-list outgoing', 'aria-labelledby': 'outgoing-heading' });
  const games = myGames(signed, go);
  const challenges = new Map();
  const signOutButton = h('button', { type: 'button', class: 'sign-out' }, t('account.signOut'));
  signOutButton.addEventListener('click', () => {
    signOut();
    announce(t('account.signedOut'));
    go('#/account', true);
  });
  function drawChallenges() {
    const all = [...challenges.values()].sort((a, b) => String(b.createTime).localeCompare(String(a.createTime)));
    const inList = all.filter((c) => c.challengerId !== signed.id);
    const outList = all.filter((c) => c.challengerId === signed.id);
    replace(incoming, inList.length ? inList.map((c) => challengeRow(c, signed, go, err)) : h('li', {}, t('challenge.none')));
    replace(outgoing, outList.length ? outList.map((c) => challengeRow(c, signed, go, err)) : h('li', {}, t('challenge.none')));
  }
  drawChallenges();
  const stream = watchAccount(signed.key, ({ event, data }) => {
    if (event === 'challenge' && data.challenge) {
      const c = data.challenge;
      const known = challenges.has(c.challengeId);
      challenges.set(c.challengeId, c);
      drawChallenges();
      if (!known && c.challengerId !== signed.id) announce(t('challenge.incoming'));
    } else if (event === 'game_started' || event === 'game_over') {
      games.reload();
    }
    return false;
  }, (state, error) => {
    streamState.className = `connection connection-${state}`;
    streamState.textContent = t(`account.stream.${state}`);
    if (error) showError(err, error);
  });
  const idText = h('code', { class: 'account-id' }, signed.id);
  const card = h('section', { class: 'card account-card', 'aria-labelledby': 'account-heading' },
    h('h2', { id: 'account-heading' }, t('account.signedInAs', { name: signed.name })),
    h('p', { class: 'toolbar' }, t('account.idIs'), ' ', idText,
      signed.bot ? h('span', { class: 'badge' }, t('account.bot')) : null,
      copyButton(idText, signed.id, t('account.copyId'))),
    h('p', { class: 'note' }, t('account.idShare')),
    h('div', { class: 'toolbar' },
      h('a', { href: `#/player/${encodeURIComponent(signed.id)}`, class: 'button' }, t('account.myRatings')),
      signOutButton),
    err);
  const challengesCard = h('section', { class: 'card', 'aria-labelledby': 'challenges-heading' },
    h('div', { class: 'toolbar' }, h('h2', { id: 'challenges-heading' }, t('challenge.title')), streamState),
    h('h3', { id: 'incoming-heading' }, t('challenge.incomingTitle')), incoming,
    h('h3', { id: 'outgoing-heading' }, t('challenge.outgoingTitle')), outgoing);
  const page = h('div', { class: 'account lobby' },
    freshKey ? keyCard(freshKey) : null, card, challengesCard,
    h('section', { class: 'card', 'aria-labelledby': 'my-games-heading' },
      h('h2', { id: 'my-games-heading' }, t('account.myGames')), games.element));
  freshKey = null;
  replace(root, page);
  challengeForm(signed).then((form) => challengesCard.append(form));
  document.title = `Brass — ${signed.name}`;
  return () => stream.close();
}

export async function accountPage(root, go) {
  const signed = account();
  if (signed) return signedInPage(root, go, signed);
  replace(root, h('div', { class: 'account lobby' },
    h('section', { class: 'card', 'aria-labelledby': 'signin-heading' },
      h('h2', { id: 'signin-heading' }, t('account.signInTitle')), signInForm(go)),
    h('section', { class: 'card', 'aria-labelledby': 'account-create-heading' },
      h('h2', { id: 'account-create-heading' }, t('account.createTitle')),
      h('p', { class: 'note' }, t('account.createNote')), createForm(go))));
  document.title = `Brass — ${t('account.signInTitle')}`;
  return null;
}
