// Shared by every page: API calls, element building (text is always set as
// text, never parsed as HTML), the board picture and the page's URL state.

import { said } from "./i18n.js";

/** Why the server refused: its message in the page's language, else its text. */
function refusal(body) {
  return said(body) ?? body.error;
}

/** Fetches a JSON route; resolves to {data, total}; throws Error(message),
 * the server's message in the page's language. */
export async function api(path, params = {}) {
  const url = path + query(params);
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const why = data && typeof data.error === "string" ? refusal(data) : `${response.status} ${response.statusText}`;
    throw new Error(why);
  }
  const total = response.headers.get("x-total-count");
  return { data, total: total === null ? null : Number(total) };
}

/** `?a=1&b=2` from the non-empty values of an object ("" when none). */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      for (const one of value) if (one !== "") search.append(name, String(one));
    } else if (value !== undefined && value !== null && value !== "" && value !== false) {
      search.set(name, value === true ? "1" : String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "onclick") node.addEventListener("click", value);
    else if (name === "className") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Empties a node and fills it with children. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
}

/** Loads the board picture into `box` (parsed as SVG, never as HTML). */
export async function loadBoard(box, params) {
  const response = await fetch("/board.svg" + query(params));
  const text = await response.text();
  if (!response.ok) {
    let why = text;
    try { why = refusal(JSON.parse(text)); } catch { /* keep the text */ }
    throw new Error(why);
  }
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") throw new Error("the board could not be drawn");
  fill(box, document.importNode(svg, true));
  return box.querySelector("svg");
}

/** A status badge. */
export function badge(status) {
  return el("span", { className: `badge ${status}`, "data-status": status }, status);
}

/** A tag's value from a tag object (names compared without case), or "?". */
export function tag(tags, name) {
  if (!tags) return "?";
  const key = Object.keys(tags).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? "" : String(tags[key]).trim();
  return value === "" ? "?" : value;
}

/** Both players as every page names them: the side that moves first
 * first, each with its colour ("Anderson (Black) – Wyllie (White)"). */
export function players(tags, first) {
  const white = `${tag(tags, "White")} (White)`;
  const black = `${tag(tags, "Black")} (Black)`;
  return first === "black" ? `${black} – ${white}` : `${white} – ${black}`;
}

/** What a game's result check says when its result contradicts its
 * moves ("" otherwise). */
export function resultCheckText(check) {
  if (check === "contradicts_position") return "the result contradicts the last position";
  if (check === "contradicts_movetext") return "the Result tag differs from the result after the moves";
  return "";
}

/** Who won, in words. */
export function outcomeText(outcome) {
  return { white: "White won", black: "Black won", draw: "drawn", unknown: "no result" }[outcome] || "";
}

/** The current page's query parameters as an object. */
export function pageParams() {
  return Object.fromEntries(new URLSearchParams(location.search));
}

/** Replaces (or pushes) the page's query string. */
export function setPageParams(params, push) {
  const url = location.pathname + query(params);
  if (url === location.pathname + location.search) return;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

/** Calls `step` for ←/→/Home/End unless the focus is in a form field. */
export function onStepKeys(step) {
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (where) {
      event.preventDefault();
      step(where);
    }
  });
}

/** Shows the database summary in the header. */
export async function showSummary(node) {
  try {
    const { data } = await api("/api/stats");
    fill(node, `${data.games} games · ${data.positions} positions indexed`);
    if (data.unindexed > 0) node.append(` · ${data.unindexed} games not indexed yet`);
  } catch (error) {
    fill(node, `database: ${error.message}`);
  }
}
