// Counting help for a game whose deal asks each player's count of the cards left in hand
// (the Rummy games): "Count the cards" opens keys for every card, each worth what the game
// says (the page writes the values on the counts' fieldset, data-card-values, from the
// engine); a tap on a count chooses whose hand is added up, a tap on a card adds it. While
// the keys are open, a count takes no keyboard (inputmode "none"), so the keys stay in
// view; each count can still be typed once they are closed. Without this script the counts
// are typed, as always: nothing here decides a count, it only adds up the cards tapped.
"use strict";

(function () {
  function button(text, className, label) {
    const made = document.createElement("button");
    made.type = "button";
    made.className = className;
    made.textContent = text;
    if (label) made.setAttribute("aria-label", label);
    return made;
  }

  function helper(fieldset) {
    if (fieldset.dataset.counting) return;
    let values;
    try { values = JSON.parse(fieldset.dataset.cardValues || "[]"); } catch (error) { return; }
    const inputs = Array.from(fieldset.querySelectorAll("input.count-input"));
    if (!values.length || !inputs.length) return;
    fieldset.dataset.counting = "ready";
    const words = fieldset.dataset;
    const added = new Map(); // each count's cards, as tapped
    let target = null;

    const open = button(words.open || "Count the cards", "secondary count-open");
    open.setAttribute("aria-expanded", "false");
    const panel = document.createElement("div");
    panel.className = "count-keys";
    panel.hidden = true;
    const said = document.createElement("p");
    said.className = "count-said";
    said.setAttribute("aria-live", "polite");
    const keys = document.createElement("div");
    keys.className = "keys";
    for (const [symbol, value] of values) {
      const key = button("", "key", `${symbol}, ${value}`);
      key.append(symbol);
      const worth = document.createElement("small");
      worth.textContent = String(value);
      worth.setAttribute("aria-hidden", "true");
      key.append(worth);
      key.addEventListener("click", () => add(value, symbol));
      keys.append(key);
    }
    const back = button("↶", "secondary count-back", words.undo);
    back.addEventListener("click", () => {
      const cards = target && added.get(target);
      if (cards && cards.length) cards.pop();
      show();
    });
    const clear = button(words.clear || "0", "secondary count-clear");
    clear.addEventListener("click", () => {
      if (target) added.set(target, []);
      show();
    });
    const done = button(words.done || "OK", "primary count-done");
    done.addEventListener("click", () => close(true));
    const tools = document.createElement("div");
    tools.className = "count-tools";
    tools.append(back, clear, done);
    panel.append(said, keys, tools);
    fieldset.append(panel);
    fieldset.querySelector("legend").append(open); // beside the question, on its line

    function choose(input) {
      target = input;
      inputs.forEach((each) => each.classList.toggle("counting", each === input));
      show();
    }
    function show() {
      if (!target) return;
      const cards = added.get(target) || [];
      if (cards.length) target.value = String(cards.reduce((sum, card) => sum + card.value, 0));
      else if (added.has(target)) target.value = "";
      target.dispatchEvent(new Event("change", { bubbles: true }));
      const name = (words.add || "{name}").replace("{name}", target.dataset.name || "");
      const list = cards.map((card) => card.symbol).join(" + ");
      said.textContent = list ? `${name}: ${list} = ${target.value}` : name;
    }
    function add(value, symbol) {
      if (!target) choose(inputs.find((input) => input.value.trim() === "") || inputs[0]);
      if (!added.has(target)) added.set(target, []);
      added.get(target).push({ value, symbol });
      show();
    }
    function close(focus) {
      panel.hidden = true;
      open.setAttribute("aria-expanded", "false");
      inputs.forEach((input) => {
        input.setAttribute("inputmode", "numeric");
        input.classList.remove("counting");
      });
      if (focus && target) target.focus();
      target = null;
    }
    open.addEventListener("click", () => {
      if (!panel.hidden) { close(false); return; }
      panel.hidden = false;
      open.setAttribute("aria-expanded", "true");
      inputs.forEach((input) => input.setAttribute("inputmode", "none"));
      choose(inputs.find((input) => input.value.trim() === "") || inputs[0]);
      panel.scrollIntoView({ block: "nearest" });
    });
    inputs.forEach((input) => {
      input.addEventListener("focus", () => { if (!panel.hidden) choose(input); });
      // Typed by hand: the cards tapped for it no longer say what it holds.
      input.addEventListener("input", () => added.delete(input));
    });
  }

  function enhance(root = document) {
    const found = root.querySelectorAll("fieldset.counts[data-card-values]:not([data-counting])");
    found.forEach(helper);
    // The button made the form taller: app.js keeps the form whole on the screen.
    if (found.length && window.Mille) window.Mille.tell("changed");
  }

  document.addEventListener("DOMContentLoaded", () => enhance());
  if (window.Mille) {
    window.Mille.on("answered", (answer) => enhance(answer.root));
    window.Mille.on("swapped", (swap) => enhance(swap.root));
  }
})();
