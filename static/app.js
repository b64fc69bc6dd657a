// Small enhancements; every page works without this file.
"use strict";

document.documentElement.classList.add("js");

// Rules forms: choosing a preset fills in every option at once.
function presetFiller() {
  const data = document.getElementById("presets");
  if (!data) return;
  const presets = JSON.parse(data.textContent);
  document.querySelectorAll('input[type="radio"][name$="preset"]').forEach((radio) => {
    radio.addEventListener("change", () => {
      const rules = presets[radio.value];
      const form = radio.form;
      if (!rules || !form) return;
      const prefix = radio.name.slice(0, -"preset".length);
      const named = (name) => form.elements.namedItem(prefix + name);
      named("target").value = rules.target;
      named("progressive").checked = rules.progressive;
      named("natural_needed").checked = rules.natural_needed;
      form.querySelector(`input[name="${prefix}skunk"][value="${rules.skunk}"]`).checked = true;
      form.querySelector(`input[name="${prefix}difference"][value="${rules.difference}"]`).checked = true;
    });
  });
}

// Star steppers: − and + buttons around each star count.
function starSteppers(root = document) {
  root.querySelectorAll("input.star-input:not([data-stepped])").forEach((input) => {
    input.dataset.stepped = "1"; // once, however often its part of the page is enhanced
    const make = (label, text, delta) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "step";
      button.textContent = text;
      button.setAttribute("aria-label", label);
      button.addEventListener("click", () => {
        const value = parseInt(input.value || "0", 10) || 0;
        input.value = String(Math.max(0, value + delta));
        input.dispatchEvent(new Event("change"));
      });
      return button;
    };
    // The page gives the buttons' names in its own language.
    input.before(make(input.dataset.fewer || "−", "−", -1));
    input.after(make(input.dataset.more || "+", "+", 1));
  });
}

// Score inputs: a ± button, since phone number pads often lack a minus key.
function minusToggles(root = document) {
  root.querySelectorAll("input.score-input:not([data-signed])").forEach((input) => {
    input.dataset.signed = "1";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sign";
    button.textContent = "±";
    button.setAttribute("aria-label", input.dataset.sign || "±");
    button.addEventListener("click", () => {
      const value = input.value.trim().replace("−", "-");
      input.value = value.startsWith("-") ? value.slice(1) : "-" + value;
      input.focus();
    });
    input.after(button);
  });
}

// The next tap: a page opened at an #anchor ignores autofocus, so it is given here, and the
// play area (totals, next dealer, the deal form) is brought to the top of the screen.
// Opening the page at #play focuses the play area itself, maybe after this runs.
function focusTheNextTap() {
  const play = document.getElementById("play");
  const next = document.querySelector("main [autofocus]");
  if (!next || document.querySelector('main [aria-invalid="true"]')) return;
  // A save refused because the card changed elsewhere: what changed leads, the choice below.
  const stale = document.querySelector("main .stale");
  if (stale) stale.scrollIntoView({ block: "start" });
  if (play && window.location.hash === "#play") {
    play.scrollIntoView({ block: "start" });
    const handOn = () => next.focus({ preventScroll: true });
    play.addEventListener("focus", handOn, { once: true });
    setTimeout(() => play.removeEventListener("focus", handOn), 2000); // not a later tap
  }
  next.focus({ preventScroll: true });
}

// The deal form, whole on the screen: who went out, both scores, every star control and
// Save (another game's: its first choice to Save). On a short screen (360×640, 320×568) the sticky Save bar would otherwise sit over
// the star steppers below it. After the page opens, after every save, and whenever a
// message or the offline banner is put above the form, the page scrolls just enough for
// Save's own place in the form (not its pinned one) to be on screen, never so far that who
// went out leaves the top. A refused save is left where its problem is shown.
function fitTheDealForm(change) {
  const form = document.querySelector("main form.deal-form");
  const bar = form && form.querySelector(".actions");
  const first = form && form.querySelector("fieldset"); // who went out (knocked, won …)
  if (!bar || !first) return;
  if (document.querySelector('main [aria-invalid="true"], main .confirm, main .stale')) return;
  const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
  // Where the bar is in the form, measured without its pinning (no paint in between).
  bar.style.position = "static";
  const bottom = bar.getBoundingClientRect().bottom;
  bar.style.position = "";
  const top = first.getBoundingClientRect().top;
  // A change while the scorekeeper reads elsewhere on the page (the card, the history)
  // doesn't pull the page back to the form.
  if (change && (top > view || bottom < 0)) return;
  const needed = Math.min(bottom - view, top);
  if (needed > 0) window.scrollBy(0, Math.ceil(needed) + 1);
}

