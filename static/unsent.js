// Leaving or reloading a game page while deals are kept on this phone, unsent, asks first
// when nothing could open the page again without the network: no service worker keeps it,
// as on plain http on the local network (service workers need HTTPS or this machine).
// The kept deals are those offline.js keeps; this only reads them.
"use strict";

(function () {
  const box = document.getElementById("offline");
  if (!box || !window.localStorage) return;
  const STORE = `mille-unsaved-${box.dataset.game}`;

  function keptDeals() {
    try {
      const list = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list.length : 0;
    } catch (error) {
      return 0;
    }
  }

  window.addEventListener("beforeunload", (event) => {
    if (navigator.serviceWorker && navigator.serviceWorker.controller) return; // opens offline
    if (!keptDeals()) return;
    event.preventDefault();
    event.returnValue = ""; // the browser's own question ("Leave site?")
  });
})();
