// #/arena[/ID]: an arena's table (standings best first, then its tables round by round),
// live over WatchArena's stream until the arena finished.

import { errorBox, rulesetName, showError } from './account.js';
import { ApiError, api } from './api.js';
import { h, replace, setTitle } from './dom.js';
import { language, t } from './i18n.js';
import { headRow, rating, ratingChange } from './ratings.js';
import { followStream } from './sse.js';
import { readError } from './view.js';


function openForm(go, chosen) {
  const input = h('input', { id: 'arena-id', type: 'text', required: true, maxlength: 64, value: chosen || '' });
  const form = h('form', { class: 'toolbar arena-open' },
    h('label', { for: 'arena-id' }, t('arena.id')), input, h('button', { type: 'submit' }, t('lobby.open')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (input.value.trim()) go(`#/arena/${encodeURIComponent(input.value.trim())}`);
  });
  return form;
}

function standingsTable(arena) {
  const head = [[t('ratings.place'), true], [t('account.name')], ...['arena.points', 'arena.wins',
    'ratings.games', 'arena.forfeits', 'arena.byes', 'ratings.rating', 'arena.change'].map((key) => [t(key), true])];
  return h('table', { class: 'ratings arena-standings' },
    h('caption', {}, t('arena.standings')), headRow(head),
    h('tbody', {}, (arena.standings || []).map((s) => h('tr', { 'data-account-id': s.accountId },
      h('td', { class: 'number' }, s.place || ''),
      h('td', {}, h('a', { href: `#/player/${encodeURIComponent(s.accountId)}` }, s.name),
        s.serverBot ? h('span', { class: 'badge' }, t('arena.serverBot')) : null),
      h('td', { class: 'number points' }, s.points || 0),
      h('td', { class: 'number' }, s.wins || 0),
      h('td', { class: 'number' }, s.games || 0),
      h('td', { class: 'number' }, s.forfeits || 0),
      h('td', { class: 'number' }, s.byes || 0),
      h('td', { class: 'number' }, rating(s.rating)),
      h('td', { class: 'number' }, ratingChange(s.ratingChange))))));
}

function tablesList(arena) {
  const nameOf = new Map((arena.standings || []).map((s) => [s.accountId, s.name]));
  return h('table', { class: 'ratings arena-tables' },
    h('caption', {}, t('arena.games')),
    headRow([[t('arena.round'), true], [t('arena.table'), true], [t('arena.seats')], [t('ratings.game')]]),
    h('tbody', {}, (arena.tables || []).map((table) => h('tr', {},
      h('td', { class: 'number' }, table.round),
      h('td', { class: 'number' }, table.table),
      h('td', {}, (table.accountIds || []).map((id, seat) => {
        const rank = table.finished ? ` (${t('arena.placeN', { n: (table.ranks || [])[seat] })})` : '';
        return `${nameOf.get(id) || id}${rank}`;
      }).join(', ')),
      h('td', {}, table.gameId
        ? h('a', { href: `#/${table.finished ? 'replay' : 'game'}/${encodeURIComponent(table.gameId)}` },
          table.finished ? t('lobby.replay') : t('lobby.watch'))
        : t('arena.notYet'))))));
}

function draw(box, arena) {
  const status = String(arena.status || '').replace(/^ARENA_STATUS_/, '').toLowerCase();
  box.dataset.revision = String(arena.revision || 0);
  box.dataset.status = status;
  replace(box,
    h('p', { class: 'note' }, [rulesetName(arena.ruleset), t('lobby.playersN', { n: arena.players }),
      t(`arena.format.${String(arena.format || 'ARENA_FORMAT_ROUND_ROBIN').replace(/^ARENA_FORMAT_/, '').toLowerCase()}`),
      t('arena.roundOf', { n: arena.round || 0, of: arena.rounds || 0 }),
      t(`arena.status.${status || 'running'}`)].join(' · ')),
    standingsTable(arena), tablesList(arena));
}

export async function arenaPage(root, go, arenaId) {
  if (!arenaId) {
    replace(root, h('section', { class: 'card narrow', 'aria-labelledby': 'arena-heading' },
      h('h2', { id: 'arena-heading' }, t('arena.title')), h('p', { class: 'note' }, t('arena.explain')), openForm(go)));
    document.title = `Brass — ${t('arena.title')}`;
    return null;
  }
  const err = errorBox();
  const heading = h('h2', { id: 'arena-heading' }, arenaId);
  const live = h('span', { class: 'connection', role: 'status' }, t('account.connecting'));
  const box = h('div', { class: 'arena-table', 'data-arena-id': arenaId });
  replace(root, h('section', { class: 'card', 'aria-labelledby': 'arena-heading' },
    h('div', { class: 'toolbar' }, heading, live), err, box, openForm(go, arenaId)));
  const show = (arena) => {
    heading.textContent = arena.name || arenaId;
    setTitle(root, `Brass — ${arena.name || arenaId}`);
    draw(box, arena);
  };
  try {
    show((await api.arena(arenaId)).arena);
  } catch (error) {
    showError(err, error);
    return null;
  }
  const stream = followStream(() => `/v1/arenas/${encodeURIComponent(arenaId)}/events`, null, ({ event, data }) => {
    if (event === 'arena' && data.arena) show(data.arena);
    return event === 'end';
  }, {
    language,
    makeError: (body, status) => new ApiError(readError(body, status)),
    onStatus: (state, error) => {
      live.className = `connection connection-${state}`;
      live.textContent = t(`account.stream.${state}`);
      if (error) showError(err, error);
    },
  });
  return () => stream.close();
}
