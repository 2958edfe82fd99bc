// Play together: a room over a WebSocket; the server decides who claimed first.
import { $, api, cardPicture, el, positionOfKey, renderBoard, say, typing } from "./util.js";
import { aNoun, deckOf, modeOf, modeSelect, noun } from "./modes.js";

let names = {};
let mode = null;        // the room's mode, as /api/modes describes it
let session = null;     // {room, player, number}
let state = null;
let socket = null;
let selected = new Set();
let refused = null;      // the timer that clears a refused selection while it flashes
let retry = 0;
let retryTimer = null;
let ready = false;
let inbox = Promise.resolve();  // messages are handled one after another, in order

const storageKey = (code) => `setlab-room-${code}`;

export async function enter(code) {
  if (!ready) {
    ready = true;
    await modeSelect($("room-mode"), "set");
    $("room-create").addEventListener("submit", create);
    $("room-join").addEventListener("submit", join);
    $("room-noset").addEventListener("click", () => send({ type: "noset" }));
    $("room-new").addEventListener("click", () => send({ type: "new" }));
    $("room-leave").addEventListener("click", leave);
    $("room-copy").addEventListener("click", copyLink);
  }
  if (code && (!session || session.room !== code)) {
    const saved = sessionStorage.getItem(storageKey(code));
    if (saved) {
      session = JSON.parse(saved);
      connect();
    } else {
      leave(false);
      $("room-join").elements.code.value = code;
      $("room-join").elements.name.focus();
    }
  }
  show();
}

export function key(event) {
  if (typing(event) || !state) return;
  const k = event.key.toLowerCase();
  if (k === "n") { send({ type: "noset" }); event.preventDefault(); return; }
  if (k === "escape") { selected.clear(); draw(); return; }
  const position = positionOfKey(k);
  if (position >= 0 && position < state.table.length) {
    toggle(state.table[position]);
    event.preventDefault();
  }
}

function show() {
  $("lobby").hidden = Boolean(session);
  $("room").hidden = !session;
}

async function create(event) {
  event.preventDefault();
  try {
    const form = event.target.elements;
    start(await api("/api/rooms", { name: form.name.value, mode: form.mode.value }));
  } catch (error) {
    say($("lobby-message"), error.message, "bad");
  }
}

