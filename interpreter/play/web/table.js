// cardboard: the drawing of a seat's observation (docs/protocol.md), for
// any rules file: each owner's locations as labelled rows of cards (faces
// where the seat may see them, backs with a count where not), the boards as
// SVG grids or tracks, storages and scores. It knows no game: colours and
// marks come from the observation's own names and values.
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

  // The moves that name `target`: a space (`{space}`), a card where it lies
  // (`{card, owner, loc}`), or a location (`{owner, loc}`: a pile of backs,
  // a location's label).
  function movesNaming(moves, target) {
    const withTokens = moves.map((m) => [m, tokens(m.text)]);
    const pick = (f) => withTokens.filter(([, t]) => f(t)).map(([m]) => m);
    if (target.space) return pick((t) => t.includes(target.space));
    if (target.card) return pick((t) => hasRun(t, [target.card, target.owner, target.loc]));
    return pick((t) => hasRun(t, [target.owner, target.loc]));
  }

  function ownerLabel(owner, view) {
    const m = /^p(\d+)$/.exec(owner);
    if (!m) return owner;
    const seat = Number(m[1]);
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

  function cardFace(card, owner, loc, view, count) {
    const colour = cardColour(card, view);
    // A card named by a colour (a stone, a token) is painted with it.
    const painted = namedColour(card.name.split('-')[0]) === colour;
    const style = painted
      ? `--card-colour: ${isLight(colour) ? '#555' : colour}; background: ${colour}; color: ${isLight(colour) ? '#222' : '#fff'}`
      : `--card-colour: ${colour}`;
    const face = el('div', {
      class: 'card face', 'data-owner': owner, 'data-loc': loc, 'data-name': card.name,
      title: Object.entries(card.attrs || {}).map(([k, v]) => `${k}: ${v}`).join('\n') || card.name,
      style,
    });
    for (const part of card.name.split('-')) face.append(el('span', { text: part }));
    if (count > 1) face.append(el('b', { class: 'count', text: `×${count}` }));
    return face;
  }

  function locationRow(owner, loc, view) {
    const row = el('div', { class: `location kind-${loc.kind}`, 'data-owner': owner, 'data-loc': loc.name });
    row.append(el('div', {
      class: 'location-name', 'data-owner': owner, 'data-loc': loc.name, text: `${loc.name} (${loc.count})`,
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

  function spaceName(board, row, col) {
    return board.shape === 'track' ? `${board.name}[${col}]` : `${board.name}[${row},${col}]`;
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
    const shift = board.shape === 'hex' ? 0.5 : 0;
    for (let r = 0; r < board.rows; r++) {
      for (let c = 0; c < board.cols; c++) places.push({ row: r, col: c, x: c + (r % 2) * shift, y: r });
    }
    return { places, width: board.cols + (board.rows > 1 ? shift : 0), height: board.rows };
  }

  function drawSpace(board, place, space, size, view) {
    const name = spaceName(board, place.row, place.col);
    const x = place.x * size;
    const y = place.y * size;
    const g = svg('g', { class: 'space', 'data-space': name, transform: `translate(${x},${y})` });
    const text = [name];
    let tint = null;
    for (const s of space ? space.storages || [] : []) {
      if (s.kind === 'points') continue;
      text.push(`${s.name} = ${s.value}`);
      if (s.kind === 'str') {
        const owner = ownerOf([s.value], view);
        if (owner !== null) tint = seatColour(owner, view);
      }
    }
    const cell = svg('rect', { class: 'cell', x: 1, y: 1, width: size - 2, height: size - 2, rx: board.shape === 'hex' ? size / 2 : 3 });
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
        const label = card.name.length <= 4 ? card.name : card.name.split('-').map((p) => p[0]).join('');
        if (!namedColour(card.name.split('-')[0])) {
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
    const root = svg('svg', {
      class: `board shape-${board.shape}`, 'data-board': board.name,
      width: Math.ceil(width * size), height: Math.ceil(height * size),
      viewBox: `0 0 ${Math.ceil(width * size)} ${Math.ceil(height * size)}`,
    });
    for (const place of places) root.append(drawSpace(board, place, spaces.get(`${place.row},${place.col}`), size, view));
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
      running: obs.status.state === 'running',
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

  return { draw, el, movesNaming, seatColour, tokens };
})();
