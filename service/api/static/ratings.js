// #/leaderboard[/RULESET/PLAYERS/KIND]: the ratings of a ruleset and player count, best
// first, a page at a time (people, bots or every account); #/player/ID: an account and its
// rating changes, newest first.

import { errorBox, rulesetName, showError } from './account.js';
import { api } from './api.js';
import { capabilities } from './caps.js';
import { h, replace, setTitle } from './dom.js';
import { language, t } from './i18n.js';

const KINDS = ['ACCOUNT_KIND_UNSPECIFIED', 'ACCOUNT_KIND_PEOPLE', 'ACCOUNT_KIND_BOTS'];

export function rating(value) {
  return Number(value || 0).toFixed(1);
}

export function ratingChange(value) {
  const n = Number(value || 0);
  return `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(1)}`;
}

function when(stamp) {
  const date = new Date(stamp);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(language());
}

// A table's head: [text, numeric] per column (numbers are right-aligned, their heads too).
export function headRow(columns) {
  return h('thead', {}, h('tr', {}, columns.map(([text, numeric]) =>
    h('th', { scope: 'col', class: numeric ? 'number' : undefined }, text))));
}

function select(id, label, values, chosen, text) {
  const input = h('select', { id }, values.map((v) => h('option', { value: v, selected: String(v) === String(chosen) }, text(v))));
  return [h('div', { class: 'field' }, h('label', { for: id }, label), input), input];
}

// Pages of a paged read: `read(token)` answers { rows, next }; Previous and Next buttons.
function pager(read, draw, err) {
  const tokens = [''];
  let at = 0;
  const prev = h('button', { type: 'button', class: 'prev-page', disabled: true }, t('ratings.previous'));
  const next = h('button', { type: 'button', class: 'next-page', disabled: true }, t('ratings.next'));
  async function load() {
    err.hidden = true;
    try {
      const answer = await read(tokens[at]);
      draw(answer.entries || [], at);
      tokens[at + 1] = answer.nextPageToken || '';
      prev.disabled = at === 0;
      next.disabled = !answer.nextPageToken;
    } catch (error) {
      showError(err, error);
    }
  }
  prev.addEventListener('click', () => { at = Math.max(0, at - 1); load(); });
  next.addEventListener('click', () => { at += 1; load(); });
  return { element: h('div', { class: 'toolbar pager' }, prev, next), load };
}

const PAGE = 20;

export async function leaderboardPage(root, go, rulesetArg, playersArg, kindArg) {
  const caps = await capabilities();
  const ruleset = caps.rulesets.includes(rulesetArg) ? rulesetArg : caps.rulesets[0];
  const players = [2, 3, 4].includes(Number(playersArg)) ? Number(playersArg) : 2;
  const kind = KINDS.includes(kindArg) ? kindArg : KINDS[0];
  const err = errorBox();
  const [rulesetField, rulesetSelect] = select('board-ruleset', t('lobby.ruleset'), caps.rulesets, ruleset, rulesetName);
  const [playersField, playersSelect] = select('board-players', t('lobby.players'), [2, 3, 4], players, (n) => t('lobby.playersN', { n }));
  const [kindField, kindSelect] = select('board-kind', t('ratings.who'), KINDS, kind, (k) => t(`ratings.kind.${k.replace('ACCOUNT_KIND_', '').toLowerCase()}`));
  const change = () => go(`#/leaderboard/${rulesetSelect.value}/${playersSelect.value}/${kindSelect.value}`, true);
  for (const input of [rulesetSelect, playersSelect, kindSelect]) input.addEventListener('change', change);
  const body = h('tbody');
  const caption = t('ratings.caption', { ruleset: rulesetName(ruleset), n: players });
  const table = h('table', { class: 'ratings leaderboard' }, h('caption', {}, caption),
    headRow([[t('ratings.place')], [t('account.name')], [t('ratings.rating'), true], [t('ratings.games'), true]]), body);
  const pages = pager(
    (token) => api.leaderboard(ruleset.replace(/^RULESET_/, '').toLowerCase(), { players, kind, pageSize: PAGE, pageToken: token }),
    (entries, page) => replace(body, entries.length ? entries.map((e, i) => h('tr', { 'data-account-id': e.accountId },
      h('td', {}, page * PAGE + i + 1),
      h('td', {}, h('a', { href: `#/player/${encodeURIComponent(e.accountId)}` }, e.name),
        e.bot ? h('span', { class: 'badge' }, t('account.bot')) : null),
      h('td', { class: 'number' }, rating(e.rating), e.provisional ? h('abbr', { title: t('ratings.provisional') }, ' ?') : null),
      h('td', { class: 'number' }, e.games || 0))) : h('tr', {}, h('td', { colspan: 4 }, t('ratings.empty')))),
    err);
  replace(root, h('section', { class: 'card', 'aria-labelledby': 'leaderboard-heading' },
    h('h2', { id: 'leaderboard-heading' }, t('ratings.leaderboard')),
    h('div', { class: 'toolbar filters' }, rulesetField, playersField, kindField),
    h('p', { class: 'note' }, t('ratings.explain')), err, table, pages.element));
  setTitle(root, `Brass — ${t('ratings.leaderboard')}`);
  await pages.load();
}

export async function playerPage(root, go, accountId) {
  const err = errorBox();
  const heading = h('h2', { id: 'player-heading' }, accountId);
  const facts = h('p', { class: 'note' });
  const body = h('tbody');
  const table = h('table', { class: 'ratings history' }, h('caption', {}, t('ratings.history')),
    headRow([[t('ratings.game')], [t('lobby.ruleset')], [t('ratings.place'), true], [t('ratings.rating'), true], [t('ratings.when')]]), body);
  const pages = pager((token) => api.ratingHistory(accountId, { pageSize: PAGE, pageToken: token }),
    (entries) => replace(body, entries.length ? entries.map((e) => h('tr', { 'data-game-id': e.gameId },
      h('td', {}, h('a', { href: `#/game/${encodeURIComponent(e.gameId)}` }, e.gameId)),
      h('td', {}, `${rulesetName(e.ruleset)} · ${t('lobby.playersN', { n: e.players })}`),
      h('td', { class: 'number' }, e.rank || ''),
      h('td', { class: 'number' }, `${rating(e.ratingBefore)} → ${rating(e.ratingAfter)} (${ratingChange((e.ratingAfter || 0) - (e.ratingBefore || 0))})`),
      h('td', {}, when(e.createTime)))) : h('tr', {}, h('td', { colspan: 5 }, t('ratings.noHistory')))),
    err);
  replace(root, h('section', { class: 'card', 'aria-labelledby': 'player-heading' },
    heading, facts, err, table, pages.element,
    h('p', {}, h('a', { href: '#/leaderboard' }, t('ratings.leaderboard')))));
  try {
    const found = (await api.account(accountId)).account;
    heading.textContent = found.name;
    facts.textContent = [found.bot ? t('account.bot') : t('account.person'), found.accountId,
      found.active === false ? t('account.inactive') : null].filter(Boolean).join(' · ');
    setTitle(root, `Brass — ${found.name}`);
  } catch (error) {
    showError(err, error);
  }
  await pages.load();
}
