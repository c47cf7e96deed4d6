// cardboard: the drawing of a seat's observation (docs/protocol.md), for
// any rules file: each owner's locations as labelled rows of cards (faces
// where the seat may see them, backs with a count where not), the boards as
// SVG grids or tracks with coordinates (columns A, B... from the left, rows
// 1, 2... from the top, as move labels name spaces), storages and scores.
// It knows no game: colours and marks come from the observation's display
// section when it has one (`display`: names, looks of values and card
// attributes), else from its own names and values. A small integer on a
// board's space (1 to 8) is a disc by default (1 black, 2 white, then seat
// colours); every other storage of a space is written in the space.
'use strict';

const CardTable = (() => {
  const SVG = 'http://www.w3.org/2000/svg';
  // Seat colours, seat 0 first.
  const SEAT_COLOURS = ['#c0392b', '#2471a3', '#1e8449', '#b9770e', '#7d3c98', '#117a65',
    '#a04000', '#2e4053'];
  // Storage values read as a facing (an arrow), in degrees from north.
  const FACINGS = {
    N: 0, NORTH: 0, UP: 0, NE: 45, E: 90, EAST: 90, RIGHT: 90, SE: 135, S: 180,
    SOUTH: 180, DOWN: 180, SW: 225, W: 270, WEST: 270, LEFT: 270, NW: 315,
  };
  // The colours of small integers on spaces drawn as discs by default:
  // value 1 black, 2 white, then seat colours.
  const DISC_COLOURS = ['#222', '#f7f7f2', ...SEAT_COLOURS.slice(2)];
  // The named palette of the display section (docs/protocol.md).
  const PALETTE = {
    black: '#222', white: '#f7f7f2', red: '#c0392b', blue: '#2471a3', green: '#1e8449',
    yellow: '#f1c40f', orange: '#e67e22', purple: '#7d3c98', brown: '#8d5524', grey: '#85929e',
  };
  // The only defaults that read card attribute values (kept here, in one
  // place; docs/protocol.md "The browser page"): the four usual suit words,
  // as a symbol and a colour, and the usual rank words, as a short label,
  // used only when the display section gives the value no look of its own.
  const SUIT_WORDS = {
    HEARTS: { symbol: '♥', color: 'red' }, DIAMONDS: { symbol: '♦', color: 'red' },
    CLUBS: { symbol: '♣', color: 'black' }, SPADES: { symbol: '♠', color: 'black' },
  };
  // And the usual rank words, as the short labels of a card's corner.
  const RANK_WORDS = {
    ACE: 'A', KING: 'K', QUEEN: 'Q', JACK: 'J', TEN: '10', NINE: '9', EIGHT: '8', SEVEN: '7',
    SIX: '6', FIVE: '5', FOUR: '4', THREE: '3', TWO: '2', ONE: '1',
  };

  // A colour of the display section: a palette name or `seatN`.
  function lookColour(name, view) {
    if (!name) return null;
    const m = /^seat(\d)$/.exec(name);
    if (m) return seatColour(Number(m[1]), view);
    return PALETTE[name] || null;
  }

  // A column's letters: A for 0, Z for 25, then AA, AB...
  function columnLetters(col) {
    let n = col + 1;
    let out = '';
    while (n > 0) {
      n -= 1;
      out = String.fromCharCode(65 + (n % 26)) + out;
      n = Math.floor(n / 26);
    }
    return out;
  }

  // A space's coordinates as move labels write them (`C4`).
  function coordinates(row, col) {
    return `${columnLetters(col)}${row + 1}`;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) if (c) node.append(c);
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null) continue;
      if (k === 'text') node.textContent = v;
      else node.setAttribute(k, String(v));
    }
    for (const c of children) if (c) node.append(c);
    return node;
  }

  function hash(text) {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    return h >>> 0;
  }

  // A seat's colour: the colour one of its string storages names when no
  // other player's names it too (p0 COLOR = GREEN), else one of the
  // palette.
  function seatColour(seat, view) {
    const own = view && view.seatColours.get(seat);
    return own || SEAT_COLOURS[seat % SEAT_COLOURS.length];
  }

  // A colour a value names itself (BLACK, WHITE, RED...), if any.
  function namedColour(value) {
    const v = String(value).toLowerCase();
    return /^[a-z]+$/.test(v) && CSS.supports('color', v) ? v : null;
  }

  // The seat a card or space belongs to: a value equal to `pN`, or to a
  // string storage of exactly one player (p0 SIDE = HORIZONTAL, p1 COLOR =
  // RED...).
  function ownerOf(values, view) {
    for (const v of values) {
      const m = /^p(\d+)$/.exec(v);
      if (m && Number(m[1]) < view.obs.players) return Number(m[1]);
      const seats = view.playerValues.get(v);
      if (seats && seats.size === 1) return [...seats][0];
    }
    return null;
  }

  // The colour of a card: its owner's, else a colour its first value names,
  // else one drawn from its first value.
  function cardColour(card, view) {
    const values = Object.values(card.attrs || {});
    const owner = ownerOf(values, view);
    if (owner !== null) return seatColour(owner, view);
    const first = card.name.split('-')[0];
    return namedColour(first) || `hsl(${hash(first) % 360}, 55%, 38%)`;
  }

  // Tokens of a move's text: what a click is matched against.
  function tokens(text) {
    return text.replace(/;/g, ' ; ').split(/\s+/).filter(Boolean);
  }

  function hasRun(toks, run) {
    outer: for (let i = 0; i + run.length <= toks.length; i++) {
      for (let j = 0; j < run.length; j++) if (toks[i + j] !== run[j]) continue outer;
      return true;
    }
    return false;
  }

  // Where a place of a move is clicked: its space (a space's owner name
  // is the space's, `GRID[2,5]`), else its location.
  function placeTarget(place) {
    return place.space ? { space: place.owner } : { owner: place.owner, loc: place.location };
  }

  // Where move `m` is clicked: its `target` (and `card`), else where its
  // first step acts: a card placed from off the board on a space, that
  // space; a card moved from a space, that space; a card played from a
  // pile, that pile (and card); a storage set on a space, that space.
  // Null when none (the move is matched by its text).
  function moveTarget(m) {
    if (m.target) {
      const t = placeTarget(m.target);
      if (!t.space && m.card) t.card = m.card.name;
      return t;
    }
    const step = (m.steps || [])[0];
    if (!step) return null;
    switch (step.action) {
      case 'move': {
        if (step.to.space && !step.from.space) return placeTarget(step.to);
        const t = placeTarget(step.from);
        if (!t.space && step.card) t.card = step.card.name;
        return t;
      }
      case 'set': return step.storage.space ? { space: step.storage.owner } : null;
      case 'remember': return placeTarget(step.to);
      case 'forget': return placeTarget(step.from);
      case 'shuffle': return placeTarget(step.at);
      default: return null;
    }
  }

  // The moves clicked at `target`: a space (`{space}`), a card where it lies
  // (`{card, owner, loc}`), or a location (`{owner, loc}`: a pile of backs,
  // a location's label), by each move's target (moveTarget); a move without
  // one by its text naming the place.
  function movesNaming(moves, target) {
    return moves.filter((m) => {
      const t = moveTarget(m);
      if (t) {
        if (target.space) return t.space === target.space;
        if (t.space || t.owner !== target.owner || t.loc !== target.loc) return false;
        return !target.card || !t.card || t.card === target.card;
      }
      const toks = tokens(m.text);
      if (target.space) return toks.includes(target.space);
      if (target.card) return hasRun(toks, [target.card, target.owner, target.loc]);
      return hasRun(toks, [target.owner, target.loc]);
    });
  }

  function ownerLabel(owner, view) {
    const m = /^p(\d+)$/.exec(owner);
    if (!m) return owner;
    const seat = Number(m[1]);
    const role = (view.display.players || [])[seat];
    if (role) owner = `${owner} ${role}`;
    const name = view.names[seat];
    const you = seat === view.obs.seat ? ' (you)' : '';
    if (name) return `${owner} · ${name}${you}`;
    const kind = view.kinds[seat];
    return kind && kind !== 'remote' ? `${owner} · computer (${kind})${you}` : `${owner}${you}`;
  }

  function storageChips(storages) {
    const box = el('div', { class: 'storages' });
    for (const s of storages || []) {
      if (s.kind === 'points') {
        const list = el('ul');
        for (const a of s.value) {
          const when = Object.entries(a.when).map(([k, v]) => `${k} ${v}`).join(', ');
          list.append(el('li', { text: `${when}: ${a.points}` }));
        }
        box.append(el('details', { class: 'points' },
          el('summary', { text: `${s.name} (${s.value.length})` }), list));
      } else {
        box.append(el('span', { class: 'storage', 'data-storage': s.name },
          el('span', { class: 'storage-name', text: s.name }),
          el('span', { class: 'storage-value', text: String(s.value) })));
      }
    }
    return box;
  }

  // Whether a colour is light (dark text goes on it).
  const lightness = new Map();
  function isLight(colour) {
    if (!lightness.has(colour)) {
      const probe = document.createElement('span');
      probe.style.color = colour;
      document.body.append(probe);
      const rgb = (getComputedStyle(probe).color.match(/[\d.]+/g) || [0, 0, 0]).map(Number);
      probe.remove();
      lightness.set(colour, 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 150);
    }
    return lightness.get(colour);
  }

  // The look of a card's attribute value: the display section's, else the
  // usual suit words' (SUIT_WORDS), else none.
  function attributeLook(key, value, view) {
    const d = view.display.attributes || {};
    return (d[key] && d[key][value]) || SUIT_WORDS[value] || null;
  }

  // A value as a short text: its look's label or symbol, else the value
  // (a number's digits, a word's first three letters, or its initials).
  function shortValue(value, look) {
    if (look && (look.label || look.symbol)) return look.label || look.symbol;
    const v = String(value);
    if (RANK_WORDS[v]) return RANK_WORDS[v];
    return v.length <= 3 ? v : v.slice(0, 3);
  }

  // The attribute keys of a card in its name's order.
  function cardKeys(card) {
    const attrs = card.attrs || {};
    const keys = [];
    for (const part of card.name.split('-')) {
      const key = Object.keys(attrs).find((k) => attrs[k] === part && !keys.includes(k));
      if (key) keys.push(key);
    }
    return keys;
  }

  // A card's face: its corner (the display's `card.corner` attribute, else
  // the second of the name's) in a corner, its centre (`card.center`, else
  // the first) in the middle, in the colour its attributes' looks give.
  function cardFace(card, owner, loc, view, count) {
    const keys = cardKeys(card);
    const face = view.display.card || {};
    const attrs = card.attrs || {};
    const centreKey = face.center || keys[0];
    const cornerKey = face.corner || (keys.length > 1 ? keys[1] : null);
    const centreLook = centreKey ? attributeLook(centreKey, attrs[centreKey], view) : null;
    const cornerLook = cornerKey ? attributeLook(cornerKey, attrs[cornerKey], view) : null;
    const looked = [centreLook, cornerLook].find((l) => l && l.color);
    const colour = (looked && lookColour(looked.color, view)) || cardColour(card, view);
    const painted = !looked && namedColour(card.name.split('-')[0]) === colour;
    const style = painted
      ? `--card-colour: ${isLight(colour) ? '#555' : colour}; background: ${colour}; color: ${isLight(colour) ? '#222' : '#fff'}`
      : `--card-colour: ${colour}`;
    const node = el('div', {
      class: `card face${painted ? ' painted' : ''}`, 'data-owner': owner, 'data-loc': loc, 'data-name': card.name,
      'data-count': count,
      title: Object.entries(attrs).map(([k, v]) => `${k}: ${v}`).join('\n') || card.name,
      style,
    });
    const centre = centreKey ? shortValue(attrs[centreKey], centreLook) : card.name;
    const corner = cornerKey ? shortValue(attrs[cornerKey], cornerLook) : '';
    if (corner) {
      node.append(el('span', { class: 'corner top', text: `${corner}${centreLook && centreLook.symbol ? centreLook.symbol : ''}` }));
      node.append(el('span', { class: 'corner bottom', text: `${corner}${centreLook && centreLook.symbol ? centreLook.symbol : ''}` }));
    }
    // A card painted in the colour it names shows its name small.
    const middle = painted ? card.name : centre;
    if (!painted && centreLook && centreLook.piece && !centreLook.label && !centreLook.symbol) {
      // A piece as the display section draws it (a stone, a counter),
      // outlined so that a white one shows on the white face.
      const size = 30;
      const fill = lookColour(centreLook.color, view) || colour;
      node.append(svg('svg', { class: 'centre piece-face', width: size, height: size, viewBox: `0 0 ${size} ${size}` },
        pieceShape(centreLook.piece, size, fill, { stroke: '#333', 'stroke-width': 1 })));
    } else {
      node.append(el('span', { class: `centre${painted || String(middle).length > 3 ? ' long' : ''}`, text: middle }));
    }
    if (count > 1) node.append(el('b', { class: 'count', text: `×${count}` }));
    return node;
  }

  function locationRow(owner, loc, view) {
    const row = el('div', { class: `location kind-${loc.kind}`, 'data-owner': owner, 'data-loc': loc.name });
    const shown = (view.display.places || {})[loc.name] || loc.name;
    row.append(el('div', {
      class: 'location-name', 'data-owner': owner, 'data-loc': loc.name, text: `${shown} (${loc.count})`,
      title: `${loc.kind}: ${loc.cards ? 'faces seen' : 'faces hidden from you'}`,
    }));
    const cards = el('div', { class: 'cards' });
    if (loc.cards) {
      // Runs of one card repeated are drawn once with their number.
      for (let i = 0; i < loc.cards.length;) {
        let j = i + 1;
        while (j < loc.cards.length && loc.cards[j].name === loc.cards[i].name) j++;
        const n = j - i;
        if (n >= 3) cards.append(cardFace(loc.cards[i], owner, loc.name, view, n));
        else for (let k = i; k < j; k++) cards.append(cardFace(loc.cards[k], owner, loc.name, view, 1));
        i = j;
      }
    } else {
      // A few backs fanned, and the count.
      const fan = el('div', { class: 'fan', style: `--backs: ${Math.min(loc.count, 5)}` });
      for (let i = 0; i < Math.min(loc.count, 5); i++) {
        fan.append(el('div', { class: 'card back', 'data-owner': owner, 'data-loc': loc.name, title: `${loc.count} cards, faces hidden` }));
      }
      fan.append(el('b', { class: 'count', text: `×${loc.count}` }));
      cards.append(fan);
    }
    row.append(cards);
    return row;
  }

  function ownerPanel(o, view, extra) {
    const m = /^p(\d+)$/.exec(o.owner);
    const seat = m ? Number(m[1]) : null;
    const classes = ['owner'];
    if (seat !== null && seat === view.obs.turn && view.running) classes.push('to-play');
    if (extra) classes.push(extra);
    const panel = el('div', {
      class: classes.join(' '), 'data-owner-panel': o.owner,
      style: seat !== null ? `--seat-colour: ${seatColour(seat, view)}` : null,
    });
    const head = el('div', { class: 'owner-head' }, el('span', { class: 'owner-name', text: ownerLabel(o.owner, view) }));
    if (seat !== null && seat === view.obs.turn && view.running) head.append(el('span', { class: 'turn-mark', text: 'to play' }));
    panel.append(head, storageChips(o.storages));
    for (const loc of o.locations || []) panel.append(locationRow(o.owner, loc, view));
    return panel;
  }

  // A space's name as the engine writes it: `TRACK[3]`, `GRID[2,5]`, a
  // graph's point by its name, `MILL[D7]`.
  function spaceName(board, row, col) {
    if (board.shape === 'track') return `${board.name}[${col}]`;
    const point = graphPoint(board, row, col);
    if (point) return `${board.name}[${point.name}]`;
    return `${board.name}[${row},${col}]`;
  }

  // The point of a graph board drawn at `row`, `col` (null for other
  // boards).
  function graphPoint(board, row, col) {
    if (board.shape !== 'graph') return null;
    return (board.points || []).find((p) => p.row === row && p.col === col) || null;
  }

  // Whether a hexagon-shaped board (side N: 2N-1 rows and columns, axial
  // coordinates) has a space at `row`, `col`.
  function inHexagon(board, row, col) {
    const side = Math.ceil(board.rows / 2);
    return row + col + 1 >= side && row + col + 3 <= 3 * side;
  }

  // Where each space is drawn: a grid as it is, a hex board with every
  // other row shifted, a long track folded into rows of 12.
  function layout(board) {
    const places = [];
    if (board.shape === 'track') {
      const per = Math.min(board.cols, 12);
      for (let c = 0; c < board.cols; c++) {
        const r = Math.floor(c / per);
        const x = r % 2 === 0 ? c % per : per - 1 - (c % per);
        places.push({ row: 0, col: c, x, y: r });
      }
      return { places, width: per, height: Math.ceil(board.cols / per) };
    }
    if (board.shape === 'graph') {
      // Its points where the rules place them (row 0 at the top).
      for (const p of board.points || []) places.push({ row: p.row, col: p.col, x: p.col, y: p.row, point: p.name });
      return { places, width: board.cols, height: board.rows };
    }
    if (board.shape === 'hexagon') {
      // Axial coordinates: each row half a cell right of the one above,
      // the corners outside the hexagon left out.
      const side = Math.ceil(board.rows / 2);
      for (let r = 0; r < board.rows; r++) {
        for (let c = 0; c < board.cols; c++) {
          if (inHexagon(board, r, c)) places.push({ row: r, col: c, x: c + (r - (side - 1)) * 0.5, y: r });
        }
      }
      return { places, width: board.cols, height: board.rows };
    }
    const shift = board.shape === 'hex' ? 0.5 : 0;
    for (let r = 0; r < board.rows; r++) {
      for (let c = 0; c < board.cols; c++) places.push({ row: r, col: c, x: c + (r % 2) * shift, y: r });
    }
    return { places, width: board.cols + (board.rows > 1 ? shift : 0), height: board.rows };
  }

  // How a storage's value on a space looks: the display section's look,
  // else a disc for an integer from 1 to 8, else none (written in words).
  function storageLook(s, view) {
    const looks = (view.display.storages || {})[s.name];
    const look = looks && looks[String(s.value)];
    // A label is written on the space only where no piece is drawn: on a
    // piece, only a symbol (the label is in the space's title).
    if (look) return { piece: look.piece || (look.symbol || look.label ? null : 'disc'), colour: lookColour(look.color, view), symbol: look.symbol || (look.piece ? null : look.label) || null };
    if (s.kind === 'sto' && Number.isInteger(s.value) && s.value >= 1 && s.value <= 8) {
      return { piece: 'disc', colour: DISC_COLOURS[s.value - 1], symbol: null };
    }
    return null;
  }

  // A piece of shape `shape` centred in a space of `size`.
  function pieceShape(shape, size, fill, attrs) {
    const m = size / 2;
    const r = size * 0.36;
    const base = { class: 'piece storage-piece', fill, ...attrs };
    const points = (n, inner) => {
      const pts = [];
      for (let i = 0; i < n * (inner ? 2 : 1); i++) {
        const a = -Math.PI / 2 + (i * Math.PI * 2) / (n * (inner ? 2 : 1));
        const rr = inner && i % 2 ? r * inner : r;
        pts.push(`${(m + rr * Math.cos(a)).toFixed(1)},${(m + rr * Math.sin(a)).toFixed(1)}`);
      }
      return pts.join(' ');
    };
    switch (shape) {
      case 'square': return svg('rect', { ...base, x: m - r * 0.85, y: m - r * 0.85, width: r * 1.7, height: r * 1.7, rx: 2 });
      case 'ring': return svg('circle', { ...base, cx: m, cy: m, r: r * 0.8, fill: 'none', stroke: fill, 'stroke-width': r * 0.35 });
      case 'cross': return svg('path', { ...base, d: `M ${m - r} ${m - r} L ${m + r} ${m + r} M ${m + r} ${m - r} L ${m - r} ${m + r}`, fill: 'none', stroke: fill, 'stroke-width': r * 0.35 });
      case 'star': return svg('polygon', { ...base, points: points(5, 0.45) });
      case 'triangle': return svg('polygon', { ...base, points: points(3, 0) });
      default: return svg('circle', { ...base, cx: m, cy: m, r });
    }
  }

  function drawSpace(board, place, space, size, view) {
    const name = spaceName(board, place.row, place.col);
    const x = place.x * size;
    const y = place.y * size;
    const g = svg('g', { class: 'space', 'data-space': name, transform: `translate(${x},${y})` });
    const text = [board.shape === 'track' ? name : `${place.point || coordinates(place.row, place.col)} (${name})`];
    let tint = null;
    const hasCards = (space ? space.locations || [] : []).some((l) => l.count > 0);
    let piece = null;
    const words = [];
    for (const s of space ? space.storages || [] : []) {
      if (s.kind === 'points') continue;
      text.push(`${s.name} = ${s.value}`);
      const look = storageLook(s, view);
      if (!piece && look && !hasCards) {
        piece = { s, look };
        continue;
      }
      if (s.kind === 'str') {
        // A seat's value tints the space; a direction is an arrow.
        const owner = ownerOf([s.value], view);
        if (owner !== null) {
          tint = seatColour(owner, view);
          continue;
        }
        if (FACINGS[String(s.value).toUpperCase()] !== undefined) continue;
      }
      words.push(s);
    }
    const cell = svg('rect', { class: 'cell', x: 1, y: 1, width: size - 2, height: size - 2, rx: board.shape === 'hex' || board.shape === 'hexagon' || board.shape === 'graph' ? size / 2 : 3 });
    if (tint) cell.setAttribute('style', `fill: ${tint}; fill-opacity: 0.28`);
    g.append(cell);
    const mid = size / 2;
    // With cards in several locations, the first lies under the others as
    // a tile (a board's printed card), the others as small pieces on it.
    const visible = (space ? space.locations || [] : []).filter((l) => l.cards);
    const tile = visible.length >= 2 ? visible[0] : null;
    for (const loc of space ? space.locations || [] : []) {
      if (loc === tile) {
        const card = loc.cards[0];
        const colour = cardColour(card, view);
        text.push(`${loc.name}: ${loc.cards.map((c) => c.name).join(' ')}`);
        g.append(svg('rect', {
          class: 'tile', x: 3, y: 3, width: size - 6, height: size - 6, rx: 3, fill: colour,
          'data-name': card.name, 'data-loc': loc.name,
        }));
        g.append(svg('text', {
          class: 'piece-label', x: mid, y: size * 0.3, fill: '#222', 'font-size': size * 0.22,
          text: card.name.length <= 4 ? card.name : card.name.split('-').map((p) => p[0]).join(''),
        }));
        continue;
      }
      if (!loc.cards) {
        text.push(`${loc.name}: ${loc.count} hidden`);
        g.append(svg('rect', { class: 'hidden-card', x: size * 0.18, y: size * 0.14, width: size * 0.64, height: size * 0.72, rx: 3 }));
        continue;
      }
      text.push(`${loc.name}: ${loc.cards.map((c) => c.name).join(' ')}`);
      // One card as a piece filling the space; several as up to four
      // small pieces, top first, and their number.
      const shown = tile
        ? [[0.28, 0.58], [0.72, 0.58], [0.28, 0.84], [0.72, 0.84]].map(([x, y]) => [x * size, y * size, 0.14])
        : loc.cards.length === 1 ? [[mid, mid, 0.34]]
          : [[0.3, 0.3], [0.7, 0.3], [0.3, 0.7], [0.7, 0.7]].map(([x, y]) => [x * size, y * size, 0.19]);
      loc.cards.slice(0, shown.length).forEach((card, i) => {
        const [cx, cy, r] = shown[i];
        const colour = cardColour(card, view);
        g.append(svg('circle', {
          class: 'piece', cx, cy, r: size * r, fill: colour, 'data-name': card.name, 'data-loc': loc.name,
        }));
        const parts = card.name.split('-');
        // A piece named by its colour is that colour; the rest of its name
        // (a man or a king...) as initials on it.
        const named = namedColour(parts[0]);
        const label = named ? parts.slice(1).map((p) => p[0]).join('')
          : card.name.length <= 4 ? card.name : parts.map((p) => p[0]).join('');
        if (label) {
          g.append(svg('text', {
            class: 'piece-label', x: cx, y: cy + size * r * 0.25, fill: isLight(colour) ? '#222' : '#fff',
            'font-size': size * r * 0.75, text: label,
          }));
        }
      });
      if (loc.count > 1) {
        g.append(svg('text', { class: 'piece-count', x: size - 2, y: size - 2, 'font-size': size * 0.22, text: loc.count }));
      }
    }
    if (piece) {
      const { s, look } = piece;
      const fill = look.colour || (look.symbol ? 'none' : DISC_COLOURS[0]);
      g.append(pieceShape(look.piece, size, fill, { 'data-storage': s.name, 'data-value': s.value }));
      if (look.symbol) {
        g.append(svg('text', {
          class: 'piece-label', x: mid, y: mid + size * 0.1, 'font-size': size * 0.34,
          fill: look.colour && !isLight(look.colour) && look.piece ? '#fff' : '#222', text: look.symbol,
        }));
      }
    }
    if (words.length) {
      // Every other storage of the space, its values written small at the
      // bottom (the title names them).
      // (words cut to three letters, squeezed to the space's width).
      const said = words.map((w) => String(w.value).slice(0, 3)).join(' ');
      const font = Math.max(8, size * 0.2);
      const squeeze = said.length * font * 0.62 > size - 4;
      g.append(svg('text', {
        class: 'space-values', x: mid, y: size - 3, 'font-size': font,
        'data-storages': words.map((w) => w.name).join(' '), text: said,
        textLength: squeeze ? size - 4 : null, lengthAdjust: squeeze ? 'spacingAndGlyphs' : null,
      }));
    }
    for (const s of space ? space.storages || [] : []) {
      const angle = s.kind === 'str' ? FACINGS[String(s.value).toUpperCase()] : undefined;
      if (angle !== undefined) {
        g.append(svg('path', {
          class: 'facing', d: `M ${mid} ${size * 0.1} l ${size * 0.12} ${size * 0.18} l ${-size * 0.24} 0 z`,
          transform: `rotate(${angle} ${mid} ${mid})`,
        }));
      }
    }
    g.append(svg('title', { text: text.join('\n') }));
    return g;
  }

  function drawBoard(board, view) {
    const { places, width, height } = layout(board);
    const size = Math.max(26, Math.min(56, Math.floor(520 / Math.max(width, height))));
    const spaces = new Map((board.spaces || []).map((s) => [`${s.row},${s.col}`, s]));
    // Coordinates round a grid or hex board: column letters above, row
    // numbers on the left.
    const margin = board.shape === 'track' ? 0 : Math.max(16, Math.round(size * 0.5));
    const w = Math.ceil(width * size) + margin;
    const h = Math.ceil(height * size) + margin;
    const root = svg('svg', {
      class: `board shape-${board.shape}`, 'data-board': board.name,
      width: w, height: h, viewBox: `0 0 ${w} ${h}`,
    });
    const inner = svg('g', { transform: `translate(${margin},${margin})` });
    root.append(inner);
    if (board.shape === 'graph') {
      // The links first, under the points; each point named beside it.
      const at = (i) => (board.points || [])[i];
      for (const l of board.links || []) {
        const a = at(l.from);
        const b = at(l.to);
        if (!a || !b) continue;
        inner.append(svg('line', { class: 'link', x1: a.col * size + size / 2, y1: a.row * size + size / 2, x2: b.col * size + size / 2, y2: b.row * size + size / 2 }));
      }
      const font = Math.max(9, Math.min(13, size * 0.25));
      for (const p of board.points || []) {
        root.append(svg('text', { class: 'coord coord-point', x: margin + p.col * size + 2, y: margin + p.row * size + font, 'font-size': font, text: p.name }));
      }
    } else if (margin && board.shape !== 'hexagon') {
      const font = Math.max(10, Math.min(15, size * 0.3));
      for (let c = 0; c < board.cols; c++) {
        root.append(svg('text', { class: 'coord coord-col', x: margin + c * size + size / 2, y: margin * 0.72, 'font-size': font, text: columnLetters(c) }));
      }
      for (let r = 0; r < board.rows; r++) {
        const shift = board.shape === 'hex' ? (r % 2) * 0.5 * size : 0;
        root.append(svg('text', { class: 'coord coord-row', x: margin * 0.5 + shift * 0, y: margin + r * size + size / 2 + font * 0.35, 'font-size': font, text: String(r + 1) }));
      }
    }
    for (const place of places) inner.append(drawSpace(board, place, spaces.get(`${place.row},${place.col}`), size, view));
    if (board.shape === 'track') {
      // Each space's number, as move labels write it.
      const font = Math.max(8, Math.min(11, size * 0.22));
      for (const place of places) {
        inner.append(svg('text', { class: 'coord coord-cell', x: place.x * size + 3, y: place.y * size + font + 1, 'font-size': font, 'text-anchor': 'start', text: String(place.col) }));
      }
    }
    if (board.shape === 'hexagon') {
      // Its rows are slanted, so letters above and numbers beside cannot
      // name its spaces: each empty space carries its coordinates.
      const font = Math.max(8, Math.min(12, size * 0.26));
      for (const place of places) {
        if (spaces.has(`${place.row},${place.col}`)) continue;
        inner.append(svg('text', { class: 'coord coord-cell', x: place.x * size + size / 2, y: place.y * size + size / 2 + font * 0.35, 'font-size': font, text: coordinates(place.row, place.col) }));
      }
    }
    const wraps = [board.wrap_rows && 'rows', board.wrap_cols && 'columns'].filter(Boolean);
    return el('figure', { class: 'board-box' }, root,
      el('figcaption', { text: `${board.name}: ${board.shape} ${board.rows}×${board.cols}${wraps.length ? ` (${wraps.join(' and ')} wrap)` : ''}` }));
  }

  // Draws observation `obs` into `root`. `info`: `names` and `kinds` of the
  // seats (from the server's start and welcome messages).
  function draw(root, obs, info) {
    const playerValues = new Map();
    for (const o of obs.owners) {
      const m = /^p(\d+)$/.exec(o.owner);
      if (!m) continue;
      for (const s of o.storages || []) {
        if (s.kind !== 'str') continue;
        if (!playerValues.has(s.value)) playerValues.set(s.value, new Set());
        playerValues.get(s.value).add(Number(m[1]));
      }
    }
    const seatColours = new Map();
    for (const [value, seats] of playerValues) {
      const colour = namedColour(value);
      const seat = [...seats][0];
      if (colour && seats.size === 1 && !seatColours.has(seat)) seatColours.set(seat, colour);
    }
    const view = {
      obs, names: info.names || [], kinds: info.kinds || [], playerValues, seatColours,
      running: obs.status.state === 'running', display: obs.display || {},
    };
    const others = el('div', { class: 'others' });
    const middle = el('div', { class: 'middle' });
    const mine = el('div', { class: 'mine' });
    const own = `p${obs.seat}`;
    for (const o of obs.owners) {
      if (o.owner === own) continue;
      if (/^p\d+$/.test(o.owner)) others.append(ownerPanel(o, view));
      else middle.append(ownerPanel(o, view, 'common'));
    }
    // Every player has a panel, even with nothing to show.
    for (let p = 0; p < obs.players; p++) {
      const name = `p${p}`;
      if (p !== obs.seat && !obs.owners.some((o) => o.owner === name)) others.append(ownerPanel({ owner: name }, view));
    }
    // The boards and what belongs to nobody (the game, the teams) side
    // by side, between the others and this seat.
    const centre = el('div', { class: 'centre' });
    for (const b of obs.boards || []) centre.append(drawBoard(b, view));
    centre.append(middle);
    mine.append(ownerPanel(obs.owners.find((o) => o.owner === own) || { owner: own }, view, 'own'));
    root.replaceChildren(others, centre, mine);
  }

  return { draw, el, movesNaming, moveTarget, seatColour, tokens, coordinates };
})();
