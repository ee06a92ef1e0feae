// @ts-check
/**
 * The table: one seat's (or a spectator's) live view of a game, over the table protocol
 * (docs/server.md). It renders what the server sends (the snapshot, the events, the
 * view after each of them, the legal moves with tile, end and orientation) and sends
 * the person's choices. It holds no rule code: why a tile cannot be laid, hints and the
 * review are asked of the server. It reconnects by itself with the last version it saw.
 * @module table
 */
import {CONFIG, _, byId, fill, fmt, h, keepFocus, load, post, remember, save} from "./dom.js";
import {domino, endsView, halves, lay, lineView, moveWords} from "./domino.js";

/**
 * @typedef {{id: number, move: string, type: string, tile?: string, end?: string | null,
 *   touch?: number, exposed?: number, left?: number, right?: number, matador?: boolean}} Legal
 * @typedef {{seat: number, kind: string, name: string | null, online: boolean,
 *   claimed: boolean, bot: string | null, replaced: boolean}} SeatInfo
 * @typedef {{seats: SeatInfo[], fair: {hand: number, awaiting: number[]} | null,
 *   clock: {per_move: number, banks: number[], to_move: number | null,
 *   remaining: number | null} | null, next_table: string | null, rematch: number[],
 *   marked: boolean, muted?: number[]}} Room
 * @typedef {{seat: number, text: string, version: number}} Logged
 */

const TABLE = String(CONFIG.table);
const PLAYERS = Number(CONFIG.players);
const params = new URLSearchParams(location.hash.slice(1));
const TOKEN = params.get("seat") || params.get("watch") || "";
const LANG = String(CONFIG.lang || "en");

const S = {
  /** @type {number | null} */ you: null,
  version: 0,
  phase: "waiting",
  hand: 0,
  /** @type {number[]} */ scores: Array(PLAYERS).fill(0),
  /** @type {number[][]} */ line: [],
  lastIndex: -1,
  /** @type {import("./domino.js").Ends | null} */ ends: null,
  /** @type {number[]} */ sizes: [],
  boneyard: 0,
  /** @type {number[]} */ points: [],
  /** @type {number | null} */ toMove: null,
  /** @type {string[]} */ tiles: [],
  /** @type {Legal[]} */ legal: [],
  /** @type {Logged[]} */ moves: [],
  /** @type {any} */ reveal: null,
  /** @type {{winner: number | null, reason: string} | null} */ over: null,
  /** @type {Room | null} */ room: null,
  /** @type {{name: string, text: string, channel: string}[]} */ chat: [],
  /** @type {Set<number>} */ contributed: new Set(),
  readyHand: 0,
  sent: false,
  rendered: false,
  /** @type {any[] | null} */ sheet: null,
  /** @type {any} */ review: null,
};

let sound = load("matador.sound", false);
let srMode = load("matador.sr", false);

// -- names and words ---------------------------------------------------------------------

/**
 * @param {number} seat
 * @returns {string}
 */
function nameOf(seat) {
  const info = S.room?.seats[seat];
  // the server names a person who gave no name "Player N": say it in the page's language
  if (info?.name && info.name !== `Player ${seat + 1}`) return info.name;
  if (info && info.kind !== "human") {
    return fmt(_("Computer {n}"), {n: seat + 1});
  }
  return fmt(_("Player {n}"), {n: seat + 1});
}

/**
 * A move event in words, for the move list and the live region.
 * @param {any} e
 * @returns {string}
 */
function moveText(e) {
  const you = e.seat === S.you;
  const name = nameOf(e.seat);
  let text;
  if (e.type === "draw") {
    text = you && e.tile ? fmt(_("You draw {tile}"), {tile: e.tile})
      : fmt(you ? _("You draw") : _("{name} draws"), {name});
  } else if (e.type === "pass") {
    text = fmt(you ? _("You pass") : _("{name} passes"), {name});
  } else if (e.end === null) {
    text = fmt(you ? _("You open with {tile}") : _("{name} opens with {tile}"),
      {name, tile: e.tile});
  } else {
    text = fmt(e.end === "L"
      ? (you ? _("You lay {tile} on the left end") : _("{name} lays {tile} on the left end"))
      : (you ? _("You lay {tile} on the right end") : _("{name} lays {tile} on the right end")),
    {name, tile: e.tile});
  }
  const scored = (e.scored || [])[e.seat] || 0;
  if (scored) text += " " + fmt(_("(+{n} points)"), {n: scored});
  return text;
}

