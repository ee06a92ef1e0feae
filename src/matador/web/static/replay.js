// @ts-check
/**
 * The replay viewer: finished hands of a table, or records the person opens from disk
 * (JSON or JSONL), stepped forwards and back, from any seat's view or all hands open,
 * with each hand's fair-deal proof checked by the server.
 * @module replay
 */
import {CONFIG, _, byId, fill, fmt, h, keepFocus, post} from "./dom.js";
import {domino, endsView, halves, lineView, moveWords} from "./domino.js";

/** @type {any[]} */ let hands = [];
/** @type {string[]} */ let texts = [];
/** @type {string[] | null} */ let names = null;
let hand = 0;
let ply = 0;
let seat = -1; // -1: all hands open

/** @param {string} text */
function status(text) {
  fill("status", text);
}

/**
 * @param {number} s
 * @returns {string}
 */
function nameOf(s) {
  return names?.[s] || fmt(_("Player {n}"), {n: s + 1});
}

/**
 * Read records (a JSON record or JSONL lines) and ask the server for their positions.
 * @param {string} text
 */
async function open(text) {
  status(_("Reading…"));
  try {
    const data = await post("/api/replay", text);
    hands = data.hands;
    names = data.names;
    const trimmed = text.trim();
    texts = trimmed.startsWith("{") && hands.length === 1 ? [trimmed]
      : trimmed.split("\n").filter((l) => l.trim());
  } catch (err) {
    status(fmt(_("This file cannot be replayed: {why}"), {why: String(
      /** @type {Error} */ (err).message)}));
    return;
  }
  if (!hands.length) {
    status(_("No finished hand yet."));
    return;
  }
  status(fmt(_("{n} hands loaded."), {n: hands.length}));
  byId("viewer").hidden = false;
  const handPick = /** @type {HTMLSelectElement} */ (byId("hand-pick"));
  handPick.replaceChildren(...hands.map((_x, i) => h("option", {value: i},
    fmt(_("Hand {n}"), {n: i + 1}))));
  pickHand(0);
}

/** @param {number} i */
function pickHand(i) {
  hand = i;
  ply = 0;
  const players = hands[i].players;
  const seatPick = /** @type {HTMLSelectElement} */ (byId("seat-pick"));
  seatPick.replaceChildren(h("option", {value: -1}, _("All hands open")),
    ...Array.from({length: players}, (_x, s) => h("option", {value: s},
      fmt(_("As {name} sees it"), {name: nameOf(s)}))));
  seatPick.value = String(seat < players ? seat : -1);
  seat = Number(seatPick.value);
  fill("verdict");
  /** @type {HTMLButtonElement} */ (byId("verify")).disabled = !hands[i].fair;
  render();
}

function render() {
  keepFocus(() => {
    const hd = hands[hand];
    const frames = hd.frames;
    const f = frames[ply];
    fill("where", fmt(_("Move {k} of {n}"), {k: ply, n: frames.length - 1}),
      f.move ? ` · ${nameOf(f.move.seat)}: ${moveWords(f.move)}` : "");
    fill("ends", endsView(f.ends));
    fill("line", lineView(f.line, byId("viewer").clientWidth || 360, f.move?.type === "play"
      ? lastIndex(frames, ply) : -1));
    fill("hands", f.hands.map((/** @type {string[]} */ tiles, /** @type {number} */ s) => {
      const shown = seat === -1 || seat === s || ply === frames.length - 1 && hd.result;
      return h("div", {class: `seat${f.to_move === s ? " to-move" : ""}`},
        h("p", {class: "who"}, h("strong", null, nameOf(s)), " · ",
          fmt(_("Score: {n}"), {n: f.points[s]})),
        h("p", {class: "tiles"}, shown ? tiles.map((t) => {
          const [a, b] = halves(t);
          return domino(a, b, {cls: "small"});
        }) : fmt(_("{n} tiles, face down"), {n: tiles.length})));
    }));
    for (const id of ["first", "back"]) {
      /** @type {HTMLButtonElement} */ (byId(id)).disabled = ply === 0;
    }
    for (const id of ["fwd", "last"]) {
      /** @type {HTMLButtonElement} */ (byId(id)).disabled = ply === frames.length - 1;
    }
    const result = hd.result;
    fill("result", result && ply === frames.length - 1 ? h("p", {id: "outcome"},
      result.winner === null ? _("No winner.") : fmt(_("{name} wins the hand."),
        {name: nameOf(result.winner)}), " ",
      fmt(_("Points: {points}"), {points: result.points.join(" / ")})) : null);
  });
}

/**
 * Where the last tile was laid: the left end when the line grew at the left.
 * @param {any[]} frames
 * @param {number} k
 * @returns {number}
 */
function lastIndex(frames, k) {
  const m = frames[k].move;
  return m.end === "L" ? 0 : frames[k].line.length - 1;
}

/** @param {number} k */
function go(k) {
  ply = Math.max(0, Math.min(hands[hand].frames.length - 1, k));
  render();
}

async function verify() {
  fill("verdict", _("Checking…"));
  try {
    const r = (await post("/api/verify", texts[hand] || "")).hands[0];
    fill("verdict", r.verified ? fmt(_("Fair deal verified: the secret matches the commitment "
      + "{c}… and gives this deal."), {c: String(r.commitment).slice(0, 16)})
      : fmt(_("Not verified: {why}"), {why: (r.problems || []).join("; ")}));
  } catch (err) {
    fill("verdict", String(/** @type {Error} */ (err).message));
  }
}

byId("load").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const file = /** @type {HTMLInputElement} */ (byId("file")).files?.[0];
  const tid = /** @type {HTMLInputElement} */ (byId("table-id")).value.trim();
  if (file) {
    await open(await file.text());
  } else if (tid) {
    await openTable(tid);
  } else {
    status(_("Choose a file or name a table."));
  }
});

/** @param {string} tid */
async function openTable(tid) {
  const res = await fetch(`/api/tables/${encodeURIComponent(tid)}/records.jsonl`);
  if (!res.ok) {
    status(_("There is no such table."));
    return;
  }
  const text = await res.text();
  if (!text.trim()) {
    status(_("No finished hand yet."));
    return;
  }
  try {
    names = (await (await fetch(`/api/tables/${encodeURIComponent(tid)}/replay`)).json()).names;
  } catch {
    names = null;
  }
  const keep = names;
  await open(text);
  names = keep || names;
  if (hands.length) pickHand(0);
}

byId("hand-pick").addEventListener("change", (ev) =>
  pickHand(Number(/** @type {HTMLSelectElement} */ (ev.target).value)));
byId("seat-pick").addEventListener("change", (ev) => {
  seat = Number(/** @type {HTMLSelectElement} */ (ev.target).value);
  render();
});
byId("first").addEventListener("click", () => go(0));
byId("back").addEventListener("click", () => go(ply - 1));
byId("fwd").addEventListener("click", () => go(ply + 1));
byId("last").addEventListener("click", () => go(Infinity));
byId("verify").addEventListener("click", verify);
document.addEventListener("keydown", (ev) => {
  if (byId("viewer").hidden || ev.target instanceof HTMLInputElement
    || ev.target instanceof HTMLSelectElement) return;
  if (ev.key === "ArrowRight") go(ply + 1);
  else if (ev.key === "ArrowLeft") go(ply - 1);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(Infinity);
});

if (CONFIG.table) openTable(String(CONFIG.table));
