// The game page's decision panel: the current decision's options (the unavailable ones
// greyed out with their reasons), the preview of the chosen one with Confirm and Cancel,
// undo, resign; a finished game's scores and rematch; what a spectator or a waiting seat sees.
// `g` is the game page (game.js): its state `st`, its elements and its actions.

import { api } from './api.js';
import { actionSentence, eventText } from './events.js';
import { announce, h, replace } from './dom.js';
import { label as labelOf, t } from './i18n.js';
import { sourceChoices } from './steps.js';
import { saved } from './store.js';
import { decisionPrompt, isFinished, isWaiting, nameText, readState, title } from './view.js';

export function drawDecision(g) {
  const { st, el, caps, gameId } = g;
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
      .map((x) => h('li', {}, `${g.seatName(x.seat)}: ${x.score} VP${st.state.winners.includes(x.seat) ? ' (winner)' : ''}`))));
    parts.push(h('a', { href: `#/replay/${encodeURIComponent(gameId)}`, class: 'button' }, t('game.watchReplay')));
    replace(el.decision, parts, rematchControls(g, s));
    return;
  }
  if (st.seat === null) {
    parts[0] = h('h2', { id: 'decision-heading' }, t('game.spectating'));
    parts.push(h('p', {}, isWaiting(s) ? t('game.notStarted') : t('game.deciding', { name: g.seatName(s.currentSeat), what: decisionPrompt(s.decision).toLowerCase() })));
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
  if (!g.myTurn()) {
    parts.push(h('p', {}, isWaiting(s) ? t('game.startsWhen') : t('game.waitingFor', { name: g.seatName(s.currentSeat) })));
    replace(el.decision, parts, resignControls(g));
    return;
  }
  if (!st.legal) {
    parts.push(h('p', {}, t('game.loadingOptions')));
    replace(el.decision, parts);
    return;
  }
  const step = g.currentStep();
  if (st.path.length) parts.push(pathLine(g));
  if (step.options.length) parts.push(h('p', { class: 'prompt' }, `${step.prompt}:`));
  const list = h('ul', { class: 'options', 'aria-label': t('game.optionsLabel') });
  for (const o of step.options) {
    const selected = st.selected && st.selected.action.optionId === o.id;
    list.append(h('li', {}, h('button', {
      type: 'button', class: ['option', selected && 'selected'], 'data-option-id': o.id,
      'aria-pressed': selected ? 'true' : 'false',
      onclick: () => g.pickStep(o),
    }, nameText(o.name))));
  }
  if (step.options.length) parts.push(list);
  if (step.unavailable.length) {
    // greyed out, each with the engine's reason
    const refused = h('ul', { class: 'options unavailable-options' });
    for (const u of step.unavailable) {
      const name = st.ruleset ? (st.ruleset.actions.find((a) => a.id === u.id) || {}).name : '';
      refused.append(h('li', {}, h('button', {
        type: 'button', class: 'option unavailable', disabled: true, 'data-option-id': u.id,
        'aria-describedby': `reason-${u.id}`,
      }, nameText(name) || `#${u.id}`), h('span', { class: 'reason', id: `reason-${u.id}` }, u.message)));
    }
    parts.push(h('details', { class: 'unavailable-box', open: step.unavailable.length <= 4 || undefined },
      h('summary', {}, t('game.unavailable', { n: step.unavailable.length })), refused));
  }
  if (st.selected) {
    const box = h('div', { class: 'preview', 'aria-live': 'polite', 'aria-labelledby': 'preview-heading' },
      h('h3', { id: 'preview-heading' }, t('game.preview', { label: st.selected.label })));
    const taken = st.path.filter((p) => p.auto && !p.source);
    if (taken.length) {
      box.append(h('p', { class: 'auto-steps' }, t('game.autoSteps', {
        steps: taken.map((p) => nameText(p.name)).join(', '),
      })));
    }
    if (st.selected.action.compound && st.legal) box.append(...sourceRows(g));
    if (st.preview) {
      const sentence = actionSentence(st.preview.events, (x) => g.seatName(x), g.tileName, g.tileAt);
      if (sentence) box.append(h('p', { class: 'preview-sentence' }, t('preview.end', { sentence })));
      if (st.preview.lines.length) box.append(h('ul', { class: 'preview-lines' }, st.preview.lines.map((line) => h('li', {}, line))));
      if (st.preview.events.length) {
        box.append(h('details', { class: 'preview-details' },
          h('summary', {}, t('preview.details', { n: st.preview.events.length })),
          h('ul', { class: 'preview-events' }, st.preview.events.map((e) => h('li', {}, eventText(e, (x) => g.seatName(x), g.tileName))))));
      }
    } else if (!st.error) {
      box.append(h('p', {}, t('game.workingCost')));
    }
    box.append(h('div', { class: 'buttons' },
      h('button', { type: 'button', class: 'primary confirm', disabled: st.busy || !st.preview, onclick: g.confirmSelected }, t('game.confirm')),
      h('button', { type: 'button', class: 'cancel', onclick: g.cancelSelected }, t('game.cancel'))));
    parts.push(box);
  }
  if (caps.undo) parts.push(undoControls(g));
  replace(el.decision, parts, resignControls(g));
}

