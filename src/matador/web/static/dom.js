// @ts-check
/**
 * The tiny shared kit of the pages: element building, the page's words, storage.
 * No framework: a page renders by rebuilding its regions with `h` and keeps focus
 * by `data-key` (see `keepFocus`).
 * @module dom
 */

/** @type {Record<string, string>} */
const WORDS = JSON.parse(document.getElementById("i18n")?.textContent || "{}");

/** @type {Record<string, any>} */
export const CONFIG = JSON.parse(document.getElementById("config")?.textContent || "{}");

/**
 * The translation of `text` in the page's language (the text itself when missing).
 * Marked strings are collected by tools/i18n.py into the gettext catalogues.
 * @param {string} text
 * @returns {string}
 */
export function _(text) {
  return WORDS[text] || text;
}

/**
 * `text` with each `{name}` replaced by `values[name]`.
 * @param {string} text
 * @param {Record<string, string | number>} values
 * @returns {string}
 */
export function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (all, name) =>
    name in values ? String(values[name]) : all);
}

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | EventListener | null | undefined>} Attrs
 */

/**
 * A new element: `h("button", {class: "x", onclick: fn}, "text", child)`.
 * Attributes `on...` become listeners; `false`, `null` and `undefined` are left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Node} el
 * @param {(Child | Child[])[]} children
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace the children of the element `id` with `children`.
 * @param {string} id
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function fill(id, ...children) {
  const el = byId(id);
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * The element `id` (an error names it when missing).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

/**
 * Run `render` and give focus back to the element with the same `data-key` as the
 * one focused before, so keyboard users keep their place when a region is rebuilt.
 * @param {() => void} render
 */
export function keepFocus(render) {
  const active = document.activeElement;
  const key = active instanceof HTMLElement ? active.dataset.key : undefined;
  render();
  if (key && document.activeElement !== active) {
    const again = document.querySelector(`[data-key="${CSS.escape(key)}"]`)
      || document.querySelector(`[data-key^="${CSS.escape(key.split("-")[0])}-"]`)
      || document.querySelector("[data-key]");
    if (again instanceof HTMLElement) again.focus();
  }
}

/**
 * A value kept in localStorage as JSON (the fallback when absent or unreadable).
 * @template T
 * @param {string} key
 * @param {T} fallback
 * @returns {T}
 */
export function load(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/**
 * @param {string} key
 * @param {unknown} value
 */
export function save(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode or full: the page works without it
  }
}

/**
 * @typedef {{id: string, seat: number | null, link: string, at: number, label: string}} Recent
 */

/**
 * Remember a table the person opened (the lobby lists them, newest first).
 * @param {Recent} entry
 */
export function remember(entry) {
  /** @type {Recent[]} */
  const list = load("matador.recent", []).filter(
    (/** @type {Recent} */ r) => !(r.id === entry.id && r.seat === entry.seat));
  list.unshift(entry);
  save("matador.recent", list.slice(0, 12));
}

/**
 * POST `body` as JSON (or text) and read the JSON answer; an error answer throws its message.
 * @param {string} url
 * @param {unknown} body
 * @returns {Promise<any>}
 */
export async function post(url, body) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const res = await fetch(url, {method: "POST", body: text,
    headers: {"content-type": typeof body === "string" ? "text/plain" : "application/json"}});
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data?.error?.message || `${res.status}`);
  return data;
}