/**
 * A history entry of a snapshot (notation only) in words.
 * @param {{seat: number, move: string, tile?: string}} m
 * @returns {string}
 */
function historyText(m) {
  const name = nameOf(m.seat);
  if (m.move === "draw") {
    return m.tile ? fmt(_("You draw {tile}"), {tile: m.tile})
      : fmt(m.seat === S.you ? _("You draw") : _("{name} draws"), {name});
  }
  if (m.move === "pass") return fmt(m.seat === S.you ? _("You pass") : _("{name} passes"), {name});
  return fmt(_("{name}: {move}"), {name, move: m.move});
}

/**
 * Say something through the live region. The answers to typed commands are marked, so that
 * they can be told apart from what the table announces meanwhile.
 * @param {string} text
 * @param {boolean} [answer] whether this answers a typed command
 */
function announce(text, answer = false) {
  const live = byId("live");
  live.dataset.count = String(Number(live.dataset.count || 0) + 1);
  const said = h("p", null, text);
  if (answer) {
    said.className = "answer";
    live.dataset.answers = String(Number(live.dataset.answers || 0) + 1);
  }
  live.appendChild(said);
  // Keep the last six lines, and always the latest answer.
  const answers = live.querySelectorAll("p.answer");
  const keep = answers.length ? answers[answers.length - 1] : null;
  while (live.childNodes.length > 6) {
    const first = live.firstChild;
    (first === keep ? first?.nextSibling : first)?.remove();
  }
}

// -- the connection ----------------------------------------------------------------------

/** @type {WebSocket | null} */
let ws = null;
let retry = 0;
let stopped = false;
/** @type {number | undefined} */ let retryTimer;

/** @param {number} ms */
function retryIn(ms) {
  clearTimeout(retryTimer);
  retryTimer = window.setTimeout(connect, ms);
}

function connect() {
  if (stopped || !TOKEN) return;
  clearTimeout(retryTimer);
  // no attempt while the browser knows it is offline: failed attempts make the browser
  // hold back later ones; the "online" event (or this check each second) tries again
  if (navigator.onLine === false) {
    retryIn(1000);
    return;
  }
  if (ws && ws.readyState === WebSocket.CONNECTING) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const sock = new WebSocket(`${proto}://${location.host}/ws/tables/${TABLE}`);
  ws = sock;
  sock.onopen = () => {
    /** @type {Record<string, unknown>} */
    const hello = {type: "hello", token: TOKEN, lang: LANG};
    if (S.version > 0) hello.version = S.version;
    const name = load("matador.name", "");
    if (name) hello.name = name;
    sock.send(JSON.stringify(hello));
  };
  sock.onmessage = (ev) => {
    if (ws !== sock) return;
    retry = 0;
    onMessage(JSON.parse(String(ev.data)));
  };
  sock.onclose = (ev) => {
    if (ws !== sock) return;
    ws = null;
    if (ev.code === 4401 || ev.code === 4404) {
      stopped = true;
      setConn("bad", ev.code === 4401 ? _("This link opens no seat of this table.")
        : _("There is no such table."));
      return;
    }
    if (ev.code === 4409) {
      stopped = true;
      setConn("bad", _("This seat was opened in another window."));
      return;
    }
    setConn("wait", _("Reconnecting…"));
    const delay = Math.min(1000, 150 * 2 ** retry);
    retry += 1;
    retryIn(delay);
  };
}

/** @param {Record<string, unknown>} msg */
function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

window.addEventListener("offline", () => {
  if (ws) {
    const old = ws;
    ws = null;
    old.close();
  }
  setConn("wait", _("Reconnecting…"));
  retryIn(1000);
});
window.addEventListener("online", () => {
  retry = 0;
  connect();
});

/**
 * @param {"ok" | "wait" | "bad"} kind
 * @param {string} text
 */
function setConn(kind, text) {
  const el = byId("conn");
  el.className = `badge ${kind}`;
  el.textContent = text;
}

// -- messages ----------------------------------------------------------------------------