// Where an on-screen keyboard shrinks the visual viewport without resizing the page (iOS
// Safari; Chrome resizes it, per the viewport meta), Save is lifted above the keyboard.
function saveBarFollowsTheKeyboard() {
  const viewport = window.visualViewport;
  if (!viewport || document.documentElement.dataset.keyboard) return;
  document.documentElement.dataset.keyboard = "followed";
  const follow = () => {
    const hidden = Math.max(0, window.innerHeight - viewport.height - viewport.offsetTop);
    document.documentElement.style.setProperty("--keyboard", `${Math.round(hidden)}px`);
  };
  viewport.addEventListener("resize", follow);
  viewport.addEventListener("scroll", follow);
  follow();
}

// Counting help: the hand of the player who went out is empty, so it is
// hidden once that player is chosen (unless something was typed into it).
function handOfWhoWentOut() {
  const players = document.querySelectorAll(".count-player[data-seat]");
  const radios = document.querySelectorAll('input[name="went_out"]');
  if (!players.length || !radios.length) return;
  const update = () => {
    const chosen = document.querySelector('input[name="went_out"]:checked');
    players.forEach((player) => {
      const empty = Array.from(player.querySelectorAll(".hand input")).every(
        (input) => input.value.trim() === "" || input.value.trim() === "0"
      );
      const out = chosen !== null && chosen.value === player.dataset.seat;
      player.classList.toggle("is-out", out && empty);
    });
  };
  radios.forEach((radio) => radio.addEventListener("change", update));
  update();
}

// A refused save: the first field with a problem gets the focus, so its message
// is in view (not under the deal form's Save bar) and the right field is ready
// to be retyped. A question to confirm is brought into view instead.
function showFirstProblem() {
  const field = document.querySelector('main [aria-invalid="true"]');
  if (field) {
    field.focus({ preventScroll: true });
    field.scrollIntoView({ block: "center" });
    return;
  }
  // At the bottom of the view, above the Save bar: the scores it asks about stay above it.
  const question = document.querySelector("main .confirm");
  if (question) question.scrollIntoView({ block: "end" });
}

