// The board's panel: the SVG board (board.js) in a view that zooms and pans by changing the
// SVG's viewBox: the wheel (around the pointer), a drag, a pinch, the keyboard (+, -, 0 and
// the arrows on the focused board) and buttons (zoom in, zoom out, fit). The zoom survives
// every redraw. Labels keep a readable size on screen: the SVG carries --k (view-box units
// per CSS pixel), which app.css uses for the smallest font sizes; marks too small to read at
// this zoom (the empty slots' letters) are hidden until one zooms in (class "far").

import { drawBoard } from './board.js';
import { declutter } from './declutter.js';
import { h } from './dom.js';
import { t } from './i18n.js';

const STEP = 1.25;
const MAX_ZOOM = 8;
const MIN_ZOOM = 0.8;
// The empty slots' letters (9 view-box units) show once they are 11 CSS px or more.
const FAR = 9 / 11;

export function boardPanel() {
  const view = h('div', { class: 'board-view', tabindex: '0', role: 'region', 'aria-label': t('board.view') });
  // a button whose text is a sign (+, −) is named by its label; a word names itself
  const button = (cls, label, text, fn) => h('button', {
    type: 'button', class: ['small', cls], 'aria-label': text.length > 1 ? undefined : label, title: label, onclick: fn,
  }, text);
  const tools = h('div', { class: 'board-tools', role: 'toolbar', 'aria-label': t('board.zoom') },
    button('zoom-in', t('board.zoomIn'), '+', () => zoomBy(STEP)),
    button('zoom-out', t('board.zoomOut'), '−', () => zoomBy(1 / STEP)),
    button('zoom-fit', t('board.fit'), t('board.fitShort'), () => fit()),
    h('span', { class: 'board-hint note' }, t('board.hint')));
  // what the board says: why an option tapped there cannot be played
  const said = h('p', { class: 'board-said', role: 'status', 'aria-live': 'polite', hidden: true });
  const element = h('div', { class: 'board-wrap' }, tools, said, view);
  let root = null;
  let home = null; // the whole board's box (view-box units)
  let box = null; // the box shown; null: the whole board

  function shown() { return box || home; }

  // view-box units per CSS pixel, as "meet" fits the box into the view
  function unitsPerPixel() {
    const b = shown();
    if (!b || !view.clientWidth || !view.clientHeight) return 1;
    return Math.max(b.w / view.clientWidth, b.h / view.clientHeight);
  }

  let decluttered = null; // the board and the scale its labels were placed for
  function apply() {
    if (!root || !home) return;
    const b = shown();
    root.setAttribute('viewBox', `${b.x} ${b.y} ${b.w} ${b.h}`);
    const k = unitsPerPixel();
    root.style.setProperty('--k', String(k));
    root.classList.toggle('far', k > FAR);
    element.dataset.zoom = (home.w / b.w).toFixed(2);
    // labels are placed again when their size on the board changed (a pan keeps it)
    if (!decluttered || decluttered.root !== root || Math.abs(decluttered.k - k) > 1e-3) {
      // labels stay within what the whole board's view shows (the view's shape adds room
      // on one side of the board)
      const wide = Math.max(home.w, home.h * (view.clientWidth / Math.max(1, view.clientHeight)));
      declutter(root, { x: home.x + (home.w - wide) / 2, w: wide });
      decluttered = { root, k };
    }
  }

  function set(next) {
    const zoom = home.w / next.w;
    if (zoom > MAX_ZOOM || zoom < MIN_ZOOM) return;
    box = next;
    apply();
  }

  // zooms by `factor` around the point (cx, cy) in view-box units (default: the centre)
  function zoomBy(factor, cx, cy) {
    const b = shown();
    if (!b) return;
    const x = cx ?? b.x + b.w / 2;
    const y = cy ?? b.y + b.h / 2;
    set({ x: x - (x - b.x) / factor, y: y - (y - b.y) / factor, w: b.w / factor, h: b.h / factor });
  }

  function panBy(dxPixels, dyPixels) {
    const b = shown();
    if (!b) return;
    const k = unitsPerPixel();
    set({ ...b, x: b.x - dxPixels * k, y: b.y - dyPixels * k });
  }

  function fit() {
    box = null;
    apply();
  }

  // a point of the view (client pixels) in view-box units
  function toBoard(clientX, clientY) {
    const p = root.createSVGPoint();
    p.x = clientX;
    p.y = clientY;
    return p.matrixTransform(root.getScreenCTM().inverse());
  }

  view.addEventListener('wheel', (e) => {
    if (!root) return;
    e.preventDefault();
    const at = toBoard(e.clientX, e.clientY);
    zoomBy(Math.pow(STEP, -Math.sign(e.deltaY) * Math.min(3, Math.abs(e.deltaY) / 100 || 1)), at.x, at.y);
  }, { passive: false });

  // drags pan, two fingers pinch; a drag is not a click on what it started on
  const pointers = new Map();
  let dragged = false;
  let pinch = null;
  view.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = Math.hypot(a.x - b.x, a.y - b.y);
    }
  });
  view.addEventListener('pointermove', (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    const now = { x: e.clientX, y: e.clientY };
    if (pointers.size === 2 && pinch) {
      pointers.set(e.pointerId, now);
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const at = toBoard((a.x + b.x) / 2, (a.y + b.y) / 2);
      if (distance > 0) zoomBy(distance / pinch, at.x, at.y);
      pinch = distance;
      dragged = true;
      return;
    }
    if (!dragged && Math.hypot(now.x - last.x, now.y - last.y) < 5) return;
    if (!dragged) view.setPointerCapture(e.pointerId);
    dragged = true;
    panBy(now.x - last.x, now.y - last.y);
    pointers.set(e.pointerId, now);
  });
  const release = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  view.addEventListener('pointerup', release);
  view.addEventListener('pointercancel', release);
  view.addEventListener('click', (e) => {
    if (dragged) {
      e.stopPropagation();
      e.preventDefault();
      dragged = false;
    }
  }, true);

  view.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const pan = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (pan) panBy(pan[0] * view.clientWidth * 0.15, pan[1] * view.clientHeight * 0.15);
    else if (e.key === '+' || e.key === '=') zoomBy(STEP);
    else if (e.key === '-' || e.key === '_') zoomBy(1 / STEP);
    else if (e.key === '0') fit();
    else return;
    // the replay's arrows step through the game: not while they pan the board
    e.preventDefault();
    e.stopPropagation();
  });

  new ResizeObserver(() => apply()).observe(view);

  return {
    element,
    // draws the board (board.js's drawBoard) at the zoom the view has
    draw(board, gameView, ctx) {
      root = drawBoard(view, board, gameView, ctx);
      if (!home) {
        // the whole board: what is drawn, with a margin
        const b = root.getBBox();
        if (b.width && b.height) home = { x: b.x - 12, y: b.y - 12, w: b.width + 24, h: b.height + 24 };
      }
      apply();
      return root;
    },
    // a sentence above the board (empty: none), until the next one
    say(text) {
      said.textContent = text || '';
      said.hidden = !text;
    },
    // a sentence in place of the board (a ruleset without board data)
    message(text) {
      root = null;
      view.replaceChildren(h('p', { class: 'note' }, text));
    },
    fit,
    zoomBy,
  };
}
