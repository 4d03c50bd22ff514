// The explorer's position editor: marks put on a board by clicking (men,
// kings, "man or king", any piece, empty, each possibly "must not"), the
// side to move, the colours and the material, written as the search
// pattern's written form; "search exact" and "search pattern" list the
// games found, each with a small board and a link to the viewer. Its state
// lives in the URL: pattern, material, colours, search (exact or pattern)
// and hits (the first hit shown).

import { api, el, fill, loadBoard, outcomeText, players, query, tag } from "./common.js";

const PAGE = 20;
const SVG = "http://www.w3.org/2000/svg";
const MATERIAL = ["wm", "wk", "w", "bm", "bk", "b"];
const COLOURS = ["as-given", "reversed", "both"];
const $ = (id) => document.getElementById(id);

/** The editor's part of the URL, read strictly enough to never throw. */
export function readSearch(params) {
  const colours = COLOURS.includes(params.colours) ? params.colours : "as-given";
  const run = ["exact", "pattern"].includes(params.search) ? params.search : "";
  return {
    pattern: params.pattern || "",
    material: params.material || "",
    manoeuvres: params.manoeuvres || "",
    allPlies: params.all_plies === "1",
    colours,
    run,
    offset: Math.max(0, Number.parseInt(params.hits || "0", 10) || 0),
  };
}

/** The editor's part of the URL to write. */
export function searchParams(search) {
  return {
    pattern: search.pattern,
    material: search.material,
    manoeuvres: search.manoeuvres,
    all_plies: search.allPlies ? "1" : "",
    colours: search.colours === "as-given" ? "" : search.colours,
    search: search.run,
    hits: search.offset || "",
  };
}

/** Square numbers of an item list part: `27` or a range `1-12`. */
function squaresOf(text) {
  const range = /^(\d{1,3})-(\d{1,3})$/.exec(text);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (from < 1 || to < from || to - from > 100) throw new Error(`${text} is not a range of squares`);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1) throw new Error(`${text} is not a square number`);
  return [Number(text)];
}

/**
 * The written pattern read into {side, marks: Map(square → {letter, kind,
 * not}), groups: [text]} for the board; groups are kept as written (the
 * board does not show them). Throws Error naming a part the board cannot
 * show (the server, which also reads square names such as c3, judges the
 * search).
 */
export function parsePattern(text) {
  const parts = text.trim() === "" ? [] : text.trim().split(":").map((p) => p.trim());
  let side = "?";
  if (parts.length > 1 && /^[WB?]$/i.test(parts[0])) side = parts.shift().toUpperCase();
  const marks = new Map();
  const groups = [];
  for (const section of parts) {
    if (section.startsWith("(")) {
      if (!section.endsWith(")")) throw new Error(`${section}: a group ends with )`);
      groups.push(section);
      continue;
    }
    const letter = section[0].toUpperCase();
    if (!"WBXE".includes(letter) || section.length < 2) {
      throw new Error(`${section}: a section is W, B, X or E and its squares`);
    }
    for (const raw of section.slice(1).split(",").map((i) => i.trim())) {
      const item = /^(!?)\s*([Kk*]?)(.+)$/.exec(raw);
      if (!item) throw new Error(`${section}: an empty item`);
      const [, not, kind, where] = item;
      if (kind && !"WB".includes(letter)) throw new Error(`${raw}: K and * go with W or B`);
      for (const square of squaresOf(where.trim())) {
        marks.set(square, { letter, kind: kind.toUpperCase(), not: not === "!" });
      }
    }
  }
  return { side, marks, groups };
}

/** One item of a mark: `!K27`. */
function itemOf(square, mark) {
  return `${mark.not ? "!" : ""}${mark.kind}${square}`;
}

/** The written pattern of the editor's marks (sections W, B, X, E, then groups). */
export function writePattern({ side, marks, groups }) {
  const sections = [];
  for (const letter of ["W", "B", "X", "E"]) {
    const items = [...marks].filter(([, m]) => m.letter === letter)
      .sort(([a], [b]) => a - b).map(([s, m]) => itemOf(s, m));
    if (items.length) sections.push(letter + items.join(","));
  }
  if (!sections.length && !groups.length) return "";
  return [side, ...sections, ...groups].join(":");
}

/** The FEN of the marks (men and kings only); throws Error saying why not. */
export function fenOf({ side, marks, groups }) {
  if (side === "?") throw new Error("an exact search needs the side to move: White or Black");
  const odd = [...marks].find(([, m]) => m.not || m.kind === "*" || !"WB".includes(m.letter));
  if (odd || groups.length) {
    throw new Error("an exact search takes men and kings only (any, empty, must-not and groups are for the pattern search)");
  }
  const list = (letter) => [...marks].filter(([, m]) => m.letter === letter)
    .sort(([a], [b]) => a - b).map(([s, m]) => itemOf(s, m)).join(",");
  return `${side}:W${list("W")}:B${list("B")}`;
}

