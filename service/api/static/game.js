// A game's page: the board and the seat's view, the current decision's options (on the
// board and as a list), whole actions, preview and confirm, undo, live updates, and the
// lobby panel while the game waits for players.

import { api, watchGame as watch } from './api.js';
import { actionLine, eventFacts, eventText } from './events.js';
import { drawPlayers } from './players.js';
import { drawLastMoves, lastMoves } from './recent.js';
import { drawWholeActions, placesOf } from './wholeactions.js';
import { boardPanel } from './zoom.js';
import { capabilities, ruleset as getRuleset } from './caps.js';
import { announce, h, replace, setTitle } from './dom.js';
import { eraRound, label as labelOf, nameLabel, t, useLabels } from './i18n.js';

import { saved } from './store.js';
import { drawDecision } from './decision.js';
import { advance, back, stepPrompt, stepsOf, stepsPossible } from './steps.js';
import { drawLobbyPanel } from './lobbypanel.js';
import {
  clockText, compoundText, decisionPrompt, isFinished, isWaiting,
  builtView, lobbyEvent, nameText, readLegal, readPreview, readReplay, readState, roman, timeLeft, title,
} from './view.js';

function build(parent, ...children) {
  parent.append(...children);
  return parent;
}

const LOG_LINES = 200;
// events that are never part of an action's line
const ON_ITS_OWN = new Set(['action', 'turn_end', 'undo', 'lobby']);

function seatName(summary, seat) {
  const s = summary && summary.seats.find((x) => x.seat === seat);
  return (s && s.name) || t('lobby.seatN', { n: seat + 1 });
}


