// Analyse: a board typed or picked; every set found and outlined; the picture to download.
import { $, api, cardImage, deck, el, say } from "./util.js";

let names = {};
let picked = [];   // card codes, in order
let ready = false;

export async function enter() {
  if (ready) return;
  ready = true;
  const cards = await deck();
  for (const card of cards) names[card.index] = card;
  $("analyse-picker").replaceChildren(...cards.map((card) => el("button", {
    class: "pick", "data-card": card.index, "aria-pressed": "false", "aria-label": card.name,
    title: card.name, onclick: () => pick(card),
  }, cardImage(card.index))));
  $("analyse-form").addEventListener("submit", (event) => { event.preventDefault(); analyse(); });
  $("analyse-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) analyse();
  });
  $("analyse-clear").addEventListener("click", () => { $("analyse-text").value = ""; sync(); $("analyse-result").hidden = true; });
  $("analyse-deal").addEventListener("click", () => {
    $("analyse-text").value = draw(cards.map((c) => c.code), 12).join(", ");
    analyse();
  });
}

// k cards drawn uniformly without replacement: the first k steps of a Fisher-Yates shuffle
// (sorting by a random comparator is not uniform: some cards came up twice as often).
export function draw(codes, k) {
  const pool = codes.slice();
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(Math.random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, k);
}

// A typed text spells a card when it is the card's code or name, in any case.
function spells(text, card) {
  return text.toUpperCase() === card.code || text.toLowerCase() === card.name.toLowerCase();
}

function noSetText(n, chance) {
  if (chance.pending) return `The chance that ${n} random cards hold no set: ${chance.note}`;
  if (chance.value === null) return `The chance that ${n} random cards hold no set: ${chance.note}.`;
  const percent = chance.float >= 0.001 ? `${(100 * chance.float).toPrecision(3)}%` : chance.float.toExponential(2);
  const odds = chance.float > 0 && chance.float < 0.5 ? `, odds ${chance.odds} against` : "";
  const fraction = el("b", { text: chance.value });
  const span = el("span", {}, `The chance that ${n} random cards hold no set is exactly `, fraction,
    ` = ${chance.float === 0 ? "0" : percent}${odds} (caps counted by setlab).`);
  return span;
}

function texts() {
  return $("analyse-text").value.split(/[\n,;]+/).map((t) => t.trim()).filter(Boolean);
}

function sync() {
  const list = texts();
  for (const node of $("analyse-picker").children) {
    const on = list.some((t) => spells(t, names[node.dataset.card]));
    node.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

function pick(card) {
  const list = texts();
  const at = list.findIndex((t) => spells(t, card));
  if (at >= 0) list.splice(at, 1); else list.push(card.code);
  $("analyse-text").value = list.join(", ");
  sync();
  if (list.length) analyse(); else $("analyse-result").hidden = true;
}

async function analyse() {
  const list = texts();
  if (!list.length) { say($("analyse-message"), "Type or pick some cards first.", "bad"); return; }
  let answer;
  try {
    answer = await api("/api/analyse", { cards: list });
  } catch (error) {
    say($("analyse-message"), error.message, "bad");
    $("analyse-result").hidden = true;  // the last board's sets are not this input's
    return;
  }
  say($("analyse-message"), "");
  $("analyse-text").value = answer.cards.map((c) => c.code).join(", ");
  sync();
  const n = answer.cards.length, k = answer.sets.length;
  $("analyse-summary").textContent = `${n} card${n === 1 ? "" : "s"}, ${k} set${k === 1 ? "" : "s"}`;
  const query = `cards=${encodeURIComponent(answer.cards.map((c) => c.code).join(","))}`;
  $("analyse-picture").src = `/api/board.svg?${query}`;
  $("analyse-picture").alt = `${n} card${n === 1 ? "" : "s"} with ${k} set${k === 1 ? "" : "s"} outlined`;
  $("analyse-svg").href = `/api/board.svg?${query}&download=1`;
  $("analyse-png").href = `/api/board.png?${query}&download=1`;
  const expected = answer.expected.toFixed(2);
  const items = answer.sets.map((triple, k) => el("li", { style: `border-left-color: ${answer.colours[k]}` },
    el("div", { class: "mini-cards" }, ...triple.map((i) => cardImage(answer.cards[i].index))),
    el("span", { text: triple.map((i) => answer.cards[i].name).join(" + ") })));
  if (!items.length) items.push(el("li", { class: "none", text: "No set: these cards are a cap." }));
  items.push(el("li", { class: "note odds", "data-odds": "expected" },
    `${n} cards drawn at random hold on average `, el("b", { text: answer.expected_exact }),
    ` = ${expected} sets (exactly C(${n},3)/79).`));
  items.push(el("li", { class: "note odds", "data-odds": "no-set" }, noSetText(n, answer.no_set)));
  $("analyse-sets").replaceChildren(...items);
  if (answer.no_set.pending) {  // the caps of AG(4,3) are being counted: ask again shortly
    const asked = $("analyse-text").value;
    setTimeout(() => { if ($("analyse-text").value === asked) analyse(); }, 2500);
  }
  $("analyse-result").hidden = false;
}
