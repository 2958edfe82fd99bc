// Shared helpers: the JSON API, building elements safely (text only, never HTML), card buttons.

export class ApiError extends Error {}

export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError("the setlab server cannot be reached");
  }
  const data = await response.json().catch(() => ({ error: `server answered ${response.status}` }));
  if (!response.ok) throw new ApiError(data.error || `server answered ${response.status}`);
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) node.append(child);
  return node;
}

export function $(id) {
  return document.getElementById(id);
}

export function say(node, text, kind = "") {
  node.textContent = text;
  node.dataset.kind = kind;
}

let deckCache = null;
export async function deck() {
  deckCache ??= api("/api/deck").then((d) => d.cards);
  return deckCache;
}

export function cardImage(index, properties = 4) {
  const suffix = properties === 4 ? "" : `?properties=${properties}`;
  return el("img", { src: `/api/cards/${index}.svg${suffix}`, alt: "", draggable: "false" });
}

// A card of a mode's deck (see modes.js): the picture the server draws of it.
export function cardPicture(info, index, properties = 4) {
  if (!info || !info.picture) return cardImage(index, properties);
  return el("img", { src: info.picture, alt: "", draggable: "false" });
}

// Keys for the cards of a board laid out column by column in three rows.
const KEY_ROWS = ["qwertyuio", "asdfghjkl", "zxcvbnm,."];
export function keyFor(position) {
  const column = Math.floor(position / 3), row = position % 3;
  return KEY_ROWS[row][column] ?? "";
}
export function positionOfKey(key) {
  for (let row = 0; row < 3; row++) {
    const column = KEY_ROWS[row].indexOf(key);
    if (column >= 0) return column * 3 + row;
  }
  return -1;
}

// A board of card buttons; `onToggle(card)` is called when a card is clicked or its key pressed.
export function renderBoard(container, cards, names, selected, onToggle, properties = 4) {
  // A card chosen from the keyboard keeps the focus through the redraw it causes.
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset.card : undefined;
  container.replaceChildren();
  container.style.setProperty("--columns", Math.max(4, Math.ceil(cards.length / 3)));
  cards.forEach((card, position) => {
    const key = keyFor(position);
    const button = el(
      "button",
      {
        class: "card" + (selected.has(card) ? " selected" : ""),
        "data-card": card,
        "aria-pressed": selected.has(card) ? "true" : "false",
        "aria-label": names[card]?.name ?? `card ${card}`,
        title: names[card]?.name ?? "",
        onclick: () => onToggle(card),
      },
      cardPicture(names[card], card, properties),
    );
    if (key) button.append(el("kbd", { class: "key", "aria-hidden": "true", text: key }));
    container.append(button);
    if (focused !== undefined && String(card) === focused) button.focus();
  });
}

export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(r).padStart(2, "0")}`;
}

export function typing(event) {
  const t = event.target;
  return t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement ||
    t instanceof HTMLSelectElement || event.ctrlKey || event.metaKey || event.altKey;
}