export async function gamePage(root, go, gameId, seat) {
  const caps = await capabilities();
  const token = seat === null ? null : saved.seatToken(gameId, seat);
  const st = {
    gameId, seat: token ? seat : null, token, state: null, legal: null, selected: null,
    preview: null, busy: false, log: [], watcher: null, ruleset: null, connection: '',
    filter: '', error: '', closed: false, askResign: false, path: [],
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

  // what the panels drawn by other modules (decision.js, lobbypanel.js) see of the page
  const g = {
    st, el, caps, gameId, myTurn, render, loadState, applyState, choose, confirmSelected,
    cancelSelected, undo, tileName, tileAt, pickStep, backStep, currentStep, chooseSource, seatName: (x) => seatName(st.state && st.state.summary, x),
  };

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
      st.path = [];
      if (st.legal && st.legal.version !== state.summary.version) st.legal = null;
    }
    if (myTurn() && !st.legal) loadLegal();
    if (isFinished(state.summary) && !st.built && state.summary.version > 0) loadBuilt(state);
    render();
  }

  // A finished game's board shows all that was built: the view before the last decision
  // still has what the final era's end took off the board, and the replay's last decision
  // names a link that decision placed (the era's end took it off in the same version).
  async function loadBuilt(state) {
    st.built = state.view;
    try {
      const [past, replay] = await Promise.all([
        api.getGame(gameId, st.token, String(state.summary.version - 1)), api.replay(gameId, st.token)]);
      const built = builtView(state.view, readState(past.state).view);
      const last = readReplay(replay).decisions.at(-1);
      const link = last && /^link:/.test(last.name) ? last.name.slice(5) : null;
      if (link && !built.links.some((l) => l.link === link)) {
        built.links = [...built.links, { link, owner: last.seat, tile: null, cargo: 0 }];
      }
      st.built = built;
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
        if (st.state && legal.version >= st.state.summary.version) {
          st.legal = legal;
          findResolvedSlots(legal);
        }
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

  // A build or a sell whose slot the engine resolves itself (the one it can take) does not
  // name it, and the board cannot always tell which (a wild card's build; a sell when the
  // seat has several tiles that sell): a preview of each such action (a few at most) says
  // where (its build or sell event), so the board can offer it there too.
  const RESOLVED_AT_MOST = 6;
  async function findResolvedSlots(legal) {
    const v = st.state && st.state.view;
    const board = st.ruleset && st.ruleset.board;
    const unnamed = legal.compound.filter((c) => /^type:(build|sell)( |$)/.test(c.key)
      && !placesOf(c.key, board, v ? v.slots : [], st.seat).some((p) => p.startsWith('slot:')));
    const resolved = new Map();
    for (const c of unnamed.slice(0, RESOLVED_AT_MOST)) {
      try {
        const preview = await api.preview(gameId, st.token, { compound: { ids: c.ids } }, legal.version);
        const placed = (preview.events || []).map(eventFacts).find((f) => (f.type === 'sell' || f.type === 'build') && f.slot);
        if (placed) resolved.set(c.key, placed.slot);
      } catch {
        return; // the game moved on: these actions are gone
      }
      if (st.legal !== legal) return;
    }
    if (resolved.size && st.legal === legal) {
      st.resolved = { legal, slots: resolved };
      render();
    }
  }

  function startWatching(fromVersion) {
    if (st.watcher) st.watcher.close();
    st.watcher = watchGameUpdates(fromVersion);
  }

  function watchGameUpdates(fromVersion) {
    return watch(gameId, st.token, fromVersion, {
      onUpdate(update) {
        for (const e of update.events) logEvent(e);
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
    const labelled = nameLabel('tiles', id);
    if (labelled) return labelled;
    const board = st.ruleset && st.ruleset.board;
    const tile = board && (board.tiles || []).find((t) => t.id === id);
    if (tile) return tile.name;
    const link = board && (board.link_tiles || []).find((t) => t.id === id);
    return link ? `${title(link.kind)}${link.type ? ` (${title(link.type)})` : ''}` : title(id);
  }

  // The tile on a slot in words, as the page shows it now: whose, what, where ("Bob's Coal
  // Mine in Tamworth"); null when the slot is empty.
  function tileAt(slot) {
    const v = st.state && st.state.view;
    const tile = v && v.slots.find((x) => x.slot === slot);
    if (!tile) return null;
    const what = tile.tile ? tileName(tile.tile) : `${labelOf('industries', tile.industry) || title(tile.industry)} ${roman(tile.level)}`;
    const loc = slot.split('.')[0];
    return t('preview.tileAt', { owner: seatName(st.state.summary, tile.owner), industry: what, place: labelOf('locations', loc) || locationTitle(loc) });
  }

  function locationTitle(id) {
    const board = st.ruleset && st.ruleset.board;
    const loc = board && (board.locations || []).find((l) => l.id === id);
    return (loc && loc.name) || title(id);
  }

  // An event into the log: an action's events fold into its one line (events.js:
  // actionLine), the others are a line each; each line knows the other seat's last move it
  // belongs to (if any).
  function logEvent(e) {
    const name = (s) => seatName(st.state && st.state.summary, s);
    const facts = eventFacts(e);
    const open = st.log[st.log.length - 1];
    let entry;
    if (open && open.events && facts.seat !== null && facts.seat === open.seat && !ON_ITS_OWN.has(facts.type)) {
      entry = open;
      entry.events.push(e);
    } else {
      entry = facts.type === 'action' ? { seat: facts.seat, events: [e] } : { line: eventText(e, name, tileName) };
      st.log.push(entry);
      if (st.log.length > LOG_LINES) st.log.splice(0, st.log.length - LOG_LINES);
    }
    if (entry.events) entry.line = actionLine(entry.events, name, tileName);
    entry.move = recent.add(e, entry) || entry.move || null;
  }

  // ------------------------------------------------------------------ acting

  // The current decision as the page asks it: the server's (no step chosen yet), else the
  // next step of the action in progress (steps.js), with the whole action once complete.
  function currentStep() {
    if (!st.legal) return null;
    if (!st.path.length) {
      return { options: st.legal.options, unavailable: st.legal.unavailable, prompt: decisionPrompt(st.legal.decision) };
    }
    const { options } = stepsOf(st.legal, st.path);
    const unavailable = options.length ? stepUnavailable() : [];
    return { options, unavailable, prompt: stepPrompt(st.path, options) };
  }

  // A later step's refused options, each with the engine's reason, as the server's decision
  // has them: the service answers the decision after the path's ids (nothing applied),
  // asked once per path; none until it answers.
  const stepReasons = new Map();
  function stepUnavailable() {
    const legal = st.legal;
    const ids = st.path.map((p) => p.id);
    const key = `${legal.version}:${ids.join(',')}`;
    if (stepReasons.has(key)) return stepReasons.get(key) || [];
    if (stepReasons.size > 200) stepReasons.clear();
    stepReasons.set(key, null);
    api.legalAfter(gameId, st.token, ids).then((answer) => {
      const after = readLegal(answer);
      if (after.version !== legal.version) return;
      stepReasons.set(key, after.unavailable);
      if (st.legal === legal && st.path.map((p) => p.id).join(',') === ids.join(',')) render();
    }).catch(() => stepReasons.set(key, [])); // the game moved on, or the server is away
    return [];
  }

  // An option of the current step (the list's or the board's): it goes on the path and the
  // next step is asked, or (the path a whole action) the action is previewed; without the
  // server's whole actions, the decision alone is previewed and confirmed.
  function pickStep(option) {
    if (!myTurn() || st.busy) return;
    if (!stepsPossible(st.legal) || (!st.path.length && !stepsOf(st.legal, [option]).matching.length)) {
      choose({ optionId: option.id }, nameText(option.name));
      return;
    }
    st.selected = null;
    st.preview = null;
    st.error = '';
    const whole = advance(st.legal, st.path, option);
    if (whole) {
      choose({ compound: { ids: whole.ids } }, compoundText(whole.key));
      return;
    }
    st.focusNext = true;
    render();
  }

  // Another source of a cube of the previewed action (decision.js): the same whole action
  // but for that source, previewed in its place; the steps kept follow it.
  function chooseSource(index, option) {
    if (!myTurn() || st.busy) return;
    const whole = option.compound;
    if (st.path.length === whole.ids.length) st.path[index] = { ...st.path[index], id: option.id, name: option.name };
    choose({ compound: { ids: whole.ids } }, compoundText(whole.key));
  }

  function backStep() {
    back(st.path);
    st.selected = null;
    st.preview = null;
    st.focusNext = true;
    render();
  }

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
    st.path = [];
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
      steps: String(st.path.length), selected: String(Boolean(st.selected)),
    });
  }

  function legalMaps() {
    const legal = new Map();
    const unavailable = new Map();
    const step = myTurn() && currentStep();
    if (step) {
      for (const o of step.options) legal.set(o.id, o);
      for (const u of step.unavailable) unavailable.set(u.id, u);
    }
    return { legal, unavailable };
  }

  // The places on the board some whole action goes through (option names -> how many),
  // of the actions that go on from the steps chosen so far, but for the current step's own
  // options: one click there picks such an action.
  let targetsFor = null;
  function targetsOf(legal, options) {
    if (!myTurn() || !legal || !legal.compound.length) return new Map();
    const path = st.path.map((p) => p.id).join(' ');
    const resolved = st.resolved && st.resolved.legal === legal ? st.resolved.slots : null;
    if (targetsFor && targetsFor.legal === legal && targetsFor.path === path && targetsFor.resolved === resolved) return targetsFor.targets;
    const own = new Set([...options.values()].map((o) => o.name));
    const targets = new Map();
    const through = new Map();
    const v = st.state && st.state.view;
    for (const c of st.path.length ? stepsOf(legal, st.path).matching : legal.compound) {
      for (const place of new Set(placesOf(c.key, st.ruleset && st.ruleset.board, v ? v.slots : [], st.seat, resolved && resolved.get(c.key)))) {
        if (own.has(place)) continue;
        targets.set(place, (targets.get(place) || 0) + 1);
        if (!through.has(place)) through.set(place, []);
        through.get(place).push(c);
      }
    }
    // a click on a built tile means to sell it, more likely than to build over it
    const built = new Set(v ? v.slots.map((x) => `slot:${x.slot}`) : []);
    for (const [place, list] of through) {
      if (built.has(place)) list.sort((a, b) => Number(!a.key.startsWith('type:sell')) - Number(!b.key.startsWith('type:sell')));
    }
    targetsFor = { legal, path, resolved, targets, through };
    return targets;
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
      onPick: (id) => { boardView.say(''); pickStep(legal.get(id)); },
      onRefused: (why) => boardView.say(why),
      targets: targetsOf(st.legal, legal), onTarget: chooseThrough,
      selectedTarget: st.selected && st.selected.action.compound ? st.selectedTarget : null,
    });
    el.board.classList.toggle('previewing', Boolean(st.preview));
    el.board.dataset.previewWord = t('game.previewBanner');
  }

  function renderDecision() {
    drawDecision(g);
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
    }, (item) => {
      st.path = [];
      choose({ compound: { ids: item.ids } }, item.text);
    });
  }

  function renderHand() {
    const v = st.state && st.state.view;
    const me = v && st.seat !== null ? v.playerStates[st.seat] : null;
    el.hand.hidden = !(me && me.hand);
    if (el.hand.hidden) return;
    const cards = Object.entries(me.hand).filter(([, n]) => n > 0);
    replace(el.hand, h('h2', { id: 'hand-heading' }, t('game.hand')),
      h('ul', { class: 'cards', 'aria-label': t('game.handCards', { n: me.handSize }) },
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
    drawLobbyPanel(g);
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

  // Keyboard focus stays on the same control across a redraw (every panel is drawn anew):
  // the control of the same panel with the same option, board place, action or key
  // (an option is both on the board and in the list: the one that had the focus).
  const FOCUS_KEYS = ['optionId', 'actionId', 'target', 'key', 'source'];
  function focusedControl() {
    const active = document.activeElement;
    if (!active || !root.contains(active) || !active.dataset) return null;
    const panel = Object.values(el).find((p) => p && p.contains(active));
    const name = FOCUS_KEYS.find((k) => active.dataset[k] !== undefined);
    const attr = name && `data-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const selector = attr ? `[${attr}="${CSS.escape(active.dataset[name])}"]`
      : active.classList.length ? `${active.tagName.toLowerCase()}${[...active.classList].map((c) => `.${CSS.escape(c)}`).join('')}` : null;
    return panel && selector ? { active, panel, selector } : null;
  }
  function refocus({ active, panel, selector }) {
    if (root.contains(active)) return;
    const again = [...panel.querySelectorAll(selector)]
      .find((x) => !x.disabled && (x.tabIndex >= 0 || x.getAttribute('tabindex') !== null));
    if (again) again.focus();
  }

  function render() {
    if (st.closed) return;
    const focused = focusedControl();
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
    } else if (focused) {
      refocus(focused);
    }
    setTitle(root, myTurn() ? t('game.titleTurn') : t('game.titleGame'));
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
