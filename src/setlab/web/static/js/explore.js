// Explore AG(P,3): the house's one layout, clickable; lines drawn and counted; M(n), m(n).
import { $, api, el, say } from "./util.js";

let properties = 4;
let cards = new Set();
let ready = false;
let last = null;   // the newest answer
let added = null;  // the card added by "Add any card", to point out the sets it completes

export async function enter() {
  if (!ready) {
    ready = true;
    for (const button of document.querySelectorAll("#page-explore .segmented button")) {
      button.addEventListener("click", () => { properties = Number(button.dataset.p); cards.clear(); added = null; update(); });
    }
    $("explore-grid").addEventListener("click", (event) => {
      const node = event.target.closest("[data-card]");
      if (node) toggle(Number(node.dataset.card));
    });
    $("explore-grid").addEventListener("keydown", (event) => {
      const node = event.target.closest("[data-card]");
      if (node && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        toggle(Number(node.dataset.card), true);
      }
    });
    $("explore-clear").addEventListener("click", () => { cards.clear(); added = null; update(); });
    $("explore-cap").addEventListener("click", loadCap);
    $("explore-extra").addEventListener("click", addAny);
    $("explore-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("explore-input").value.trim();
      if (!new RegExp(`^[012]{${properties}}$`).test(text)) {
        say($("explore-message"), `Write a point as ${properties} digits 0, 1, 2.`, "bad");
        return;
      }
      toggle(parseInt(text, 3));
      $("explore-input").value = "";
    });
  }
  await update();
}

function digits(card) {
  return card.toString(3).padStart(properties, "0");
}

async function toggle(card, keepFocus = false) {
  if (cards.has(card)) cards.delete(card); else cards.add(card);
  added = null;
  await update();
  if (keepFocus) document.querySelector(`#explore-grid .site[data-card="${card}"]`)?.focus();
}

async function loadCap() {
  try {
    const cap = await api(`/api/cap?properties=${properties}`);
    cards = new Set(cap.cards);
    added = null;
    await update();
    say($("explore-message"), `The largest cap: ${cap.cards.length} cards and no line, from ${cap.source}.`);
  } catch (error) {
    say($("explore-message"), error.message, "bad");
  }
}

async function addAny() {
  const size = 3 ** properties;
  const outside = [...Array(size).keys()].filter((c) => !cards.has(c));
  if (!outside.length) return;
  const card = outside[Math.floor(Math.random() * outside.length)];
  cards.add(card);
  added = card;
  await update();
}

async function update() {
  $("explore-p").textContent = properties;
  for (const button of document.querySelectorAll("#page-explore .segmented button")) {
    button.setAttribute("aria-checked", Number(button.dataset.p) === properties ? "true" : "false");
  }
  try {
    last = await api("/api/explore", { properties, cards: [...cards] });
  } catch (error) {
    say($("explore-message"), error.message, "bad");
    return;
  }
  const holder = $("explore-grid");
  holder.innerHTML = last.svg;  // markup from setlab's own renderer: numbers and digit strings only
  const svg = holder.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "group");
  for (const site of svg.querySelectorAll(".site")) {
    const card = Number(site.dataset.card);
    site.setAttribute("tabindex", "0");
    site.setAttribute("role", "button");
    site.setAttribute("aria-pressed", cards.has(card) ? "true" : "false");
    site.setAttribute("aria-label", `point ${digits(card)}`);
    site.classList.toggle("on", cards.has(card));
  }
  if (added !== null) svg.querySelector(`.point[data-card="${added}"]`)?.classList.add("added");
  $("explore-n").textContent = last.n;
  $("explore-count").textContent = last.count;
  bounds();
  const lines = last.sets.map((line) => el("li", { class: added !== null && line.includes(added) ? "new" : "" },
    line.map(digits).join(" · ")));
  $("explore-lines").replaceChildren(...lines);
  if (added !== null) {
    const made = last.sets.filter((line) => line.includes(added));
    say($("explore-message"), made.length
      ? `Adding ${digits(added)} completes ${made.length} line${made.length === 1 ? "" : "s"}: ` +
        made.map((l) => l.map(digits).join(" + ")).join("; ")
      : `Adding ${digits(added)} completes no line.`, made.length ? "good" : "");
  } else if (!cards.size) {
    say($("explore-message"), "Click points (or focus them with Tab and press Enter).");
  } else {
    say($("explore-message"), "");  // an earlier word (a refused point, the cap loaded) is stale now
  }
}

function bounds() {
  const node = $("explore-bounds");
  const n = last.n;
  const part = (label, r) => r
    ? `${label}(${n}) = ${r.value}` + (r.proven ? ` (proven: ${r.method})` : ` (best known; bound ${r.bound ?? "?"})`)
    : `${label}(${n}) not in the results store`;
  node.replaceChildren(
    el("span", { text: part("M", last.max) }), el("br"), el("span", { text: part("m", last.min) }));
  node.dataset.kind = "";
  if (last.max && last.count === last.max.value) node.dataset.kind = "max";
  else if (last.min && last.count === last.min.value) node.dataset.kind = "min";
  if (!last.max && !last.min) node.append(el("br"), el("small", { text: "run setlab maxsets --table to fill it" }));
}
