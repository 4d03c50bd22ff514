// "Download PDN" links: on the game viewer, the game; on the explorer, the
// games at the position shown and the games of its list (the position
// and the list's filters). Each is `/api/export` with the same choice, so
// the file is what `pdndb export` writes for it.

import { el, query } from "./common.js";

const $ = (id) => document.getElementById(id);

/** A link that saves `/api/export` with `params` as a file. */
function link(id, text, params) {
  return el("a", { id, href: `/api/export${query(params)}`, download: "" }, text);
}

function viewer() {
  const id = Number((location.pathname.match(/^\/game\/(\d+)/) || [])[1]);
  const explore = $("explore");
  if (!id || !explore) return;
  explore.after(" ", link("download-game", "Download PDN", { game: id }));
}

/** The explorer says which games its list shows each time it draws it (`explorer:games`). */
function explorer() {
  const table = $("games");
  if (!table) return;
  const box = el("p", { className: "downloads", id: "downloads" });
  (table.closest(".scroll") || table).before(box);
  document.addEventListener("explorer:games", (event) => {
    const { variant, fen, filters } = event.detail;
    const position = { variant, fen };
    const filtered = Object.values(filters).some((value) => value);
    box.replaceChildren(
      "Download PDN: ",
      link("download-position", "all games at this position", position),
      filtered ? link("download-list", "the games of this list (filtered)", { ...position, ...filters }) : "",
    );
  });
}

viewer();
explorer();
