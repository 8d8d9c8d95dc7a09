// The game page's lobby panel while the game waits for players (and for a host with
// invitations out): each seat's invite or join link with a Copy button, a server bot for an
// open seat, the host's Start. `g` is the game page (game.js).

import { api } from './api.js';
import { announce, h, replace } from './dom.js';
import { t } from './i18n.js';
import { inviteUrl, joinUrl, saved, watchUrl } from './store.js';
import { hostPolicyText, isFinished, isWaiting, readState } from './view.js';

function copyButton(text, label) {
  const b = h('button', { type: 'button', class: 'small' }, label);
  b.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      announce(t('game.copied'));
      b.textContent = t('game.copied');
    } catch {
      b.textContent = t('game.selectCopy');
    }
  });
  return b;
}

export function drawLobbyPanel(g) {
  const { st, el, caps, gameId } = g;
  const s = st.state && st.state.summary;
  const hostToken = saved.hostToken(gameId);
  const invites = saved.inviteTokens(gameId);
  const show = s && (isWaiting(s) || (hostToken && Object.keys(invites).length && !isFinished(s)));
  el.lobby.hidden = !show;
  if (!show) return;
  const rows = s.seats.map((seatInfo) => {
    const bits = [h('span', { class: 'seat-label' }, `${t('lobby.seatN', { n: seatInfo.seat + 1 })}: ${seatInfo.open ? t('game.open') : seatInfo.name || '—'}`)];
    if (invites[seatInfo.seat]) {
      const url = inviteUrl(gameId, seatInfo.seat, invites[seatInfo.seat]);
      bits.push(h('input', { type: 'text', readonly: true, value: url, class: 'invite-link', 'data-seat': seatInfo.seat, 'aria-label': t('game.inviteFor', { n: seatInfo.seat + 1 }) }),
        copyButton(url, t('game.copyLink')));
    } else if (seatInfo.open) {
      const url = joinUrl(gameId, seatInfo.seat);
      bits.push(h('input', { type: 'text', readonly: true, value: url, class: 'join-link', 'data-seat': seatInfo.seat, 'aria-label': t('game.joinFor', { n: seatInfo.seat + 1 }) }),
        copyButton(url, t('game.copyLink')));
    }
    if (hostToken && caps.setSeatBot && (seatInfo.open || seatInfo.vacant)) bits.push(seatBotControl(g, seatInfo.seat, hostToken));
    return h('li', {}, bits);
  });
  const parts = [h('h2', { id: 'lobby-heading' }, isWaiting(s) ? t('game.waitingPlayers') : t('game.invitations')),
    h('ul', { class: 'seat-links' }, rows),
    s.hostPolicy ? h('p', { class: 'host-policy' }, hostPolicyText(s.hostPolicy, Boolean(s.clock))) : null,
    h('p', {}, t('game.spectators'), h('a', { href: watchUrl(gameId) }, watchUrl(gameId)))];
  if (isWaiting(s) && hostToken) {
    const start = h('button', { type: 'button', class: 'primary start', disabled: s.openSeats > 0 }, s.openSeats > 0 ? `Start (${s.openSeats} open)` : t('game.startGame'));
    start.addEventListener('click', async () => {
      try {
        const answer = await api.start(gameId, hostToken);
        announce(t('game.started'));
        g.applyState(readState(answer.state));
      } catch (err) {
        st.error = err.message;
        g.render();
      }
    });
    parts.push(start);
  }
  replace(el.lobby, parts);
}

function seatBotControl(g, seatNumber, hostToken) {
  const { st, caps, gameId } = g;
  const choice = h('select', { 'aria-label': t('game.botFor', { n: seatNumber + 1 }) },
    ['greedy', 'random', 'mcts:iterations=200'].map((b) => h('option', { value: b }, b)));
  const button = h('button', { type: 'button', class: 'small' }, t('game.seatBot'));
  button.addEventListener('click', async () => {
    try {
      await api.operation(caps.setSeatBot, { gameId }, hostToken, { seat: seatNumber, bot: choice.value });
      announce(t('game.botPlays', { n: seatNumber + 1 }));
      await g.loadState();
    } catch (err) {
      st.error = err.message;
      g.render();
    }
  });
  return h('span', { class: 'seat-bot' }, choice, button);
}
