// Small DOM helpers: elements from tag, attributes and children (no HTML strings anywhere, so
// nothing the server or another player sends is ever parsed as markup).

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value' && 'value' in el) el.value = v;
    else if (k === 'checked' || k === 'disabled' || k === 'selected') {
      el[k] = Boolean(v);
      if (v) el.setAttribute(k, '');
    } else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  build(el, {}, children);
  return el;
}

// The tab's title, from a page still shown: one the reader left while it awaited the server
// paints into a root out of the document (main.js), and leaves the title to the newer page.
export function setTitle(root, text) {
  if (root.isConnected) document.title = text;
}

// Announces a sentence to screen readers (the page's polite live region).
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  // a fresh text node so the same sentence twice is read twice
  setTimeout(() => { region.textContent = text; }, 30);
}

export const SEAT_COLOURS = ['#c0392b', '#2471a3', '#b7950b', '#7d3c98'];
export const SEAT_COLOUR_NAMES = ['red', 'blue', 'yellow', 'purple'];
