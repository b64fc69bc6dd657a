// Tonight's page (templates/league/tonight.html), enhanced; it works without this file.
// Picking another game shows its own words at once: how its round is made, and the
// button's name (Mille's players are paired, every other game's seated at tables).
"use strict";

(function () {
  const form = document.querySelector("form.tonight-ask");
  if (!form) return;
  const picker = form.elements.namedItem("game");
  const button = form.querySelector("button[name=pair]");
  if (!picker || !button) return;
  function show() {
    form.querySelectorAll("[data-game]").forEach((part) => {
      part.hidden = part.dataset.game !== picker.value;
    });
    const pairs = picker.value === button.dataset.pairedGame;
    button.textContent = pairs ? button.dataset.pair : button.dataset.seat;
  }
  picker.addEventListener("change", show);
  show(); // a page brought back from history keeps the game picked there
})();
