// The lobby: create a game, the games this browser holds seats in, public games, joining.

import { errorBox, onSubmit, showError } from './account.js';
import { api } from './api.js';
import { capabilities, ruleset as getRuleset } from './caps.js';
import { announce, h, replace, setTitle } from './dom.js';
import { language, t } from './i18n.js';
import { account, accountKey } from './session.js';
import { inviteUrl, saved } from './store.js';
import { isFinished, isWaiting, readSummary, title } from './view.js';

const SEAT_ROLES = () => [
  ['me', t('lobby.roleMe')],
  ['invite', t('lobby.roleInvite')],
  ['open', t('lobby.roleOpen')],
];

// An option of a new game: its title, what it changes and its values (GetRuleset's
// labels in the page's language), the default marked.
function optionInput(option, idPrefix, labels) {
  const id = `${idPrefix}-${option.key}`;
  const label = h('label', { for: id }, (labels.optionTitles || {})[option.key] || title(option.key));
  const hint = h('small', { id: `${id}-hint` }, (labels.options || {})[option.key] || option.description);
  const named = (v) => (labels.optionValues || {})[`${option.key}=${v}`] || title(String(v));
  const words = (v) => (v === option.default ? t('lobby.defaultValue', { value: named(v) }) : named(v));
  let input;
  if (option.type === 'bool') {
    input = h('input', { type: 'checkbox', id, checked: option.default === true, 'aria-describedby': `${id}-hint` });
    if (option.allowedBools.length === 1) input.disabled = true;
  } else if (option.type === 'int' && option.allowedInts.length) {
    input = h('select', { id, 'aria-describedby': `${id}-hint` },
      option.allowedInts.map((v) => h('option', { value: v, selected: v === option.default }, words(v))));
  } else if (option.type === 'int') {
    input = h('input', { type: 'number', id, value: option.default ?? '', min: option.min ?? undefined, max: option.max ?? undefined, 'aria-describedby': `${id}-hint` });
  } else {
    input = h('select', { id, 'aria-describedby': `${id}-hint` },
      option.allowedEnums.map((v) => h('option', { value: v, selected: v === option.default }, words(v))));
  }
  input.dataset.optionKey = option.key;
  input.dataset.optionType = option.type;
  return h('div', { class: 'field option-field' }, label, input, hint);
}

// A ruleset's options: the plain ones, then its ruling switches (a reading of the rules
// each, Pittsburgh's) folded away under one heading, their defaults the project's rulings.
function optionFields(r) {
  const labels = r.labels[language()] || {};
  const ruling = (o) => /RULINGS\.md P\d+/.test(o.description);
  const rulings = r.options.filter(ruling);
  const fields = r.options.filter((o) => !ruling(o)).map((o) => optionInput(o, 'opt', labels));
  if (rulings.length) {
    fields.push(h('details', { class: 'rulings' },
      h('summary', {}, t('lobby.rulings', { n: rulings.length })),
      h('p', { class: 'note' }, t('lobby.rulingsIntro')),
      rulings.map((o) => optionInput(o, 'opt', labels))));
  }
  return fields;
}

function optionValue(input) {
  if (input.dataset.optionType === 'bool') return input.checked;
  if (input.dataset.optionType === 'int') return Number(input.value);
  return input.value;
}

