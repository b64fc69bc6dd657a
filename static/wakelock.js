// The scorekeeper's screen stays awake while a game in progress is on screen (the Screen
// Wake Lock API). A toggle beside the totals turns it off (remembered on this phone). The
// lock is let go when the game ends or the page is hidden (the browser lets it go then
// too), and taken again when the page is back. Where the browser has no wake lock, nothing
// is shown and nothing else changes.
"use strict";

(function () {
  if (!("wakeLock" in navigator)) return;
  const STORE = "mille-wake-lock"; // "off": the scorekeeper turned it off
  let lock = null;
  let asking = false;

  function wanted() {
    try { return localStorage.getItem(STORE) !== "off"; } catch (error) { return true; }
  }

  function inProgress() {
    const live = document.getElementById("live");
    return Boolean(live && live.dataset.status === "in_progress");
  }

  async function sync() {
    const hold = wanted() && inProgress() && !document.hidden;
    if (hold && !lock && !asking) {
      asking = true;
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; });
      } catch (error) {
        lock = null; // refused (battery saver, not visible): asked again next time
      } finally {
        asking = false;
      }
    } else if (!hold && lock) {
      const held = lock;
      lock = null;
      await held.release();
    }
  }

  // The toggle: in the page, so it is set up again whenever the card is put in afresh.
  function toggle() {
    const box = document.getElementById("wake-lock");
    if (!box) return;
    box.hidden = !inProgress();
    const input = box.querySelector("input");
    if (!input || input.dataset.ready) return;
    input.dataset.ready = "1";
    input.checked = wanted();
    input.addEventListener("change", () => {
      try { localStorage.setItem(STORE, input.checked ? "on" : "off"); } catch (error) { /* private mode */ }
      sync();
    });
  }

  function update() {
    toggle();
    sync();
  }

  document.addEventListener("visibilitychange", sync);
  if (window.Mille) {
    window.Mille.on("swapped", update); // the game may have ended elsewhere (live.js)
    window.Mille.on("answered", update); // ... or by this phone's own save (save.js)
  }
  window.addEventListener("pageshow", update);
  update();
})();
