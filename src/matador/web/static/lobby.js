// @ts-check
/**
 * The lobby and a new table's page: recent tables, the person's name, copy buttons.
 * @module lobby
 */
import {CONFIG, _, byId, fmt, h, load, remember, save} from "./dom.js";

/** @typedef {import("./dom.js").Recent} Recent */

function recent() {
  const box = document.getElementById("recent-box");
  if (!box) return;
  /** @type {Recent[]} */
  const list = load("matador.recent", []);
  if (!list.length) return;
  box.hidden = false;
  const ul = byId("recent");
  ul.replaceChildren(...list.map((r) => h("li", null,
    h("a", {href: r.link}, r.seat === null ? fmt(_("Table {id}, watching"), {id: r.id})
      : fmt(_("Table {id}, seat {n}"), {id: r.id, n: r.seat + 1})),
    " ", h("small", null, new Date(r.at).toLocaleString()))));
}

function name() {
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById("your-name"));
  if (!input) return;
  input.value = load("matador.name", "");
  input.addEventListener("change", () => save("matador.name", input.value.trim()));
}

function copies() {
  for (const button of document.querySelectorAll("button.copy")) {
    button.addEventListener("click", async () => {
      const el = button instanceof HTMLElement ? button.dataset.copy : "";
      const input = /** @type {HTMLInputElement} */ (byId(el || ""));
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        document.execCommand("copy");
      }
      button.textContent = _("Copied");
    });
  }
  for (const a of document.querySelectorAll("a[data-seat-link]")) {
    a.addEventListener("click", () => {
      const seat = Number(a instanceof HTMLElement ? a.dataset.seatLink : 0);
      remember({id: String(CONFIG.table), seat, link: String(a.getAttribute("href")),
        at: Date.now(), label: String(CONFIG.table)});
    });
  }
}

recent();
name();
copies();
