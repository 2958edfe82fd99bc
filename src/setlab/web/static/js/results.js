// Results: the proven tables M(n), m(n) with their proof status, from the results store.
import { $, api, el, say } from "./util.js";

let properties = 4;
let ready = false;

export async function enter() {
  if (!ready) {
    ready = true;
    for (const button of document.querySelectorAll("#page-results .segmented button")) {
      button.addEventListener("click", () => { properties = Number(button.dataset.p); load(); });
    }
  }
  await load();
}

// An open value shows both proven bounds, low … high: the witness is the low end of a maximum
// and the high end of a minimum.
export function cell(r, sense) {
  if (!r || r.value === null) return [el("td", { class: "unknown", text: "–" }), el("td")];
  const status = r.proven ? "proven" : "open";
  const [low, high] = sense === "max" ? [r.value, r.bound ?? "?"] : [r.bound ?? "?", r.value];
  const value = r.proven ? String(r.value) : `${low} … ${high}`;
  return [
    el("td", { class: `value ${status}`, text: value }),
    el("td", { class: `method ${status}`, text: r.proven ? `✓ ${r.method}` : "open" }),
  ];
}

async function load() {
  for (const button of document.querySelectorAll("#page-results .segmented button")) {
    button.setAttribute("aria-checked", Number(button.dataset.p) === properties ? "true" : "false");
  }
  let answer;
  try {
    answer = await api(`/api/results?properties=${properties}`);
  } catch (error) {
    say($("results-message"), error.message, "bad");
    return;
  }
  const rows = answer.rows.filter((row) => row.max || row.min);
  if (!rows.length) {
    say($("results-message"), `The results store holds nothing for P = ${properties} yet: ` +
      `run “setlab maxsets -p ${properties} --table” and reload.`);
  } else {
    const proven = rows.reduce((k, r) => k + (r.max?.proven ? 1 : 0) + (r.min?.proven ? 1 : 0), 0);
    say($("results-message"), `${proven} of ${2 * answer.rows.length} values proven for P = ${properties}.`);
  }
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col", text: "n" }), el("th", { scope: "col", text: "M(n)" }),
    el("th", { scope: "col", class: "method", text: "proof" }), el("th", { scope: "col", text: "m(n)" }),
    el("th", { scope: "col", class: "method", text: "proof" })));
  const body = el("tbody", {}, ...rows.map((row) => el("tr", {},
    el("th", { scope: "row", text: String(row.n) }), ...cell(row.max, "max"), ...cell(row.min, "min"))));
  $("results-table").replaceChildren(head, body);
}
