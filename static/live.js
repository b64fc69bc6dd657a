// The game page stays live: a deal, a correction, an undo, the end or a payment made
// on another phone shows here within a few seconds, without a reload.
//
// Every 2 s while the page is visible it asks the game's version with the one this page
// shows as an ETag; the server answers "304 Not Modified" (one small query) until the
// game changes. Then the page is fetched and its card swapped in. A deal being typed
// here is never lost: the deal form, as typed, is kept in place, with a note that the
// card changed under it. It keeps the version it was typed against, so its save is
// judged against the card as it was: the server refuses it and says what changed, and
// a deal already recorded elsewhere can't become a duplicate by one more tap.
// Without this script the page works as before (a reload shows the changes).
"use strict";

(function () {
  let live = document.getElementById("live");
  if (!live || !window.fetch || !window.DOMParser || !window.Mille) return;
  const PERIOD = 2000;
  const versionUrl = live.dataset.versionUrl;
  const pageUrl = live.dataset.pageUrl;
  // What the page shows, as the server's ETag names it (the version, and the agreements
  // given once there are any).
  let version = live.dataset.etag || live.dataset.version;
  let timer = null;
  let busy = false;
  let leaving = false; // a form is being sent: the next page is on its way

  // Whether the deal form holds anything typed (or kept from a refused save). A new form
  // that says so (data-fresh) holds what was typed wherever it differs from how it came: a
  // choice the page made for a new deal (no jink, no Joker) is not something typed.
  function typedIn(form) {
    if (!form) return false;
    if (form.dataset.fresh === "1") {
      return Array.from(form.querySelectorAll("input")).some((input) => (
        input.type === "radio" || input.type === "checkbox"
          ? input.checked !== input.defaultChecked
          : input.type !== "hidden" && input.value !== input.defaultValue
      ));
    }
    for (const input of form.querySelectorAll("input")) {
      if (input.type === "radio" || input.type === "checkbox") {
        if (input.checked) return true;
      } else if (input.type !== "hidden") {
        const value = input.value.trim();
        const blank = input.classList.contains("star-input") ? value === "" || value === "0" : value === "";
        if (!blank) return true;
      }
    }
    return false;
  }

  function notice(form, text) {
    let note = form.querySelector(".live-notice");
    if (!note) {
      note = document.createElement("p");
      note.className = "live-notice flash flash-error";
      note.setAttribute("role", "alert");
      const heading = form.querySelector("h2");
      (heading || form.firstChild).after(note);
    }
    note.textContent = text;
  }

  function say(text) {
    let status = document.getElementById("live-status");
    if (!status) {
      status = document.createElement("p");
      status.id = "live-status";
      status.className = "live-status muted";
      status.setAttribute("role", "status");
    }
    // Just above the totals, which is what changed.
    const totals = document.querySelector("main .summary");
    if (totals) totals.before(status);
    else document.querySelector("main").prepend(status);
    status.textContent = text;
  }

  // Put the page's new main content in place of this one, keeping a deal being typed.
  function swapIn(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    const freshMain = fresh.querySelector("main");
    const freshLive = fresh.getElementById("live");
    if (!freshMain || !freshLive) return false;
    freshMain.querySelectorAll("script").forEach((script) => script.remove());
    const main = document.querySelector("main");
    const form = main.querySelector("form.deal-form");
    const kept = typedIn(form) ? form : null;
    const focused = document.activeElement;
    const caret = focused && "selectionStart" in focused ? [focused.selectionStart, focused.selectionEnd] : null;
    const anchor = kept || main.querySelector(".summary");
    const top = anchor ? anchor.getBoundingClientRect().top : null;

    const freshForm = freshMain.querySelector("form.deal-form");
    if (kept) {
      if (freshForm) freshForm.replaceWith(kept);
      else {
        // The game ended (or was settled) elsewhere: the deal typed stays in view, unsaved.
        const place = freshMain.querySelector(".scorecard");
        if (place) place.before(kept);
        else freshMain.append(kept);
      }
      notice(kept, freshForm ? live.dataset.changedTyping : live.dataset.endedTyping);
    } else if (freshForm && form) {
      // Nothing typed: the same form (with its buttons) takes the new card's hidden fields.
      for (const name of ["version", "token"]) {
        const mine = form.elements.namedItem(name);
        const theirs = freshForm.elements.namedItem(name);
        if (mine && theirs) mine.value = theirs.value;
      }
      const heading = form.querySelector("h2");
      const freshHeading = freshForm.querySelector("h2");
      if (heading && freshHeading) heading.textContent = freshHeading.textContent;
      form.querySelectorAll(".live-notice").forEach((note) => note.remove());
      freshForm.replaceWith(form);
    }
    // Moved, not copied: the kept form keeps what was typed and app.js's buttons (a form
    // new to this page gets them when the swap is told below).
    main.replaceChildren(...Array.from(freshMain.childNodes));
    if (focused && document.body.contains(focused) && focused !== document.activeElement) {
      focused.focus({ preventScroll: true });
      if (caret) try { focused.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text field */ }
    }
    const moved = anchor && document.body.contains(anchor) ? anchor.getBoundingClientRect().top : null;
    if (top !== null && moved !== null) window.scrollBy(0, moved - top);
    version = freshLive.dataset.etag || freshLive.dataset.version;
    say(live.dataset.changed);
    // Enhanced as a loaded page is (app.js); offline.js shows its kept deals on it again.
    window.Mille.tell("swapped", { root: main });
    return true;
  }

  // The link that opened this page no longer does (the scorekeeper stopped sharing it):
  // the card is taken off the screen, and the page says why. Nothing is asked again.
  function gone() {
    stop();
    const note = document.createElement("p");
    note.className = "flash flash-error live-gone";
    note.setAttribute("role", "alert");
    note.textContent = live.dataset.gone;
    document.querySelector("main").replaceChildren(note);
  }

  async function check() {
    if (busy || leaving || document.hidden) return;
    busy = true;
    try {
      const response = await fetch(versionUrl, {
        headers: { "If-None-Match": `"${version}"` }, cache: "no-store", credentials: "same-origin",
      });
      if (response.status === 200 && !leaving) {
        const page = await fetch(pageUrl, {
          cache: "no-store", credentials: "same-origin", headers: { "X-Requested-With": "background" },
        });
        if (page.ok && !leaving) swapIn(await page.text());
      } else if (response.status === 404 && live.dataset.gone) {
        gone(); // a seat's link stopped: the card leaves this phone too
      } else if ([401, 403, 404].includes(response.status)) {
        stop(); // signed out, or no longer a member: asking again won't change it
      }
    } catch (error) {
      // No network: try again at the next tick (offline.js says so on the page).
    } finally {
      busy = false;
    }
  }

  function start() {
    stop();
    if (!document.hidden) timer = window.setInterval(check, PERIOD);
  }
  function stop() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) stop();
    else { check(); start(); }
  });
  // A form sent from this page leads to the next page (and its messages): stop asking.
  // (If the sending fails, save.js keeps the page, and asking starts again a little later.)
  window.Mille.on("sending", () => {
    leaving = true;
    window.setTimeout(() => { leaving = false; }, 10000);
  });
  // A save answered with the game page (save.js): its card is this phone's own doing, the
  // version to ask about from now on, and the page stays, so asking goes on at once.
  window.Mille.on("answered", () => {
    const fresh = document.getElementById("live");
    if (fresh) {
      live = fresh;
      version = fresh.dataset.etag || fresh.dataset.version;
    }
    leaving = false;
  });
  window.addEventListener("pageshow", () => { leaving = false; start(); });
  start();
})();
