// The game viewer: the move list as written (comments, NAGs, variations),
// the board following the keyboard and clicks; for a problem game the
// fault, the candidate moves as arrows and the other readings as branches.
// A variation is followed like the main line: clicking one of its moves
// puts the board there and the arrows step along it.
// The URL holds the view: ply, variation, notation, flip, reading, tags.

import { api, badge, el, fill, loadBoard, onStepKeys, pageParams, players, resultCheckText, setPageParams, showSummary, tag } from "./common.js";
import { listOf, said, sentence, t } from "./i18n.js";

/** The words the page shows. */
const WORDS = {
  start: "start",
  afterPly: (ply) => `after ply ${ply}`,
  inVariation: "in a variation",
  toMove: (white) => (white ? "White to move" : "Black to move"),
  noMoves: "No moves.",
  illegal: "fits no legal move here",
  notReplayed: "not replayed: an earlier move of this line fits no legal move",
  mainLine: "↩ Main line",
  mainLineTitle: "Back to the main line where this variation leaves it",
  readings: (n) => `Readings (${n}):`,
  firstRead: "as first read",
  partAt: (ply) => `ply ${ply}`,
  readingsPart: "Readings part at {1}: {2} fits {3}.",
  stops: "The record stops at {1}: {2} fits no legal move.",
  legalHere: "Legal here (click to draw):",
  numeric: (name, move) => `${name} (numeric ${move})`,
  opening: (name, ply) => `Opening: ${name} (reached at ply ${ply}; `,
  leaves: (ply) => `leaves the named line at ply ${ply}`,
  follows: "follows the named line to its end",
  ballot: (name) => `Ballot: ${name}`,
  source: "Game {1} · {2} (game {3} of the file) · {4}",
  rulesFrom: "(rules {1})",
  showCleaned: "show cleaned",
  showWritten: "show as written",
  game: (id) => `Game ${id}`,
};

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
  // The variation followed: for each level, the index of the move it
  // replaces in the line above and which of that move's variations it is.
  path: readPath(params.var),
};
let game = null;

/** A variation path from the URL: `3.0,1.1` (empty when not one). */
function readPath(text) {
  if (!text) return [];
  const path = text.split(",").map((pair) => pair.split(".").map((n) => Number.parseInt(n, 10)));
  return path.every((p) => p.length === 2 && p.every((n) => Number.isInteger(n) && n >= 0)) ? path : [];
}

function writeState() {
  setPageParams({
    ply: state.ply,
    var: state.path.map(([i, v]) => `${i}.${v}`).join(","),
    notation: state.notation,
    flip: state.flip,
    reading: state.reading || "",
    tags: state.original ? "written" : "",
  }, false);
}

/** The line shown: the main line (or a reading) up to where the variation
 * followed leaves it, then the variation; `starts` are the plies where
 * each level of the path begins. */
function line() {
  let moves = readLine();
  let items = moves;
  let offset = 0;
  const starts = [];
  for (const [i, v] of state.path) {
    const variation = items[i] && items[i].variations ? items[i].variations[v] : null;
    if (!variation || !variation.length) {
      state.path = []; // a link to a variation the game does not have
      return { moves: readLine(), starts: [] };
    }
    moves = moves.slice(0, offset + i).concat(variation);
    offset += i;
    starts.push(offset + 1);
    items = variation;
  }
  return { moves, starts };
}

/** The part of the path the position shown lies in (the variations it
 * has entered), as a key. */
function shownPath(starts) {
  const entered = starts.filter((start) => start <= state.ply).length;
  return pathKey(state.path.slice(0, entered));
}

function pathKey(path) {
  return path.map(([i, v]) => `${i}.${v}`).join(",");
}

/** The moves of the game shown: the main line, or a reading from where readings part. */
function readLine() {
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
    fill($("title"), WORDS.game(id));
    return;
  }
  drawTitle();
  const path = el("span", { className: "path", translate: "no" }, `${game.file}:${game.line}`);
  fill($("source"), sentence(WORDS.source, String(game.game), path, String(game.index), game.variant),
    game.variant_from ? [" ", ...sentence(WORDS.rulesFrom, t(game.variant_from))] : "", " ", badge(game.status));
  if (state.ply === null || !Number.isInteger(state.ply)) state.ply = game.ply ?? 0;
  drawOpening();
  drawTags();
  drawReadings();
  await show();
}