async function join(event) {
  event.preventDefault();
  const form = event.target.elements;
  const code = form.code.value.trim().replace(/^.*#together\//, "");
  try {
    const answer = await api(`/api/rooms/${encodeURIComponent(code)}/join`, { name: form.name.value });
    start(answer);
  } catch (error) {
    say($("lobby-message"), error.message, "bad");
  }
}

function start(answer) {
  session = answer;
  sessionStorage.setItem(storageKey(answer.room), JSON.stringify(answer));
  history.replaceState(null, "", `#together/${answer.room}`);
  say($("lobby-message"), "");
  show();
  connect();
}

function leave(clear = true) {
  if (session && clear) sessionStorage.removeItem(storageKey(session.room));
  session = null;
  state = null;
  clearTimeout(retryTimer);
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  if (clear) history.replaceState(null, "", "#together");
  show();
}

function link(stateName, text) {
  $("room-link").dataset.state = stateName;
  $("room-link").textContent = text;
}

function connect() {
  if (!session) return;
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(session.room)}` +
    `?player=${encodeURIComponent(session.player)}`;
  link("connecting", "connecting");
  const ws = new WebSocket(url);
  socket = ws;
  window.setlabSocket = ws;  // lets a test drop the connection
  ws.onopen = () => { retry = 0; link("online", "online"); };
  ws.onmessage = (event) => { inbox = inbox.then(() => receive(JSON.parse(event.data))); };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    if (event.code === 4403) {
      say($("lobby-message"), "That room is closed or you are not one of its players.", "bad");
      leave();
      return;
    }
    link("offline", "reconnecting…");
    retry = Math.min(retry + 1, 6);
    retryTimer = setTimeout(connect, 250 * 2 ** (retry - 1));
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else say($("room-message"), "Not connected: reconnecting…", "bad");
}

async function receive(message) {
  if (message.type === "state") {
    const before = state;
    if (!mode || mode.name !== message.mode) {
      mode = await modeOf(message.mode);
      names = await deckOf(mode.name);
    }
    state = message;
    for (const card of [...selected]) {
      if (!state.table.includes(card) && !state.previous.includes(card)) selected.delete(card);
    }
    if (state.last && (!before || before.version !== state.version) && state.last.cards.length) {
      const who = state.last.player === session.number ? "You" : state.last.name;
      say($("room-message"), `${who} took ${aNoun(mode)}.`,
        state.last.player === session.number ? "good" : "");
    }
    draw();
  } else if (message.type === "claim" || message.type === "noset" || message.type === "new") {
    if (!message.ok) {
      const reasons = message.reasons.join("; ");
      const sentence = reasons.charAt(0).toUpperCase() + reasons.slice(1);  // "There is a set..."
      say($("room-message"), message.type === "claim" ? `Not ${aNoun(mode)}: ${reasons}.` : `${sentence}.`, "bad");
      if (message.type === "claim") {
        refused = setTimeout(() => { refused = null; selected.clear(); draw(); }, 650);
      }
    }
  } else if (message.type === "error") {
    say($("room-message"), message.error, "bad");
  }
}

function toggle(card) {
  if (!state || state.over) return;
  if (refused !== null) {  // a click while a refused choice still shows starts a new one
    clearTimeout(refused);
    refused = null;
    selected.clear();
  }
  if (selected.has(card)) selected.delete(card); else selected.add(card);
  draw();
  if (selected.size === state.size) send({ type: "claim", cards: [...selected] });
}

function draw() {
  if (!state) return;
  $("room-code").textContent = state.room;
  $("room-deck").textContent = state.deck_left;
  $("room-new").hidden = !state.over;
  $("room-title").textContent = mode.title;
  $("room-rule").textContent = mode.rule;  // whoever joins learns what to look for
  $("room-noset-label").textContent = `No ${noun(mode)} here`;
  renderBoard($("room-board"), state.table, names, selected, toggle, mode.properties);
  $("room-previous").hidden = !state.previous.length;
  renderBoard($("room-previous-cards"), state.previous, names, selected, toggle, mode.properties);
  for (const node of $("room-previous-cards").querySelectorAll("kbd")) node.remove();
  const players = [...state.players].sort((a, b) => b.score - a.score);
  $("room-players").replaceChildren(...players.map((p) => el("li",
    { class: (p.number === session.number ? "me " : "") + (p.online ? "online" : "away") },
    el("span", { class: "dot", "aria-label": p.online ? "online" : "away" }),
    el("span", { class: "name", text: p.name + (p.number === session.number ? " (you)" : "") }),
    el("b", { class: "score", text: String(p.score) }))));
  if (state.last && state.last.cards.length) {
    $("room-last").replaceChildren(
      el("p", { class: "small", text: `taken by ${state.last.name}` }),
      el("div", { class: "mini-cards" }, ...state.last.cards.map((c) => cardPicture(names[c], c, mode.properties))));
  }
  if (state.over) {
    const best = players.length ? players[0].score : 0;
    const winners = players.filter((p) => p.score === best && best > 0)
      .map((p) => (p.number === session.number ? "you" : p.name));
    const won = !winners.length ? "" : winners.length === 1
      ? ` ${winners[0] === "you" ? "You win" : `${winners[0]} wins`} with ${best}.`
      : ` A tie at ${best}: ${winners.join(" and ")}.`;
    say($("room-message"), `Game over: the deck is empty and no ${noun(mode)} is left.${won}`, "good");
  }
}

async function copyLink() {
  const url = `${location.origin}/#together/${session.room}`;
  try {
    await navigator.clipboard.writeText(url);
    say($("room-message"), "Link copied: send it to the other players.", "good");
  } catch {
    say($("room-message"), `Share this link: ${url}`);
  }
}