/** @param {any} msg */
function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.you = msg.you;
      setConn("ok", msg.role === "spectator" ? _("Watching") : _("Connected"));
      remember({id: TABLE, seat: msg.you, link: location.href, at: Date.now(),
        label: document.title});
      return;
    case "snapshot":
      S.room = msg.room;
      fromSnapshot(msg.snapshot);
      S.version = msg.version;
      break;
    case "events":
      for (const e of msg.events) onEvent(e);
      fromView(msg.view);
      S.room = msg.room;
      S.version = msg.version;
      break;
    case "ack":
      S.sent = false;
      return;
    case "error":
      if (typeof msg.ref === "string" && msg.ref.startsWith(CONTRIBUTION_REF)) {
        // refused for a passing reason (another server process stored a step first, a
        // database hiccup): send a new one (below); the server skips a seat whose
        // contribution never comes, after a wait
        if (msg.code === "conflict" || msg.code === "internal") {
          S.contributed.delete(Number(msg.ref.slice(CONTRIBUTION_REF.length)));
        }
        break;
      }
      S.sent = false;
      onError(msg);
      break;
    default:
      return;
  }
  afterUpdate();
}

/** @param {any} msg */
function onError(msg) {
  /** @type {Record<string, string>} */
  const words = {
    stale: _("The position changed before your move arrived: look again."),
    not_your_turn: _("It is not your turn."),
    chat_flood: _("Too many messages: wait a little."),
    taken_over: _("This seat was opened in another window."),
    illegal: _("That move is not legal."),
  };
  fill("explain", words[msg.code] || msg.message);
  if (msg.code === "stale") send({type: "sync", version: S.version});
}

/** @param {any} snap */
function fromSnapshot(snap) {
  S.phase = snap.phase;
  S.hand = snap.hand;
  S.scores = snap.scores;
  const pos = snap.position;
  if (pos) {
    S.line = pos.line;
    S.lastIndex = -1;
    S.ends = pos.ends;
    S.sizes = pos.hand_sizes;
    S.boneyard = pos.boneyard;
    S.points = pos.points;
    S.toMove = pos.to_move;
    S.tiles = pos.tiles || [];
    S.legal = pos.legal || [];
    S.moves = pos.history.map((/** @type {any} */ m, /** @type {number} */ i) =>
      ({seat: m.seat, text: historyText(m), version: i}));
  }
  S.reveal = snap.phase !== "playing" ? snap.last_hand || null : null;
  S.over = snap.phase === "over" ? {winner: snap.winner ?? null, reason: snap.end_reason} : null;
}

/** @param {any} v */
function fromView(v) {
  if (!v || v.hand === undefined) {
    if (v?.phase) S.phase = v.phase;
    return;
  }
  S.phase = v.phase;
  S.hand = v.hand;
  S.scores = v.scores;
  S.toMove = v.to_move;
  S.ends = v.ends;
  S.sizes = v.hand_sizes;
  S.boneyard = v.boneyard;
  S.points = v.points;
  if (v.tiles) S.tiles = v.tiles;
  S.legal = v.legal || [];
  if (v.phase === "over") S.over = {winner: v.winner ?? null, reason: v.end_reason};
}

/** @param {any} e */
function onEvent(e) {
  switch (e.kind) {
    case "hand_start":
      S.line = [];
      S.lastIndex = -1;
      S.moves = [];
      S.reveal = null;
      S.hand = e.hand;
      if (e.tiles) S.tiles = e.tiles;
      announce(fmt(_("Hand {n}: {name} leads."), {n: e.hand, name: nameOf(e.leader)}));
      break;
    case "move": {
      if (e.type === "play") {
        const laid = lay(S.line, e);
        S.line = laid.line;
        S.lastIndex = laid.index;
      }
      const text = moveText(e);
      S.moves.push({seat: e.seat, text, version: e.version});
      announce(text);
      break;
    }
    case "hand_end":
      S.reveal = e;
      S.lastIndex = -1;
      announce(revealHeadline(e));
      S.sheet = null;
      break;
    case "match_end":
      S.over = {winner: e.winner, reason: e.reason};
      announce(e.winner === null || e.winner === undefined ? _("The match ends with no winner.")
        : fmt(_("{name} wins the match!"), {name: nameOf(e.winner)}));
      break;
    case "forfeit":
      announce(fmt(_("{name} forfeits: {why}"), {name: nameOf(e.seat), why: e.message}));
      break;
    case "chat":
      S.chat.push({name: e.name, text: e.text, channel: e.channel});
      announce(`${e.name}: ${unescapeHtml(e.text)}`);
      break;
    case "presence":
      if (e.seat !== S.you) {
        announce(fmt(e.online ? _("{name} is here.") : _("{name} went away."),
          {name: nameOf(e.seat)}));
      }
      break;
    case "replaced":
      announce(fmt(_("A computer plays for {name} for now."), {name: nameOf(e.seat)}));
      break;
    default:
      break;
  }
}

