// The game viewer: the move list as written (comments, NAGs, variations),
// the board following the keyboard and clicks; for a problem game the
// fault, the candidate moves as arrows and the other readings as branches.
// The URL holds the view: ply, notation, flip, reading, tags.

import { api, badge, el, fill, loadBoard, onStepKeys, pageParams, setPageParams, showSummary } from "./common.js";

const $ = (id) => document.getElementById(id);
const id = Number((location.pathname.match(/^\/game\/(\d+)/) || [])[1]);
const params = pageParams();
const state = {
  ply: params.ply === undefined ? null : Number.parseInt(params.ply, 10),
  notation: params.notation || "",
  flip: params.flip === "1",
  reading: Number.parseInt(params.reading || "0", 10) || 0,
  original: params.tags === "written",
  shown: "",   // a legal move at the fault drawn as an arrow
  aside: "",   // the FEN after a variation move being looked at
};
let game = null;

function writeState() {
  setPageParams({
    ply: state.ply,
    notation: state.notation,
    flip: state.flip,
    reading: state.reading || "",
    tags: state.original ? "written" : "",
  }, false);
}

/** The moves of the line shown: the main line, or a reading from where readings part. */
function line() {
  const main = game.moves || [];
  const reading = state.reading > 0 && game.readings ? game.readings[state.reading - 1] : null;
  if (!reading) return main;
  const from = reading.moves.length ? reading.moves[0].ply : main.length + 1;
  return main.slice(0, from - 1).concat(reading.moves);
}

/** How many plies of the line can be shown on a board (replayed). */
function playable(moves) {
  let n = 0;
  while (n < moves.length && moves[n].move && moves[n].fen) n += 1;
  return n;
}

async function load() {
  try {
    game = (await api(`/api/game/${id}`, { notation: state.notation })).data;
  } catch (error) {
    fill($("message"), error.message);
    fill($("title"), `Game ${id}`);
    return;
  }
  document.title = `pdndb · game ${id}`;
  const tags = game.cleaned_tags || game.tags || {};
  const white = tags.White || "?";
  const black = tags.Black || "?";
  fill($("title"), `${white} – ${black}`);
  fill($("source"), `Game ${game.game} · ${game.file}:${game.line} (game ${game.index} of the file) · ${game.variant}`,
    game.variant_from ? ` (rules ${game.variant_from}) ` : " ", badge(game.status));
  if (state.ply === null || !Number.isInteger(state.ply)) state.ply = game.ply ?? 0;
  drawOpening();
  drawTags();
  drawReadings();
  await show();
}

/** The game's opening, and the ply where it leaves the named line. */
function drawOpening() {
  const parts = [];
  if (game.opening) {
    const reached = game.opening_ply;
    const left = reached !== null && reached < game.moves.length
      ? el("a", { href: "#", onclick: (event) => { event.preventDefault(); go(reached + 1); } }, `leaves the named line at ply ${reached + 1}`)
      : "follows the named line to its end";
    parts.push(`Opening: ${game.opening} (reached at ply ${reached}; `, left, ")");
  }
  if (game.ballot) parts.push(parts.length ? " · " : "", `Ballot: ${game.ballot}`);
  fill($("opening"), parts);
}

function drawTags() {
  const tags = state.original ? game.tags : (game.cleaned_tags || game.tags);
  fill($("tags").querySelector("tbody"), Object.entries(tags || {}).map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, String(v)))));
  fill($("tags-toggle"), state.original ? "show cleaned" : "show as written");
}

function drawReadings() {
  const readings = game.readings || [];
  if (!readings.length) { fill($("readings")); return; }
  const buttons = [el("span", { className: "note" }, `Readings (${game.readings_total ?? readings.length}):`)];
  buttons.push(el("button", { type: "button", className: state.reading === 0 ? "active" : "", "data-reading": 0, onclick: () => choose(0) }, "as first read"));
  const main = game.moves || [];
  readings.forEach((r, i) => {
    // Named by the first ply where it leaves the moves as first read.
    const differs = r.moves.find((m) => !main[m.ply - 1] || main[m.ply - 1].move !== m.move);
    if (!differs) return; // the moves as first read: the button before
    const label = `ply ${differs.ply}: ${differs.move}`;
    buttons.push(el("button", { type: "button", className: state.reading === i + 1 ? "active" : "", "data-reading": i + 1, title: r.moves.map((m) => m.move).join(" "), onclick: () => choose(i + 1) },
      `${i + 1}: ${label}`));
  });
  fill($("readings"), buttons);
}

function choose(reading) {
  state.reading = reading;
  drawReadings();
  show();
}

function moveItem(m, i, current, faultPly) {
  const cls = ["mv"];
  if (i + 1 === current) cls.push("current");
  if (faultPly === m.ply) cls.push(game.status === "ambiguous" ? "parting" : "fault");
  const text = state.notation && m.name ? m.name : (m.token ?? m.name);
  return el("span", { className: cls.join(" "), "data-ply": m.ply, onclick: () => go(i + 1) }, text);
}

/** A variation as written: its moves (those that replay can be clicked to
 * see the board after them), NAGs, comments and nested variations. */
