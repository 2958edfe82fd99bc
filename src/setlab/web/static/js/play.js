// Play: a solo game by the rules, with a timer, hints and "no set here".
import { $, api, clock, deck, el, positionOfKey, renderBoard, say, typing } from "./util.js";

let game = null;       // {game, table, deck_left, taken, over, seconds, ...}
let names = {};
let selected = new Set();
let hinted = new Set();
let started = 0;       // performance.now() at second 0 of the game
let ticker = null;
let busy = false;

export async function enter() {
  if (!Object.keys(names).length) {
    for (const card of await deck()) names[card.index] = card;
    $("play-new").addEventListener("click", newGame);
    $("play-again").addEventListener("click", newGame);
    $("play-hint").addEventListener("click", hint);
    $("play-noset").addEventListener("click", noSet);
  }
  if (!game) await newGame();
  loadStats();
}

export function key(event) {
  if (typing(event) || !game) return;
  const k = event.key.toLowerCase();
  if (k === "h") { hint(); event.preventDefault(); return; }
  if (k === "n") { noSet(); event.preventDefault(); return; }
  if (k === "escape") { selected.clear(); draw(); return; }
  const position = positionOfKey(k);
  if (position >= 0 && position < game.table.length) {
    toggle(game.table[position]);
    event.preventDefault();
  }
}

async function newGame() {
  try {
    game = await api("/api/solo", {});
  } catch (error) {
    say($("play-message"), error.message, "bad");
    return;
  }
  selected.clear();
  hinted.clear();
  started = performance.now();
  clearInterval(ticker);
  ticker = setInterval(tick, 250);
  say($("play-message"), "Find a set: click three cards.");
  draw();
}

function tick() {
  if (!game || game.over) return;
  $("play-timer").textContent = clock((performance.now() - started) / 1000);
}

function draw() {
  renderBoard($("play-board"), game.table, names, selected, toggle);
  $("play-board").dataset.game = game.game;
  for (const card of hinted) {
    document.querySelector(`#play-board [data-card="${card}"]`)?.classList.add("hint");
  }
  $("play-taken").textContent = game.taken;
  $("play-deck").textContent = game.deck_left;
  $("play-over").hidden = !game.over;
  $("play-board").classList.toggle("finished", game.over);
  if (game.over) {
    $("play-timer").textContent = clock(game.seconds);
    $("play-summary").textContent =
      `${game.taken} sets in ${clock(game.seconds)}, ${game.hints} hint${game.hints === 1 ? "" : "s"}, ` +
      `${game.mistakes} mistake${game.mistakes === 1 ? "" : "s"}; ${game.table.length} cards left without a set.`;
    clearInterval(ticker);
    loadStats();
  }
}

function flash(cards, kind) {
  for (const card of cards) {
    const node = document.querySelector(`#play-board [data-card="${card}"]`);
    if (!node) continue;
    node.classList.remove("good", "bad");
    void node.offsetWidth;  // restart the animation
    node.classList.add(kind);
  }
}

async function toggle(card) {
  if (busy || game.over) return;
  if (selected.has(card)) selected.delete(card); else selected.add(card);
  draw();
  if (selected.size < 3) return;
  const cards = [...selected];
  busy = true;
  try {
    const answer = await api(`/api/solo/${game.game}/claim`, { cards });
    if (answer.ok) {
      const taken = cards.map((c) => names[c].name).join(" · ");
      const before = new Set(game.table);
      game = { ...game, ...answer };
      selected.clear();
      hinted.clear();
      say($("play-message"), `Set! ${taken}`, "good");
      draw();
      flash(game.table.filter((c) => !before.has(c)), "dealt");
    } else {
      say($("play-message"), `Not a set: ${answer.reasons.join("; ")}.`, "bad");
      flash(cards, "bad");
      game = { ...game, ...answer };
      setTimeout(() => { selected.clear(); draw(); }, 650);
    }
  } catch (error) {
    say($("play-message"), error.message, "bad");
  } finally {
    busy = false;
  }
}

async function hint() {
  if (!game || game.over) return;
  try {
    const answer = await api(`/api/solo/${game.game}/hint`, {});
    hinted = new Set(answer.cards);
    game = { ...game, ...answer };
    if (!answer.cards.length) say($("play-message"), "No set here: deal more cards with “No set here”.");
    else say($("play-message"), answer.cards.length === 1
      ? "Hint: this card is part of a set." : "Hint: these two cards are part of a set.");
    draw();
  } catch (error) {
    say($("play-message"), error.message, "bad");
  }
}

async function noSet() {
  if (!game || game.over) return;
  try {
    const answer = await api(`/api/solo/${game.game}/noset`, {});
    const before = game.table.length;
    game = { ...game, ...answer };
    if (answer.ok) {
      selected.clear();
      hinted.clear();
      say($("play-message"), game.over ? "Right: no set, and the deck is empty." :
        `Right, no set: ${game.table.length - before} more cards dealt.`, "good");
    } else {
      say($("play-message"), "There is a set on the table. Keep looking (or ask for a hint).", "bad");
    }
    draw();
  } catch (error) {
    say($("play-message"), error.message, "bad");
  }
}

async function loadStats() {
  try {
    const stats = await api("/api/stats");
    $("stats-games").textContent = stats.games;
    $("stats-best").textContent = stats.best === null ? "–" : clock(stats.best);
    $("stats-median").textContent = stats.median === null ? "–" : clock(stats.median);
    $("stats-recent").replaceChildren(...stats.recent.map((g) => el("li", {},
      el("b", { text: clock(g.seconds) }),
      ` · ${g.sets} sets · ${g.hints} hint${g.hints === 1 ? "" : "s"} · ${new Date(g.finished * 1000).toLocaleDateString()}`)));
  } catch {
    // the statistics are a side panel: leave it as it was
  }
}
