// Crowded labels on the board: at a zoom where names overlap (the whole board, worst on a
// phone, since text never gets smaller than 11 CSS px and so grows in view-box units as
// one zooms out), each label that would cover another label or another place's box moves
// under its own box (or beside it) if there is room there, else is hidden (class "crowded") until a
// closer zoom leaves it room. Bigger towns keep their names first; the secondary labels
// (merchant bonuses, farm breweries' and oilfields' names) give way to every name.

const PAD = 2; // view-box units kept between two labels
// the labels placed (names first, then the secondary ones: bonuses, markets' words and
// prices, farm breweries' and oilfields' names) and what they must not cover
const LABELS = 'text.location-name, text.merchant-bonus, text.market-name, text.market-price, text.market-title';
const OBSTACLES = '.town-box, .merchant-box, .market-box, .market-space';

function overlap(a, b, pad = PAD) {
  return a.x < b.x + b.width + pad && b.x < a.x + a.width + pad
    && a.y < b.y + b.height + pad && b.y < a.y + a.height + pad;
}

// a label's box, and whether it keeps room around it (a name does); the box of its ink:
// a text's box holds the font's whole ascent and descent, which most letters leave empty
function boxOf(text, pad) {
  const { x, y, width, height } = text.getBBox();
  return { x, y: y + height * 0.2, width, height: height * 0.65, pad };
}

function contains(box, x, y) {
  return x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height;
}

// the box a label names (a town's, a merchant's), if any
function ownBox(text) {
  return text.parentNode.querySelector(':scope > .town-box, :scope > .merchant-box');
}

function rank(text) {
  if (!text.classList.contains('location-name') || text.classList.contains('farm-name')) return 0;
  const own = ownBox(text);
  if (!own) return 1;
  const b = own.getBBox();
  return 2 + b.width * b.height;
}

// The places a name may take besides its own (centred above its box): above it, ending at
// its right edge or starting at its left one; under it; left of it; right of it.
function alternatives(text, own, b) {
  const ob = own.getBBox();
  const mid = ob.y + ob.height / 2 + b.height * 0.3;
  const above = Number(text.getAttribute('y'));
  return [
    { x: ob.x + ob.width, y: above, anchor: 'end' },
    { x: ob.x, y: above, anchor: 'start' },
    { x: ob.x + ob.width / 2, y: ob.y + ob.height + b.height * 0.8, anchor: 'middle' },
    { x: ob.x - 3, y: mid, anchor: 'end' },
    { x: ob.x + ob.width + 3, y: mid, anchor: 'start' },
  ];
}

// `bounds`: the whole board's box (view-box units); a label is kept inside it.
export function declutter(root, bounds = null) {
  const texts = [...root.querySelectorAll(LABELS)];
  for (const text of texts) {
    text.classList.remove('crowded');
    if (text.dataset.at) {
      const [x, y, anchor] = text.dataset.at.split(' ');
      text.setAttribute('x', x);
      text.setAttribute('y', y);
      text.style.textAnchor = anchor === '-' ? '' : anchor;
    }
  }
  const boxes = [...root.querySelectorAll(OBSTACLES)].map((rect) => ({ rect, box: rect.getBBox() }));
  const ranked = texts.map((text) => ({ text, rank: rank(text) })).sort((a, b) => b.rank - a.rank);
  const placed = [];
  const inside = (b) => !bounds || (b.x >= bounds.x && b.x + b.width <= bounds.x + bounds.w);
  // a label of no place's own (a bonus, a market's word) may sit inside the box it is
  // drawn in: a box holding its middle is its own
  // names keep a little room between them; the small words (prices) may touch
  const free = (b, own) => inside(b) && !placed.some((p) => overlap(p, b, p.pad && b.pad ? PAD : 0))
    && !boxes.some(({ rect, box }) => rect !== own && overlap(box, b, 0)
      && (own || !contains(box, b.x + b.width / 2, b.y + b.height / 2)));
  for (const { text, rank: r } of ranked) {
    const own = ownBox(text);
    let b = boxOf(text, r > 0);
    if (free(b, own)) {
      placed.push(b);
      continue;
    }
    let moved = false;
    if (r > 0 && own) {
      text.dataset.at = `${text.getAttribute('x')} ${text.getAttribute('y')} ${text.style.textAnchor || '-'}`;
      for (const at of alternatives(text, own, b)) {
        text.setAttribute('x', String(at.x));
        text.setAttribute('y', String(at.y));
        text.style.textAnchor = at.anchor;
        b = boxOf(text, true);
        if (free(b, own)) {
          placed.push(b);
          moved = true;
          break;
        }
      }
      if (!moved) {
        const [x, y, anchor] = text.dataset.at.split(' ');
        text.setAttribute('x', x);
        text.setAttribute('y', y);
        text.style.textAnchor = anchor === '-' ? '' : anchor;
      }
    }
    if (!moved) text.classList.add('crowded');
  }
}
