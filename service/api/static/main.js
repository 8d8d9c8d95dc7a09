// The page's router: every screen is a fragment route (#/...), so seat tokens in invite
// links never reach the server or its logs.
//   #/                       lobby
//   #/join/ID[/SEAT]         take an open seat
//   #/play/ID/SEAT/TOKEN     an invite link: keeps the token, then opens #/game/ID/SEAT
//   #/game/ID[/SEAT]         watch, or play as a seat this browser holds
//   #/replay/ID[/VERSION]    the replay viewer
//   #/account                sign in (an account's key), my games, challenges
//   #/leaderboard[/RULESET/PLAYERS/KIND], #/player/ID   ratings
//   #/arena[/ID]             an arena's table

import { accountPage } from './account.js';
import { arenaPage } from './arena.js';
import { h, replace } from './dom.js';
import { gamePage } from './game.js';
import { LANGUAGES, language, setLanguage, t } from './i18n.js';
import { joinPage, lobbyPage } from './lobby.js';
import { leaderboardPage, playerPage } from './ratings.js';
import { replayPage } from './replay.js';
import { account } from './session.js';
import { saved } from './store.js';

let app = document.getElementById('app');
let leave = null;
let routed = null;
let seq = 0;

function go(hash, replaceEntry = false) {
  if (replaceEntry) history.replaceState(null, '', hash);
  else history.pushState(null, '', hash);
  route(true);
}

async function route(force = false) {
  // a click on a fragment link fires both popstate and hashchange: route once
  if (!force && location.hash === routed) return;
  routed = location.hash;
  const mine = ++seq;
  if (leave) {
    leave();
    leave = null;
  }
  // Each route paints into a <main> of its own (the first, into the page's): a page still
  // awaiting the server when the reader goes on paints into its own, by then out of the
  // document, not over the newer page.
  if (mine > 1) {
    const fresh = app.cloneNode(false);
    // (until the page draws: a page that awaits the server first would leave it blank)
    fresh.append(h('p', { role: 'status' }, t('game.loading')));
    app.replaceWith(fresh);
    app = fresh;
  }
  const root = app;
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [page, id, a, b] = parts;
  const seatOf = (x) => (x === undefined || x === '' ? null : Number(x));
  let cleanup = null;
  try {
    if (page === 'play' && id && a !== undefined && b) {
      saved.addSeat(id, Number(a), b);
      // the token leaves the address bar (and the history) at once
      history.replaceState(null, '', `#/game/${encodeURIComponent(id)}/${Number(a)}`);
      routed = location.hash;
      cleanup = await gamePage(root, go, id, Number(a));
    } else if (page === 'game' && id) {
      cleanup = await gamePage(root, go, id, seatOf(a));
    } else if (page === 'join' && id) {
      await joinPage(root, go, id, seatOf(a) ?? undefined);
    } else if (page === 'replay' && id) {
      cleanup = await replayPage(root, go, id, seatOf(a) ?? undefined);
    } else if (page === 'account') {
      cleanup = await accountPage(root, go);
    } else if (page === 'leaderboard') {
      await leaderboardPage(root, go, id, a, b);
    } else if (page === 'player' && id) {
      await playerPage(root, go, id);
    } else if (page === 'arena') {
      cleanup = await arenaPage(root, go, id);
    } else {
      await lobbyPage(root, go);
    }
  } catch (err) {
    replace(root, h('section', { class: 'card narrow' }, h('h2', {}, t('error.title')),
      h('p', { class: 'error', role: 'alert' }, err.message || String(err)), h('a', { href: '#/' }, t('error.back'))));
  }
  if (mine !== seq) {
    // another route started meanwhile: this page painted out of sight; its streams and
    // timers stop
    if (cleanup) cleanup();
    return;
  }
  leave = cleanup;
  drawNav();
  document.documentElement.dataset.ready = 'true';
}

// The EN / 中文 switch in the header: the page's words, and the server's, change at once.
function drawLanguageSwitch() {
  document.documentElement.lang = language();
  const header = document.querySelector('.site-header');
  const tagline = header && header.querySelector('.tagline');
  if (tagline) tagline.textContent = t('site.tagline');
  const skip = document.querySelector('.skip-link');
  if (skip) skip.textContent = t('site.skip');
  let box = document.getElementById('language-switch');
  if (!box && header) {
    box = h('div', { id: 'language-switch', class: 'language-switch', role: 'group' });
    header.append(box);
  }
  if (!box) return;
  box.setAttribute('aria-label', t('site.language'));
  replace(box, ...Object.entries(LANGUAGES).map(([lang, label]) => h('button', {
    type: 'button', lang, 'aria-pressed': String(lang === language()), 'data-language': lang,
    onclick: () => { setLanguage(lang); drawLanguageSwitch(); route(true); },
  }, label)));
}

// The header's links: the lobby, the account (its name once signed in), the ratings, arenas.
function drawNav() {
  const header = document.querySelector('.site-header');
  if (!header) return;
  let nav = document.getElementById('site-nav');
  if (!nav) {
    nav = h('nav', { id: 'site-nav', class: 'site-nav' });
    header.insertBefore(nav, document.getElementById('language-switch'));
  }
  nav.setAttribute('aria-label', t('nav.label'));
  const signed = account();
  const here = location.hash.replace(/^#\/?/, '').split('/')[0];
  const link = (href, page, text) => h('a', { href, 'aria-current': page === here ? 'page' : undefined }, text);
  replace(nav, link('#/', '', t('nav.lobby')),
    link('#/account', 'account', signed ? signed.name : t('nav.account')),
    link('#/leaderboard', 'leaderboard', t('nav.leaderboard')),
    link('#/arena', 'arena', t('nav.arena')));
}

drawLanguageSwitch();
// "Skip to the content" moves the focus to the page's <main>; followed as a link, its #app
// would be a route (the router has no such page, and would show the lobby).
document.querySelector('.skip-link')?.addEventListener('click', (e) => {
  e.preventDefault();
  app.focus();
});
window.addEventListener('popstate', () => route());
window.addEventListener('hashchange', () => route());
route();