/**
 * Chat text comes HTML-escaped; shown as text it must be unescaped once.
 * @param {string} text
 * @returns {string}
 */
function unescapeHtml(text) {
  const t = document.createElement("textarea");
  t.innerHTML = text;
  return t.value;
}

/**
 * @param {any} e a hand_end event
 * @returns {string}
 */
function revealHeadline(e) {
  const r = e.result;
  if (r.winner === null || r.winner === undefined) {
    return fmt(_("Hand {n} is blocked: no winner."), {n: e.hand});
  }
  return fmt(r.reason === "out" ? _("{name} goes out and wins hand {n}.")
    : _("{name} wins the blocked hand {n}."), {name: nameOf(r.winner), n: e.hand});
}

let wasMyTurn = false;

function afterUpdate() {
  const mine = S.you !== null && S.toMove === S.you && S.phase === "playing";
  if (mine && !wasMyTurn) {
    announce(_("Your turn."));
    if (sound) beep();
  }
  wasMyTurn = mine;
  contribute();
  if (S.sheet === null) loadSheet();
  render();
  if (!S.rendered) {
    S.rendered = true;
    performance.mark("matador:first-render");
  }
}

/** The ref of a contribution: this prefix and the hand. */
const CONTRIBUTION_REF = "contribute-";

/** Add this seat's randomness to the next fair deal (at once for the first hand; after
 * "Next hand" or 20 s for the others, so everyone sees the reveal). */
function contribute() {
  const f = S.room?.fair;
  if (!f || S.you === null || !f.awaiting.includes(S.you) || S.contributed.has(f.hand)) return;
  if (f.hand > 1 && S.readyHand < f.hand) {
    window.setTimeout(() => {
      if (S.readyHand < f.hand) {
        S.readyHand = f.hand;
        contribute();
      }
    }, 20000);
    return;
  }
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  if (send({type: "contribute", hand: f.hand, value, ref: CONTRIBUTION_REF + f.hand})) {
    S.contributed.add(f.hand);
  }
}

async function loadSheet() {
  S.sheet = [];
  try {
    const data = await (await fetch(`/api/tables/${TABLE}/sheet`)).json();
    S.sheet = data.hands;
    renderSheet();
  } catch {
    S.sheet = null;
  }
}

// -- acting --------------------------------------------------------------------------------

/** @param {Legal} m */
function play(m) {
  if (S.sent) return;
  fill("explain");
  hideChoice();
  if (send({type: "move", move: m.move, version: S.version, ref: m.move})) S.sent = true;
}

/**
 * A tile of the hand was chosen: play it, ask which way, or say why not.
 * @param {string} tile
 */
async function chooseTile(tile) {
  const ways = S.legal.filter((m) => m.type === "play" && m.tile === tile);
  if (ways.length === 1) {
    play(ways[0]);
    return;
  }
  if (ways.length > 1) {
    showChoice(tile, ways);
    return;
  }
  if (S.toMove !== S.you) {
    fill("explain", _("It is not your turn."));
    return;
  }
  await explain(tile);
}

/** @param {string} tile */
async function explain(tile) {
  try {
    const r = await post(`/api/tables/${TABLE}/explain`, {token: TOKEN, tile, lang: LANG});
    fill("explain", r.text);
    announce(r.text);
  } catch (err) {
    fill("explain", String(/** @type {Error} */ (err).message));
  }
}

/**
 * @param {string} tile
 * @param {Legal[]} ways
 */
function showChoice(tile, ways) {
  const box = byId("choice");
  box.hidden = false;
  box.replaceChildren(
    h("p", {id: "choice-h"}, fmt(_("{tile} can be laid in several ways: which one?"), {tile})),
    ...ways.map((m) => h("button", {type: "button", class: "way", "data-key": `way-${m.move}`,
      onclick: () => play(m)}, moveWords(m))),
    h("button", {type: "button", class: "cancel", onclick: hideChoice}, _("Cancel")));
  const first = box.querySelector("button");
  if (first) first.focus();
  announce(fmt(_("{tile} can be laid in several ways: which one?"), {tile}));
}

