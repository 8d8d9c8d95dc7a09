// A game's page: the board and the seat's view, the current decision's options (on the
// board and as a list), whole actions, preview and confirm, undo, live updates, and the
// lobby panel while the game waits for players.

import { api, watchGame as watch } from './api.js';
import { eventText } from './events.js';
import { drawPlayers } from './players.js';
import { drawLastMoves, lastMoves } from './recent.js';
import { drawWholeActions, placesOf } from './wholeactions.js';
import { boardPanel } from './zoom.js';
import { capabilities, ruleset as getRuleset } from './caps.js';
import { announce, h, replace } from './dom.js';
import { eraRound, label as labelOf, t, useLabels } from './i18n.js';

function build(parent, ...children) {
  parent.append(...children);
  return parent;
}
import { inviteUrl, joinUrl, saved, watchUrl } from './store.js';
import {
  clockText, compoundText, hostPolicyText, decisionPrompt, isFinished, isWaiting,
  builtView, lobbyEvent, nameText, readLegal, readPreview, readState, timeLeft, title,
} from './view.js';

const LOG_LINES = 200;

function seatName(summary, seat) {
  const s = summary && summary.seats.find((x) => x.seat === seat);
  return (s && s.name) || t('lobby.seatN', { n: seat + 1 });
}

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

