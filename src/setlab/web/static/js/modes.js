// The modes of play (SET and its variants) and their decks, as the server describes them.
import { api, el } from "./util.js";

let modesCache = null;
const decks = new Map();

export async function modes() {
  modesCache ??= api("/api/modes").then((d) => d.modes);
  return modesCache;
}

export async function modeOf(name) {
  return (await modes()).find((m) => m.name === name) ?? (await modes())[0];
}

// {index: {index, code, name, picture}} for the cards of one mode's deck
export async function deckOf(name) {
  if (!decks.has(name)) {
    decks.set(name, api(`/api/deck?mode=${encodeURIComponent(name)}`).then((d) => {
      const names = {};
      for (const card of d.cards) names[card.index] = card;
      return names;
    }));
  }
  return decks.get(name);
}

// What a player looks for in this mode: "set" for the set-like modes, else the mode's title.
export function noun(mode) {
  return mode.structure === "set" ? "set" : mode.title.replace(/,.*/, "").replace(/-Chain$/, "");
}

// A <select> of the modes, with the current one chosen.
export async function modeSelect(select, current) {
  select.replaceChildren(...(await modes()).map((m) => el("option",
    { value: m.name, selected: m.name === current, text: `${m.title}: pick ${m.size}` })));
}

// "a set", "an UltraSet"
export function aNoun(mode) {
  const word = noun(mode);
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}
