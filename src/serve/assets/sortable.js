// Sortable tables: a click on a column's header sorts by it, another click
// reverses. A table marked `data-sortable` has its rows sorted where they
// are (`data-sortable="page"`: the page of a longer list is sorted, which
// a note under it says); a page that holds the whole list sorts it itself
// through `sortable(table, {onSort})`.

/** The value a cell sorts by: what it says before it was formatted. */
function cellValue(cell) {
  if (!cell) return "";
  return cell.dataset.sort ?? cell.dataset.raw ?? cell.textContent.trim();
}

/** Compares two values: as numbers when both are, else as text in the page's language (digits by their value). */
export function compareValues(a, b) {
  const x = Number(a);
  const y = Number(b);
  if (a !== "" && b !== "" && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return String(a).localeCompare(String(b), document.documentElement.lang || undefined, { numeric: true, sensitivity: "base" });
}

/**
 * Makes the headers of `table` sort it: each `th` (its key `data-sort-key`,
 * else its column number) sorts ascending on the first click, then
 * reverses (`data-nosort`: a column that is not sorted; `initial`: the
 * order shown at first). `onSort(key, direction)` sorts when given; else the rows of
 * the body are sorted in place, and again whenever the body is refilled.
 */
export function sortable(table, { onSort, initial = null } = {}) {
  const heads = [...table.querySelectorAll("thead th")].filter((th) => !th.hasAttribute("data-nosort"));
  let current = initial; // { key, direction }
  for (const th of heads) {
    if (!th.dataset.sortKey) th.dataset.sortKey = String(th.cellIndex);
    th.tabIndex = 0;
    th.title = th.title || "Sort by this column; again to reverse";
    const choose = () => {
      const key = th.dataset.sortKey;
      const direction = current && current.key === key && current.direction === "ascending" ? "descending" : "ascending";
      current = { key, direction };
      for (const other of heads) other.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", direction);
      if (onSort) onSort(key, direction);
      else sortRows();
    };
    if (current && current.key === th.dataset.sortKey) th.setAttribute("aria-sort", current.direction);
    th.addEventListener("click", choose);
    th.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(); }
    });
  }
  if (onSort) return;
  const body = table.tBodies[0];
  if (!body) return;
  const observer = new MutationObserver(() => { if (current) sortRows(); });

  function sortRows() {
    const column = heads.find((th) => th.dataset.sortKey === current.key)?.cellIndex ?? 0;
    const sign = current.direction === "ascending" ? 1 : -1;
    const rows = [...body.rows].map((row, i) => ({ row, i, value: cellValue(row.cells[column]) }));
    rows.sort((a, b) => sign * compareValues(a.value, b.value) || a.i - b.i);
    observer.disconnect();
    body.append(...rows.map((r) => r.row));
    observer.observe(body, { childList: true });
    if (table.dataset.sortable === "page") notePage(table, rows.length);
  }
  observer.observe(body, { childList: true });
}

/** Says under a table that only its page is sorted. */
function notePage(table, count) {
  const after = table.closest(".scroll") || table;
  let note = after.nextElementSibling;
  if (!note || !note.classList.contains("sort-note")) {
    note = document.createElement("p");
    note.className = "note sort-note";
    after.after(note);
  }
  note.textContent = count ? "Sorted within this page." : "";
}

for (const table of document.querySelectorAll("table[data-sortable]")) sortable(table);