// The new-game form: each player's chance to win follows the two names as they are typed
// (the server words it, as it does after "See the chances" without the script).
function newGameChances() {
  const box = document.getElementById("chances");
  if (!box || !box.dataset.from || box.dataset.following) return;
  const form = box.closest("form");
  const fields = ["player0", "player1"].map((name) => form && form.elements.namedItem(name));
  if (fields.some((field) => !field)) return;
  box.dataset.following = "1";
  let timer = null;
  let asked = 0;
  const refresh = () => {
    const ask = ++asked;
    const query = new URLSearchParams({ player0: fields[0].value, player1: fields[1].value });
    fetch(`${box.dataset.from}?${query}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : null))
      .then((html) => {
        if (html !== null && ask === asked && box.innerHTML.trim() !== html.trim()) box.innerHTML = html;
      })
      .catch(() => {}); // offline: the line stays as it was
  };
  fields.forEach((field) => field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  }));
  if (!box.textContent.trim() && fields.every((field) => field.value.trim())) refresh();
}

// Signing out: deals kept on this phone by offline.js and not yet saved are named first,
// with their game to open while online (which sends them), to discard or to stay signed
// in. Then the queue and the service worker's copies of pages are removed, so nobody who
// holds the phone next sends them, or opens a private game page offline. Without this
// script, signing out just signs out (and the server's Clear-Site-Data empties both).
const KEPT = /^mille-unsaved-(\d+)$/;

function keptOnThisPhone() {
  const games = [];
  for (let index = 0; window.localStorage && index < localStorage.length; index += 1) {
    const name = localStorage.key(index);
    if (!KEPT.test(name)) continue;
    let list = [];
    try { list = JSON.parse(localStorage.getItem(name) || "[]"); } catch (error) { /* unreadable: removed all the same */ }
    if (!Array.isArray(list) || !list.length) continue;
    const page = list.map((deal) => deal && deal.page).find((found) => typeof found === "string" && found.startsWith("/games/"));
    games.push({ count: list.length, page });
  }
  return games;
}

async function forgetThisPhone() {
  if (window.localStorage) {
    Object.keys(localStorage).filter((name) => KEPT.test(name)).forEach((name) => localStorage.removeItem(name));
  }
  if (window.caches) {
    try {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith("mille-")).map((name) => caches.delete(name)));
    } catch (error) { /* nothing kept here */ }
  }
}

function signOutAsksFirst() {
  const words = document.querySelector("form[data-unsent-title]");
  if (!words || document.documentElement.dataset.signOut) return;
  document.documentElement.dataset.signOut = "asks";
  const text = words.dataset;
  const signsOut = (form) => form.matches && form.matches("form.sign-out");
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!signsOut(form) || form.dataset.asked === "1") return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const kept = keptOnThisPhone();
    const leave = async () => {
      form.dataset.asked = "1";
      await forgetThisPhone();
      form.submit();
    };
    if (!kept.length || !window.HTMLDialogElement) {
      await leave();
      return;
    }
    const dialog = document.createElement("dialog");
    dialog.className = "sign-out-question card";
    dialog.setAttribute("aria-labelledby", "sign-out-title");
    const title = document.createElement("h2");
    title.id = "sign-out-title";
    title.textContent = text.unsentTitle;
    const said = document.createElement("p");
    said.textContent = text.unsentText;
    const games = document.createElement("ul");
    for (const game of kept) {
      const item = document.createElement("li");
      const words = text.unsentOpen.replace("{count}", String(game.count));
      if (game.page) {
        const link = document.createElement("a");
        link.href = game.page;
        link.textContent = words;
        item.append(link);
      } else item.textContent = words;
      games.append(item);
    }
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "danger";
    discard.textContent = text.unsentDiscard;
    discard.addEventListener("click", leave);
    const stay = document.createElement("button");
    stay.type = "button";
    stay.className = "primary";
    stay.textContent = text.unsentStay;
    stay.addEventListener("click", () => dialog.close());
    const actions = document.createElement("p");
    actions.className = "actions";
    actions.append(stay, discard);
    dialog.append(title, said, games, actions);
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
    stay.focus();
  }, true);
}

// Everything the script adds to a part of a page: the page as it loads, the main part put
// in from a save's answer (static/save.js), and the card another phone's change put in
// (static/live.js), each the same way. Each helper adds itself once to what it finds.
function enhance(root = document) {
  handOfWhoWentOut();
  presetFiller();
  newGameChances();
  starSteppers(root);
  minusToggles(root);
  signOutAsksFirst();
  saveBarFollowsTheKeyboard();
}

// A page opened (loaded, or answered after a save): the focus and the view go where the next
// tap is. Not for a card changed from another phone: what is being typed keeps its place.
function arrive() {
  showFirstProblem();
  focusTheNextTap();
  fitTheDealForm(); // once the buttons are in place: they make the form taller
}

document.addEventListener("DOMContentLoaded", () => {
  enhance();
  arrive();
});
// A page opened at #play (after Rematch, or a save without this script's answer): the
// browser scrolls to the anchor again as the page finishes loading, after the form was
// fitted, which put the Save bar back over the star controls at 320×568 (issue 38,
// point 1). Fitted again once it has.
window.addEventListener("load", () => {
  if (window.location.hash === "#play") requestAnimationFrame(() => fitTheDealForm());
});
if (window.Mille) {
  window.Mille.on("answered", (answer) => { enhance(answer.root); arrive(); });
  window.Mille.on("swapped", (swap) => enhance(swap.root));
  // offline.js put its banner, or live.js a new card, above the form: keep the form in view.
  window.Mille.on("changed", fitTheDealForm);
}
