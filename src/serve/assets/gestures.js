// Keys and gestures every page with a board shares: `f` turns the board
// (the page's Flip button), and on the game viewer a horizontal swipe over
// the board steps through the moves (left: forward, right: back), as the
// arrow keys do.

const SWIPE = 40;        // pixels a finger moves across to count as a swipe
const $ = (id) => document.getElementById(id);

function inField(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement
    || target instanceof HTMLTextAreaElement || (target instanceof HTMLElement && target.isContentEditable);
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "f" && event.key !== "F") return;
  if (event.altKey || event.ctrlKey || event.metaKey || inField(event.target)) return;
  const flip = $("flip");
  if (!flip) return;
  event.preventDefault();
  flip.click();
});

/** Steps when a touch that began over the board ends well to its side. */
function swipes(board) {
  let start = null;
  board.addEventListener("touchstart", (event) => {
    start = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  }, { passive: true });
  board.addEventListener("touchcancel", () => { start = null; });
  board.addEventListener("touchend", (event) => {
    const touch = event.changedTouches[0];
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    const dy = touch.clientY - start.y;
    start = null;
    if (Math.abs(dx) < SWIPE || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
    $(dx < 0 ? "next" : "prev")?.click();
  });
}

const flipButton = $("flip");
if (flipButton) flipButton.title = "Turn the board (f)";

const viewerBoard = document.querySelector("main.viewer #board");
if (viewerBoard) swipes(viewerBoard);
