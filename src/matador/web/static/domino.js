// @ts-check
/**
 * Dominoes drawn as SVG (pips, not digits), the line of play laid out as a snake that
 * turns at the edge of the board, and the words for ends and moves.
 * Nothing here knows a rule: tiles, ends and what each end takes come from the server.
 * @module domino
 */
import {_, fmt, h} from "./dom.js";

const NS = "http://www.w3.org/2000/svg";

/** Pip centres of each value on a 0..1 square. */
const PIPS = /** @type {[number, number][][]} */ ([
  [],
  [[0.5, 0.5]],
  [[0.25, 0.25], [0.75, 0.75]],
  [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
  [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  [[0.25, 0.25], [0.75, 0.25], [0.25, 0.5], [0.75, 0.5], [0.25, 0.75], [0.75, 0.75]],
]);

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * A domino showing `a` then `b` (left to right, or top to bottom when `vertical`).
 * It is an image named by its halves ("3-4") unless `label` is "" (then decorative).
 * @param {number} a
 * @param {number} b
 * @param {{vertical?: boolean, label?: string, cls?: string}} [opts]
 * @returns {SVGElement}
 */
export function domino(a, b, opts = {}) {
  const vertical = !!opts.vertical;
  const w = vertical ? 50 : 100;
  const hgt = vertical ? 100 : 50;
  const root = svg("svg", {viewBox: `0 0 ${w} ${hgt}`, class: `domino ${opts.cls || ""}`});
  const label = opts.label === undefined ? `${a}-${b}` : opts.label;
  if (label) {
    root.setAttribute("role", "img");
    root.setAttribute("aria-label", label);
  } else {
    root.setAttribute("aria-hidden", "true");
  }
  root.setAttribute("focusable", "false");
  root.appendChild(svg("rect", {x: 1.5, y: 1.5, width: w - 3, height: hgt - 3, rx: 7,
    class: "face"}));
  root.appendChild(svg("line", vertical ? {x1: 8, y1: 50, x2: 42, y2: 50, class: "bar"}
    : {x1: 50, y1: 8, x2: 50, y2: 42, class: "bar"}));
  [a, b].forEach((value, half) => {
    const ox = vertical ? 0 : half * 50;
    const oy = vertical ? half * 50 : 0;
    for (const [x, y] of PIPS[value] || []) {
      root.appendChild(svg("circle", {cx: ox + 5 + x * 40, cy: oy + 5 + y * 40, r: 4.6,
        class: "pip"}));
    }
  });
  return root;
}

/**
 * A tile name "a-b" as its two numbers.
 * @param {string} name
 * @returns {[number, number]}
 */
export function halves(name) {
  const [a, b] = name.split("-").map(Number);
  return [a, b];
}

/**
 * What an end takes, in words: "takes a 3 or a matador", "matadors only".
 * @param {number[]} takes
 * @returns {string}
 */
export function takesText(takes) {
  if (!takes.length) return _("matadors only");
  return fmt(_("takes a {n} or a matador"), {n: takes.join(", ")});
}

/**
 * @typedef {{left: number, right: number, left_takes: number[], right_takes: number[]}} Ends
 */

/**
 * The two ends, each with what it shows and what it takes.
 * @param {Ends | null} ends
 * @returns {HTMLElement[]}
 */
export function endsView(ends) {
  if (!ends) return [h("p", {class: "end-empty"}, _("The line is empty: the leader opens."))];
  return [
    h("p", {class: "end end-left"}, h("span", {class: "arrow", "aria-hidden": "true"}, "◀ "),
      fmt(_("Left end {v}: {takes}"), {v: ends.left, takes: takesText(ends.left_takes)})),
    h("p", {class: "end end-right"},
      fmt(_("Right end {v}: {takes}"), {v: ends.right, takes: takesText(ends.right_takes)}),
      h("span", {class: "arrow", "aria-hidden": "true"}, " ▶")),
  ];
}

/**
 * The line of play as rows of a snake: the first row runs left to right, the next one
 * right to left under it, and so on, so touching halves stay side by side at every turn.
 * `highlight` is the index of the tile laid last (or -1).
 * @param {number[][]} line pairs as laid, left to right
 * @param {number} width the board's width in pixels
 * @param {number} highlight
 * @returns {HTMLElement}
 */
export function lineView(line, width, highlight) {
  const tileW = width < 500 ? 58 : 74;
  const perRow = Math.max(2, Math.floor((width - 8) / (tileW + 4)));
  const box = h("div", {class: "snake", role: "list",
    "aria-label": fmt(_("{n} tiles on the line"), {n: line.length})});
  for (let start = 0, row = 0; start < line.length; start += perRow, row++) {
    const reversed = row % 2 === 1;
    const el = h("div", {class: `snake-row${reversed ? " reversed" : ""}`});
    line.slice(start, start + perRow).forEach(([a, b], k) => {
      const i = start + k;
      const cls = [i === highlight ? "last" : "", i === 0 ? "first-tile" : "",
        i === line.length - 1 ? "last-tile" : ""].join(" ");
      const item = h("div", {role: "listitem", class: `cell ${cls}`,
        "aria-label": `${a}-${b}${i === highlight ? ", " + _("laid last") : ""}`});
      // a row drawn right to left shows each tile turned round
      item.appendChild(reversed ? domino(b, a, {label: ""}) : domino(a, b, {label: ""}));
      el.appendChild(item);
    });
    box.appendChild(el);
  }
  return box;
}

/**
 * The line after a move event: `end` "L"/"R" or null (the opening), `ends` the ends after.
 * The exposed half becomes the end; the other half touches the line.
 * @param {number[][]} line
 * @param {{tile: string, end: string | null, ends: number[]}} move
 * @returns {{line: number[][], index: number}}
 */
export function lay(line, move) {
  const [a, b] = halves(move.tile);
  if (move.end === null || !line.length) return {line: [[move.ends[0], move.ends[1]]], index: 0};
  if (move.end === "L") {
    const exposed = move.ends[0];
    const touch = exposed === a ? b : a;
    return {line: [[exposed, touch], ...line], index: 0};
  }
  const exposed = move.ends[1];
  const touch = exposed === a ? b : a;
  return {line: [...line, [touch, exposed]], index: line.length};
}

/**
 * A legal move in words: "3-4 on the left end (leaves 4 open)".
 * @param {{type: string, tile?: string, end?: string | null, exposed?: number,
 *   left?: number, right?: number}} m
 * @returns {string}
 */
export function moveWords(m) {
  if (m.type === "draw") return _("Draw a tile");
  if (m.type === "pass") return _("Pass");
  if (m.end === null || m.end === undefined) {
    return fmt(_("Open with {tile}"), {tile: `${m.left}-${m.right}`});
  }
  return fmt(m.end === "L" ? _("{tile} on the left end (leaves {v} open)")
    : _("{tile} on the right end (leaves {v} open)"), {tile: m.tile || "", v: m.exposed ?? ""});
}
