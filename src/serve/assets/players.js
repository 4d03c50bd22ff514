// The players page: every player's games, results and years (as
// `pdndb players`), sorted by any column (the whole list: it is read at
// once), each linking to their games in the explorer and to their
// repertoire as White and as Black.

import { api, el, fill, pageParams, setPageParams, showSummary } from "./common.js";
import { compareValues, sortable } from "./sortable.js";

const SHOWN = 500;   // rows drawn at most (the name filter finds the rest)
const $ = (id) => document.getElementById(id);
const params = pageParams();
const state = {
  name: params.name || "",
  variant: params.variant || "",
  min_games: params.min_games || "",
  sort: params.sort || "",
  direction: params.direction === "descending" ? "descending" : "ascending",
};
let players = [];

/** The explorer's address for a player's games (`colour`: as White or Black). */
function explorerHref(name, colour) {
  const search = new URLSearchParams({ player: name });
  if (colour) search.set("colour", colour);
  return `/?${search}`;
}

/** The years a player's games span, as `players` prints them. */
function years(p) {
  const year = (date) => (/^\d{4}/.test(date || "") ? date.slice(0, 4) : "");
  const first = year(p.first_date);
  const last = year(p.last_date);
  if (!first || !last) return first || last || "–";
  return first === last ? first : `${first}–${last}`;
}

/** The value a column sorts by. */
function sortValue(p, key) {
  if (key === "years") return p.first_date || "";
  if (key === "score") return p.score ?? -1;
  return p[key] ?? "";
}

function row(p) {
  const also = p.aliases.length ? el("span", { className: "also", translate: "no" }, ` (${p.aliases.join("; ")})`) : "";
  return el("tr", { "data-player": p.name },
    el("td", {}, el("a", { href: explorerHref(p.name), className: "player", translate: "no" }, p.name), also),
    // Numbers as the API gives them: the page writes them as its language does.
    el("td", { className: "num" }, p.games),
    el("td", { className: "num" }, p.wins),
    el("td", { className: "num" }, p.draws),
    el("td", { className: "num" }, p.losses),
    el("td", { className: "num" }, p.score === null ? "–" : `${p.score.toFixed(1)}%`),
    el("td", {}, years(p)),
    el("td", { className: "links" },
      el("a", { href: explorerHref(p.name, "white"), className: "as-white" }, "as White"),
      el("a", { href: explorerHref(p.name, "black"), className: "as-black" }, "as Black")));
}

function draw() {
  const needle = state.name.trim().toLocaleLowerCase();
  let list = needle
    ? players.filter((p) => [p.name, ...p.aliases].some((n) => n.toLocaleLowerCase().includes(needle)))
    : players.slice();
  if (state.sort) {
    const sign = state.direction === "ascending" ? 1 : -1;
    list = list.map((p, i) => ({ p, i }))
      .sort((a, b) => sign * compareValues(sortValue(a.p, state.sort), sortValue(b.p, state.sort)) || a.i - b.i)
      .map((x) => x.p);
  }
  fill($("players").querySelector("tbody"), list.slice(0, SHOWN).map(row));
  fill($("count"), `(${list.length})`);
  fill($("shown"), list.length > SHOWN ? `The first ${SHOWN} of ${list.length} are shown; a name narrows the list.` : "");
}

function writeState() {
  setPageParams({ ...state, direction: state.sort ? state.direction : "" }, false);
}

async function load() {
  try {
    players = (await api("/api/players", { variant: state.variant, min_games: state.min_games })).data;
    fill($("message"));
  } catch (error) {
    players = [];
    fill($("message"), error.message);
  }
  draw();
}

async function setUp() {
  showSummary($("summary"));
  const form = $("players-filter");
  try {
    const { data } = await api("/api/stats");
    for (const name of Object.keys(data.by_variant || {})) form.elements.variant.append(el("option", { value: name }, name));
  } catch { /* the summary says why */ }
  for (const name of ["name", "variant", "min_games"]) form.elements[name].value = state[name];
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const reload = form.elements.variant.value !== state.variant || form.elements.min_games.value.trim() !== state.min_games;
    state.name = form.elements.name.value;
    state.variant = form.elements.variant.value;
    state.min_games = form.elements.min_games.value.trim();
    writeState();
    if (reload) load(); else draw();
  });
  form.elements.name.addEventListener("input", () => { state.name = form.elements.name.value; writeState(); draw(); });
  sortable($("players"), {
    initial: state.sort ? { key: state.sort, direction: state.direction } : null,
    onSort: (key, direction) => { state.sort = key; state.direction = direction; writeState(); draw(); },
  });
  await load();
}

setUp();
