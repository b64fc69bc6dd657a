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
function starSteppers() {
  document.querySelectorAll("input.star-input").forEach((input) => {
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
function minusToggles() {
  document.querySelectorAll("input.score-input").forEach((input) => {
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

// A second tap while a save is on its way does nothing (the server would
// recognise the repeat anyway, through the form's one-time token).
function oneSubmitAtATime() {
  document.querySelectorAll("form:not(.deal-form)").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (form.dataset.sending === "1") {
        event.preventDefault();
        return;
      }
      form.dataset.sending = "1";
      setTimeout(() => { form.dataset.sending = ""; }, 8000);
    });
  });
}

// Saving a deal on flaky Wi-Fi: the form is sent in the background first. If
// the network fails, the page stays as it is and says so, and the same tap
// retries; the form's one-time token makes sure a deal that did reach the
// server is not recorded twice. Any answer from the server is handled as
// without this script (the form is sent again the ordinary way, which the
// token makes harmless).
function saveThroughBadConnections() {
  document.querySelectorAll("form.deal-form").forEach((form) => {
    const status = document.createElement("p");
    status.className = "connection-status";
    status.setAttribute("role", "alert");
    status.hidden = true;
    form.querySelector(".actions").after(status);
    let sending = false;
    form.addEventListener("submit", async (event) => {
      if (form.dataset.plain === "1") return; // the ordinary submission below
      event.preventDefault();
      if (sending) return;
      sending = true;
      const button = event.submitter;
      const data = new FormData(form);
      if (button && button.name) data.set(button.name, button.value);
      status.hidden = true;
      try {
        // Not following the redirect leaves the "Deal saved" message for the next page.
        const response = await fetch(form.action, {
          method: "POST", body: data, credentials: "same-origin", redirect: "manual",
        });
        if (response.type === "opaqueredirect") {
          window.location.assign(form.dataset.next);
          return;
        }
        form.dataset.plain = "1";
        if (button && button.name) {
          const carry = document.createElement("input");
          carry.type = "hidden";
          carry.name = button.name;
          carry.value = button.value;
          form.append(carry);
        }
        form.submit();
      } catch (error) {
        status.textContent = form.dataset.offline;
        status.hidden = false;
        sending = false;
      }
    });
  });
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

document.addEventListener("DOMContentLoaded", () => {
  showFirstProblem();
  handOfWhoWentOut();
  presetFiller();
  starSteppers();
  minusToggles();
  oneSubmitAtATime();
  saveThroughBadConnections();
});