/** The marks of a FEN (`W:W21,K30:B1-12`); fields other than W and B are skipped. */
export function marksOfFen(fen) {
  const [side, ...fields] = fen.trim().split(":");
  const marks = new Map();
  for (const field of fields) {
    const letter = field[0];
    if (letter !== "W" && letter !== "B") continue;
    for (const item of field.slice(1).split(",").filter(Boolean)) {
      const king = item.startsWith("K");
      for (const square of squaresOf(king ? item.slice(1) : item)) {
        marks.set(square, { letter, kind: king ? "K" : "", not: false });
      }
    }
  }
  return { side: side === "B" ? "B" : "W", marks, groups: [] };
}

/** The manoeuvres written one per line, blank lines left out. */
function manoeuvreLines(text) {
  return (text || "").split("\n").map((line) => line.trim()).filter(Boolean);
}

/** Every ply of a game that fits (`--all-plies`), the first ten written out. */
function pliesText(plies) {
  const shown = plies.slice(0, 10).join(", ");
  return `fits at ${plies.length === 1 ? "ply" : "plies"} ${shown}${plies.length > 10 ? ", …" : ""}`;
}

/** `wk=1,bm=2-3` from the material fields (empty ones left out). */
function materialOfFields(form) {
  return MATERIAL.map((name) => [name, form.elements[name].value.trim()])
    .filter(([, value]) => value !== "").map(([name, value]) => `${name}=${value}`).join(",");
}

/** Fills the material fields from `wk=1,bm=2-3` (unknown keys are left to the server). */
function fieldsOfMaterial(form, text) {
  const given = Object.fromEntries(text.split(",").map((p) => p.split("=").map((s) => s.trim())));
  for (const name of MATERIAL) form.elements[name].value = given[name] || "";
}