function hideChoice() {
  const box = byId("choice");
  if (!box.hidden) {
    box.hidden = true;
    box.replaceChildren();
  }
}

function againstBots() {
  return S.you !== null && !!S.room &&
    S.room.seats.every((s, i) => i === S.you || s.kind !== "human");
}

async function askHint() {
  const box = byId("hintbox");
  box.hidden = false;
  box.replaceChildren(h("p", null, _("Thinking…")));
  try {
    const r = await post(`/api/tables/${TABLE}/hint`, {token: TOKEN, lang: LANG});
    box.replaceChildren(h("table", {class: "grid"},
      h("caption", null, _("Hint: the computer's estimate of your moves")),
      h("thead", null, h("tr", null, h("th", {scope: "col"}, _("move")),
        h("th", {scope: "col"}, _("win chance")), h("th", {scope: "col"}, _("expected points")))),
      h("tbody", null, r.moves.map((/** @type {any} */ m) => h("tr", null,
        h("td", null, moveWords(m)), h("td", null, `${Math.round(m.win * 100)}%`),
        h("td", null, m.points.toFixed(1)))))));
    announce(fmt(_("Best: {move}, {p}% to win."),
      {move: moveWords(r.moves[0]), p: Math.round(r.moves[0].win * 100)}));
  } catch (err) {
    box.replaceChildren(h("p", null, String(/** @type {Error} */ (err).message)));
  }
}

async function askReview() {
  S.review = "busy";
  renderReveal();
  try {
    S.review = await post(`/api/tables/${TABLE}/review`, {token: TOKEN});
  } catch (err) {
    S.review = {error: String(/** @type {Error} */ (err).message)};
  }
  renderReveal();
}

function nextHand() {
  S.readyHand = S.hand + 1;
  contribute();
  renderReveal();
}

// -- sound ---------------------------------------------------------------------------------

/** @type {AudioContext | null} */ let audio = null;

function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // no audio device: the turn is still announced in words
  }
}

// -- rendering -----------------------------------------------------------------------------

function render() {
  keepFocus(() => {
    renderSeats();
    renderBoard();
    renderMe();
    renderMoves();
    renderChat();
    renderReveal();
  });
}

function renderSeats() {
  const clock = S.room?.clock;
  fill("seats", Array.from({length: PLAYERS}, (_x, i) => {
    const info = S.room?.seats[i];
    const human = !info || info.kind === "human";
    const badge = !human ? h("span", {class: "badge bot"}, fmt(_("computer, {level}"),
      {level: info?.bot || ""}))
      : info?.replaced ? h("span", {class: "badge wait"}, _("a computer plays for now"))
        : h("span", {class: `badge ${info?.online ? "ok" : "off"}`},
          info?.online ? _("online") : _("offline"));
    const toMove = S.toMove === i && S.phase === "playing";
    return h("div", {class: `seat${toMove ? " to-move" : ""}${i === S.you ? " you" : ""}`,
      "data-seat": i},
    h("p", {class: "who"}, h("strong", null, nameOf(i)),
      i === S.you ? ` (${_("you")})` : "", " ", badge),
    h("p", {class: "facts"},
      fmt(_("Tiles: {n}"), {n: S.sizes[i] ?? 0}), " · ",
      h("span", {class: "score"}, fmt(_("Score: {n}"), {n: S.scores[i] ?? 0})),
      toMove ? h("span", {class: "mark"}, " · ", _("to move")) : null,
      clock && clock.to_move === i && clock.remaining !== null
        ? h("span", {class: "clock", "data-clock": i}, " · ",
          fmt(_("{s} s left"), {s: Math.ceil(clock.remaining)})) : null));
  }));
}

function renderBoard() {
  fill("ends", endsView(S.ends));
  const board = byId("board");
  fill("line", lineView(S.line, board.clientWidth || 360, S.lastIndex));
  fill("boneyard", fmt(_("Boneyard: {n}"), {n: S.boneyard}));
}

