// The explorer: a board at a position, the moves played from it (the
// opening tree) and the games that reach it. The whole view lives in the
// URL: variant, notation, flip, fen (the start), moves (canonical paths),
// ply, the games filters (they choose the games of both the tree and the
// list; colour with player: that player's repertoire with one side) and
// the page of games; with edit=1, the position editor (editor.js) and its
// search.

import { api, badge, el, fill, loadBoard, onStepKeys, outcomeText, pageParams, setPageParams, showSummary, tag } from "./common.js";
import { Editor, marksOfFen, readSearch, searchParams, writePattern } from "./editor.js";

const PAGE = 20;
const FILTERS = ["player", "colour", "event", "opening", "date", "result", "status"];
const $ = (id) => document.getElementById(id);

const state = readState(pageParams());
let generation = 0;
let here = null;        // the line up to the current ply: its legal moves
let full = null;        // the whole line: every move's name and FEN
let selected = null;    // the square picked to move from
let editor = null;      // the position editor, made at set-up

function readState(params) {
  const moves = (params.moves || "").split(/[\s,]+/).filter(Boolean);
  let ply = Number.parseInt(params.ply ?? "", 10);
  if (!Number.isInteger(ply) || ply < 0 || ply > moves.length) ply = moves.length;
  const filters = {};
  for (const name of FILTERS) filters[name] = params[name] || "";
  return {
    variant: params.variant || "",
    notation: params.notation || "",
    flip: params.flip === "1",
    start: params.fen || "",
    moves,
    ply,
    filters,
    offset: Math.max(0, Number.parseInt(params.offset || "0", 10) || 0),
    edit: params.edit === "1",
    search: readSearch(params),
  };
}

function writeState(push) {
  setPageParams({
    variant: state.variant,
    notation: state.notation,
    flip: state.flip,
    fen: state.start,
    moves: state.moves.join(","),
    ply: state.ply === state.moves.length ? "" : state.ply,
    ...state.filters,
    offset: state.offset || "",
    edit: state.edit,
    ...(state.edit ? searchParams(state.search) : {}),
  }, push);
}

/** Whether a games filter is set. */
function filtered() {
  return FILTERS.some((name) => state.filters[name]);
}

/** Says which games the tree and the list are of: each filter's name and
 * value (names and other typed text as given, results and statuses in
 * words). */
function drawFilterNote() {
  const f = state.filters;
  const parts = [];
  const typed = (text) => el("span", { translate: "no" }, text);
  const part = (name, ...value) => el("span", {}, el("span", {}, name), ": ", ...value);
  if (f.player) parts.push(part("Player", typed(f.player), ...(f.colour ? [", ", el("span", {}, f.colour === "white" ? "as White" : "as Black")] : [])));
  else if (f.colour) parts.push(part("Colour", el("span", {}, f.colour === "white" ? "White" : "Black"), " ", el("span", {}, "(give a player)")));
  for (const [name, label] of [["event", "Event"], ["opening", "Opening"], ["date", "Date"]]) if (f[name]) parts.push(part(label, typed(f[name])));
  if (f.result) parts.push(part("Result", el("span", {}, outcomeText(f.result) || f.result)));
  if (f.status) parts.push(part("Status", el("span", {}, f.status)));
  const joined = parts.flatMap((p, i) => (i ? ["; ", p] : [p]));
  fill($("filter-note"), parts.length ? [el("span", {}, "Tree and games: filtered by"), " ", ...joined] : "Tree and games: all games");
}

function message(text) {
  fill($("message"), text || "");
}

/** Draws everything for the current state. */
async function show() {
  const mine = ++generation;
  selected = null;
  document.querySelector("main.explorer").classList.toggle("editing", state.edit);
  $("edit-toggle").setAttribute("aria-pressed", String(state.edit));
  if (state.edit) {
    // One board on the page at a time: the pictures share their definitions' ids.
    fill($("board"));
    message("");
    await editor.show();
    return;
  }
  fill($("editor-board"));
  fill($("choices"));
  const common = { variant: state.variant, fen: state.start, notation: state.notation };
  let whole, current;
  try {
    whole = (await api("/api/position", { ...common, moves: state.moves.join(",") })).data;
    current = state.ply === state.moves.length ? whole
      : (await api("/api/position", { ...common, moves: state.moves.slice(0, state.ply).join(",") })).data;
  } catch (error) {
    if (mine !== generation) return;
    message(error.message);
    return;
  }
  if (mine !== generation) return;
  message("");
  full = whole;
  here = current;
  $("fen").value = here.fen;
  fill($("side"), `${here.side === "white" ? "White" : "Black"} to move`);
  fill($("opening"), here.opening ? `Opening: ${here.opening}` : "");
  drawLine();
  drawFilterNote();
  await Promise.all([drawBoard(mine), drawTree(mine), drawGames(mine)]);
}

