// cardboard: the browser page of `cardboard serve`, a client of the
// protocol of docs/protocol.md: the lobby (GET /lobby), a seat joined over
// the WebSocket at /ws, the table drawn from the seat's observation
// (table.js), the legal moves as buttons (their labels, the full text as a
// tooltip) or by clicking where they act, a forced move played by itself
// unless "play forced moves myself" is ticked, what the others did since
// this seat's last move (labels and announcements), reconnection with the
// token kept in the browser, the end.
'use strict';

(() => {
  // The protocol version the server speaks (its lobby says), read before
  // any join.
  let VERSION = null;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  // The seats this browser holds at this server: token, table, seat, name.
  const SEATS_KEY = `cardboard:${location.host}:seats`;
  // The token of the seat this tab plays (kept across reloads of the tab).
  const TAB_KEY = `cardboard:${location.host}:token`;
  const NAME_KEY = 'cardboard:name';

  const S = {
    lobby: null, ws: null, token: null, welcome: null, names: [], game: null,
    state: null, filter: null, sent: false, ended: null, pending: [], bye: false,
    connected: [], lobbyTimer: null, retry: 0, log: [], news: [], forcedTimer: null,
  };
  const FORCED_KEY = 'cardboard:forced-myself';
  // How long a forced move shows before it plays itself.
  const FORCED_PAUSE = 700;
  // More moves than this are folded when the table can be clicked.
  const FOLD_MOVES = 12;

  // Elements are made as the table makes them (table.js).
  const el = CardTable.el;

  function readJson(storage, key, fallback) {
    try {
      const v = JSON.parse(storage.getItem(key));
      return v === null ? fallback : v;
    } catch (e) {
      return fallback;
    }
  }

  function keptSeats() {
    const seats = readJson(localStorage, SEATS_KEY, []);
    return Array.isArray(seats) ? seats : [];
  }

  function keepSeat(entry) {
    const seats = keptSeats().filter((s) => s.token !== entry.token);
    seats.push(entry);
    localStorage.setItem(SEATS_KEY, JSON.stringify(seats.slice(-16)));
    sessionStorage.setItem(TAB_KEY, entry.token);
  }

  function forgetSeat(token) {
    localStorage.setItem(SEATS_KEY, JSON.stringify(keptSeats().filter((s) => s.token !== token)));
    if (sessionStorage.getItem(TAB_KEY) === token) sessionStorage.removeItem(TAB_KEY);
  }

  function message(text) {
    const box = $('message');
    box.textContent = text || '';
    box.hidden = !text;
  }

  function status(text) {
    $('status').textContent = text;
  }

  function show(section) {
    for (const id of ['lobby', 'game', 'end']) $(id).hidden = id !== section && !(section === 'end' && id === 'game');
  }

  function gameName(rules) {
    return String(rules || 'cardboard').replace(/\.rcy$/, '');
  }

  // ---- the lobby ----

  async function fetchLobby() {
    try {
      const reply = await fetch('/lobby', { cache: 'no-store' });
      S.lobby = await reply.json();
      VERSION = S.lobby.version;
      return true;
    } catch (e) {
      status('cannot reach the server');
      return false;
    }
  }

  async function loadLobby() {
    if (await fetchLobby()) drawLobby();
  }

  function shareLink(table, seat) {
    const url = new URL(location.href);
    url.search = '';
    url.hash = '';
    if (S.lobby && S.lobby.tables.length > 1) url.searchParams.set('table', table);
    url.searchParams.set('seat', seat);
    return url.href;
  }

  function drawLobby() {
    const lobby = S.lobby;
    if (!lobby) return;
    $('title').textContent = gameName(lobby.rules);
    document.title = `${gameName(lobby.rules)} · cardboard`;
    // Every setting with its value in play (`values`), the ones changed by
    // --set marked; a game without settings says so.
    const changed = new Set(lobby.settings.map(([k]) => k));
    const settings = (lobby.values || [])
      .map(([k, v]) => `${k} = ${v}${changed.has(k) ? ' (set)' : ''}`).join(', ');
    $('settings').textContent = `${lobby.rules}: ${lobby.players} seats; ` +
      `${settings ? `settings ${settings}` : 'no settings'}; ` +
      `${lobby.games} game${lobby.games === 1 ? '' : 's'} per table.`;
    const wantSeat = params.has('seat') ? Number(params.get('seat')) : null;
    const wantTable = params.has('table') ? Number(params.get('table')) : 0;
    const kept = keptSeats();
    const box = $('tables');
    box.replaceChildren();
    for (const t of lobby.tables) {
      // Games counted from 1, as the page's status and `join` count them.
      const state = t.finished ? 'has played its games'
        : t.playing ? `playing game ${t.started} of ${lobby.games}` : 'waiting for players';
      const rows = el('tbody');
      for (const s of t.seats) {
        const mine = kept.find((k) => k.table === t.table && k.seat === s.seat);
        const who = s.holder === 'computer' ? `computer (${s.kind})`
          : s.holder === 'taken' ? `taken by ${s.name || 'a player'}${s.connected ? '' : ' (away)'}` : 'free';
        const actions = el('td', { class: 'actions' });
        const seated = S.welcome !== null;
        if (s.holder === 'free' && !t.finished) {
          if (!seated) actions.append(el('button', { type: 'button', class: 'join', onclick: () => join(t.table, s.seat) }, `Join as p${s.seat}`));
          actions.append(el('a', { class: 'share', href: shareLink(t.table, s.seat) }, 'link to share'));
        } else if (mine && !t.finished && !seated) {
          actions.append(el('button', { type: 'button', class: 'rejoin', onclick: () => rejoin(mine.token) }, 'Take your seat back'));
        }
        const wanted = wantSeat === s.seat && wantTable === t.table;
        rows.append(el('tr', { class: `seat-row ${s.holder}${wanted ? ' wanted' : ''}`, 'data-seat': s.seat, 'data-table': t.table },
          el('td', { text: `p${s.seat}` }), el('td', { class: 'holder', text: who }), actions));
      }
      box.append(el('div', { class: 'lobby-table' },
        el('h2', { text: lobby.tables.length > 1 ? `Table ${t.table}: ${state}` : `Seats: ${state}` }),
        el('table', { class: 'seats' }, rows)));
    }
    // The seat of a shared link is offered first (once: the lobby is
    // drawn again every two seconds, and must not take the focus back).
    const wanted = box.querySelector('.wanted button.join');
    if (wanted && !S.focused && document.activeElement !== $('name')) {
      S.focused = true;
      wanted.focus();
    }
  }

  function startLobby() {
    show('lobby');
    status('');
    loadLobby();
    clearInterval(S.lobbyTimer);
    S.lobbyTimer = setInterval(loadLobby, 2000);
  }

  // ---- the connection ----

  function connect(first) {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    S.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(first()));
    ws.onmessage = (event) => {
      let m;
      try {
        m = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      receive(m);
    };
    ws.onclose = () => {
      if (S.ws !== ws) return;
      S.ws = null;
      if (S.bye || !S.token) return;
      // The seat is kept for us: take it back with the token (a server
      // gone for good is given up on after a minute or so).
      S.retry += 1;
      if (S.retry > 12) {
        status('the server cannot be reached');
        message('The connection to the server is lost: reload the page to try again.');
        return;
      }
      status('connection lost: reconnecting…');
      setTimeout(() => {
        if (!S.ws && S.token && !S.bye) connect(() => ({ type: 'rejoin', version: VERSION, token: S.token }));
      }, 500 * Math.min(S.retry, 10));
    };
  }

  function join(table, seat) {
    const name = $('name').value.trim();
    if (name) localStorage.setItem(NAME_KEY, name);
    message('');
    connect(() => ({ type: 'join', version: VERSION, name: name || null, seat, table }));
  }

  function rejoin(token) {
    message('');
    S.token = token;
    connect(() => ({ type: 'rejoin', version: VERSION, token }));
  }

  function send(m) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(m));
  }

  function receive(m) {
    // The next game of the table waits until "play again".
    if (S.ended && (m.type === 'start' || m.type === 'state') && m.game > S.ended.game) {
      S.pending.push(m);
      drawEnd();
      return;
    }
    switch (m.type) {
      case 'welcome':
        S.retry = 0;
        S.welcome = m;
        S.token = m.token;
        keepSeat({
          token: m.token, table: m.table, seat: m.seat,
          name: $('name').value.trim() || (keptSeats().find((k) => k.token === m.token) || {}).name || '',
        });
        // Every seat counts as there until the server says otherwise.
        S.connected = m.seats.map(() => true);
        $('title').textContent = gameName(m.rules);
        if (!S.state) {
          // Until the game starts, the seats stay in view, with their
          // links to share.
          show('game');
          $('lobby').hidden = false;
          $('name').closest('p').hidden = true;
          loadLobby();
          $('turn').textContent = 'Waiting for the other players to join…';
          $('table').replaceChildren();
          $('moves').replaceChildren();
          $('moves-head').textContent = '';
        }
        drawStatus();
        break;
      case 'start':
        S.game = m.game;
        S.names = m.names;
        S.ended = null;
        S.log = [];
        S.news = [];
        break;
      case 'state':
        clearInterval(S.lobbyTimer);
        if (m.last) {
          S.log.unshift(m.last);
          // What happened since this seat's last move: the others' moves.
          if (S.welcome && m.last.seat === S.welcome.seat) S.news = [];
          else S.news.push(m.last);
        }
        S.state = m;
        S.filter = null;
        S.sent = false;
        show('game');
        $('game').dataset.decision = m.decision;
        drawGame();
        break;
      case 'presence':
        S.connected[m.seat] = m.connected;
        drawStatus();
        break;
      case 'end':
        S.ended = m;
        S.pending = [];
        drawGame();
        drawEnd();
        $('end').scrollIntoView({ block: 'start' });
        break;
      case 'bye':
        S.bye = true;
        drawEnd();
        break;
      case 'error':
        S.sent = false;
        if (m.code === 'bad_token' || (m.code === 'no_game' && !S.welcome)) {
          forgetSeat(S.token);
          S.token = null;
          message(`${m.message}: pick a seat`);
          startLobby();
          return;
        }
        message(`The server refused: ${m.message}`);
        if (S.state) drawMoves();
        break;
      default:
        break;
    }
  }

  // ---- the game ----

  function seatName(seat) {
    const name = S.names[seat];
    const you = S.welcome && seat === S.welcome.seat;
    if (you) return name ? `you (${name})` : 'you';
    if (name) return name;
    const kind = S.welcome && S.welcome.seats[seat];
    return kind && kind !== 'remote' ? `the computer (p${seat})` : `p${seat}`;
  }

  // A seat in a move's text, as the owner of what follows it: "your", a
  // player's name's, or pN's.
  function owning(seat) {
    if (S.welcome && seat === S.welcome.seat) return 'your';
    return `${S.names[seat] || `p${seat}`}'s`;
  }

  // A move's text for people: seats by name, arrows, parts joined.
  function readable(text) {
    return text.split(';').map((part) => part.trim().split(/\s+/).map((t) => {
      const m = /^p(\d+)$/.exec(t);
      if (m && Number(m[1]) < S.names.length) return owning(Number(m[1]));
      return t === '->' ? '→' : t;
    }).join(' ')).join('; then ');
  }

  function drawStatus() {
    if (!S.welcome) return;
    const away = S.connected.map((c, i) => (c ? null : `p${i}`)).filter(Boolean);
    status(`you are p${S.welcome.seat}${S.welcome.games > 1 && S.game !== null ? ` · game ${S.game + 1} of ${S.welcome.games}` : ''}` +
      `${away.length && S.state && !S.ended ? ` · away: ${away.join(', ')}` : ''}`);
  }

  function myMoves() {
    const obs = S.state && S.state.observation;
    return obs && !S.ended ? obs.moves || [] : [];
  }

  function drawGame() {
    const st = S.state;
    if (!st) return;
    const obs = st.observation;
    drawStatus();
    const turn = $('turn');
    if (S.ended) turn.textContent = 'The game is over.';
    else if (st.to_move === null || st.to_move === undefined) turn.textContent = 'Nobody is to play.';
    else if (st.to_move === obs.seat) turn.textContent = `Your turn (decision ${st.decision}).`;
    else turn.textContent = `${seatName(st.to_move)} to play (decision ${st.decision}).`;
    turn.className = st.to_move === obs.seat && !S.ended ? 'yours' : '';
    CardTable.draw($('table'), obs, {
      names: S.names, kinds: S.welcome ? S.welcome.seats : [],
    });
    wireClicks();
    drawMoves();
    const log = $('log');
    log.replaceChildren(...S.log.slice(0, 40).map((p) => el('li', { value: p.decision, title: p.text },
      `${seatName(p.seat)}: ${words(p)}${p.computer ? ' (played by the computer)' : ''}`,
      ...announced(p))));
    drawNews();
  }

  // A move in words: its label, else its text made readable.
  function words(m) {
    return m.label ? m.label : readable(m.text);
  }

  // What the rules announced while move `p` was played, one line each.
  function announced(p) {
    return (p.announcements || []).map((a) => el('div', { class: 'announcement', text: a }));
  }

  // The others' moves since this seat's last one, in words, with what the
  // rules announced.
  function drawNews() {
    const box = $('news');
    const news = S.news.slice(-12);
    box.hidden = !news.length;
    box.replaceChildren(
      el('div', { class: 'news-head', text: 'Since your last move:' }),
      ...news.map((p) => el('div', { class: 'news-move', title: p.text, 'data-decision': p.decision },
        el('span', { class: 'who', text: `${seatName(p.seat)}: ` }), words(p),
        p.computer ? ' (played by the computer)' : '', ...announced(p))),
    );
  }

  // Cards, piles and spaces that name a legal move can be clicked.
  function wireClicks() {
    const moves = myMoves();
    const root = $('table');
    const targets = [];
    for (const node of root.querySelectorAll('.card.face')) {
      targets.push([node, { card: node.dataset.name, owner: node.dataset.owner, loc: node.dataset.loc }]);
    }
    for (const node of root.querySelectorAll('.fan, .location-name')) {
      const where = node.dataset.owner ? node : node.querySelector('.card');
      targets.push([node, { owner: where.dataset.owner, loc: where.dataset.loc }]);
    }
    for (const node of root.querySelectorAll('.space')) targets.push([node, { space: node.dataset.space }]);
    for (const [node, target] of targets) {
      const named = moves.length ? CardTable.movesNaming(moves, target) : [];
      if (named.length) node.classList.add('choosable');
      node.addEventListener('click', (event) => {
        event.stopPropagation();
        choose(target, node);
      });
    }
  }

  function choose(target, node) {
    const moves = myMoves();
    if (!moves.length || S.sent) return;
    const named = CardTable.movesNaming(moves, target);
    if (!named.length) {
      message('');
      return; // nothing to play there: the click does nothing
    }
    if (named.length === 1) {
      play(named[0]);
      return;
    }
    const at = target.space && /\[(\d+),(\d+)\]$/.exec(target.space);
    const label = at ? `${CardTable.coordinates(Number(at[1]), Number(at[2]))}` : target.space ||
      (target.card ? `${target.card} (${target.owner} ${target.loc})` : `${target.owner} ${target.loc}`);
    S.filter = { label, ids: new Set(named.map((m) => m.id)) };
    for (const n of $('table').querySelectorAll('.chosen')) n.classList.remove('chosen');
    node.classList.add('chosen');
    drawMoves();
  }

  function play(move) {
    if (S.sent || !S.state) return;
    clearTimeout(S.forcedTimer);
    S.sent = true;
    S.news = [];
    message('');
    // The move by its id, naming the game and decision that offered it
    // (protocol version 3): a late click is refused, never played later.
    send({ type: 'command', command: { game: S.state.game, decision: S.state.decision, move: move.id } });
    drawMoves();
  }

  function drawMoves() {
    const moves = myMoves();
    const head = $('moves-head');
    const list = $('moves');
    list.replaceChildren();
    head.replaceChildren();
    clearTimeout(S.forcedTimer);
    if (!moves.length) {
      $('choose').hidden = true;
      return;
    }
    $('choose').hidden = false;
    const shown = S.filter ? moves.filter((m) => S.filter.ids.has(m.id)) : moves;
    const clickable = $('table').querySelectorAll('.choosable').length > 0;
    if (S.filter) {
      head.append(`${shown.length} moves act at ${S.filter.label}: `,
        el('button', { type: 'button', class: 'all-moves', onclick: () => { S.filter = null; drawMoves(); } }, 'show all moves'));
    } else if (moves.length === 1) {
      head.append(forcedMyself() || S.sent ? 'Your only move:' : 'Your only move, played for you in a moment:');
    } else {
      head.append(clickable
        ? `Your move: click a highlighted card or space, or one of the ${moves.length} moves.`
        : `Your move: one of the ${moves.length} moves.`);
    }
    const buttons = shown.map((m) => el('button', {
      type: 'button', class: 'move', 'data-id': m.id, 'data-text': m.text, title: m.text, disabled: S.sent,
      onclick: () => play(m),
    }, words(m)));
    if (!S.filter && clickable && shown.length > FOLD_MOVES) {
      // A long list folds away: the table is where one chooses.
      const fold = el('details', { class: 'moves-fold' },
        el('summary', { text: `all ${shown.length} moves as a list` }), el('div', { class: 'move-list' }, ...buttons));
      list.append(fold);
    } else {
      list.append(...buttons);
    }
    const forced = el('label', { class: 'forced-choice' },
      el('input', { type: 'checkbox', id: 'forced-myself', checked: forcedMyself(),
        onchange: (e) => { localStorage.setItem(FORCED_KEY, e.target.checked ? '1' : ''); drawMoves(); } }),
      ' play forced moves myself');
    list.append(forced);
    if (moves.length === 1 && !forcedMyself() && !S.sent) {
      const decision = S.state.decision;
      const game = S.state.game;
      S.forcedTimer = setTimeout(() => {
        if (S.state && S.state.decision === decision && S.state.game === game && myMoves().length === 1) play(myMoves()[0]);
      }, FORCED_PAUSE);
    }
  }

  // Whether the player asked to play forced moves themselves.
  function forcedMyself() {
    return !!localStorage.getItem(FORCED_KEY);
  }

  // ---- the end ----

  function drawEnd() {
    const end = S.ended;
    if (!end) return;
    show('end');
    const n = S.welcome ? S.welcome.players : (end.scores || []).length;
    const title = { finished: 'The game is over', stopped: 'The game was stopped', failed: 'The game failed' }[end.how];
    $('end-title').textContent = title || 'The game ended';
    const scores = $('scores');
    scores.replaceChildren();
    if (end.scores) {
      scores.append(el('tr', {}, el('th', { text: 'player' }), el('th', { text: 'score' })));
      for (let s = 0; s < n; s++) {
        const won = (end.winners || []).includes(s);
        scores.append(el('tr', { class: won ? 'winner' : '' },
          el('td', { text: `p${s} · ${seatName(s)}` }), el('td', { text: String(end.scores[s]) })));
      }
    }
    const winners = end.winners || [];
    $('winners').textContent = end.how === 'finished'
      ? `${winners.length > 1 ? 'Winners' : 'Winner'}: ${winners.map((w) => `p${w} · ${seatName(w)}`).join(', ')}`
      : end.message || '';
    const more = S.welcome && end.game + 1 < S.welcome.games;
    const again = $('again');
    again.disabled = !more;
    $('end-note').textContent = more
      ? (S.pending.length ? 'The next game is ready.' : 'The next game starts when every player is back.')
      : 'This server has played its games: start it again (or with --games N) to play more.';
  }

  $('again').addEventListener('click', () => {
    S.ended = null;
    S.state = null;
    const pending = S.pending;
    S.pending = [];
    show('game');
    $('turn').textContent = 'Waiting for the next game…';
    for (const m of pending) receive(m);
  });

  // ---- start ----

  $('name').value = localStorage.getItem(NAME_KEY) || '';
  const tabToken = sessionStorage.getItem(TAB_KEY);
  if (tabToken) {
    show('game');
    $('turn').textContent = 'Taking your seat back…';
    fetchLobby().then(() => rejoin(tabToken));
  } else {
    startLobby();
  }
})();
