// The new-game form (templates/table/new_game.html), enhanced; it works without this file.
// - Picking a game shows its own fields at once: every game's are on the page, each part
//   marked with the games it is for (data-games), all but the picked game's hidden.
// - "Add a player" shows one more row in place, and × takes a row away (the rows below
//   move up, so the seats stay in order).
// - Each player's first-dealer choice names them as they are typed ("Ana deals first").
// - A name close to a player's asks "Did you mean Ben?" as it is typed; its buttons then
//   fill in the row instead of sending the form.
"use strict";

(function () {
  const form = document.querySelector("form.new-game");
  if (!form || form.dataset.enhanced) return;
  form.dataset.enhanced = "1";
  const rows = Array.from(form.querySelectorAll(".seat[data-row]"));
  const dealers = Array.from(form.querySelectorAll(".first-dealer label[data-row]"));
  const field = (name) => form.elements.namedItem(name);
  const nameIn = (row) => field(`player${row}`);
  const adding = form.querySelector(".add-player");
  const picked = () => form.querySelector('input[name="game"]:checked');

  function limits() {
    const radio = picked();
    return { min: Number(radio ? radio.dataset.min : 2), max: Number(radio ? radio.dataset.max : 2) };
  }

  // How many rows hold a name, counted to the last one that does.
  function filled() {
    let last = 0;
    rows.forEach((_, row) => { if (nameIn(row).value.trim()) last = row + 1; });
    return last;
  }

  function showRows(count) {
    const { min, max } = limits();
    rows.forEach((seat, row) => {
      seat.hidden = row >= count;
      const remove = seat.querySelector(".remove-player");
      if (remove) remove.hidden = row < min || row >= count;
    });
    dealers.forEach((label) => { label.hidden = Number(label.dataset.row) >= count; });
    field("rows").value = String(count);
    adding.hidden = count >= max;
    // A first dealer whose row is gone: drawn at random instead.
    const dealer = form.querySelector('input[name="first_dealer"]:checked');
    if (dealer && dealer.closest("label").hidden) field("first_dealer")[0].checked = true;
  }

  function shownCount() {
    return rows.filter((seat) => !seat.hidden).length;
  }

  function pickGame() {
    const radio = picked();
    if (!radio) return;
    form.querySelectorAll("[data-games]").forEach((part) => {
      part.hidden = !part.dataset.games.split(" ").includes(radio.value);
    });
    field("shown_game").value = radio.value;
    const { min, max } = limits();
    showRows(Math.max(min, Math.min(shownCount(), max), filled()));
  }

  function nameTheDealer(row) {
    const words = dealers[row] && dealers[row].querySelector("span[data-seat]");
    if (!words) return;
    const name = nameIn(row).value.trim();
    words.textContent = name ? form.dataset.dealsFirst.replace("{name}", name) : words.dataset.seat;
  }

  // The question about a row's name, and the input it describes.
  function question(row) {
    return document.getElementById(`player${row}-question`);
  }

  function setQuestion(row, html) {
    const input = nameIn(row);
    const old = question(row);
    if (old) old.remove();
    const described = (input.getAttribute("aria-describedby") || "")
      .split(" ").filter((id) => id && id !== `player${row}-question`);
    if (html.trim()) {
      input.closest(".field").insertAdjacentHTML("afterend", html);
      described.push(`player${row}-question`);
    }
    if (described.length) input.setAttribute("aria-describedby", described.join(" "));
    else input.removeAttribute("aria-describedby");
  }

  const timers = {};
  function lookAlike(row) {
    clearTimeout(timers[row]);
    timers[row] = setTimeout(() => {
      const name = nameIn(row).value.trim();
      if (!name) { setQuestion(row, ""); return; }
      const query = new URLSearchParams({ row: String(row), name });
      fetch(`${form.dataset.lookalikes}?${query}`, { credentials: "same-origin" })
        .then((response) => (response.ok ? response.text() : null))
        .then((html) => {
          // Only the answer for what the row holds now (a later keystroke asked again).
          if (html !== null && nameIn(row).value.trim() === name) setQuestion(row, html);
        })
        .catch(() => {}); // offline: Start asks instead
    }, 400);
  }

  // Taking row ``row`` away: the names below move up one seat.
  function removeRow(row) {
    const count = shownCount();
    for (let index = row; index < count - 1; index += 1) {
      nameIn(index).value = nameIn(index + 1).value;
    }
    nameIn(count - 1).value = "";
    const dealer = form.querySelector('input[name="first_dealer"]:checked');
    const chosen = dealer && dealer.value !== "random" ? Number(dealer.value) : null;
    if (chosen === row) field("first_dealer")[0].checked = true;
    else if (chosen !== null && chosen > row) form.querySelector(`input[name="first_dealer"][value="${chosen - 1}"]`).checked = true;
    for (let index = row; index < count; index += 1) {
      // What was asked or confirmed about a name belongs to the row it was typed in.
      rows[index].querySelectorAll('input[type="hidden"]').forEach((kept) => kept.remove());
      setQuestion(index, "");
      nameTheDealer(index);
      if (nameIn(index).value.trim()) lookAlike(index);
    }
    showRows(count - 1);
    const next = nameIn(Math.min(row, count - 2));
    if (next) next.focus();
  }

  form.querySelectorAll('input[name="game"]').forEach((radio) => radio.addEventListener("change", pickGame));
  adding.addEventListener("click", (event) => {
    event.preventDefault();
    const count = shownCount();
    showRows(count + 1);
    nameIn(count).focus();
  });
  rows.forEach((seat, row) => {
    nameIn(row).addEventListener("input", () => {
      nameTheDealer(row);
      lookAlike(row);
    });
    const remove = seat.querySelector(".remove-player");
    if (remove) remove.addEventListener("click", () => removeRow(row));
  });
  // The buttons of a question asked while typing fill in the row; the form is not sent.
  form.addEventListener("click", (event) => {
    const button = event.target.closest(".did-you-mean[data-live] button");
    if (!button) return;
    event.preventDefault();
    const row = Number(button.name.replace(/\D+/g, ""));
    if (button.name.startsWith("use_")) {
      nameIn(row).value = button.value;
      nameTheDealer(row);
    } else {
      const kept = document.createElement("input");
      kept.type = "hidden";
      kept.name = button.name;
      kept.value = button.value;
      rows[row].append(kept);
    }
    setQuestion(row, "");
    nameIn(row).focus();
  });
  pickGame();
})();
