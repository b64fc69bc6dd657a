// The one owner of a form's submit on every page: it sends, queues or refuses a save, and
// the other scripts subscribe to what it decides (window.Mille.on). Nothing else listens
// to "submit" (signing out excepted: app.js asks about the deals kept on this phone first),
// and nothing else posts a save: the deals the offline queue kept go out through
// window.Mille.post too.
//
// - A second tap while a form is on its way does nothing (the server would recognise the
//   repeat anyway, through the form's one-time token).
// - With no network (the offline queue, static/offline.js, says so), a deal is kept by the
//   queue on this phone; any other change is refused, and the page says why.
// - A file larger than the server takes in one request is sent in parts first (the import).
// - A deal form is sent in the background: on flaky Wi-Fi a failed send leaves the page as
//   it is and says so, and the same tap retries. The answer is the game page itself (saved,
//   or refused with the reason) and its main part is put in place, in one request. Any other
//   answer is handled as without this script (the form is sent again the ordinary way,
//   which the token makes harmless).
//
// What it tells its subscribers:
//   "sending"  {form}          a form leaves this page (live.js stops asking for changes)
//   "answered" {html, saved}   a deal's answer is in place (app.js enhances it, live.js and
//                              offline.js take the new card)
//   "swapped"  {}              live.js put another phone's card in place (app.js enhances
//                              it, offline.js shows its kept deals on it again)
//   "changed"  {}              something was put above the deal form (app.js keeps it in view)
// Without this script every form is sent the ordinary way.
"use strict";

(function () {
  const subscribers = {};
  // The offline queue, once offline.js has said it is there.
  let queue = null;

  function on(what, callback) {
    (subscribers[what] = subscribers[what] || []).push(callback);
  }
  function tell(what, detail = {}) {
    for (const callback of subscribers[what] || []) callback(detail);
  }

  // A deal of the game page, as the offline queue keeps it (not a correction on its Fix page).
  function isNewDeal(form) {
    return form.matches("form.deal-form") && /\/deals$/.test(new URL(form.action).pathname);
  }

  function status(form, words) {
    let note = form.querySelector(".connection-status");
    if (!note) {
      note = document.createElement("p");
      note.className = "connection-status";
      note.setAttribute("role", "alert");
      (form.querySelector(".actions") || form).after(note);
    }
    note.hidden = !words;
    note.textContent = words || "";
  }

  // The game page after a save is the same address with #play: going there from the game
  // page itself would only scroll, so the page is loaded again, opening at its anchor.
  function openAfresh(address) {
    const next = new URL(address, window.location.href);
    if (next.pathname + next.search !== window.location.pathname + window.location.search) {
      window.location.assign(next.href);
      return;
    }
    window.history.scrollRestoration = "manual";
    window.history.replaceState(null, "", next.href);
    window.location.reload();
  }

  // The answer to a save is the game page itself (saved, or refused with the reason): its
  // main part replaces this page's.
  function putInPlace(html, address) {
    const page = new DOMParser().parseFromString(html, "text/html");
    const main = page.querySelector("main");
    if (!main) return;
    document.querySelector("main").replaceWith(main);
    document.title = page.title;
    // Where a page loaded from the answer would open: at its anchor (#play), else at the top.
    window.scrollTo(0, 0);
    if (address) {
      window.history.replaceState(null, "", address);
      const anchor = document.getElementById(new URL(address, window.location.href).hash.slice(1));
      if (anchor) anchor.scrollIntoView({ block: "start" });
    }
    tell("answered", { html, saved: Boolean(address), root: main });
  }

  async function send(form, submitter) {
    const data = new FormData(form);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    status(form, "");
    try {
      // Not following the redirect leaves the "Deal saved" message for the next page.
      const response = await post(form.action, data, { "X-Requested-With": "fetch" });
      if (response.type === "opaqueredirect") {
        openAfresh(form.dataset.next);
        return;
      }
      if ((response.headers.get("Content-Type") || "").startsWith("text/html")) {
        // Only a saved deal moves the address on; a question or a refusal stays where
        // it was asked (the Fix page keeps its own address, and what was typed).
        const saved = response.headers.get("X-Deal-Saved") === "1";
        putInPlace(await response.text(), saved ? form.dataset.next : null);
        return;
      }
      if (submitter && submitter.name) {
        const carry = document.createElement("input");
        carry.type = "hidden";
        carry.name = submitter.name;
        carry.value = submitter.value;
        form.append(carry);
      }
      form.submit(); // the ordinary way: no submit event, so not decided here again
    } catch (error) {
      status(form, form.dataset.offline);
      form.dataset.sending = "";
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.matches("form.sign-out")) return;
    if (queue && queue.offline()) {
      event.preventDefault();
      if (isNewDeal(form)) queue.keep(form);
      else queue.refuse(form);
      return;
    }
    if (form.dataset.sending === "1") {
      event.preventDefault();
      return;
    }
    form.dataset.sending = "1";
    tell("sending", { form });
    if (tooLargeForOneRequest(form)) {
      event.preventDefault();
      sendInParts(form);
    } else if (form.matches("form.deal-form")) {
      event.preventDefault();
      send(form, event.submitter);
    } else {
      // Sent the ordinary way; if the next page never comes, a tap later may try again.
      setTimeout(() => { form.dataset.sending = ""; }, 8000);
    }
  });

  // A file larger than the server receives in one request (the import page says so with
  // data-parts, under waitress) goes first in parts of that size, each to data-parts-url,
  // which answers the upload's id; then the form is sent the ordinary way, naming the
  // upload instead of the file.
  function tooLargeForOneRequest(form) {
    const input = form.dataset.parts && form.querySelector('input[type="file"]');
    return Boolean(input && input.files.length && input.files[0].size > Number(form.dataset.parts));
  }

  async function sendInParts(form) {
    const input = form.querySelector('input[type="file"]');
    const file = input.files[0];
    const size = Number(form.dataset.parts);
    const token = form.querySelector('input[name="csrf_token"]');
    let upload = "";
    try {
      for (let offset = 0; offset < file.size; offset += size) {
        const percent = String(Math.floor((100 * offset) / file.size));
        status(form, form.dataset.partsSending.replace("{percent}", percent));
        const data = new FormData();
        if (token) data.set("csrf_token", token.value);
        data.set("upload", upload);
        data.set("offset", String(offset));
        data.set("part", file.slice(offset, offset + size), file.name);
        const response = await post(form.dataset.partsUrl, data);
        const answer = await response.json();
        if (!response.ok) {
          status(form, answer.error);
          form.dataset.sending = "";
          return;
        }
        upload = answer.upload;
      }
    } catch (error) {
      status(form, form.dataset.offline);
      form.dataset.sending = "";
      return;
    }
    form.querySelector('input[name="upload"]').value = upload;
    input.disabled = true; // not sent again: the upload stands for it
    form.submit(); // the ordinary way: no submit event, so not decided here again
  }

  // Every save this page sends: a form submitted here (send), and a deal the offline queue
  // kept, sent once the network is back (window.Mille.post). A redirect is not followed, so
  // a saved deal is told from a refusal, which says why in its X-Refusal code and
  // data-reason words; the queue reads its answers itself.
  function post(address, data, headers = {}) {
    return fetch(address, {
      method: "POST", body: data, credentials: "same-origin", redirect: "manual", headers,
    });
  }

  window.Mille = {
    on,
    tell,
    post,
    // The offline queue: {offline(), keep(form), refuse(form)}.
    queue(kept) { queue = kept; },
  };
})();