/** An SVG element with attributes. */
function svgEl(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The picture of one mark centred at (x, y). */
function markPicture(square, mark, x, y) {
  const name = `${mark.not ? "!" : ""}${mark.letter}${mark.kind}`;
  const group = svgEl("g", { class: `mark${mark.not ? " not" : ""}`, "data-square": square, "data-mark": name });
  const piece = (kind) => svgEl("use", { href: `#pdndb-${kind}`, x, y });
  const label = (text, fill) => svgEl("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill }, text);
  const side = mark.letter.toLowerCase();
  if (mark.letter === "W" || mark.letter === "B") {
    group.append(piece(`${side}${mark.kind === "K" ? "k" : "m"}`));
    if (mark.kind === "*") group.append(label("*", mark.letter === "W" ? "#8a4b16" : "#f5d90a"));
  } else if (mark.letter === "X") {
    group.append(svgEl("path", { d: `M${x} ${y - 18}a18 18 0 0 0 0 36z`, fill: "#f4f1ea", stroke: "#333" }),
      svgEl("path", { d: `M${x} ${y - 18}a18 18 0 0 1 0 36z`, fill: "#2b2724", stroke: "#333" }));
  } else {
    group.append(svgEl("circle", { cx: x, cy: y, r: 15, fill: "none", stroke: "#2e7d32", "stroke-width": 3, "stroke-dasharray": "5 4" }));
  }
  if (mark.not) {
    group.setAttribute("opacity", "0.85");
    group.append(svgEl("path", { d: `M${x - 20} ${y + 20}L${x + 20} ${y - 20}`, stroke: "#b3261e", "stroke-width": 5, "stroke-linecap": "round" }));
  }
  return group;
}

/** The editor: `host` gives the explorer's state, `writeState(push)`, `message(text)` and `explorerFen()`. */
export class Editor {
  constructor(host) {
    this.host = host;
    this.put = { letter: "W", kind: "" };
    this.boardKey = "";
    this.rules = null; // {variant, start_fen} of the variant shown
    this.generation = 0;
    this.wire();
  }

  get search() { return this.host.state.search; }

  /** The marks of the URL's pattern, or null (the message says why). */
  parsed() {
    try {
      // An empty pattern has no side: the one chosen stays.
      if (!this.search.pattern.trim()) return { side: $("editor-side").value, marks: new Map(), groups: [] };
      return parsePattern(this.search.pattern);
    } catch (error) {
      this.host.message(`The board cannot show this pattern (${error.message}); the search reads it as written.`);
      return null;
    }
  }

  /** Sets the pattern from marks and shows it. */
  setPattern(parsed, push = false) {
    this.search.pattern = writePattern(parsed);
    this.search.run = "";
    this.host.writeState(push);
    this.showForm(parsed);
    this.drawMarks(parsed);
  }

  wire() {
    for (const button of $("palette").querySelectorAll("button")) {
      button.addEventListener("click", () => {
        const put = button.dataset.put;
        this.put = { letter: put.slice(0, 1), kind: put.slice(1) };
        for (const b of $("palette").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b === button));
      });
    }
    $("editor-clear").addEventListener("click", () => {
      this.setPattern({ side: $("editor-side").value, marks: new Map(), groups: [] }, true);
    });
    $("editor-initial").addEventListener("click", () => {
      if (this.rules) this.setPattern(marksOfFen(this.rules.start_fen), true);
    });
    $("editor-here").addEventListener("click", async () => {
      this.setPattern(marksOfFen(await this.host.explorerFen()), true);
    });
    $("editor-side").addEventListener("change", (e) => {
      const parsed = this.parsed();
      if (parsed) this.setPattern({ ...parsed, side: e.target.value });
    });
    $("editor-colours").addEventListener("change", (e) => {
      this.search.colours = e.target.value;
      this.host.writeState(false);
    });
    $("material").addEventListener("change", () => {
      this.search.material = materialOfFields($("editor-form"));
      this.host.writeState(false);
    });
    $("editor-manoeuvres").addEventListener("change", (e) => {
      this.search.manoeuvres = manoeuvreLines(e.target.value).join("\n");
      this.host.writeState(false);
    });
    $("editor-all-plies").addEventListener("change", (e) => {
      this.search.allPlies = e.target.checked;
      this.host.writeState(false);
    });
    $("editor-pattern").addEventListener("change", (e) => {
      this.search.pattern = e.target.value.trim();
      this.host.writeState(false);
      const parsed = this.parsed();
      if (parsed) { this.host.message(""); this.showForm(parsed); }
      this.drawMarks(parsed || { marks: new Map() });
    });
    $("editor-form").addEventListener("submit", (e) => { e.preventDefault(); this.start("pattern"); });
    $("search-exact").addEventListener("click", () => this.start("exact"));
    $("hits-prev").addEventListener("click", () => this.page(-PAGE));
    $("hits-next").addEventListener("click", () => this.page(PAGE));
  }

  /** Starts a search from the first hit (the form's fields read first). */
  start(run) {
    this.search.pattern = $("editor-pattern").value.trim();
    this.search.material = materialOfFields($("editor-form"));
    this.search.colours = $("editor-colours").value;
    this.search.manoeuvres = manoeuvreLines($("editor-manoeuvres").value).join("\n");
    this.search.allPlies = $("editor-all-plies").checked;
    this.search.run = run;
    this.search.offset = 0;
    this.host.writeState(true);
    this.runSearch();
  }

  page(step) {
    this.search.offset = Math.max(0, this.search.offset + step);
    this.host.writeState(false);
    this.runSearch();
  }

  /** Shows the editor for the current state (board, form, and the hits of a search in the URL). */
  async show() {
    const { state } = this.host;
    try {
      if (!this.rules || this.rules.asked !== state.variant) {
        const { data } = await api("/api/position", { variant: state.variant });
        this.rules = { asked: state.variant, variant: data.variant, start_fen: data.start_fen };
      }
      await this.drawBoard();
    } catch (error) {
      this.host.message(error.message);
      return;
    }
    const parsed = this.parsed();
    fieldsOfMaterial($("editor-form"), this.search.material);
    $("editor-colours").value = this.search.colours;
    $("editor-pattern").value = this.search.pattern;
    $("editor-manoeuvres").value = this.search.manoeuvres;
    $("editor-all-plies").checked = this.search.allPlies;
    if (parsed) this.showForm(parsed);
    this.drawMarks(parsed || { marks: new Map() });
    if (this.search.run) await this.runSearch();
    else this.clearHits();
  }

  showForm(parsed) {
    $("editor-pattern").value = this.search.pattern;
    $("editor-side").value = parsed.side;
  }

  /** The empty board of the variant (fetched again only when variant, notation or flip change). */
  async drawBoard() {
    const { state } = this.host;
    const key = [this.rules.variant, state.notation, state.flip].join("|");
    if (key === this.boardKey && $("editor-board").querySelector("svg")) return;
    const svg = await loadBoard($("editor-board"), {
      variant: this.rules.variant, fen: "W:W:B", notation: state.notation, flip: state.flip, clickable: true,
    });
    if (!svg) return;
    this.boardKey = key;
    svg.addEventListener("click", (event) => {
      const rect = event.target.closest("rect.sq");
      if (rect) this.toggle(Number(rect.dataset.square));
    });
    for (const rect of svg.querySelectorAll("rect.sq")) {
      rect.setAttribute("tabindex", "0");
      rect.setAttribute("role", "button");
      rect.setAttribute("aria-label", `square ${rect.dataset.name}`);
      rect.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        this.toggle(Number(rect.dataset.square));
      });
    }
  }

  /** Puts the chosen mark on a square, or takes away the mark it has. */
  toggle(square) {
    const parsed = this.parsed();
    if (!parsed) return;
    const not = $("put-not").checked;
    const old = parsed.marks.get(square);
    const same = old && old.letter === this.put.letter && old.kind === this.put.kind && old.not === not;
    if (!this.put.letter || same) parsed.marks.delete(square);
    else parsed.marks.set(square, { letter: this.put.letter, kind: this.put.kind, not });
    this.host.message("");
    this.setPattern(parsed);
  }

  /** Draws the marks over the board's squares (below the click targets). */
  drawMarks(parsed) {
    const targets = $("editor-board").querySelector("g.squares");
    if (!targets) return;
    targets.parentNode.querySelector("g.marks")?.remove();
    const layer = svgEl("g", { class: "marks" });
    for (const [square, mark] of parsed.marks) {
      const rect = targets.querySelector(`rect.sq[data-square="${square}"]`);
      if (!rect) continue;
      const size = Number(rect.getAttribute("width"));
      layer.append(markPicture(square, mark, Number(rect.getAttribute("x")) + size / 2, Number(rect.getAttribute("y")) + size / 2));
    }
    targets.before(layer);
  }

  clearHits() {
    fill($("hits"));
    fill($("hits-count"));
    fill($("hits-page"));
    $("hits-prev").disabled = true;
    $("hits-next").disabled = true;
  }

  /** The query of the search in the URL; throws Error saying what is missing. */
  request() {
    const colours = this.search.colours === "as-given" ? "" : this.search.colours;
    const base = { variant: this.rules.variant, colours, limit: PAGE, offset: this.search.offset };
    if (this.search.run === "exact") return { ...base, fen: fenOf(parsePattern(this.search.pattern)) };
    const manoeuvre = manoeuvreLines(this.search.manoeuvres);
    if (!this.search.pattern && !this.search.material && !manoeuvre.length) {
      throw new Error("put marks on the board, or give material or a manoeuvre, to search a pattern");
    }
    return {
      ...base, pattern: this.search.pattern, material: this.search.material, manoeuvre,
      all_plies: this.search.allPlies,
    };
  }

  async runSearch() {
    const mine = ++this.generation;
    let asked, found;
    try {
      asked = this.request();
      fill($("hits-count"), "(searching…)");
      found = await api("/api/search", asked);
    } catch (error) {
      if (mine !== this.generation) return;
      this.clearHits();
      fill($("hits"), el("p", { className: "message" }, error.message));
      return;
    }
    if (mine !== this.generation) return;
    fill($("hits"), found.data.map((hit) => this.hitCard(hit, asked.fen)));
    const total = found.total ?? found.data.length;
    fill($("hits-count"), `(${total} ${this.search.run === "exact" ? "exact" : "pattern"})`);
    if (!found.data.length) fill($("hits"), el("p", { className: "note" }, "No stored game has such a position."));
    const from = total ? this.search.offset + 1 : 0;
    fill($("hits-page"), `${from}–${this.search.offset + found.data.length} of ${total}`);
    $("hits-prev").disabled = this.search.offset === 0;
    $("hits-next").disabled = this.search.offset + found.data.length >= total;
  }

  /** One hit: a small board of the matched position, linking to the viewer at that ply. */
  hitCard(hit, searchedFen) {
    const { state } = this.host;
    const fen = hit.fen || searchedFen;
    const href = `/game/${hit.game}?ply=${hit.ply}`;
    const picture = fen
      ? el("img", {
        src: "/board.svg" + query({ variant: this.rules.variant, fen, notation: state.notation, flip: state.flip }),
        alt: `Game ${hit.game} at ply ${hit.ply}`, loading: "lazy", width: 160, height: 160,
      })
      : null;
    return el("a", { className: "hit", href, "data-game": hit.game, "data-ply": hit.ply },
      picture,
      el("span", { className: "who" }, players(hit.cleaned_tags, hit.first_side)),
      el("span", { className: "note" }, `${tag(hit.cleaned_tags, "Event")} · ${tag(hit.cleaned_tags, "Date")}`),
      el("span", { className: "note" }, `game ${hit.game} · ply ${hit.ply} · ${hit.result ?? "*"} (${outcomeText(hit.outcome)})`,
        hit.reversed ? el("span", { className: "badge reversed" }, "colours reversed") : null),
      hit.matching_plies ? el("span", { className: "note plies" }, pliesText(hit.matching_plies)) : null);
  }
}
