// The page's router: one section per hash (#play, #together, #analyse, #explore, #results).
import { $ } from "./util.js";

const PAGES = ["play", "together", "analyse", "explore", "results"];
const loaded = new Map();
export let current = null;

async function show() {
  const [name, ...rest] = location.hash.slice(1).split("/");
  const page = PAGES.includes(name) ? name : "play";
  for (const p of PAGES) {
    $(`page-${p}`).hidden = p !== page;
    document.querySelector(`nav a[data-page="${p}"]`).toggleAttribute("aria-current", p === page);
  }
  if (!loaded.has(page)) loaded.set(page, await import(`./${page}.js`));
  current = page;
  document.body.dataset.page = page;
  try {
    await loaded.get(page).enter(rest.join("/"));
  } finally {
    // A form's submit button starts disabled in the HTML: pressed before the page module has
    // wired the form, the browser would submit it natively and reload the page.
    for (const button of $(`page-${page}`).querySelectorAll("button[data-until-ready]")) {
      button.removeAttribute("data-until-ready");
      button.disabled = false;
    }
  }
}

// The P switches are radio groups: the arrow keys move the choice, as in any radio group.
for (const group of document.querySelectorAll('.segmented[role="radiogroup"]')) {
  group.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    const buttons = [...group.querySelectorAll('[role="radio"]')];
    const at = buttons.indexOf(document.activeElement);
    const next = buttons[(Math.max(at, 0) + step + buttons.length) % buttons.length];
    event.preventDefault();
    event.stopPropagation();  // not also a key of the page
    next.focus();
    next.click();
  });
}

window.addEventListener("hashchange", show);
document.addEventListener("keydown", (event) => {
  if (current && loaded.get(current)?.key) loaded.get(current).key(event);
});
show();