async function drawBoard(mine) {
  const ply = state.ply;
  const params = {
    variant: full.variant,
    fen: ply <= 1 ? full.start_fen : full.moves[ply - 2].fen,
    last: ply > 0 ? full.moves[ply - 1].move : "",
    notation: full.notation,
    flip: state.flip,
    clickable: true,
  };
  try {
    const svg = await loadBoard($("board"), params);
    if (mine !== generation || !svg) return;
    svg.addEventListener("click", onBoardClick);
  } catch (error) {
    message(error.message);
  }
}

function drawLine() {
  const items = [];
  // A move number begins with the rules' first side: a line whose start
  // has the other side to move begins half a move in.
  const offset = full.start_fen.startsWith(full.first_side === "black" ? "W" : "B") ? 1 : 0;
  full.moves.forEach((move, i) => {
    const half = i + offset;
    if (half % 2 === 0) items.push(el("span", { className: "num" }, `${half / 2 + 1}.`));
    else if (i === 0) items.push(el("span", { className: "num" }, `${(half - 1) / 2 + 1}…`));
    const cls = ["mv", i + 1 === state.ply ? "current" : "", i + 1 > state.ply ? "ahead" : ""].join(" ");
    items.push(el("span", { className: cls, "data-ply": i + 1, onclick: () => go(i + 1) }, move.name), " ");
  });
  fill($("line"), items.length ? items : el("span", { className: "note" }, "Start position: click a move in the tree, or a piece and then a square."));
}

async function drawTree(mine) {
  const body = $("tree").querySelector("tbody");
  let moves;
  try {
    moves = (await api("/api/tree", { variant: full.variant, fen: here.fen, notation: "numeric", ...state.filters })).data;
  } catch (error) {
    if (mine === generation) { fill(body); fill($("tree-note"), error.message); }
    return;
  }
  if (mine !== generation) return;
  const names = new Map(here.legal.map((m) => [m.move, m.name]));
  fill(body, moves.map((m) => {
    const decided = m.white_wins + m.draws + m.black_wins;
    const part = (n) => (decided ? (100 * n) / decided : 0);
    const segment = (cls, n, label) => {
      const span = el("span", { className: cls, title: `${label}: ${n}` }, part(n) >= 12 ? `${Math.round(part(n))}%` : "");
      span.style.width = `${part(n)}%`;
      return span;
    };
    return el("tr", { className: "clickable", "data-move": m.move, onclick: () => play(m.move) },
      el("td", {}, names.get(m.move) || m.move),
      el("td", { className: "num" }, m.games),
      el("td", { className: "num" }, `${m.share.toFixed(1)}%`),
      el("td", {}, el("div", { className: "bar" }, segment("w", m.white_wins, "White won"), segment("d", m.draws, "drawn"), segment("b", m.black_wins, "Black won"))),
      el("td", { className: "num" }, m.score === null ? "–" : m.score.toFixed(1)));
  }));
  const total = moves.reduce((n, m) => n + m.games, 0);
  const which = filtered() ? "filtered " : "";
  fill($("tree-note"), moves.length
    ? `${total} ${which}games continue from here (${full.variant}); score is for the side to move.`
    : `No stored ${which}${full.variant} game continues from here.`);
}

async function drawGames(mine) {
  const body = $("games").querySelector("tbody");
  let found;
  try {
    found = await api("/api/search", { variant: full.variant, fen: here.fen, limit: PAGE, offset: state.offset, ...state.filters });
  } catch (error) {
    if (mine === generation) { fill(body); fill($("games-count"), error.message); }
    return;
  }
  if (mine !== generation) return;
  document.dispatchEvent(new CustomEvent("explorer:games", { detail: { variant: full.variant, fen: here.fen, filters: { ...state.filters } } }));
  // Players in the order they move: Black first in English checkers and pool.
  const order = full.first_side === "black" ? ["Black", "White"] : ["White", "Black"];
  fill($("games-first"), order[0]);
  fill($("games-second"), order[1]);
  fill(body, found.data.map((g) => el("tr", { className: "clickable", "data-game": g.game, onclick: () => { location.href = `/game/${g.game}?ply=${g.ply}`; } },
    el("td", { className: "num" }, el("a", { href: `/game/${g.game}?ply=${g.ply}` }, g.game)),
    el("td", {}, tag(g.cleaned_tags, order[0])),
    el("td", {}, tag(g.cleaned_tags, order[1])),
    el("td", {}, tag(g.cleaned_tags, "Event")),
    el("td", {}, tag(g.cleaned_tags, "Date")),
    el("td", {}, g.opening ?? ""),
    el("td", { title: outcomeText(g.outcome) }, `${g.result ?? "*"} (${outcomeText(g.outcome)})`),
    el("td", {}, badge(g.status)),
    el("td", { className: "num" }, g.ply))));
  const total = found.total ?? found.data.length;
  fill($("games-count"), `(${total})`);
  const from = total ? state.offset + 1 : 0;
  fill($("games-page"), `${from}–${state.offset + found.data.length} of ${total}`);
  $("games-prev").disabled = state.offset === 0;
  $("games-next").disabled = state.offset + found.data.length >= total;
}

