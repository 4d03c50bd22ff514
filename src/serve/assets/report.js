// The problems page: `report` as a list, filtered by status, variant and
// file, a page at a time; each game links to the viewer at its fault.

import { api, badge, el, fill, pageParams, players, resultCheckText, setPageParams, showSummary } from "./common.js";
import { said } from "./i18n.js";

const PAGE = 50;
const FIELDS = ["status", "variant", "file", "resolved", "results"];
const $ = (id) => document.getElementById(id);
const state = readState(pageParams());

function readState(params) {
  const out = { offset: Math.max(0, Number.parseInt(params.offset || "0", 10) || 0) };
  for (const name of FIELDS) out[name] = params[name] || "";
  return out;
}

/** The position the viewer opens at: before the faulty move. */
function faultPly(record) {
  if (record.ply === null || record.ply === undefined) return null;
  return Math.max(0, record.ply - 1);
}

/** What is wrong with a game, in the page's language where it can be. */
function why(record) {
  if (record.message) return said(record.message_key) ?? record.message;
  if (record.resolved && record.resolved.length) return `${record.resolved.length} readings resolved`;
  return resultCheckText(record.result_check);
}

async function show() {
  const body = $("problems").querySelector("tbody");
  let found;
  try {
    found = await api("/api/report", { status: state.status, variant: state.variant, file: state.file, resolved: state.resolved, results: state.results, limit: PAGE, offset: state.offset });
  } catch (error) {
    fill(body);
    fill($("message"), error.message);
    return;
  }
  fill($("message"));
  fill(body, found.data.map((r) => {
    const at = faultPly(r);
    const href = `/game/${r.game}` + (at === null ? "" : `?ply=${at}`);
    return el("tr", { "data-game": r.game },
      el("td", { className: "num" }, el("a", { href }, r.game)),
      el("td", {}, badge(r.status)),
      el("td", {}, `${r.file}:${r.line} (game ${r.index})`),
      el("td", {}, players(r.tags, r.first_side)),
      el("td", {}, r.variant),
      el("td", { className: "num" }, r.ply ?? ""),
      el("td", {}, r.token ?? ""),
      el("td", {}, why(r)));
  }));
  const total = found.total ?? found.data.length;
  fill($("count"), `(${total})`);
  fill($("page"), `${total ? state.offset + 1 : 0}–${state.offset + found.data.length} of ${total}`);
  $("prev").disabled = state.offset === 0;
  $("next").disabled = state.offset + found.data.length >= total;
}

async function setUp() {
  showSummary($("summary"));
  const form = $("filters");
  try {
    const { data } = await api("/api/stats");
    for (const name of Object.keys(data.by_variant || {})) form.elements.variant.append(el("option", { value: name }, name));
  } catch { /* the summary says why */ }
  for (const name of FIELDS) form.elements[name].value = state[name];
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    for (const name of FIELDS) state[name] = form.elements[name].value.trim();
    state.offset = 0;
    setPageParams({ ...state, offset: "" }, true);
    show();
  });
  $("prev").addEventListener("click", () => { state.offset = Math.max(0, state.offset - PAGE); setPageParams({ ...state, offset: state.offset || "" }, false); show(); });
  $("next").addEventListener("click", () => { state.offset += PAGE; setPageParams({ ...state }, false); show(); });
  window.addEventListener("popstate", () => { Object.assign(state, readState(pageParams())); show(); });
  await show();
}

setUp();
