// The last move of each other seat (its last turn): its lines (the event log's entries)
// and what it built on the board (slots, routes), from the events as they arrive, kept
// until the page's own seat acts. The board rings those places in the mover's colour, the side
// panel lists the moves, and the event log marks their lines.

import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { eventFacts } from './events.js';

export function lastMoves(mySeat) {
  const bySeat = new Map();
  return {
    // an event and its log entry ({line}: an action's events share one); returns the move
    // it belongs to (null: none shown)
    add(rawEvent, entry) {
      const facts = eventFacts(rawEvent);
      if (facts.seat === null) return null;
      if (facts.type === 'action') {
        if (facts.seat === mySeat) {
          bySeat.clear();
          return null;
        }
        // a move is the seat's whole turn: its first action starts it, the others add to it
        const open = bySeat.get(facts.seat);
        if (!open || open.ended) bySeat.set(facts.seat, { seat: facts.seat, lines: [], slots: new Set(), links: new Set(), ended: false });
      }
      const move = facts.seat === mySeat ? null : bySeat.get(facts.seat);
      // the move ends with the seat's turn: a round's or an era's scoring is not part of it
      if (!move || move.ended) return null;
      if (facts.type === 'turn_end') move.ended = true;
      if (move.lines[move.lines.length - 1] !== entry) move.lines.push(entry);
      if (facts.slot) move.slots.add(facts.slot);
      if (facts.link) move.links.add(facts.link);
      return move;
    },
    clear() { bySeat.clear(); },
    has(move) { return Boolean(move) && bySeat.get(move.seat) === move; },
    moves() { return [...bySeat.values()]; },
    // the board's marks: slot or route -> the seat that moved there last
    marks() {
      const slots = new Map();
      const links = new Map();
      for (const move of bySeat.values()) {
        for (const slot of move.slots) slots.set(slot, move.seat);
        for (const link of move.links) links.set(link, move.seat);
      }
      return { slots, links };
    },
  };
}

// The side panel's list: each other seat's last move, in its colour.
export function drawLastMoves(section, moves, seatName, spectating) {
  section.hidden = !moves.length;
  if (!moves.length) return;
  replace(section, h('h2', { id: 'last-moves-heading' }, spectating ? t('game.lastMovesAll') : t('game.lastMoves')),
    h('ul', { class: 'last-moves' }, moves.map((move) => h('li', { class: `owner-${move.seat}`, 'data-seat': move.seat },
      h('span', { class: `swatch seat-colour-${move.seat}`, 'aria-hidden': 'true' }),
      h('strong', {}, t('board.lastMove', { who: seatName(move.seat) })),
      h('ul', {}, move.lines.map((entry) => h('li', {}, entry.line)))))));
}