/** Players (the side that moves first first, colours named), event, date
 * and result, in the heading and the window's title. */
function drawTitle() {
  const tags = game.cleaned_tags || game.tags || {};
  const who = players(tags, game.first_side || "white");
  const about = [tag(tags, "Event"), tag(tags, "Date"), game.result ?? tag(tags, "Result")].filter((t) => t && t !== "?");
  fill($("title"), who, about.length ? el("span", { className: "about" }, ` · ${about.join(" · ")}`) : "");
  document.title = [t(who), ...about, "pdndb"].join(" · ");
}

/** The game's opening, and the ply where it leaves the named line. */
function drawOpening() {
  const parts = [];
  if (game.opening) {
    const reached = game.opening_ply;
    const left = reached !== null && reached < game.moves.length
      ? el("a", { href: "#", onclick: (event) => { event.preventDefault(); state.path = []; go(reached + 1); } }, WORDS.leaves(reached + 1))
      : WORDS.follows;
    parts.push(WORDS.opening(game.opening, reached), left, ")");
  }
  if (game.ballot) parts.push(parts.length ? " · " : "", WORDS.ballot(game.ballot));
  fill($("opening"), parts);
}

function drawTags() {
  const tags = state.original ? game.tags : (game.cleaned_tags || game.tags);
  fill($("tags").querySelector("tbody"), Object.entries(tags || {}).map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", { translate: "no" }, String(v)))));
  fill($("tags-toggle"), state.original ? WORDS.showCleaned : WORDS.showWritten);
}

function drawReadings() {
  const readings = game.readings || [];
  if (!readings.length) { fill($("readings")); return; }
  const buttons = [el("span", { className: "note" }, WORDS.readings(game.readings_total ?? readings.length))];
  buttons.push(el("button", { type: "button", className: state.reading === 0 ? "active" : "", "data-reading": 0, onclick: () => choose(0) }, WORDS.firstRead));
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
  state.path = [];
  drawReadings();
  show();
}

/** A move of the list: `path` is the variation it belongs to, `at` the
 * ply it stands for (its place in the line shown when that variation is
 * followed). */
function moveItem(m, path, at, view) {
  const cls = ["mv"];
  if (pathKey(path) === view.path && m.ply === state.ply) cls.push("current");
  if (!path.length && view.faultPly === m.ply) cls.push(game.status === "ambiguous" ? "parting" : "fault");
  if (path.length && m.illegal) cls.push("illegal");
  const title = m.illegal ? WORDS.illegal : path.length && !m.fen ? WORDS.notReplayed : m.move || null;
  const text = state.notation && m.name ? m.name : (m.token ?? m.name);
  return el("span", { className: cls.join(" "), "data-ply": m.ply, "data-path": pathKey(path), title,
    onclick: () => { state.path = path; go(at); } }, text);
}

/** The moves of a line (`path` names the variation it is, [] for the main
 * line): numbers, moves, NAGs, comments and variations (each bracketed,
 * followed when one of its moves is clicked). */
function lineItems(moves, path, view) {
  const items = [];
  let broken = true; // a second side's move is numbered after a break
  moves.forEach((m, i) => {
    for (const comment of m.comments_before || []) items.push(el("span", { className: "comment" }, `{${comment.trim()}}`), " ");
    if (m.number !== undefined && (m.side === view.first || broken)) {
      items.push(el("span", { className: "num" }, m.side === view.first ? `${m.number}.` : `${m.number}…`));
    }
    broken = false;
    items.push(moveItem(m, path, m.ply, view));
    const glyphs = m.glyphs || m.nags || [];
    for (const glyph of glyphs) items.push(el("span", { className: "nag", title: (m.nags || [])[glyphs.indexOf(glyph)] || "" }, /^[!?()]+$/.test(glyph) ? glyph : ` ${glyph}`));
    for (const comment of m.comments || []) { items.push(" ", el("span", { className: "comment" }, `{${comment.trim()}}`)); broken = true; }
    (m.variations || []).forEach((variation, v) => {
      items.push(" ", el("span", { className: "variation", "data-path": pathKey([...path, [i, v]]) },
        "(", ...lineItems(variation, [...path, [i, v]], view), ")"));
      broken = true;
    });
    items.push(" ");
  });
  if (items.length && items[items.length - 1] === " ") items.pop();
  return items;
}

function drawMoves(view) {
  const items = [];
  for (const comment of game.comments || []) items.push(el("span", { className: "comment" }, `{${comment.trim()}}`), " ");
  items.push(...lineItems(readLine(), [], view));
  if (game.result && state.reading === 0) items.push(" ", el("span", { className: "result" }, game.result));
  fill($("movelist"), (game.moves || []).length ? items : [...items, el("span", { className: "note" }, WORDS.noMoves)]);
}

async function show() {
  if (!game) return;
  if (game.no_board) {
    // Never replayed, or its start does not read back: why, in words.
    fill($("where"));
    fill($("board"));
    fill($("message"), said(game.no_board_message) ?? game.no_board);
    drawMoves({ path: null, first: game.first_side || "white", faultPly: null });
    return;
  }
  const { moves, starts } = line();
  const max = playable(moves);
  state.ply = Math.max(0, Math.min(state.ply, max));
  writeState();
  const view = { path: shownPath(starts), first: game.first_side || "white", faultPly: game.fault ? game.fault.ply : null };
  drawMoves(view);
  $("main-line").hidden = state.path.length === 0;
  const ply = state.ply;
  const shownFen = ply === 0 ? game.start_fen : moves[ply - 1].fen;
  fill($("where"), view.path ? [WORDS.inVariation, " · "] : "", ply === 0 ? WORDS.start : WORDS.afterPly(ply), " · ", WORDS.toMove(shownFen.startsWith("W")));
  $("explore").href = `/?variant=${encodeURIComponent(game.variant)}&fen=${encodeURIComponent(shownFen)}`;
  const board = { variant: game.variant, notation: game.notation || "", flip: state.flip };
  if (state.notation) board.notation = state.notation;
  if (ply === 0) board.fen = game.start_fen;
  else {
    board.fen = ply === 1 ? game.start_fen : moves[ply - 2].fen;
    board.last = moves[ply - 1].move;
  }
  const fault = game.fault;
  const atFault = fault && !view.path && state.reading === 0 && ply === fault.ply - 1;
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
  if (!fault) { fill($("fault"), resultCheckText(game.result_check)); return; }
  const parts = [];
  const where = el("a", { href: "#", onclick: (e) => { e.preventDefault(); state.reading = 0; state.path = []; drawReadings(); go(fault.ply - 1); } }, WORDS.partAt(fault.ply));
  if (fault.token === null || fault.token === undefined) {
    // No token to name: the record's own message says what is wrong.
    parts.push(said(fault.message_key) ?? fault.message ?? "", " (", where, ")");
  } else if (game.status === "ambiguous") {
    const named = (fault.candidates || []).map((c) => (c.name === c.move ? c.move : t(WORDS.numeric(c.name, c.move))));
    parts.push(...sentence(WORDS.readingsPart, where, fault.token, listOf(named)));
  } else {
    parts.push(...sentence(WORDS.stops, where, fault.token));
    if (atFault && fault.legal) {
      parts.push(" ", WORDS.legalHere, " ");
      for (const m of fault.legal) {
        parts.push(el("button", { type: "button", className: state.shown === m.move ? "active" : "", "data-move": m.move, title: m.move,
          onclick: () => { state.shown = state.shown === m.move ? "" : m.move; show(); } }, m.name), " ");
      }
    }
  }
  fill($("fault"), parts);
}

function go(ply) {
  state.ply = ply;
  state.shown = "";
  show();
}

/** Back to the main line, at the position where the variation followed leaves it. */
function mainLine() {
  const { starts } = line();
  state.path = [];
  if (starts.length) go(starts[0] - 1);
  else show();
}

/** ←/→ step along the line shown (into the variation followed), Home goes
 * to the start, End to the end of that line. */
function step(where) {
  if (!game) return;
  const max = playable(line().moves);
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
  fill($("main-line"), WORDS.mainLine);
  $("main-line").title = WORDS.mainLineTitle;
  $("main-line").addEventListener("click", mainLine);
  onStepKeys(step);
  load();
}

setUp();