export async function gamePage(root, go, gameId, seat) {
  const caps = await capabilities();
  const token = seat === null ? null : saved.seatToken(gameId, seat);
  const st = {
    gameId, seat: token ? seat : null, token, state: null, legal: null, selected: null,
    preview: null, busy: false, log: [], watcher: null, ruleset: null, connection: '',
    filter: '', error: '', closed: false, askResign: false,
  };
  const el = {
    status: h('div', { class: 'status-bar', role: 'status' }),
    board: null,
    decision: h('section', { class: 'card decision', 'aria-labelledby': 'decision-heading' }),
    compound: h('section', { class: 'card compound', 'aria-labelledby': 'compound-heading' }),
    hand: h('section', { class: 'card hand', 'aria-labelledby': 'hand-heading' }),
    players: h('section', { class: 'card players', 'aria-labelledby': 'players-heading' }),
    lobby: h('section', { class: 'card lobby-panel', 'aria-labelledby': 'lobby-heading', hidden: true }),
    log: h('section', { class: 'card log', 'aria-labelledby': 'log-heading' }),
    lastMoves: h('section', { class: 'card last-moves-card', 'aria-labelledby': 'last-moves-heading', hidden: true }),
  };
  const recent = lastMoves(token ? seat : null);
  const boardView = boardPanel();
  el.board = boardView.element;
  const page = h('div', { class: 'game' });
  replace(root, build(page, el.status,
    h('div', { class: 'game-layout' },
      h('div', { class: 'board-column' }, el.board),
      h('div', { class: 'side-column' }, el.lobby, el.lastMoves, el.decision, el.compound, el.hand, el.players, el.log))));
  if (seat !== null && !token) {
    st.error = t('game.noToken', { n: seat + 1 });
  }

  function myTurn() {
    const s = st.state && st.state.summary;
    const me = s && s.seats.find((x) => x.seat === st.seat);
    return st.token && s && !isWaiting(s) && !isFinished(s) && s.currentSeat === st.seat
      && !(me && me.resigned);
  }

  // ------------------------------------------------------------------ loading

  async function loadState(force = false) {
    const game = await api.getGame(gameId, st.token);
    applyState(readState(game.state), force);
  }

  // A state older than the one shown is dropped (a stream catching up can deliver one after
  // a submission's answer), unless `force` says the game went back (an undo).
  function applyState(state, force = false) {
    if (!state) return;
    const before = st.state && st.state.summary ? st.state.summary.version : -1;
    if (!force && state.summary.version < before) return;
    st.state = state;
    if (state.summary.version !== before) {
      boardView.say('');
      st.selected = null;
      st.preview = null;
      if (st.legal && st.legal.version !== state.summary.version) st.legal = null;
    }
    if (myTurn() && !st.legal) loadLegal();
    if (isFinished(state.summary) && !st.built && state.summary.version > 0) loadBuilt(state);
    render();
  }

  // A finished game's board shows all that was built: the view before the last decision
  // still has what the final era's end took off the board.
  async function loadBuilt(state) {
    st.built = state.view;
    try {
      const before = readState((await api.getGame(gameId, st.token, String(state.summary.version - 1))).state);
      st.built = builtView(state.view, before.view);
    } catch {
      return; // the last view alone
    }
    render();
  }

  let legalLoading = null;
  async function loadLegal() {
    if (legalLoading) return legalLoading;
    legalLoading = (async () => {
      try {
        const legal = readLegal(await api.legal(gameId, st.token));
        if (st.state && legal.version >= st.state.summary.version) st.legal = legal;
      } catch (err) {
        if (err.reason !== 'NOT_YOUR_TURN' && err.reason !== 'STALE_VERSION') st.error = err.message;
      } finally {
        legalLoading = null;
      }
      render();
      if (myTurn() && (!st.legal || st.legal.version < st.state.summary.version)) loadLegal();
    })();
    return legalLoading;
  }

  function startWatching(fromVersion) {
    if (st.watcher) st.watcher.close();
    st.watcher = watchGameUpdates(fromVersion);
  }

  function watchGameUpdates(fromVersion) {
    return watch(gameId, st.token, fromVersion, {
      onUpdate(update) {
        for (const e of update.events) {
          const line = eventText(e, (s) => seatName(st.state && st.state.summary, s), tileName);
          addLog(line, recent.add(e, line));
        }
        if (update.state) applyState(update.state);
        else if (update.events.some(lobbyEvent)) loadState().catch(() => {});
      },
      onStatus(s, detail) {
        const was = st.connection;
        st.connection = s;
        if (s === 'live' && was === 'reconnecting') {
          announce(t('game.reconnected'));
          loadState().catch(() => {});
        } else if (s === 'reconnecting' && was !== 'reconnecting') {
          announce(detail ? t('game.lostDetail', { detail }) : t('game.lost'));
        }
        renderStatus();
      },
      onError(err) { st.error = err.message; render(); },
    });
  }

  // A tile id in words, by the board's names (Pittsburgh's industry and link tiles).
  function tileName(id) {
    const board = st.ruleset && st.ruleset.board;
    const tile = board && (board.tiles || []).find((t) => t.id === id);
    if (tile) return tile.name;
    const link = board && (board.link_tiles || []).find((t) => t.id === id);
    return link ? `${title(link.kind)}${link.type ? ` (${title(link.type)})` : ''}` : title(id);
  }

  // a line of the event log, and the other seat's last move it belongs to (if any)
  function addLog(line, move = null) {
    st.log.push({ line, move });
    if (st.log.length > LOG_LINES) st.log.splice(0, st.log.length - LOG_LINES);
  }

  // ------------------------------------------------------------------ acting

  async function choose(action, label) {
    if (!myTurn() || st.busy) return;
    st.selected = { action, label };
    st.preview = null;
    st.error = '';
    render();
    try {
      const preview = await api.preview(gameId, st.token, action, st.state.summary.version);
      if (st.selected && st.selected.action === action) st.preview = readPreview(preview);
    } catch (err) {
      st.error = `${err.message}${err.reason ? ` (${err.reason})` : ''}`;
      if (err.reason === 'STALE_VERSION') await loadState();
    }
    render();
    const confirm = el.decision.querySelector('button.confirm');
    if (confirm) confirm.focus();
  }

  async function confirmSelected() {
    if (!st.selected || st.busy) return;
    st.busy = true;
    st.error = '';
    render();
    const { action, label } = st.selected;
    try {
      const answer = await api.submit(gameId, st.token, action, st.state.summary.version);
      announce(t('game.played', { label }));
      recent.clear();
      st.focusNext = true;
      st.selected = null;
      st.preview = null;
      st.legal = null;
      applyState(readState(answer.state));
    } catch (err) {
      st.error = `${err.message}${err.reason ? ` (${err.reason})` : ''}`;
      await loadState().catch(() => {});
    } finally {
      st.busy = false;
      render();
    }
  }

  function cancelSelected() {
    st.selected = null;
    st.preview = null;
    render();
  }

  async function undo() {
    if (!caps.undo || st.busy) return;
    st.busy = true;
    try {
      const answer = await api.operation(caps.undo, { gameId }, st.token, {
        expectedVersion: String(st.state.summary.version),
      });
      st.legal = null;
      announce(t('game.undone'));
      if (answer && answer.state) applyState(readState(answer.state), true);
      else await loadState(true);
    } catch (err) {
      st.error = `${err.message}${err.reason ? ` (${err.reason})` : ''}`;
    } finally {
      st.busy = false;
      render();
    }
  }

  // ------------------------------------------------------------------ drawing

  function renderStatus() {
    const s = st.state && st.state.summary;
    const v = st.state && st.state.view;
    const parts = [h('a', { href: '#/', class: 'home' }, t('game.lobby'))];
    if (s) {
      parts.push(h('span', {}, t('game.gameN', { id: s.gameId })));
      // Birmingham names its eras (canal, rail), Pittsburgh numbers them
      if (v) parts.push(h('span', {}, eraRound(v.era, v.round)));
      if (isWaiting(s)) parts.push(h('span', {}, t('game.waitingPlayers')));
      else if (isFinished(s)) parts.push(h('span', { class: 'turn' }, t('game.over')));
      else if (s.currentSeat !== null) {
        parts.push(h('span', { class: ['turn', myTurn() && 'mine'] },
          myTurn() ? t('game.yourTurn') : t('game.toPlay', { name: seatName(s, s.currentSeat) })));
      }
      parts.push(h('span', {}, st.seat === null ? t('game.spectating') : t('game.you', { name: seatName(s, st.seat) })));
      if (v) parts.push(h('span', {}, t('game.deck', { n: v.deckSize })));
      parts.push(h('span', { class: 'version' }, `v${s.version}`));
      if (s.clock && s.clock.turnSeat !== null) {
        parts.push(h('span', { class: 'clock', role: 'timer', 'aria-label': `${seatName(s, s.clock.turnSeat)}'s time left` },
          `⏱ ${clockText(timeLeft(s.clock, s.clock.turnSeat))}`));
      }
    }
    if (st.connection) {
      parts.push(h('span', { class: ['connection', `connection-${st.connection}`], 'data-connection': st.connection },
        st.connection === 'live' ? t('game.live') : st.connection === 'reconnecting' ? t('game.reconnecting') : title(st.connection)));
    }
    replace(el.status, parts);
    // the page's state in attributes, for tests and for styles
    Object.assign(page.dataset, {
      version: s ? String(s.version) : '', status: s ? s.status : '',
      era: st.state && st.state.view ? st.state.view.era : '', myTurn: String(Boolean(myTurn())),
      legalVersion: st.legal ? String(st.legal.version) : '', connection: st.connection,
      previewReady: String(Boolean(st.preview)), busy: String(st.busy),
    });
  }

  function legalMaps() {
    const legal = new Map();
    const unavailable = new Map();
    if (myTurn() && st.legal) {
      for (const o of st.legal.options) legal.set(o.id, o);
      for (const u of st.legal.unavailable) unavailable.set(u.id, u);
    }
    return { legal, unavailable };
  }

  // The places on the board some whole action goes through (option names -> how many),
  // but for the current decision's own options: one click there picks such an action.
  let targetsFor = null;
  function targetsOf(legal, options) {
    if (!myTurn() || !legal || !legal.compound.length) return new Map();
    if (targetsFor && targetsFor.legal === legal) return targetsFor.targets;
    const own = new Set([...options.values()].map((o) => o.name));
    const targets = new Map();
    const through = new Map();
    for (const c of legal.compound) {
      for (const place of new Set(placesOf(c.key, st.ruleset && st.ruleset.board, builtSlots()))) {
        if (own.has(place)) continue;
        targets.set(place, (targets.get(place) || 0) + 1);
        if (!through.has(place)) through.set(place, []);
        through.get(place).push(c);
      }
    }
    targetsFor = { legal, targets, through };
    return targets;
  }

  function builtSlots() {
    const v = st.state && st.state.view;
    return new Set(v ? v.slots.map((s) => s.slot) : []);
  }

  // A click on a target: the first whole action through it is previewed (one Confirm plays
  // it), and the whole-action list shows the others (filtered to that place).
  function chooseThrough(name) {
    const through = (targetsFor && targetsFor.legal === st.legal && targetsFor.through.get(name)) || [];
    if (!through.length) return;
    // the list shows the others: by the place's name when the keys hold it, else by the card
    st.filter = through.every((c) => c.key.split(' ').includes(name)) ? name : through[0].key.split(' ').slice(0, 2).join(' ');
    boardView.say('');
    st.selectedTarget = name;
    choose({ compound: { ids: through[0].ids } }, compoundText(through[0].key));
  }

  function renderBoard() {
    if (!st.ruleset) return;
    if (!st.ruleset.board) {
      boardView.message(t('game.noBoard'));
      return;
    }
    const { legal, unavailable } = legalMaps();
    const shown = st.preview && st.preview.view ? st.preview.view
      : st.built && isFinished(st.state.summary) ? st.built : st.state && st.state.view;
    const selectedId = st.selected && st.selected.action.optionId !== undefined ? st.selected.action.optionId : null;
    boardView.draw(st.ruleset.board, shown, {
      legal, unavailable, selected: selectedId, recent: recent.marks(),
      onPick: (id) => { boardView.say(''); choose({ optionId: id }, nameText(legal.get(id).name)); },
      onRefused: (why) => boardView.say(why),
      targets: targetsOf(st.legal, legal), onTarget: chooseThrough,
      selectedTarget: st.selected && st.selected.action.compound ? st.selectedTarget : null,
    });
    el.board.classList.toggle('previewing', Boolean(st.preview));
  }

  function renderDecision() {
    const s = st.state && st.state.summary;
    const parts = [h('h2', { id: 'decision-heading' }, t('game.yourMove'))];
    if (st.error) parts.push(h('p', { class: 'error', role: 'alert' }, st.error));
    if (!s) {
      replace(el.decision, parts, h('p', {}, t('game.loading')));
      return;
    }
    if (isFinished(s)) {
      parts[0] = h('h2', { id: 'decision-heading' }, t('game.finalScores'));
      const scores = st.state.scores;
      if (/RESIGNED|FORFEITED/.test(s.endReason)) {
        parts.push(h('p', {}, t('game.endedEarly', { reason: title(s.endReason.replace(/^END_REASON_/, '').toLowerCase()) })));
      }
      if (scores.length) parts.push(h('ol', { class: 'scores' }, s.seats
        .map((seat) => ({ seat: seat.seat, score: scores[seat.seat] ?? 0 }))
        .sort((a, b) => b.score - a.score)
        .map((x) => h('li', {}, `${seatName(s, x.seat)}: ${x.score} VP${st.state.winners.includes(x.seat) ? ' (winner)' : ''}`))));
      parts.push(h('a', { href: `#/replay/${encodeURIComponent(gameId)}`, class: 'button' }, t('game.watchReplay')));
      replace(el.decision, parts, rematchControls(s));
      return;
    }
    if (st.seat === null) {
      parts[0] = h('h2', { id: 'decision-heading' }, t('game.spectating'));
      parts.push(h('p', {}, isWaiting(s) ? t('game.notStarted') : t('game.deciding', { name: seatName(s, s.currentSeat), what: decisionPrompt(s.decision).toLowerCase() })));
      const delay = s.hostPolicy ? s.hostPolicy.spectatorDelayTurns : 0;
      if (delay) parts.push(h('p', { class: 'spectator-delay' }, delay === 1 ? t('game.spectatorDelayOne') : t('game.spectatorDelay', { n: delay })));
      replace(el.decision, parts);
      return;
    }
    const me = s.seats.find((x) => x.seat === st.seat);
    if (me && me.resigned) {
      parts.push(h('p', { class: 'resigned-note' }, me.bot ? t('game.resignedBot', { bot: me.bot }) : t('game.resigned')));
      replace(el.decision, parts);
      return;
    }
    if (!myTurn()) {
      parts.push(h('p', {}, isWaiting(s) ? t('game.startsWhen') : t('game.waitingFor', { name: seatName(s, s.currentSeat) })));
      replace(el.decision, parts, resignControls());
      return;
    }
    if (!st.legal) {
      parts.push(h('p', {}, t('game.loadingOptions')));
      replace(el.decision, parts);
      return;
    }
    parts.push(h('p', { class: 'prompt' }, `${decisionPrompt(st.legal.decision)}:`));
    const list = h('ul', { class: 'options', 'aria-label': t('game.optionsLabel') });
    for (const o of st.legal.options) {
      const selected = st.selected && st.selected.action.optionId === o.id;
      list.append(h('li', {}, h('button', {
        type: 'button', class: ['option', selected && 'selected'], 'data-option-id': o.id,
        'aria-pressed': selected ? 'true' : 'false',
        onclick: () => choose({ optionId: o.id }, nameText(o.name)),
      }, nameText(o.name))));
    }
    parts.push(list);
    if (st.legal.unavailable.length) {
      // greyed out, each with the engine's reason
      const refused = h('ul', { class: 'options unavailable-options' });
      for (const u of st.legal.unavailable) {
        const name = st.ruleset ? (st.ruleset.actions.find((a) => a.id === u.id) || {}).name : '';
        refused.append(h('li', {}, h('button', {
          type: 'button', class: 'option unavailable', disabled: true, 'data-option-id': u.id,
          'aria-describedby': `reason-${u.id}`,
        }, nameText(name) || `#${u.id}`), h('span', { class: 'reason', id: `reason-${u.id}` }, u.message)));
      }
      parts.push(h('details', { class: 'unavailable-box', open: st.legal.unavailable.length <= 4 || undefined },
        h('summary', {}, t('game.unavailable', { n: st.legal.unavailable.length })), refused));
    }
    if (st.selected) {
      const box = h('div', { class: 'preview', 'aria-live': 'polite', 'aria-labelledby': 'preview-heading' },
        h('h3', { id: 'preview-heading' }, t('game.preview', { label: st.selected.label })));
      if (st.preview) {
        box.append(h('table', { class: 'cost' }, h('tbody', {}, st.preview.rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v))))));
        if (st.preview.events.length) {
          box.append(h('ul', { class: 'preview-events' }, st.preview.events.map((e) => h('li', {}, eventText(e, (x) => seatName(s, x), tileName)))));
        }
      } else if (!st.error) {
        box.append(h('p', {}, t('game.workingCost')));
      }
      box.append(h('div', { class: 'buttons' },
        h('button', { type: 'button', class: 'primary confirm', disabled: st.busy || !st.preview, onclick: confirmSelected }, t('game.confirm')),
        h('button', { type: 'button', class: 'cancel', onclick: cancelSelected }, t('game.cancel'))));
      parts.push(box);
    }
    if (caps.undo) parts.push(undoControls());
    replace(el.decision, parts, resignControls());
  }

  // Undo: what it would take back, or (greyed out) the engine's reason why it cannot, when
  // the view says so.
  function undoControls() {
    const now = st.state.view && st.state.view.undo;
    if (!now) return h('div', { class: 'buttons' }, h('button', { type: 'button', class: 'undo', disabled: st.busy, onclick: undo }, t('game.undo')));
    const reason = now.steps ? '' : ((st.ruleset && st.ruleset.reasons.find((r) => r.code === now.refused)) || {}).message || now.refused || '';
    return h('div', { class: 'buttons undo-box' },
      h('button', {
        type: 'button', class: 'undo', disabled: st.busy || !now.steps, onclick: undo,
        'aria-describedby': reason ? 'undo-reason' : undefined,
      }, now.steps ? `Undo (${now.steps} decision${now.steps === 1 ? '' : 's'})` : t('game.undo')),
      reason ? h('span', { class: 'reason', id: 'undo-reason' }, reason) : null);
  }

  // Rematch (a seat of a finished game): propose or accept, then the link to the new game
  // once every seat agreed (the token each seat got is kept with the finished game).
  function rematchControls(s) {
    if (!caps.rematch || !st.token || st.seat === null) return null;
    const mine = saved.rematch(gameId);
    const r = s.rematch;
    if (mine && r && r.gameId) {
      return h('div', { class: 'buttons rematch' }, h('a', {
        href: `#/play/${encodeURIComponent(r.gameId)}/${mine.seat}/${encodeURIComponent(mine.token)}`,
        class: 'button primary',
      }, t('game.rematchPlay')));
    }
    if (mine) {
      return h('div', { class: 'buttons rematch' },
        h('span', {}, t('game.rematchWaiting')),
        h('button', { type: 'button', onclick: () => loadState(true).catch((err) => { st.error = err.message; render(); }) }, t('game.rematchCheck')));
    }
    const label = r ? t('game.rematchAccept', { name: seatName(s, r.proposedBy) }) : t('game.rematch');
    return h('div', { class: 'buttons rematch' }, h('button', { type: 'button', class: 'primary rematch', onclick: async () => {
      try {
        const answer = await api.operation(caps.rematch, { gameId }, st.token, {});
        saved.setRematch(gameId, answer.seat || 0, answer.token);
        announce(answer.rematch && answer.rematch.gameId ? t('game.rematchStarted') : t('game.rematchProposed'));
        await loadState(true);
      } catch (err) {
        st.error = err.message;
      }
      render();
    } }, label));
  }

  // Resigning takes two clicks: the first asks.
  function resignControls() {
    const s = st.state && st.state.summary;
    const me = s && s.seats.find((x) => x.seat === st.seat);
    if (!caps.resign || !st.token || !me || me.resigned || isWaiting(s) || isFinished(s)) return null;
    if (!st.askResign) {
      return h('div', { class: 'buttons resign' }, h('button', { type: 'button', onclick: () => { st.askResign = true; render(); } }, t('game.resignAsk')));
    }
    return h('div', { class: 'buttons resign', role: 'group', 'aria-label': t('game.resignQuestion') },
      h('span', {}, t('game.resignQuestion')),
      h('button', { type: 'button', class: 'primary', onclick: async () => {
        st.askResign = false;
        try {
          const answer = await api.operation(caps.resign, { gameId }, st.token, {});
          announce(t('game.youResigned'));
          if (answer && answer.state) applyState(readState(answer.state));
        } catch (err) {
          st.error = err.message;
        }
        render();
      } }, t('game.resign')),
      h('button', { type: 'button', onclick: () => { st.askResign = false; render(); } }, t('game.keepPlaying')));
  }

  let compoundDrawn = null;
  function renderCompound() {
    el.compound.hidden = !(myTurn() && st.legal && st.legal.compound.length);
    if (el.compound.hidden) return;
    // hundreds of buttons: rebuilt only when the list or the filter changed
    // (and once GetRuleset's labels are there, which name the actions in Chinese)
    if (compoundDrawn && compoundDrawn.legal === st.legal && compoundDrawn.filter === st.filter
      && compoundDrawn.ruleset === st.ruleset) return;
    compoundDrawn = { legal: st.legal, filter: st.filter, ruleset: st.ruleset };
    drawWholeActions(el.compound, st.legal, st.filter, (text) => {
      st.filter = text;
      renderCompound();
      const again = el.compound.querySelector('#compound-filter');
      again.focus();
      again.setSelectionRange(again.value.length, again.value.length);
    }, (item) => choose({ compound: { ids: item.ids } }, item.text));
  }

  function renderHand() {
    const v = st.state && st.state.view;
    const me = v && st.seat !== null ? v.playerStates[st.seat] : null;
    el.hand.hidden = !(me && me.hand);
    if (el.hand.hidden) return;
    const cards = Object.entries(me.hand).filter(([, n]) => n > 0);
    replace(el.hand, h('h2', { id: 'hand-heading' }, t('game.hand')),
      h('ul', { class: 'cards', 'aria-label': `${me.handSize} cards` },
        cards.map(([card, n]) => h('li', { class: 'card-chip', 'data-card': card }, `${labelOf('cards', card) || title(card)}${n > 1 ? ` ×${n}` : ''}`))),
      me.handUnseen ? h('p', { class: 'note' }, `${me.handUnseen} cards still to draw`) : null);
  }

  function renderPlayers() {
    drawPlayers(el.players, {
      state: st.state, seat: st.seat, board: st.ruleset && st.ruleset.board,
      seatName: (seat) => seatName(st.state && st.state.summary, seat), tileName,
    });
  }

  function renderLobby() {
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
      if (hostToken && caps.setSeatBot && (seatInfo.open || seatInfo.vacant)) bits.push(seatBotControl(seatInfo.seat, hostToken));
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
          applyState(readState(answer.state));
        } catch (err) {
          st.error = err.message;
          render();
        }
      });
      parts.push(start);
    }
    replace(el.lobby, parts);
  }

  function seatBotControl(seatNumber, hostToken) {
    const choice = h('select', { 'aria-label': t('game.botFor', { n: seatNumber + 1 }) },
      ['greedy', 'random', 'mcts:iterations=200'].map((b) => h('option', { value: b }, b)));
    const button = h('button', { type: 'button', class: 'small' }, t('game.seatBot'));
    button.addEventListener('click', async () => {
      try {
        await api.operation(caps.setSeatBot, { gameId }, hostToken, { seat: seatNumber, bot: choice.value });
        announce(t('game.botPlays', { n: seatNumber + 1 }));
        await loadState();
      } catch (err) {
        st.error = err.message;
        render();
      }
    });
    return h('span', { class: 'seat-bot' }, choice, button);
  }

  function renderLog() {
    replace(el.log, h('h2', { id: 'log-heading' }, t('game.events')),
      // focusable: a region that scrolls must be reachable by keyboard (axe)
      h('ol', { class: 'event-log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0', 'aria-labelledby': 'log-heading' },
        st.log.slice(-40).map(({ line, move }) => h('li', {
          class: recent.has(move) && ['recent', `owner-${move.seat}`], 'data-recent-seat': recent.has(move) ? move.seat : undefined,
        }, line))));
    const list = el.log.querySelector('ol');
    list.scrollTop = list.scrollHeight;
  }

  function render() {
    if (st.closed) return;
    // keep keyboard focus on the same control across a redraw
    const active = document.activeElement;
    const focusKey = active && (active.dataset.optionId || active.dataset.actionId || active.dataset.key);
    renderStatus();
    renderLobby();
    renderBoard();
    renderDecision();
    renderCompound();
    renderHand();
    renderPlayers();
    renderLog();
    drawLastMoves(el.lastMoves, recent.moves(), (x) => seatName(st.state && st.state.summary, x), st.seat === null);
    // after a confirmed decision, the keyboard goes on at the next decision's first option
    if (!myTurn()) st.focusNext = false;
    const next = st.focusNext && st.legal && el.decision.querySelector('button.option:not([disabled])');
    if (next) {
      st.focusNext = false;
      next.focus();
    } else if (focusKey && !root.contains(active)) {
      const again = root.querySelector(`[data-option-id="${focusKey}"]:not([disabled]), [data-action-id="${focusKey}"][tabindex], [data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
    document.title = myTurn() ? t('game.titleTurn') : t('game.titleGame');
  }

  function onKey(e) {
    if (e.key === 'Escape' && st.selected) cancelSelected();
  }
  document.addEventListener('keydown', onKey);
  // clocks run down between updates: redraw their text once a second
  const ticker = setInterval(() => {
    const clock = st.state && st.state.summary && st.state.summary.clock;
    if (!clock) return;
    const status = el.status.querySelector('.clock');
    if (status && clock.turnSeat !== null) status.textContent = `⏱ ${clockText(timeLeft(clock, clock.turnSeat))}`;
    for (const cell of el.players.querySelectorAll('.seat-clock')) {
      cell.textContent = clockText(timeLeft(clock, Number(cell.dataset.seat)));
    }
  }, 1000);

  try {
    await loadState();
    st.ruleset = await getRuleset(st.state.summary.ruleset); useLabels(st.ruleset.labels);
  } catch (err) {
    st.error = `${err.message}${err.reason ? ` (${err.reason})` : ''}`;
  }
  render();
  // one stream from the lobby to the end: while the game waits, its updates are the lobby's
  // (joins, bots seated, the start), each with the state
  if (st.state) startWatching(Math.max(0, st.state.summary.version - 20));
  return () => {
    st.closed = true;
    if (st.watcher) st.watcher.close();
    clearInterval(ticker);
    document.removeEventListener('keydown', onKey);
  };
}