// Where each cube of the previewed action comes from, when another source could give it
// (Pittsburgh: a market or Vanderbilt): the one taken, pressed, and the others, each of
// which previews the same action with that source instead.
function sourceRows(g) {
  const { st } = g;
  const choices = sourceChoices(st.legal, st.selected.action.compound.ids);
  return choices.map((choice, n) => {
    const heading = choices.length > 1 ? t('game.sourceN', { n: n + 1 }) : t('game.sourceOne');
    return h('div', { class: 'buttons source-choice', role: 'group', 'aria-label': heading },
      h('span', {}, heading),
      choice.options.map((o, i) => h('button', {
        type: 'button', class: ['small', 'source', i === 0 && 'selected'], 'data-source': o.name,
        'aria-pressed': i === 0 ? 'true' : 'false', disabled: st.busy || undefined,
        onclick: () => { if (i) g.chooseSource(choice.index, o); },
      }, sourceWords(o.name))));
  });
}

function sourceWords(name) {
  const [kind, place] = name.split(':');
  if (kind !== 'market' || !place) return nameText(name);
  return t('preview.marketAt', { place: labelOf('locations', place) || title(place) });
}

// The steps chosen so far (not yet sent), each in words, and a Back button.
function pathLine(g) {
  const { st } = g;
  return h('div', { class: 'step-path' },
    h('ol', { class: 'steps', 'aria-label': t('game.stepsSoFar') }, st.path.map((p) => h('li', { class: p.auto && 'auto' }, p.source ? sourceWords(p.name) : nameText(p.name)))),
    h('button', { type: 'button', class: 'small step-back', onclick: g.backStep }, t('game.back')));
}

// Undo: what it would take back, or (greyed out) the engine's reason why it cannot, when
// the view says so.
function undoControls(g) {
  const { st, caps, gameId } = g;
  const now = st.state.view && st.state.view.undo;
  if (!now) return h('div', { class: 'buttons' }, h('button', { type: 'button', class: 'undo', disabled: st.busy, onclick: g.undo }, t('game.undo')));
  const reason = now.steps ? '' : labelOf('reasons', now.refused)
    || ((st.ruleset && st.ruleset.reasons.find((r) => r.code === now.refused)) || {}).message || now.refused || '';
  return h('div', { class: 'buttons undo-box' },
    h('button', {
      type: 'button', class: 'undo', disabled: st.busy || !now.steps, onclick: g.undo,
      'aria-describedby': reason ? 'undo-reason' : undefined,
    }, now.steps ? t(now.steps === 1 ? 'game.undoOne' : 'game.undoMany', { n: now.steps }) : t('game.undo')),
    reason ? h('span', { class: 'reason', id: 'undo-reason' }, reason) : null);
}

// Rematch (a seat of a finished game): propose or accept, then the link to the new game
// once every seat agreed (the token each seat got is kept with the finished game).
function rematchControls(g, s) {
  const { st, caps, gameId } = g;
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
      h('button', { type: 'button', onclick: () => g.loadState(true).catch((err) => { st.error = err.message; g.render(); }) }, t('game.rematchCheck')));
  }
  const label = r ? t('game.rematchAccept', { name: g.seatName(r.proposedBy) }) : t('game.rematch');
  return h('div', { class: 'buttons rematch' }, h('button', { type: 'button', class: 'primary rematch', onclick: async () => {
    try {
      const answer = await api.operation(caps.rematch, { gameId }, st.token, {});
      saved.setRematch(gameId, answer.seat || 0, answer.token);
      announce(answer.rematch && answer.rematch.gameId ? t('game.rematchStarted') : t('game.rematchProposed'));
      await g.loadState(true);
    } catch (err) {
      st.error = err.message;
    }
    g.render();
  } }, label));
}

// Resigning takes two clicks: the first asks.
function resignControls(g) {
  const { st, caps, gameId } = g;
  const s = st.state && st.state.summary;
  const me = s && s.seats.find((x) => x.seat === st.seat);
  if (!caps.resign || !st.token || !me || me.resigned || isWaiting(s) || isFinished(s)) return null;
  if (!st.askResign) {
    return h('div', { class: 'buttons resign' }, h('button', { type: 'button', onclick: () => { st.askResign = true; g.render(); } }, t('game.resignAsk')));
  }
  return h('div', { class: 'buttons resign', role: 'group', 'aria-label': t('game.resignQuestion') },
    h('span', {}, t('game.resignQuestion')),
    h('button', { type: 'button', class: 'primary', onclick: async () => {
      st.askResign = false;
      try {
        const answer = await api.operation(caps.resign, { gameId }, st.token, {});
        announce(t('game.youResigned'));
        if (answer && answer.state) g.applyState(readState(answer.state));
      } catch (err) {
        st.error = err.message;
      }
      g.render();
    } }, t('game.resign')),
    h('button', { type: 'button', onclick: () => { st.askResign = false; g.render(); } }, t('game.keepPlaying')));
}
