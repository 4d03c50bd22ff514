// Light or dark pages: the system's choice (prefers-color-scheme) unless
// the reader chose with the header's toggle (remembered in localStorage).
// Loaded as a plain script in the head, so the page is drawn in its
// theme from the start.
(() => {
  const KEY = "pdndb-theme";
  const root = document.documentElement;
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const saved = () => {
    try { return localStorage.getItem(KEY); } catch { return null; }
  };
  const current = () => {
    const chosen = saved();
    if (chosen === "dark" || chosen === "light") return chosen;
    return system.matches ? "dark" : "light";
  };
  const chosen = saved();
  if (chosen === "dark" || chosen === "light") root.dataset.theme = chosen;

  function showToggle() {
    const button = document.getElementById("theme-toggle");
    if (!button) return;
    const dark = current() === "dark";
    button.setAttribute("aria-pressed", String(dark));
    // Names what a click gives.
    button.textContent = dark ? "Light" : "Dark";
  }

  document.addEventListener("DOMContentLoaded", () => {
    showToggle();
    document.getElementById("theme-toggle")?.addEventListener("click", () => {
      const next = current() === "dark" ? "light" : "dark";
      root.dataset.theme = next;
      try { localStorage.setItem(KEY, next); } catch { /* not remembered */ }
      showToggle();
    });
    system.addEventListener("change", showToggle);
  });
})();
