// The replay viewer: steps through a game's decisions (GetReplay) and shows the board at
// each version (GetGame at_version), as the caller may see it then.

import { api } from './api.js';
import { ruleset as getRuleset } from './caps.js';
import { h, replace } from './dom.js';
import { eraRound, t, useLabels } from './i18n.js';
import { saved } from './store.js';
import { boardPanel } from './zoom.js';
import { clockText, nameText, readReplay, readState, timeLeftThen } from './view.js';

// A seat by its name in the game's summary, else its number.
function seatNameOf(summary, seat) {
  return ((summary && summary.seats.find((x) => x.seat === seat)) || {}).name || t('lobby.seatN', { n: seat + 1 });
}

export async function replayPage(root, go, gameId, startVersion) {
  const seats = saved.seats(gameId);
  const token = seats.length ? saved.seatToken(gameId, seats[0]) : null;
  const st = { replay: null, version: 0, state: null, ruleset: null, playing: null, closed: false };
  const boardView = boardPanel();
  const board = boardView.element;
  const info = h('div', { class: 'status-bar', role: 'status', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', id: 'replay-version', min: 0, max: 0, value: 0 });
  const list = h('ol', { class: 'replay-decisions', 'aria-label': t('replay.decisions') });
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  const button = (label, text, fn) => h('button', { type: 'button', 'aria-label': label, onclick: fn }, text);
  const playButton = button(t('replay.play'), t('replay.playButton'), () => togglePlay());
  const controls = h('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': t('replay.controls') },
    button(t('replay.first'), '|◀', () => show(0)),
    button(t('replay.previous'), '◀', () => show(st.version - 1)),
    playButton,
    button(t('replay.next'), '▶', () => show(st.version + 1)),
    button(t('replay.last'), '▶|', () => show(Infinity)),
    h('label', { for: 'replay-version' }, t('replay.version')), slider);
  replace(root, h('div', { class: 'game replay' }, info,
    h('div', { class: 'game-layout' },
      h('div', { class: 'board-column' }, board),
      h('div', { class: 'side-column' },
        h('section', { class: 'card', 'aria-labelledby': 'replay-heading' },
          h('h2', { id: 'replay-heading' }, t('replay.title')), err, controls,
          h('p', { class: 'note' }, t('replay.keys'))),
        h('section', { class: 'card players' }),
        h('section', { class: 'card', 'aria-labelledby': 'decisions-heading' },
          h('h2', { id: 'decisions-heading' }, t('replay.decisions')), list)))));
  document.title = 'Brass — replay';

  // No control does a thing before the replay is loaded (show and togglePlay return while
  // st.replay is null); a version past the last is the last (Infinity: the End key, ▶|).
  let seq = 0;
  async function show(version) {
    if (!st.replay) return;
    const v = Math.max(0, Math.min(st.replay.version, version));
    st.version = v;
    slider.value = String(v);
    const mine = ++seq;
    try {
      const game = await api.getGame(gameId, token, String(v));
      if (mine !== seq || st.closed) return;
      st.state = readState(game.state);
      err.hidden = true;
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      return;
    }
    render();
  }

  function render() {
    const view = st.state && st.state.view;
    const summary = st.state && st.state.summary;
    const decision = st.replay.decisions[st.version - 1];
    const seatName = (s) => seatNameOf(summary, s);
    replace(info, h('a', { href: '#/', class: 'home' }, t('game.lobby')),
      h('span', {}, t('game.gameN', { id: gameId })),
      h('span', {}, t('replay.versionOf', { n: st.version, total: st.replay.version })),
      view ? h('span', {}, eraRound(view.era, view.round)) : null,
      decision ? h('span', {}, `${seatName(decision.seat)}: ${nameText(decision.name)}`) : h('span', {}, t('replay.start')));
    if (st.ruleset && st.ruleset.board) boardView.draw(st.ruleset.board, view, {});
    const players = root.querySelector('.players');
    if (view) {
      // each seat's time left as the version was reached (the clock of then, standing still)
      const clock = summary.clock ? (seat) => clockText(timeLeftThen(summary, seat)) : null;
      replace(players, h('h2', {}, t('replay.players')), h('table', { class: 'player-table' },
        h('thead', {}, h('tr', {}, ['table.seat', 'table.money', 'table.income', 'table.vp', clock && 'table.clock'].filter(Boolean).map((k) => t(k))
          .map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, view.playerStates.map((p) => h('tr', {}, h('th', { scope: 'row' }, seatName(p.seat)),
          h('td', {}, `£${p.money}`), h('td', {}, p.incomeLevel), h('td', {}, p.vp),
          clock ? h('td', { class: 'seat-clock', 'data-seat': p.seat }, clock(p.seat)) : null)))));
    }
    for (const li of list.children) li.classList.toggle('current', Number(li.dataset.version) === st.version);
    const current = list.querySelector('.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
  }

  function togglePlay() {
    if (!st.replay) return;
    if (st.playing) {
      clearInterval(st.playing);
      st.playing = null;
      playButton.textContent = t('replay.playButton');
      return;
    }
    playButton.textContent = t('replay.pauseButton');
    st.playing = setInterval(() => {
      if (st.version >= st.replay.version) togglePlay();
      else show(st.version + 1);
    }, 400);
  }

  // A drag fires an input event per step: ask only for where it rests (the server limits
  // a client's reads of past versions, PAST_READ_RATE).
  let dragging = null;
  slider.addEventListener('input', () => {
    clearTimeout(dragging);
    dragging = setTimeout(() => show(Number(slider.value)), 120);
  });
  function onKey(e) {
    if (e.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName) && e.target !== slider) return;
    if (e.key === 'ArrowRight') { e.preventDefault(); show(st.version + 1); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); show(st.version - 1); }
    else if (e.key === 'Home') { e.preventDefault(); show(0); }
    else if (e.key === 'End') { e.preventDefault(); show(Infinity); }
  }
  document.addEventListener('keydown', onKey);

  try {
    const replay = readReplay(await api.replay(gameId, token));
    const first = readState((await api.getGame(gameId, token, '0')).state);
    st.ruleset = await getRuleset(first.summary.ruleset); useLabels(st.ruleset.labels);
    slider.max = String(replay.version);
    replace(list, h('li', { 'data-version': 0 }, h('button', { type: 'button', onclick: () => show(0) }, t('replay.start'))),
      replay.decisions.map((d) => h('li', { 'data-version': d.version },
        h('button', { type: 'button', onclick: () => show(d.version) }, `${d.version}. ${seatNameOf(first.summary, d.seat)}: ${nameText(d.name)}`))));
    st.replay = replay; // the controls act from here on
    await show(startVersion ?? 0);
  } catch (e) {
    err.hidden = false;
    err.textContent = e.message;
  }
  return () => {
    st.closed = true;
    clearTimeout(dragging);
    if (st.playing) clearInterval(st.playing);
    document.removeEventListener('keydown', onKey);
  };
}