function variation(items) {
  const out = ["("];
  items.forEach((v, i) => {
    if (i > 0) out.push(" ");
    const text = v.token ?? v.name ?? "";
    if (v.fen) {
      const current = state.aside === v.fen;
      out.push(el("span", { className: `mv${current ? " current" : ""}`, "data-fen": v.fen, title: v.move || "",
        onclick: () => { state.aside = v.fen; show(); } }, text));
    } else {
      out.push(text);
    }
    for (const nag of v.nags || []) out.push(` ${nag}`);
    for (const comment of v.comments || []) out.push(" ", el("span", { className: "comment" }, `{${comment}}`));
    for (const inner of v.variations || []) out.push(" ", ...variation(inner));
  });
  out.push(")");
  return out;
}

function drawMoves(moves) {
  const faultPly = game.fault ? game.fault.ply : null;
  const items = [];
  moves.forEach((m, i) => {
    if (m.number !== undefined && (m.side === firstSide() || i === 0)) {
      items.push(el("span", { className: "num" }, m.side === firstSide() ? `${m.number}.` : `${m.number}…`));
    }
    items.push(moveItem(m, i, state.ply, faultPly));
    for (const nag of m.nags || []) items.push(el("span", { className: "nag" }, ` ${nag}`));
    for (const comment of m.comments || []) items.push(" ", el("span", { className: "comment" }, `{${comment}}`));
    for (const items_ of m.variations || []) items.push(" ", el("span", { className: "variation" }, variation(items_)));
    items.push(" ");
  });
  fill($("movelist"), items.length ? items : el("span", { className: "note" }, "No moves."));
}

function firstSide() {
  const first = (game.moves || [])[0];
  return first ? first.side : "white";
}

async function show() {
  if (!game) return;
  const moves = line();
  const max = playable(moves);
  state.ply = Math.max(0, Math.min(state.ply, max));
  writeState();
  drawMoves(moves);
  const ply = state.ply;
  const shownFen = state.aside || (ply === 0 ? game.start_fen : moves[ply - 1].fen);
  fill($("where"), state.aside ? "in a variation" : ply === 0 ? "start" : `after ply ${ply}`, " · ", shownFen.startsWith("W") ? "White to move" : "Black to move");
  $("explore").href = `/?variant=${encodeURIComponent(game.variant)}&fen=${encodeURIComponent(shownFen)}`;
  const board = { variant: game.variant, notation: game.notation || "", flip: state.flip };
  if (state.notation) board.notation = state.notation;
  if (state.aside) board.fen = state.aside;
  else if (ply === 0) board.fen = game.start_fen;
  else {
    board.fen = ply === 1 ? game.start_fen : moves[ply - 2].fen;
    board.last = moves[ply - 1].move;
  }
  const fault = game.fault;
  const atFault = fault && !state.aside && state.reading === 0 && ply === fault.ply - 1;
  if (atFault && game.status === "ambiguous" && fault.candidates) {
    board.arrows = fault.candidates.map((c) => c.move).join(",");
  } else if (atFault && state.shown) {
    board.arrows = state.shown;
  }
  drawFault(atFault);
  try {
    await loadBoard($("board"), board);
    fill($("message"));
  } catch (error) {
    fill($("message"), error.message);
  }
}

function drawFault(atFault) {
  const fault = game.fault;
  if (!fault) { fill($("fault")); return; }
  const parts = [];
  const where = el("a", { href: "#", onclick: (e) => { e.preventDefault(); state.reading = 0; drawReadings(); go(fault.ply - 1); } }, `ply ${fault.ply}`);
  if (game.status === "ambiguous") {
    const named = (fault.candidates || []).map((c) => (c.name === c.move ? c.move : `${c.name} (numeric ${c.move})`));
    parts.push("Readings part at ", where, `: ${fault.token} fits `, named.join(" and "), ".");
  } else {
    parts.push("The record stops at ", where, `: ${fault.token ?? "?"} fits no legal move.`);
    if (atFault && fault.legal) {
      parts.push(" Legal here (click to draw): ");
      for (const m of fault.legal) {
        parts.push(el("button", { type: "button", className: state.shown === m.move ? "active" : "", "data-move": m.move, title: m.move,
          onclick: () => { state.shown = state.shown === m.move ? "" : m.move; show(); } }, m.name), " ");
      }
    }
  }
  if (fault.message) parts.push(" ", fault.message);
  fill($("fault"), parts);
}

function go(ply) {
  state.ply = ply;
  state.shown = "";
  state.aside = "";
  show();
}

function step(where) {
  if (!game) return;
  const max = playable(line());
  if (where === "prev") go(Math.max(0, state.ply - 1));
  else if (where === "next") go(Math.min(max, state.ply + 1));
  else if (where === "first") go(0);
  else if (where === "last") go(max);
}

function setUp() {
  showSummary($("summary"));
  $("notation").value = state.notation;
  $("notation").addEventListener("change", async (e) => { state.notation = e.target.value; await load(); });
  $("flip").addEventListener("click", () => { state.flip = !state.flip; show(); });
  $("tags-toggle").addEventListener("click", () => { state.original = !state.original; writeState(); drawTags(); });
  for (const where of ["first", "prev", "next", "last"]) $(where).addEventListener("click", () => step(where));
  onStepKeys(step);
  load();
}

setUp();
