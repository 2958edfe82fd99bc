// Play together: a room over a WebSocket; the server decides who claimed first.
import { $, api, cardImage, deck, el, positionOfKey, renderBoard, say, typing } from "./util.js";

let names = {};
let session = null;     // {room, player, number}
let state = null;
let socket = null;
let selected = new Set();
let retry = 0;
let retryTimer = null;
let ready = false;

const storageKey = (code) => `setlab-room-${code}`;

export async function enter(code) {
  if (!ready) {
    ready = true;
    for (const card of await deck()) names[card.index] = card;
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
    start(await api("/api/rooms", { name: event.target.elements.name.value }));
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
  ws.onmessage = (event) => receive(JSON.parse(event.data));
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

function receive(message) {
  if (message.type === "state") {
    const before = state;
    state = message;
    for (const card of [...selected]) if (!state.table.includes(card)) selected.delete(card);
    if (state.last && (!before || before.version !== state.version) && state.last.cards.length) {
      const who = state.last.player === session.number ? "You" : state.last.name;
      say($("room-message"), `${who} took a set.`, state.last.player === session.number ? "good" : "");
    }
    draw();
  } else if (message.type === "claim" || message.type === "noset" || message.type === "new") {
    if (!message.ok) {
      const reasons = message.reasons.join("; ");
      say($("room-message"), message.type === "claim" ? `Not a set: ${reasons}.` : `${reasons}.`, "bad");
      if (message.type === "claim") setTimeout(() => { selected.clear(); draw(); }, 650);
    }
  } else if (message.type === "error") {
    say($("room-message"), message.error, "bad");
  }
}

function toggle(card) {
  if (!state || state.over) return;
  if (selected.has(card)) selected.delete(card); else selected.add(card);
  draw();
  if (selected.size === 3) send({ type: "claim", cards: [...selected] });
}

function draw() {
  if (!state) return;
  $("room-code").textContent = state.room;
  $("room-deck").textContent = state.deck_left;
  $("room-new").hidden = !state.over;
  renderBoard($("room-board"), state.table, names, selected, toggle);
  const players = [...state.players].sort((a, b) => b.score - a.score);
  $("room-players").replaceChildren(...players.map((p) => el("li",
    { class: (p.number === session.number ? "me " : "") + (p.online ? "online" : "away") },
    el("span", { class: "dot", "aria-label": p.online ? "online" : "away" }),
    el("span", { class: "name", text: p.name + (p.number === session.number ? " (you)" : "") }),
    el("b", { class: "score", text: String(p.score) }))));
  if (state.last && state.last.cards.length) {
    $("room-last").replaceChildren(
      el("p", { class: "small", text: `taken by ${state.last.name}` }),
      el("div", { class: "mini-cards" }, ...state.last.cards.map((c) => cardImage(c))));
  }
  if (state.over) say($("room-message"), "Game over: the deck is empty and no set is left.", "good");
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
