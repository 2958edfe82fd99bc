// Play: a solo game of SET or one of its variants, with a timer, hints and "no set here".
import { $, api, clock, el, positionOfKey, renderBoard, say, typing } from "./util.js";
import { aNoun, deckOf, modeOf, modeSelect, noun } from "./modes.js";

let game = null;       // {game, mode, size, previous, table, deck_left, taken, over, seconds, ...}
let mode = null;       // the mode as /api/modes describes it
let names = {};
let selected = new Set();
let hinted = new Set();
let started = 0;       // performance.now() at second 0 of the game
let ticker = null;
let busy = false;
let refused = null;    // the timer that clears a refused selection while it flashes
let ready = false;

const MODE_KEY = "setlab-play-mode";

export async function enter() {
  if (!ready) {
    ready = true;
    $("play-new").addEventListener("click", newGame);
    $("play-again").addEventListener("click", newGame);
    $("play-hint").addEventListener("click", hint);
    $("play-noset").addEventListener("click", noSet);
    $("play-mode").addEventListener("change", () => {
      localStorage.setItem(MODE_KEY, $("play-mode").value);
      newGame();
    });
    await modeSelect($("play-mode"), localStorage.getItem(MODE_KEY) ?? "set");
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
    mode = await modeOf($("play-mode").value);
    names = await deckOf(mode.name);
    game = await api("/api/solo", { mode: mode.name });
  } catch (error) {
    say($("play-message"), error.message, "bad");
    return;
  }
  selected.clear();
  hinted.clear();
  started = performance.now();
  clearInterval(ticker);
  ticker = setInterval(tick, 250);
  $("play-rule").textContent = mode.rule;
  $("play-noset-label").textContent = `No ${noun(mode)} here`;
  say($("play-message"), `Find ${aNoun(mode)}: click ${mode.size} cards.`);
  draw();
  loadStats();
}

function tick() {
  if (!game || game.over) return;
  $("play-timer").textContent = clock((performance.now() - started) / 1000);
}

function draw() {
  renderBoard($("play-board"), game.table, names, selected, toggle, mode.properties);
  $("play-board").dataset.game = game.game;
  $("play-board").dataset.mode = game.mode;
  for (const card of hinted) {
    document.querySelector(`#play-board [data-card="${card}"]`)?.classList.add("hint");
  }
  $("play-previous").hidden = !game.previous.length;
  renderBoard($("play-previous-cards"), game.previous, names, selected, toggle, mode.properties);
  for (const node of $("play-previous-cards").querySelectorAll("kbd")) node.remove();
  $("play-taken").textContent = game.taken;
  $("play-deck").textContent = game.deck_left;
  $("play-over").hidden = !game.over;
  $("play-board").classList.toggle("finished", game.over);
  if (game.over) {
    const what = noun(mode);
    $("play-timer").textContent = clock(game.seconds);
    $("play-summary").textContent =
      `${game.taken} ${what}${game.taken === 1 ? "" : "s"} in ${clock(game.seconds)}, ` +
      `${game.hints} hint${game.hints === 1 ? "" : "s"}, ` +
      `${game.mistakes} mistake${game.mistakes === 1 ? "" : "s"}; ` +
      `${game.table.length} cards left without ${aNoun(mode)}.`;
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

// A click while a refused choice still shows starts a new one with that card (a quick player
// would otherwise add a fourth card to the old three, or lose the click when they clear).
function forgetRefused() {
  if (refused === null) return;
  clearTimeout(refused);
  refused = null;
  selected.clear();
}

async function toggle(card) {
  if (busy || game.over) return;
  forgetRefused();
  if (selected.has(card)) selected.delete(card); else selected.add(card);
  draw();
  if (selected.size < game.size) return;
  const cards = [...selected];
  busy = true;
  try {
    const answer = await api(`/api/solo/${game.game}/claim`, { cards });
    if (answer.ok) {
      const taken = cards.map((c) => names[c].code).join(" · ");
      const before = new Set(game.table);
      game = { ...game, ...answer };
      selected.clear();
      hinted.clear();
      say($("play-message"), `${mode.title}! ${taken}`, "good");
      draw();
      flash(game.table.filter((c) => !before.has(c)), "dealt");
    } else {
      say($("play-message"), `Not ${aNoun(mode)}: ${answer.reasons.join("; ")}.`, "bad");
      flash(cards, "bad");
      game = { ...game, ...answer };
      refused = setTimeout(() => { refused = null; selected.clear(); draw(); }, 650);
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
    const what = noun(mode);
    if (!answer.cards.length) say($("play-message"), `No ${what} here: deal more cards with “No ${what} here”.`);
    else say($("play-message"), answer.cards.length === 1
      ? `Hint: this card is part of ${aNoun(mode)}.` : `Hint: these two cards are part of ${aNoun(mode)}.`);
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
    const what = noun(mode);
    if (answer.ok) {
      selected.clear();
      hinted.clear();
      say($("play-message"), game.over ? `Right: no ${what}, and the deck is empty.` :
        `Right, no ${what}: ${game.table.length - before} more cards dealt.`, "good");
    } else {
      say($("play-message"), `There is ${aNoun(mode)} on the table. Keep looking (or ask for a hint).`, "bad");
    }
    draw();
  } catch (error) {
    say($("play-message"), error.message, "bad");
  }
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

async function loadStats() {
  if (!mode) return;
  try {
    const stats = await api(`/api/stats?mode=${encodeURIComponent(mode.name)}`);
    $("stats-mode").textContent = mode.title;
    $("stats-games").textContent = stats.games;
    $("stats-best").textContent = stats.best === null ? "–" : clock(stats.best);
    $("stats-median").textContent = stats.median === null ? "–" : clock(stats.median);
    $("stats-recent").replaceChildren(...stats.recent.map((g) => el("li", {},
      el("b", { text: clock(g.seconds) }),
      ` · ${plural(g.sets, noun(mode))} · ${plural(g.hints, "hint")} · ${new Date(g.finished * 1000).toLocaleDateString()}`)));
    if (stats.modes.length) {
      $("stats-modes").replaceChildren(
        el("thead", {}, el("tr", {}, el("th", { text: "mode" }), el("th", { text: "games" }),
          el("th", { text: "best" }), el("th", { text: "median" }))),
        el("tbody", {}, ...stats.modes.map((m) => el("tr", { class: m.mode === mode.name ? "current" : "" },
          el("td", { text: m.title }), el("td", { text: String(m.games) }),
          el("td", { text: clock(m.best) }), el("td", { text: clock(m.median) })))));
    }
    if (stats.rooms.length) {
      $("stats-rooms").replaceChildren(...stats.rooms.slice(0, 6).map((g) => el("li", {},
        el("b", { text: g.player }), ` · ${g.mode} · ${plural(g.sets, "take")} · ${plural(g.mistakes, "mistake")} · ${clock(g.seconds)}`)));
    }
  } catch {
    // the statistics are a side panel: leave it as it was
  }
}