function turnText() {
  if (S.over) {
    return S.over.winner === null ? _("The match ends with no winner.")
      : fmt(_("{name} wins the match!"), {name: nameOf(S.over.winner)});
  }
  if (S.phase !== "playing") {
    const f = S.room?.fair;
    if (f && f.awaiting.length) {
      return fmt(_("Waiting for {names} to be ready for the deal."),
        {names: f.awaiting.map(nameOf).join(", ")});
    }
    return _("Dealing…");
  }
  if (S.toMove === S.you) return _("Your turn.");
  return S.toMove === null ? "" : fmt(_("{name} to move."), {name: nameOf(S.toMove)});
}

function renderMe() {
  fill("turn", turnText());
  const me = byId("me");
  me.hidden = false;
  const mine = S.toMove === S.you && S.phase === "playing";
  const hand = fill("hand", S.you === null ? h("p", null, _("You are watching.")) :
    S.tiles.map((tile) => {
      const legal = mine && S.legal.some((m) => m.type === "play" && m.tile === tile);
      const [a, b] = halves(tile);
      return h("button", {type: "button", class: `tile${legal ? " legal" : ""}`,
        "data-key": `tile-${tile}`, "data-tile": tile,
        "aria-label": legal ? fmt(_("{tile}, playable"), {tile}) : tile,
        onclick: () => chooseTile(tile)}, domino(a, b, {label: "", vertical: true}));
    }));
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", _("Your tiles"));
  /** @type {HTMLElement[]} */
  const actions = [];
  for (const m of mine ? S.legal : []) {
    if (m.type === "draw" || m.type === "pass") {
      actions.push(h("button", {type: "button", class: `primary ${m.type}`,
        "data-key": `act-${m.type}`, onclick: () => play(m)},
      m.type === "draw" ? _("Draw") : _("Pass")));
    }
  }
  if (mine && againstBots()) {
    actions.push(h("button", {type: "button", class: "hint", "data-key": "act-hint",
      onclick: askHint}, _("Hint")));
  }
  fill("actions", actions);
  if (!mine) {
    hideChoice();
    const box = byId("hintbox");
    box.hidden = true;
  }
  byId("cmd").hidden = !srMode;
}

function renderMoves() {
  const list = fill("moves", S.moves.map((m, i) => h("li", {
    class: i === S.moves.length - 1 ? "last" : ""}, m.text)));
  list.scrollTop = list.scrollHeight;
}

function renderChat() {
  const muted = new Set(S.room?.muted || []);
  const list = fill("chat", S.chat.map((c) => h("li", {class: c.channel},
    h("strong", null, c.name), ": ", unescapeHtml(c.text))));
  list.scrollTop = list.scrollHeight;
  if (S.you === null) return;
  const mutes = (S.room?.seats || []).filter((s) => s.seat !== S.you && s.kind === "human")
    .map((s) => h("button", {type: "button", class: "mute", "aria-pressed": String(
      muted.has(s.seat)), "data-key": `mute-${s.seat}`,
    onclick: () => send({type: "mute", seat: s.seat, muted: !muted.has(s.seat)})},
    fmt(_("Mute {name}"), {name: nameOf(s.seat)})));
  const phrases = Object.entries(/** @type {Record<string, string>} */ (CONFIG.phrases || {}));
  fill("phrases", phrases.map(([id, text]) => h("button", {type: "button", class: "phrase",
    "data-key": `phrase-${id}`, onclick: () => send({type: "chat", phrase: id})}, text)),
  mutes);
}

function renderSheet() {
  const rows = S.sheet || [];
  fill("sheet", rows.length ? h("table", {class: "grid"},
    h("thead", null, h("tr", null, h("th", {scope: "col"}, _("Hand")),
      Array.from({length: PLAYERS}, (_x, i) => h("th", {scope: "col"}, nameOf(i))))),
    h("tbody", null, rows.map((r) => h("tr", null, h("th", {scope: "row"}, r.hand),
      r.scores.map((/** @type {number} */ s, /** @type {number} */ i) => h("td", null,
        `${s} (+${r.points[i]})`)))))) : h("p", null, _("No hand finished yet.")));
}