async function createForm(go) {
  const caps = await capabilities();
  const err = errorBox();
  const rulesetSelect = h('select', { id: 'create-ruleset', name: 'ruleset' });
  const playersSelect = h('select', { id: 'create-players', name: 'players' });
  const seatsBox = h('fieldset', { class: 'seats' }, h('legend', {}, t('lobby.seats')));
  const optionsBox = h('fieldset', { class: 'options' }, h('legend', {}, t('lobby.options')));
  const note = h('p', { class: 'note' });
  const visibility = h('select', { id: 'create-visibility' },
    h('option', { value: 'VISIBILITY_PUBLIC' }, t('lobby.public.option')),
    h('option', { value: 'VISIBILITY_UNLISTED' }, t('lobby.unlisted.option')));
  const seed = h('input', { id: 'create-seed', type: 'text', inputmode: 'numeric', pattern: '[0-9]*', placeholder: t('lobby.seedPlaceholder') });
  // a ruleset this server's engine does not describe is not offered
  const rulesets = (await Promise.all(caps.rulesets.map((name) => getRuleset(name)
    .then((r) => ({ ...r, enumName: name })).catch(() => null)))).filter(Boolean);
  for (const r of rulesets) {
    rulesetSelect.append(h('option', { value: r.enumName }, `${r.title}${r.provisional && !/provisional/i.test(r.title) ? ` (${t('lobby.provisionalShort')})` : ''}${r.board ? '' : ' — no board drawing yet'}`));
  }
  const botKinds = caps.bots
    ? [['random', 'Random'], ['greedy', 'Greedy'], ['mcts:iterations=200', 'MCTS (200 iterations)']]
    : [];
  const clockBox = caps.clock ? clockFields(caps) : null;

  function current() {
    return rulesets.find((r) => r.enumName === rulesetSelect.value) || rulesets[0];
  }

  function drawSeats() {
    const n = Number(playersSelect.value);
    const old = [...seatsBox.querySelectorAll('.seat-row')].map((row) => ({
      role: row.querySelector('select').value, name: row.querySelector('input').value,
    }));
    for (const row of seatsBox.querySelectorAll('.seat-row')) row.remove();
    for (let i = 0; i < n; i++) {
      const prev = old[i] || { role: i === 0 ? 'me' : 'invite', name: i === 0 ? 'Me' : `Player ${i + 1}` };
      const roles = [...SEAT_ROLES(), ...botKinds.map(([b, text]) => [`bot:${b}`, t('lobby.bot', { name: text })])];
      const role = h('select', { id: `seat-${i}-role`, 'aria-label': t('lobby.seatWho', { n: i + 1 }) },
        roles.map(([v, text]) => h('option', { value: v, selected: v === prev.role }, text)));
      const name = h('input', { id: `seat-${i}-name`, type: 'text', maxlength: 64, value: prev.name, 'aria-label': t('lobby.seatName', { n: i + 1 }) });
      seatsBox.append(h('div', { class: 'seat-row' }, h('span', { class: 'seat-number' }, t('lobby.seatN', { n: i + 1 })), role, name));
    }
  }

  function drawRuleset() {
    const r = current();
    if (!r) return;
    replace(playersSelect, ...Array.from({ length: r.maxPlayers - r.minPlayers + 1 }, (_, k) => {
      const n = r.minPlayers + k;
      return h('option', { value: n, selected: n === Math.min(3, r.maxPlayers) }, t('lobby.playersN', { n }));
    }));
    replace(optionsBox, h('legend', {}, t('lobby.options')), ...optionFields(r));
    // each placeholder in words (the rulings' list), else its id
    const placeholder = (id) => (t(`placeholder.${id}`) === `placeholder.${id}` ? id : t(`placeholder.${id}`));
    note.textContent = r.provisional ? t('lobby.provisional', { list: r.placeholders.map(placeholder).join(t('preview.listSep')) || '—' }) : '';
    drawSeats();
  }

  rulesetSelect.addEventListener('change', drawRuleset);
  playersSelect.addEventListener('change', drawSeats);
  drawRuleset();

  const submit = h('button', { type: 'submit', class: 'primary' }, t('lobby.createButton'));
  const form = h('form', { class: 'create-form', 'aria-labelledby': 'create-heading' },
    h('div', { class: 'field' }, h('label', { for: 'create-ruleset' }, t('lobby.ruleset')), rulesetSelect),
    h('div', { class: 'field' }, h('label', { for: 'create-players' }, t('lobby.players')), playersSelect),
    note, seatsBox, optionsBox, clockBox,
    h('div', { class: 'field' }, h('label', { for: 'create-visibility' }, t('lobby.visibility')), visibility),
    h('div', { class: 'field' }, h('label', { for: 'create-seed' }, t('lobby.seed')), seed),
    err, submit);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.hidden = true;
    const r = current();
    const rows = [...seatsBox.querySelectorAll('.seat-row')].map((row, i) => ({
      seat: i, role: row.querySelector('select').value, name: row.querySelector('input').value.trim(),
    }));
    // The server refuses two seats of one name (ignoring case): a name filled in here for
    // a second bot of one kind gets its seat number.
    const given = new Set(rows.filter((s) => s.role !== 'open' && s.name).map((s) => s.name.toLowerCase()));
    const filled = (name, seat) => (given.has(name.toLowerCase()) ? `${name} (seat ${seat + 1})` : name);
    const body = {
      ruleset: r.enumName,
      players: rows.length,
      seatNames: rows.map((s) => {
        if (s.role === 'open') return '';
        let name = s.name;
        if (!name) name = filled(s.role.startsWith('bot:') ? `${title(s.role.slice(4).split(':')[0])} bot` : `Player ${s.seat + 1}`, s.seat);
        given.add(name.toLowerCase());
        return name;
      }),
      openSeats: rows.filter((s) => s.role === 'open').map((s) => s.seat),
      visibility: visibility.value,
      options: {},
    };
    if (seed.value.trim()) body.seed = seed.value.trim();
    for (const input of optionsBox.querySelectorAll('[data-option-key]')) {
      const key = input.dataset.optionKey;
      const camel = key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
      if (caps.optionFields.includes(camel)) body.options[camel] = optionValue(input);
      else (body.options.rulesetOptions ||= {})[key] = optionValue(input);
    }
    const bots = rows.filter((s) => s.role.startsWith('bot:'));
    if (bots.length) body.botSeats = bots.map((s) => ({ seat: s.seat, bot: s.role.slice(4) }));
    if (clockBox) Object.assign(body.options, clockOptions(clockBox));
    submit.disabled = true;
    try {
      // signed in: the key binds this browser's first seat to the account (none without one)
      const meSeat = rows.find((s) => s.role === 'me');
      if (meSeat && accountKey()) body.accountSeat = meSeat.seat;
      const created = await api.createGame(body, meSeat ? accountKey() : undefined);
      const gameId = created.gameId;
      const links = {};
      let mine = null;
      for (const seatToken of created.seats || []) {
        const seat = Number(seatToken.seat || 0);
        const row = rows[seat];
        if (row.role === 'me') {
          saved.addSeat(gameId, seat, seatToken.token);
          if (mine === null) mine = seat;
        } else if (row.role === 'invite') {
          links[seat] = seatToken.token;
        }
      }
      saved.addHosted(gameId, created.hostToken, links);
      announce(t('lobby.created'));
      go(`#/game/${encodeURIComponent(gameId)}${mine === null ? '' : '/' + mine}`);
    } catch (error) {
      showError(err, error);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

// The clock and the policies of hosted play (shown when the server has them).
function clockFields(caps) {
  const kind = h('select', { id: 'create-clock' },
    h('option', { value: '' }, t('lobby.noClock')),
    h('option', { value: 'fischer' }, t('lobby.fischer')),
    h('option', { value: 'turn' }, t('lobby.perTurn')));
  const minutes = h('input', { id: 'clock-minutes', type: 'number', min: 1, max: 10080, value: 20 });
  const increment = h('input', { id: 'clock-increment', type: 'number', min: 0, max: 3600, value: 15 });
  const turn = h('input', { id: 'clock-turn', type: 'number', min: 1, max: 604800, value: 120 });
  const policy = (id, label, enumName) => {
    const values = caps.enumValues(enumName);
    if (!values.length) return null;
    return h('div', { class: 'field' }, h('label', { for: id }, label),
      h('select', { id, 'data-policy': enumName },
        values.map((v) => h('option', { value: v }, title(v.replace(/^[A-Z]+_POLICY_/, '').toLowerCase())))));
  };
  const fischer = h('div', { class: 'clock-fischer', hidden: true },
    h('div', { class: 'field' }, h('label', { for: 'clock-minutes' }, t('lobby.minutes')), minutes),
    h('div', { class: 'field' }, h('label', { for: 'clock-increment' }, t('lobby.increment')), increment));
  const perTurn = h('div', { class: 'clock-turn', hidden: true },
    h('div', { class: 'field' }, h('label', { for: 'clock-turn' }, t('lobby.turnSeconds')), turn));
  kind.addEventListener('change', () => {
    fischer.hidden = kind.value !== 'fischer';
    perTurn.hidden = kind.value !== 'turn';
  });
  return h('fieldset', { class: 'clock-options' }, h('legend', {}, t('lobby.clockAndLeaving')),
    h('div', { class: 'field' }, h('label', { for: 'create-clock' }, t('lobby.clock')), kind), fischer, perTurn,
    policy('create-on-timeout', t('lobby.onTimeout'), 'TimeoutPolicy'),
    policy('create-on-resign', t('lobby.onResign'), 'ResignPolicy'));
}

function clockOptions(box) {
  const out = {};
  const kind = box.querySelector('#create-clock').value;
  const value = (id) => Number(box.querySelector(id).value);
  if (kind === 'fischer') {
    out.clock = { initialMs: value('#clock-minutes') * 60000, incrementMs: value('#clock-increment') * 1000 };
  } else if (kind === 'turn') {
    out.clock = { turnMs: value('#clock-turn') * 1000 };
  }
  const timeout = box.querySelector('#create-on-timeout');
  if (timeout) out.onTimeout = timeout.value;
  const resign = box.querySelector('#create-on-resign');
  if (resign) out.onResign = resign.value;
  return out;
}

function summaryRow(summary, go) {
  const seats = summary.seats.map((s) => (s.open ? 'open seat' : `${s.name || `Seat ${s.seat + 1}`}${s.bot ? ' (bot)' : ''}`)).join(', ');
  const id = encodeURIComponent(summary.gameId);
  const actions = [];
  if (summary.openSeats > 0 && isWaiting(summary)) {
    actions.push(h('a', { href: `#/join/${id}`, class: 'button' }, t('lobby.join')));
  }
  if (!isWaiting(summary)) actions.push(h('a', { href: `#/game/${id}`, class: 'button' }, t('lobby.watch')));
  if (isFinished(summary)) actions.push(h('a', { href: `#/replay/${id}`, class: 'button' }, t('lobby.replay')));
  return h('li', { class: 'game-row' },
    h('span', { class: 'game-title' }, `${title(summary.ruleset.replace(/^RULESET_/, '').toLowerCase())} · ${summary.gameId}`),
    h('span', { class: 'game-meta' }, `${title(summary.status.replace(/^GAME_STATUS_/, '').toLowerCase())} · v${summary.version} · ${seats}`),
    h('span', { class: 'game-actions' }, actions));
}

async function publicGames(go) {
  const list = h('ul', { class: 'game-list', 'aria-live': 'polite' });
  const err = errorBox();
  const openOnly = h('input', { type: 'checkbox', id: 'public-open-only' });
  const refresh = h('button', { type: 'button' }, t('lobby.refresh'));
  async function load() {
    err.hidden = true;
    try {
      const answer = await api.listGames({ pageSize: 20, hasOpenSeats: openOnly.checked ? true : undefined });
      const games = (answer.games || []).map(readSummary);
      replace(list, games.length ? games.map((g) => summaryRow(g, go)) : h('li', {}, t('lobby.noPublic')));
    } catch (error) {
      showError(err, error);
    }
  }
  openOnly.addEventListener('change', load);
  refresh.addEventListener('click', load);
  load();
  return h('div', {}, h('div', { class: 'toolbar' }, h('label', { for: 'public-open-only' }, openOnly, t('lobby.openOnly')), refresh), err, list);
}

function yourGames() {
  const games = saved.games();
  if (!games.length) return h('p', {}, t('lobby.noneYet'));
  return h('ul', { class: 'game-list' }, games.slice(0, 20).map((g) => {
    const id = encodeURIComponent(g.gameId);
    return h('li', { class: 'game-row' },
      h('span', { class: 'game-title' }, g.gameId),
      h('span', { class: 'game-meta' }, [g.host ? 'host' : '', g.seats.length ? `seat ${g.seats.map((s) => s + 1).join(', ')}` : ''].filter(Boolean).join(' · ')),
      h('span', { class: 'game-actions' },
        g.seats.map((s) => h('a', { href: `#/game/${id}/${s}`, class: 'button' }, t('lobby.playSeat', { n: s + 1 }))),
        h('a', { href: `#/game/${id}`, class: 'button' }, t('lobby.open'))));
  }));
}

function openByLink(go) {
  const input = h('input', { id: 'open-link', type: 'text', placeholder: t('lobby.linkPlaceholder') });
  const form = h('form', { class: 'toolbar' }, h('label', { for: 'open-link' }, t('lobby.linkOrId')), input, h('button', { type: 'submit' }, t('lobby.open')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const hash = text.includes('#') ? text.slice(text.indexOf('#')) : `#/game/${encodeURIComponent(text)}`;
    go(hash);
  });
  return form;
}

export async function lobbyPage(root, go) {
  const main = h('div', { class: 'lobby' },
    h('section', { class: 'card', 'aria-labelledby': 'create-heading' },
      h('h2', { id: 'create-heading' }, t('lobby.create')), await createForm(go)),
    h('section', { class: 'card', 'aria-labelledby': 'yours-heading' },
      h('h2', { id: 'yours-heading' }, t('lobby.yours')), yourGames(), h('h3', {}, t('lobby.openLink')), openByLink(go)),
    h('section', { class: 'card', 'aria-labelledby': 'public-heading' },
      h('h2', { id: 'public-heading' }, t('lobby.public')), await publicGames(go)));
  replace(root, main);
  setTitle(root, 'Brass — lobby');
}

// #/join/ID[/SEAT]: take an open seat with a display name.
export async function joinPage(root, go, gameId, seat) {
  const err = errorBox();
  // signed in, the seat takes the account's name (the server refuses another)
  const signed = account();
  const name = h('input', { id: 'join-name', type: 'text', maxlength: 64, required: true, value: signed?.name || '', readonly: Boolean(signed), 'aria-describedby': signed ? 'join-name-hint' : undefined });
  const submit = h('button', { type: 'submit', class: 'primary' }, t('lobby.join'));
  const info = h('p', {}, t('join.loading'));
  const form = h('form', { class: 'join-form' },
    info, h('div', { class: 'field' }, h('label', { for: 'join-name' }, t('join.yourName')), name,
      signed ? h('small', { id: 'join-name-hint' }, t('join.asAccount')) : null), err, submit);
  replace(root, h('section', { class: 'card narrow', 'aria-labelledby': 'join-heading' },
    h('h2', { id: 'join-heading' }, t('join.title')), form));
  document.title = 'Brass — join';
  // the handler is in place before the game is fetched: a click meanwhile must not fall
  // through to the browser's own form submission (a page load that loses the route)
  onSubmit(form, submit, err, async () => {
    const joined = await api.join(gameId, name.value.trim(), seat, accountKey());
    const s = Number(joined.seat.seat || 0);
    saved.addSeat(gameId, s, joined.seat.token);
    go(`#/game/${encodeURIComponent(gameId)}/${s}`, true);
  });
  try {
    const game = await api.getGame(gameId);
    const summary = readSummary(game.state && game.state.summary);
    const open = summary.seats.filter((s) => s.open).map((s) => s.seat + 1);
    info.textContent = `Game ${gameId}: ${summary.seats.length} seats; open: ${open.length ? open.join(', ') : 'none'}.`;
  } catch (error) {
    showError(err, error);
  }
  name.focus();
}

export { inviteUrl };