/** Plays a move from the current position (follows the line when it is the next move). */
function play(move) {
  if (state.moves[state.ply] === move) {
    state.ply += 1;
  } else {
    state.moves = state.moves.slice(0, state.ply).concat([move]);
    state.ply = state.moves.length;
  }
  state.offset = 0;
  writeState(true);
  show();
}

function go(ply) {
  const target = Math.max(0, Math.min(state.moves.length, ply));
  if (target === state.ply) return;
  state.ply = target;
  state.offset = 0;
  writeState(false);
  show();
}

function mark() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  for (const rect of svg.querySelectorAll("rect.sq")) {
    const square = Number(rect.dataset.square);
    rect.classList.toggle("selected", square === selected);
    const target = selected !== null && here.legal.some((m) => m.from === selected && m.to === square);
    rect.classList.toggle("target", target);
  }
}

function onBoardClick(event) {
  const rect = event.target.closest("rect.sq");
  if (!rect || !here) return;
  const square = Number(rect.dataset.square);
  fill($("choices"));
  if (selected !== null) {
    const fitting = here.legal.filter((m) => m.from === selected && m.to === square);
    if (fitting.length === 1) { play(fitting[0].move); return; }
    if (fitting.length > 1) {
      fill($("choices"), el("span", { className: "note" }, "Which capture?"),
        fitting.map((m) => el("button", { type: "button", "data-move": m.move, onclick: () => play(m.move) }, m.name)));
      return;
    }
  }
  selected = here.legal.some((m) => m.from === square) && square !== selected ? square : null;
  mark();
}

/** The FEN of the position the explorer shows (asked for when not drawn yet). */
async function explorerFen() {
  if (here) return here.fen;
  const { data } = await api("/api/position", { variant: state.variant, fen: state.start, notation: state.notation, moves: state.moves.slice(0, state.ply).join(",") });
  return data.fen;
}

function step(where) {
  if (state.edit) return;
  if (where === "prev") go(state.ply - 1);
  else if (where === "next") go(state.ply + 1);
  else if (where === "first") go(0);
  else if (where === "last") go(state.moves.length);
}

async function setUp() {
  showSummary($("summary"));
  try {
    const { data } = await api("/api/stats");
    const select = $("variant");
    for (const name of Object.keys(data.by_variant || {})) select.append(el("option", { value: name }, name));
  } catch { /* the summary says why */ }
  $("variant").value = state.variant;
  $("notation").value = state.notation;
  const form = $("filters");
  for (const name of FILTERS) form.elements[name].value = state.filters[name];
  $("variant").addEventListener("change", (e) => {
    state.variant = e.target.value; state.start = ""; state.moves = []; state.ply = 0; state.offset = 0; here = null;
    writeState(true); show();
  });
  $("notation").addEventListener("change", (e) => { state.notation = e.target.value; writeState(false); show(); });
  $("flip").addEventListener("click", () => { state.flip = !state.flip; writeState(false); show(); });
  editor = new Editor({ state, writeState, message, explorerFen });
  $("edit-toggle").addEventListener("click", async () => {
    state.edit = !state.edit;
    // Switched on with nothing to edit: start from the position shown.
    if (state.edit && !state.search.pattern && !state.search.material) {
      try { state.search.pattern = writePattern(marksOfFen(await explorerFen())); } catch (error) { message(error.message); }
    }
    writeState(true); show();
  });
  for (const where of ["first", "prev", "next", "last"]) $(where).addEventListener("click", () => step(where));
  $("fen-form").addEventListener("submit", (e) => {
    e.preventDefault();
    state.start = $("fen").value.trim(); state.moves = []; state.ply = 0; state.offset = 0;
    writeState(true); show();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    for (const name of FILTERS) state.filters[name] = form.elements[name].value.trim();
    state.offset = 0;
    writeState(true); show();
  });
  $("games-prev").addEventListener("click", () => { state.offset = Math.max(0, state.offset - PAGE); writeState(false); show(); });
  $("games-next").addEventListener("click", () => { state.offset += PAGE; writeState(false); show(); });
  onStepKeys(step);
  window.addEventListener("popstate", () => {
    Object.assign(state, readState(pageParams()));
    for (const name of FILTERS) form.elements[name].value = state.filters[name];
    $("variant").value = state.variant;
    $("notation").value = state.notation;
    show();
  });
  await show();
}

setUp();