function renderReveal() {
  const box = byId("reveal");
  const e = S.reveal;
  if (!e || S.phase === "playing") {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const kinds = /** @type {[string, string][]} */ ([["join_points", _("joins")],
    ["matador_points", _("matadors")], ["bonus_points", _("bonuses")],
    ["pass_points", _("passes")], ["hand_points", _("hands")], ["total", _("total")]]);
  const table = h("table", {class: "grid"},
    h("caption", null, _("Points by rule")),
    h("thead", null, h("tr", null, h("th", {scope: "col"}, _("player")),
      kinds.map(([, label]) => h("th", {scope: "col"}, label)),
      h("th", {scope: "col"}, _("score")))),
    h("tbody", null, e.breakdown.map((/** @type {any} */ b, /** @type {number} */ i) =>
      h("tr", null, h("th", {scope: "row"}, nameOf(i)),
        kinds.map(([k]) => h("td", null, b[k])),
        h("td", null, `${e.scores_before[i]} → ${e.scores[i]}`)))));
  const left = h("div", {class: "left"}, e.tiles.map((/** @type {string[]} */ ts,
    /** @type {number} */ i) => h("p", null, h("span", {class: "label"}, nameOf(i) + ": "),
    ts.length ? ts.map((t) => {
      const [a, b] = halves(t);
      return domino(a, b, {cls: "small"});
    }) : _("no tiles left"))));
  /** @type {HTMLElement[]} */
  const buttons = [];
  if (!S.over && S.you !== null) {
    const ready = S.readyHand > S.hand;
    buttons.push(h("button", {type: "button", class: "primary", id: "next-hand",
      "data-key": "next-hand", disabled: ready, onclick: nextHand},
    ready ? _("Waiting for the others…") : _("Next hand")));
  }
  if (S.over) {
    const next = S.room?.next_table;
    if (next) {
      const kind = S.you === null ? "watch" : "seat";
      buttons.push(h("a", {class: "button primary", id: "next-match", "data-key": "next-match",
        href: `/t/${next}${location.search}#${kind}=${TOKEN}`}, _("Go to the rematch")));
    } else if (S.you !== null) {
      const asked = (S.room?.rematch || []).includes(S.you);
      buttons.push(h("button", {type: "button", class: "primary", id: "rematch",
        "data-key": "rematch", disabled: asked, onclick: () => send({type: "rematch"})},
      asked ? _("Waiting for the others…") : _("Rematch")));
    }
    if (S.you !== null && S.review === null) {
      buttons.push(h("button", {type: "button", id: "review", "data-key": "review",
        onclick: askReview}, _("Review my moves")));
    }
  }
  buttons.push(h("a", {class: "button", id: "download", "data-key": "download",
    href: `/api/tables/${TABLE}/records.jsonl`, download: `matador-${TABLE}.jsonl`},
  _("Download the record")));
  buttons.push(h("a", {class: "button", href: `/replay?table=${TABLE}`}, _("Replay")));
  box.replaceChildren(
    h("h2", {id: "reveal-h"}, revealHeadline(e)),
    S.over ? h("p", {class: "final", id: "final", "data-scores": S.scores.join(",")}, fmt(_("Final scores: {scores}"),
      {scores: S.scores.map((s, i) => `${nameOf(i)} ${s}`).join(", ")})) : "",
    left, table, reviewView() || "", h("div", {class: "row"}, buttons));
}

function reviewView() {
  const r = S.review;
  if (r === null) return null;
  if (r === "busy") return h("p", {role: "status"}, _("Reviewing your moves…"));
  if (r.error) return h("p", {class: "error"}, r.error);
  /** @type {Record<string, string>} */
  const labels = {best: _("best"), good: _("good"), inaccuracy: _("inaccuracy"),
    mistake: _("mistake"), blunder: _("blunder")};
  if (!r.moves.length) return h("p", {id: "review-out"}, _("No costly moves found: well played."));
  return h("table", {class: "grid", id: "review-out"},
    h("caption", null, _("Your costliest moves")),
    h("thead", null, h("tr", null, [_("Hand"), _("move no."), _("played"), _("better"),
      _("win chance lost"), _("verdict")].map((t) => h("th", {scope: "col"}, t)))),
    h("tbody", null, r.moves.map((/** @type {any} */ m) => h("tr", null,
      h("td", null, m.hand), h("td", null, m.ply + 1), h("td", null, m.played),
      h("td", null, m.best), h("td", null, `${Math.round(m.cost * 100)}%`),
      h("td", null, labels[m.label] || m.label)))));
}

// -- the command box (screen-reader mode) --------------------------------------------------

/**
 * Run a typed command: `p 3-4 left` (play; the end and the half left open only when
 * needed), `d` (draw), `s` (pass), `h` (hand), `t` (table), `w` (whose turn).
 * @param {string} text
 * @returns {Promise<string>} what to announce
 */
async function command(text) {
  const words = text.trim().toLowerCase().split(/\s+/);
  const verb = words[0] || "";
  const mine = S.toMove === S.you && S.phase === "playing";
  if (verb === "h") {
    return S.tiles.length ? fmt(_("Your tiles: {tiles}."), {tiles: S.tiles.join(", ")})
      : _("You have no tiles.");
  }
  if (verb === "t") {
    const ends = S.ends ? `${endsView(S.ends).map((p) => p.textContent).join(". ")}.`
      : _("The line is empty: the leader opens.");
    return `${ends} ${fmt(_("Boneyard: {n}"), {n: S.boneyard})}. ${S.sizes.map((n, i) =>
      fmt(_("{name} has {n} tiles"), {name: nameOf(i), n})).join(", ")}.`;
  }
  if (verb === "w") return turnText();
  if (!mine) return _("It is not your turn.");
  if (verb === "d" || verb === "s") {
    const type = verb === "d" ? "draw" : "pass";
    const m = S.legal.find((x) => x.type === type);
    if (m) {
      play(m);
      return m.type === "draw" ? _("You draw.") : _("You pass.");
    }
    return verb === "d" ? _("You cannot draw now.") : _("You cannot pass now.");
  }
  if (verb === "p" && words[1]) {
    const [a, b] = halves(words[1].replace("|", "-"));
    if (Number.isNaN(a) || Number.isNaN(b)) return _("Say a tile such as 3-4.");
    const tile = `${Math.min(a, b)}-${Math.max(a, b)}`;
    const side = words[2] || "";
    const end = ["l", "left", _("left")].includes(side) ? "L"
      : ["r", "right", _("right")].includes(side) ? "R" : "";
    const open = words[3] ?? (end ? "" : words[2] && /^\d$/.test(words[2]) ? words[2] : "");
    let ways = S.legal.filter((m) => m.type === "play" && m.tile === tile);
    if (!ways.length) {
      await explain(tile);
      return byId("explain").textContent || "";
    }
    if (end) ways = ways.filter((m) => m.end === end);
    if (open) ways = ways.filter((m) => String(m.exposed ?? "") === open);
    if (ways.length === 1) {
      play(ways[0]);
      return moveWords(ways[0]);
    }
    if (!ways.length) return _("Not that way: say left or right.");
    return fmt(_("Which way? {ways}"), {ways: ways.map(moveWords).join("; ")});
  }
  return _("Commands: p 3-4 left (play), d (draw), s (pass), h (your hand), t (the table), " +
    "w (whose turn).");
}

// -- start ---------------------------------------------------------------------------------

function setToggles() {
  byId("sound").setAttribute("aria-pressed", String(sound));
  byId("sr").setAttribute("aria-pressed", String(srMode));
  document.body.classList.toggle("sr-mode", srMode);
  byId("cmd").hidden = !srMode;
}

byId("sound").addEventListener("click", () => {
  sound = !sound;
  save("matador.sound", sound);
  setToggles();
  if (sound) beep();
});
byId("sr").addEventListener("click", () => {
  srMode = !srMode;
  save("matador.sr", srMode);
  setToggles();
  if (srMode) byId("cmd-input").focus();
});
byId("cmd").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = /** @type {HTMLInputElement} */ (byId("cmd-input"));
  const said = await command(input.value);
  input.value = "";
  announce(said, true);
});
byId("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = /** @type {HTMLInputElement} */ (byId("chat-input"));
  if (input.value.trim() && send({type: "chat", text: input.value.trim()})) input.value = "";
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") hideChoice();
});
let resizeTimer = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(() => keepFocus(renderBoard), 100);
});
window.setInterval(() => {
  const clock = S.room?.clock;
  if (clock && clock.remaining !== null && clock.remaining > 0) {
    clock.remaining = Math.max(0, clock.remaining - 1);
    keepFocus(renderSeats);
  }
}, 1000);

/** What tests and curious people may read: the version seen, the socket's state. */
Object.assign(window, {matadorTable: {
  version: () => S.version,
  socket: () => (ws ? ws.readyState : -1),
}});

setToggles();
if (TOKEN) {
  connect();
} else {
  byId("nolink").hidden = false;
  setConn("bad", _("No seat"));
}
