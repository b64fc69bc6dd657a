// Scoring without a network. The service worker (/sw.js) keeps the game pages opened
// and the app's files, so the card opens without a network. With no network, a deal
// saved on this page is kept on this phone (localStorage: it survives a reload or the
// browser being closed), shown on the card as not yet saved with provisional totals,
// and sent when the network is back: in the order recorded, each with a one-time
// token made when it was recorded, so however often it is sent it is recorded once.
// What the server refuses (the game changed on another phone, it ended) stays here
// with the server's reason, to record again or discard. Everything else on the card
// (circles, stars, the end, who pays) is the server's, after sending.
// A kept deal belongs to whoever kept it: it carries the page's opaque key of the
// signed-in user (<body data-owner>) and is sent on its own only in a session of that
// same user, as the server's fresh page says. A deal kept by someone else, or planted in
// the storage, is shown with a choice: send it as me, or discard it. When the session
// has ended the page says "Sign in again" and stops trying until it is opened again.
// The other games (data-body="json" on #offline) keep a deal as the JSON body the API takes,
// built from what each field of the form says of its place in it (data-json-*), and send
// it to the deal form's address under this page's session and CSRF token, with its token as
// the Idempotency-Key: no game's rules are copied here, so the card shows a kept deal as
// "not yet saved" and the balances say in words that they wait for the network.
// Without this script the page works as before.
"use strict";

(function () {
  const box = document.getElementById("offline");
  if (!box || !window.localStorage || !window.fetch || !window.Mille) return;
  const text = box.dataset;
  const gameId = text.game;
  const STORE = `mille-unsaved-${gameId}`;
  let offline = !navigator.onLine;
  let sending = false;
  // Whose deals are sent: the signed-in user of this page, then of the server's fresh page.
  let owner = document.body.dataset.owner || "";
  let stopped = false; // the session ended, or the server refuses this page: no more tries
  // Another game than Mille: its deals are kept as JSON bodies, and nothing is worked out.
  const asJson = text.body === "json";

  // The service worker, registered from the site's root so it covers the game pages.
  if ("serviceWorker" in navigator && text.worker) {
    navigator.serviceWorker.register(text.worker, { scope: "/" }).then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // This very page loaded before the worker was in charge: have it kept now.
        const urls = [text.page];
        document.querySelectorAll("script[src], link[rel=stylesheet][href], link[rel=icon][href], link[rel=manifest][href]")
          .forEach((element) => urls.push(element.getAttribute("src") || element.getAttribute("href")));
        if (navigator.onLine && registration.active) registration.active.postMessage({ keep: urls });
      })
      .catch(() => { /* no worker (not a secure origin): the rest still works while the page is open */ });
  }

  function load() {
    try {
      const list = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (error) {
      return [];
    }
  }
  function store(list) {
    if (list.length) localStorage.setItem(STORE, JSON.stringify(list));
    else localStorage.removeItem(STORE);
  }

  function newToken() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replaceAll("-", "");
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function live() { return document.getElementById("live"); }
  function number(value) { return new Intl.NumberFormat(document.documentElement.lang || "en").format(value).replace("-", "−"); }
  function element(tag, className, content) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (content !== undefined) made.textContent = content;
    return made;
  }

  // The banner: offline, and what that means here.
  function banner() {
    let note = document.getElementById("offline-banner");
    if (!offline) {
      if (note) note.remove();
      document.documentElement.classList.remove("offline");
      return;
    }
    document.documentElement.classList.add("offline");
    if (!note) {
      note = element("div", "offline-banner flash flash-error");
      note.id = "offline-banner";
      note.setAttribute("role", "status");
      // One line above the totals; "more" opens the rest (issue 38, point 6).
      const more = element("details", "offline-more");
      const line = element("summary");
      line.append(element("span", "offline-line", text.offlineLine), " ", element("span", "more", text.more));
      more.append(line, element("p", "", text.offline), element("p", "", text.needsNetwork));
      // No service worker can run here (plain http): say what this setup cannot do.
      if (!window.isSecureContext && text.plainHttp) more.append(element("p", "plain-http", text.plainHttp));
      note.append(more);
    }
    const main = document.querySelector("main");
    const before = main.querySelector(".summary");
    const added = !note.isConnected;
    if (before) before.before(note);
    else main.prepend(note);
    // A page kept from an earlier visit: its messages ("Deal 3 saved.") are old news.
    main.querySelectorAll(".flashes").forEach((old) => { old.hidden = true; });
    if (added) window.Mille.tell("changed"); // app.js keeps the form in view
  }

  // Each element showing the game's state keeps the server's own content while it shows
  // the provisional one, and gets it back once nothing is kept.
  function provisional(shown, parts) {
    if (!shown) return;
    if (parts === null) {
      if (shown.dataset.server === undefined) return;
      shown.innerHTML = shown.dataset.server; // what the server had put there, as it was
      delete shown.dataset.server;
      shown.classList.remove("not-yet-saved");
      return;
    }
    if (shown.dataset.server === undefined) shown.dataset.server = shown.innerHTML;
    shown.replaceChildren(...parts);
    shown.classList.add("not-yet-saved");
  }
  function mark() { return element("span", "not-saved-mark", text.notSaved); }
  function counted(n, kind) {
    const form = new Intl.PluralRules(document.documentElement.lang || "en").select(n) === "one" ? "One" : "Other";
    return text[`${kind}${form}`].replace("{num}", number(n));
  }

  // The game as it would be with the kept deals: totals, stars, chapeaux, progress, who
  // deals next and the card's Total, each marked "not yet saved" in words (read out too).
  // With nothing kept, the server's own state is put back.
  function showState(card, waiting) {
    const state = {
      totals: [0, 1].map((seat) => Number(card.dataset[`total${seat}`] || 0)),
      stars: [0, 1].map((seat) => Number(card.dataset[`stars${seat}`] || 0)),
      chapeaux: [0, 1].map((seat) => Number(card.dataset[`chapeaux${seat}`] || 0)),
    };
    for (const deal of waiting) {
      for (const seat of [0, 1]) {
        state.totals[seat] += deal[`score${seat}`];
        state.stars[seat] += deal[`stars${seat}`];
        if (String(seat) !== String(deal.out) && deal[`score${seat}`] < 0) state.chapeaux[seat] += 1;
      }
    }
    const kept = waiting.length > 0;
    const target = Number(card.dataset.target || 0);
    for (const seat of [0, 1]) {
      const total = document.querySelector(`main .summary .player-total.seat${seat} .total`);
      const words = total && total.querySelector(".sr");
      provisional(total, kept ? [words ? words.cloneNode(true) : "", number(state.totals[seat]), " ", mark()] : null);
      const stars = document.querySelector(`main .summary .player-total.seat${seat} .star-count`);
      const glyphs = element("span", "stars", "★".repeat(state.stars[seat]));
      glyphs.setAttribute("aria-hidden", "true");
      provisional(stars, kept ? [counted(state.stars[seat], "star"), ...(state.stars[seat] ? [" ", glyphs] : [])] : null);
      const chapeaux = document.querySelector(`main .summary .player-total.seat${seat} .chapeau-count`);
      provisional(chapeaux, kept ? [counted(state.chapeaux[seat], "chapeau"), " ", mark()] : null);
      const progress = document.querySelector(`main .summary .player-total.seat${seat} .progress`);
      if (progress && target) {
        if (kept) {
          if (progress.dataset.serverText === undefined) {
            progress.dataset.serverText = progress.getAttribute("aria-valuetext") || "";
            progress.dataset.serverNow = progress.getAttribute("aria-valuenow") || "";
          }
          const total = state.totals[seat];
          progress.setAttribute("aria-valuenow", String(Math.min(Math.max(total, 0), target)));
          progress.setAttribute("aria-valuetext", `${text.progressText.replace("{total}", number(total)).replace("{target}", number(target))} (${text.notSaved})`);
          progress.classList.add("not-yet-saved");
        } else if (progress.dataset.serverText !== undefined) {
          progress.setAttribute("aria-valuetext", progress.dataset.serverText);
          progress.setAttribute("aria-valuenow", progress.dataset.serverNow);
          delete progress.dataset.serverText;
          delete progress.dataset.serverNow;
          progress.classList.remove("not-yet-saved");
        }
        const value = Number(progress.getAttribute("aria-valuenow"));
        const bar = progress.querySelector(".bar");
        if (bar) bar.className = `bar w${Math.floor(Math.min(Math.max(value * 100 / target, 0), 100) / 5) * 5}`;
      }
      const foot = document.querySelectorAll("main .scorecard tfoot td .total")[seat];
      provisional(foot, kept ? [number(state.totals[seat]), " ", mark()] : null);
    }
    // Who deals next: the deal alternates, so each kept deal hands it on.
    const dealer = document.querySelector("main .summary .next-dealer");
    if (dealer && card.dataset.status === "in_progress") {
      const seat = (Number(card.dataset.nextDealer || 0) + waiting.length) % 2;
      const [before, after] = text.dealsNext.replace("{number}", number(Number(card.dataset.deals || 0) + waiting.length + 1)).split("{name}");
      const name = element("strong", "", text[`player${seat}`]);
      const plain = (words) => (words || "").replace(/<\/?strong>/g, "");
      provisional(dealer, kept ? [plain(before), name, plain(after), " ", mark()] : null);
    }
    // "No deal yet" is not so any more; the messages of the page as it loaded are old news.
    document.querySelectorAll("main .scorecard > p.muted, main .flashes, #live-status").forEach((old) => {
      if (kept) old.hidden = true;
      else if (old.matches(".scorecard > p.muted")) old.hidden = false;
    });
  }

  // The deals kept on this phone, on the card: provisional rows and totals, and what was refused.
  function render() {
    if (asJson) {
      renderKept();
      return;
    }
    document.querySelectorAll(".unsaved-row, #unsaved").forEach((old) => old.remove());
    const list = load();
    const form = document.querySelector("main form.deal-form");
    const card = live();
    if (!card) return;
    let totals = [Number(card.dataset.total0 || 0), Number(card.dataset.total1 || 0)];
    let count = Number(card.dataset.deals || 0);
    const mine = (deal) => Boolean(owner) && deal.owner === owner;
    const waiting = list.filter((deal) => !deal.reason && mine(deal));
    const refused = list.filter((deal) => deal.reason);
    const others = list.filter((deal) => !deal.reason && !mine(deal));
    showState(card, waiting);
    if (form) {
      const heading = form.querySelector("h2");
      // "Deal 4" while two are kept; its own words back once they are sent.
      if (heading && waiting.length) {
        if (heading.dataset.plain === undefined) heading.dataset.plain = heading.textContent;
        heading.textContent = text.dealNumber.replace("{number}", count + waiting.length + 1);
      } else if (heading && heading.dataset.plain !== undefined) {
        heading.textContent = heading.dataset.plain;
        delete heading.dataset.plain;
      }
    }
    if (!list.length) return;
    const section = element("section", "unsaved card");
    section.id = "unsaved";
    section.setAttribute("aria-labelledby", "unsaved-title");
    const title = element("h2", "", text.keptTitle);
    title.id = "unsaved-title";
    section.append(title);
    let body = document.querySelector("main .scorecard tbody");
    const scorecard = document.querySelector("main .scorecard");
    if (!body && scorecard && waiting.length) {
      // No deal saved yet: the kept ones get a table of their own on the card.
      const table = element("table", "unsaved-row");
      body = element("tbody");
      table.append(body);
      scorecard.append(table);
    }
    if (waiting.length) {
      const rows = element("ol", "unsaved-list");
      for (const deal of waiting) {
        count += 1;
        totals = [totals[0] + deal.score0, totals[1] + deal.score1];
        rows.append(element("li", "", text.keptScores.replace("{number}", count).replace("{first}", number(deal.score0)).replace("{second}", number(deal.score1))));
        if (body) {
          const row = element("tr", "unsaved-row");
          const head = element("th", "", String(count));
          head.scope = "row";
          row.append(head);
          for (const seat of [0, 1]) {
            const cell = element("td", `seat${seat}`);
            cell.append(element("span", "deal-score", number(deal[`score${seat}`])), element("span", "total", number(totals[seat])));
            row.append(cell);
          }
          row.append(element("td", "row-actions", text.notSaved));
          body.append(row);
        }
      }
      section.append(rows, element("p", "provisional", text.provisional.replace("{first}", number(totals[0])).replace("{second}", number(totals[1]))));
    }
    for (const deal of refused) {
      const item = element("div", "refused flash flash-error");
      item.setAttribute("role", "alert");
      item.append(element("p", "", `${text.refusedTitle} ${number(deal.score0)} / ${number(deal.score1)}`), element("p", "reason", deal.reason));
      const again = element("button", "secondary", text.recordAgain);
      again.type = "button";
      item.append(...choices(deal, text.recordAgain));
      section.append(item);
    }
    // Kept by someone else (or by nobody this page knows): never sent unless chosen here.
    for (const deal of others) {
      const item = element("div", "foreign flash flash-error");
      item.setAttribute("role", "alert");
      item.append(element("p", "", `${text.foreignTitle} ${number(deal.score0)} / ${number(deal.score1)}`), element("p", "reason", text.foreign));
      item.append(...choices(deal, text.sendAsMe));
      section.append(item);
    }
    const place = document.querySelector("main .scorecard");
    if (place) place.before(section);
    else document.querySelector("main").append(section);
  }

  // The two choices for a deal that is not sent on its own: send it (as the signed-in
  // user, against the card as it is now), or discard it.
  function choices(deal, sendWords) {
    const buttons = [];
    if (owner) {
      const again = element("button", "secondary", sendWords);
      again.type = "button";
      again.addEventListener("click", () => {
        const current = load();
        const found = current.find((kept) => kept.token === deal.token);
        if (!found) return;
        found.reason = "";
        found.owner = owner; // chosen by the one signed in: now theirs to send
        found.again = true; // sent against the card as it is now, answering its question
        store(current);
        render();
        send();
      });
      buttons.push(again);
    }
    const drop = element("button", "secondary", text.discard);
    drop.type = "button";
    drop.addEventListener("click", () => {
      store(load().filter((kept) => kept.token !== deal.token));
      render();
    });
    buttons.push(drop);
    return buttons;
  }

  // A deal saved offline: kept, with a token of its own and the version it was typed on.
  function keep(form) {
    if (asJson) {
      keepBody(form);
      return;
    }
    const read = (name) => (form.elements.namedItem(name) ? String(form.elements.namedItem(name).value).trim() : "");
    const chosen = form.querySelector('input[name="out"]:checked');
    const whole = (value) => /^[-−]?\d+$/.test(value) ? parseInt(value.replace("−", "-"), 10) : null;
    const deal = {
      token: newToken(), out: chosen ? chosen.value : "",
      score0: whole(read("score0")), score1: whole(read("score1")),
      stars0: whole(read("stars0") || "0"), stars1: whole(read("stars1") || "0"),
      reason: "", owner, page: text.page,
    };
    if (deal.out === "" || deal.score0 === null || deal.score1 === null || deal.stars0 === null || deal.stars1 === null) {
      say(form, text.incomplete);
      return;
    }
    queue(form, deal, 'input[name="out"]');
  }

  // A deal kept on the phone (Mille's, or another game's JSON body): it is the next version
  // after the card's and the deals kept before it; the form is emptied for the next deal,
  // says so, and its first choice (``first``) has the focus.
  function queue(form, deal, first) {
    const list = load();
    const card = live();
    deal.version = Number(card ? card.dataset.version : 0) + list.filter((kept) => !kept.reason && kept.owner === owner).length;
    list.push(deal);
    store(list);
    form.reset();
    form.querySelectorAll(".live-notice, .offline-said").forEach((note) => note.remove());
    render();
    say(form, text.kept);
    const choice = form.querySelector(first);
    if (choice) choice.focus();
  }

  function say(form, words) {
    let note = form.querySelector(".offline-said");
    if (!note) {
      note = element("p", "offline-said");
      note.setAttribute("role", "status");
      (form.querySelector(".actions") || form).after(note);
    }
    note.textContent = words;
  }

  // The server's reason for not saving, in its own words: what its page marks data-reason
  // (on a game page, beside its X-Refusal code; on an error page, its heading and sentence).
  function reasonIn(page, separator = " ") {
    const parts = [];
    page.querySelectorAll("main [data-reason]").forEach((found) => {
      const words = found.textContent.replace(/\s+/g, " ").trim();
      if (words && !parts.some((part) => part.includes(words))) parts.push(words);
    });
    return parts.join(separator);
  }
  function parsed(html) { return new DOMParser().parseFromString(html, "text/html"); }

  // The session ended (or the server refuses this page): say so, with the server's reason
  // and a way to sign in again, and stop trying until the page is opened again. The kept
  // deals stay on this phone, not yet saved.
  function stop(reason, signIn) {
    stopped = true;
    offline = false;
    banner();
    let note = document.getElementById("offline-stopped");
    if (!note) {
      note = element("div", "offline-stopped flash flash-error");
      note.id = "offline-stopped";
      note.setAttribute("role", "alert");
      const main = document.querySelector("main");
      const before = main.querySelector(".summary");
      if (before) before.before(note);
      else main.prepend(note);
    }
    note.replaceChildren(element("p", "reason", reason));
    window.Mille.tell("changed");
    if (signIn) {
      const link = element("a", "", text.signInAgain);
      link.href = text.signIn;
      note.append(element("p", "", ""));
      note.lastChild.append(link);
    }
  }

  // The words of an error page (401, 403, 404): its heading and its sentence.
  function errorIn(html) { return reasonIn(parsed(html), ": "); }

  // After sending, either way: the deals kept after a refused one are held by it, said in
  // words; then the server's card (its totals or balances, its end) once anything changed.
  function sent(saved, refused) {
    if (refused) {
      const list = load();
      const refusedAt = list.findIndex((deal) => deal.token === refused);
      list.forEach((deal, index) => { if (index > refusedAt && !deal.reason && deal.owner === owner) deal.reason = text.heldBack; });
      store(list);
    }
    if (saved || refused) window.location.reload();
    else render();
  }

  async function send() {
    if (asJson) {
      await sendBodies();
      return;
    }
    if (sending || stopped) return;
    if (!load().some((deal) => !deal.reason && deal.owner === owner && owner)) return;
    sending = true;
    let saved = 0; // deals this round recorded: each moved the game's version on by one
    let refused = ""; // the token of a deal the server refused this round
    try {
      // A fresh page for a fresh CSRF token, the version the card is at now, and who is
      // signed in now. A redirect (to signing in) or a 401 is a session that has ended.
      const page = await fetch(text.page, {
        cache: "no-store", credentials: "same-origin", redirect: "manual", headers: { "X-Requested-With": "background" },
      });
      if (page.type === "opaqueredirect" || page.status === 401) {
        stop(text.sessionEnded, true);
        return;
      }
      if (page.status === 403 || page.status === 404) {
        // A private game is hidden (404) from whoever is not signed in: its page says who is.
        const html = await page.text();
        const signedIn = new DOMParser().parseFromString(html, "text/html").body.dataset.owner;
        if (signedIn) stop(errorIn(html) || text.refusedTitle, false);
        else stop(text.sessionEnded, true);
        return;
      }
      if (!page.ok) throw new Error(String(page.status));
      const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
      const csrf = fresh.querySelector('input[name="csrf_token"]');
      const freshLive = fresh.getElementById("live");
      const current = freshLive ? Number(freshLive.dataset.version) : 0;
      offline = false;
      banner();
      // Signed out (a public game reads without signing in), or someone else signed in.
      owner = fresh.body ? fresh.body.dataset.owner || "" : "";
      if (!owner) {
        stop(text.sessionEnded, true);
        return;
      }
      const post = (deal, confirm) => {
        const data = new FormData();
        data.set("csrf_token", csrf ? csrf.value : "");
        data.set("token", deal.token);
        data.set("version", String(deal.again ? current + saved : deal.version));
        data.set("out", deal.out);
        for (const name of ["score0", "score1", "stars0", "stars1"]) data.set(name, String(deal[name]));
        if (confirm) data.set("confirm", confirm);
        return window.Mille.post(text.post, data);
      };
      for (const deal of load()) {
        if (deal.reason || deal.owner !== owner) continue; // someone else's: only by a choice
        let response = await post(deal, "");
        let answer = response.type === "opaqueredirect" ? null : parsed(await response.text());
        if (deal.again && answer && response.headers.get("X-Refusal") === "confirm") {
          // Sent again by a choice against the card as it is now: that choice answers the
          // server's question, with the confirmation its answer gives for these numbers.
          const confirm = answer.querySelector('main form [name="confirm"]');
          if (confirm && confirm.value) {
            response = await post(deal, confirm.value);
            answer = response.type === "opaqueredirect" ? null : parsed(await response.text());
          }
        }
        if (response.status === 401) {
          // Ended between the page and the save: the deal stays kept, to send once signed in.
          stop(reasonIn(answer, ": ") || text.sessionEnded, true);
          break;
        }
        const list = load();
        const index = list.findIndex((kept) => kept.token === deal.token);
        if (response.type === "opaqueredirect") {
          if (index >= 0) list.splice(index, 1); // saved (or found already saved): the server's now
          saved += 1;
        } else if (index >= 0) {
          // Refused: a game page says why with its X-Refusal code, an error page (403) by
          // its status; both in the words they mark as the reason.
          list[index].reason = reasonIn(answer, response.headers.get("X-Refusal") ? " " : ": ") || text.refusedTitle;
          list[index].again = false;
          refused = deal.token;
        }
        store(list);
        if (response.type !== "opaqueredirect") break; // the later ones were typed after it
      }
    } catch (error) {
      offline = true;
      banner();
    } finally {
      sending = false;
    }
    sent(saved, refused);
  }

  // Another game's deals ------------------------------------------------------------------

  // The body the API takes, from the form: each field says where its value goes
  // (data-json-path: "counts.2", "honours.jack"), each choice what it puts there
  // (data-json-value, JSON), and what it fills in when left empty (data-json-fills).
  function place(body, path, value) {
    const parts = path.split(".");
    let at = body;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        at[part] = value;
        return;
      }
      if (at[part] === undefined) at[part] = /^\d+$/.test(parts[index + 1]) ? [] : {};
      at = at[part];
    });
  }
  function placed(body, path) {
    return path.split(".").reduce((at, part) => (at === undefined || at === null ? undefined : at[part]), body);
  }
  function bodyOf(form) {
    const body = {};
    const fills = [];
    form.querySelectorAll("[data-json-path]").forEach((field) => {
      const path = field.dataset.jsonPath;
      if (field.type === "radio" || field.tagName === "SELECT") {
        const chosen = field.type === "radio" ? (field.checked ? field : null) : field.selectedOptions[0];
        if (!chosen || chosen.dataset.jsonValue === undefined) return; // left out: the server says so
        place(body, path, JSON.parse(chosen.dataset.jsonValue));
        if (chosen.dataset.jsonFills) fills.push(JSON.parse(chosen.dataset.jsonFills));
      } else if (field.dataset.jsonType === "boolean") {
        place(body, path, field.checked);
      } else {
        // A whole number as a number; anything else as typed, for the server to refuse.
        const typed = field.value.trim().replace("−", "-");
        place(body, path, typed === "" ? null : /^[-+]?\d{1,9}$/.test(typed) ? Number(typed) : typed);
      }
    });
    for (const filled of fills) {
      for (const [path, value] of Object.entries(filled)) {
        if (placed(body, path) === null || placed(body, path) === undefined) place(body, path, value);
      }
    }
    return body;
  }

  function keepBody(form) {
    const deal = { token: newToken(), body: bodyOf(form), reason: "", owner, page: text.page };
    queue(form, deal, "input[type=radio], select, input");
  }

  // "Deal 4" on the form while two are kept; its own words back once they are sent.
  function dealHeading(form, next) {
    const heading = form && form.querySelector("h2");
    if (!heading) return;
    if (next !== null) {
      if (heading.dataset.plain === undefined) heading.dataset.plain = heading.textContent;
      heading.textContent = text.dealNumber.replace("{number}", next);
    } else if (heading.dataset.plain !== undefined) {
      heading.textContent = heading.dataset.plain;
      delete heading.dataset.plain;
    }
  }

  // The kept deals, each "not yet saved"; the balances say they wait for the network.
  function renderKept() {
    document.querySelectorAll("#unsaved, .balances-waiting").forEach((old) => old.remove());
    const card = live();
    if (!card) return;
    const list = load();
    const mine = (deal) => Boolean(owner) && deal.owner === owner;
    const waiting = list.filter((deal) => !deal.reason && mine(deal));
    const refused = list.filter((deal) => deal.reason);
    const others = list.filter((deal) => !deal.reason && !mine(deal));
    const count = Number(card.dataset.deals || 0);
    dealHeading(document.querySelector("main form.deal-form"), waiting.length ? count + waiting.length + 1 : null);
    const summary = document.querySelector("main .summary");
    if (summary) {
      summary.classList.toggle("not-yet-saved", waiting.length > 0);
      if (waiting.length) summary.append(element("p", "balances-waiting", counted(waiting.length, "waiting")));
    }
    // "No deal yet" is not so any more; the messages of the page as it loaded are old news.
    document.querySelectorAll("main .scorecard > p.muted, main .flashes, #live-status").forEach((old) => {
      if (waiting.length) old.hidden = true;
      else if (old.matches(".scorecard > p.muted")) old.hidden = false;
    });
    if (!list.length) return;
    const section = element("section", "unsaved card");
    section.id = "unsaved";
    section.setAttribute("aria-labelledby", "unsaved-title");
    const title = element("h2", "", text.keptTitle);
    title.id = "unsaved-title";
    section.append(title);
    if (waiting.length) {
      const rows = element("ol", "unsaved-list");
      waiting.forEach((deal, index) => {
        rows.append(element("li", "", text.keptDeal.replace("{number}", count + index + 1)));
      });
      section.append(rows);
    }
    for (const deal of refused) {
      const item = element("div", "refused flash flash-error");
      item.setAttribute("role", "alert");
      item.append(element("p", "", text.refusedTitle), element("p", "reason", deal.reason));
      item.append(...choices(deal, text.recordAgain));
      section.append(item);
    }
    for (const deal of others) {
      const item = element("div", "foreign flash flash-error");
      item.setAttribute("role", "alert");
      item.append(element("p", "", text.foreignTitle), element("p", "reason", text.foreign));
      item.append(...choices(deal, text.sendAsMe));
      section.append(item);
    }
    const place = document.querySelector("main .scorecard");
    if (place) place.before(section);
    else document.querySelector("main").append(section);
  }

  // The page's own CSRF token (the newest page's, once a save put a new one in place).
  function csrfToken() {
    const current = document.getElementById("offline");
    return current ? current.dataset.csrf || "" : "";
  }

  // Each kept deal of this user, in order, as the API's JSON under this page's session; the
  // server answers JSON: 201 saved, 200 saved already (its key came before), else why not.
  async function sendBodies() {
    if (sending || stopped) return;
    if (!load().some((deal) => !deal.reason && deal.owner === owner && owner)) return;
    sending = true;
    let saved = 0;
    let refused = "";
    try {
      for (const deal of load()) {
        if (deal.reason || deal.owner !== owner) continue; // someone else's: only by a choice
        const body = deal.again ? deal.body : { ...deal.body, version: deal.version };
        const headers = {
          "Content-Type": "application/json", Accept: "application/json",
          "Idempotency-Key": deal.token, "X-CSRFToken": csrfToken(),
        };
        if (deal.confirm) headers["X-Confirm"] = deal.confirm;
        const response = await window.Mille.post(text.post, JSON.stringify(body), headers);
        let answer = {};
        try {
          answer = await response.json();
        } catch (error) {
          answer = {};
        }
        offline = false;
        banner();
        if (response.status === 401) {
          stop(text.sessionEnded, true); // the deal stays kept, to send once signed in
          break;
        }
        if (response.status === 400) {
          stop(answer.error || text.refusedTitle, false); // this page is too old: reload it
          break;
        }
        const list = load();
        const index = list.findIndex((kept) => kept.token === deal.token);
        if (response.ok) {
          if (index >= 0) list.splice(index, 1); // saved (or found already saved): the server's now
          saved += 1;
        } else if (index >= 0) {
          list[index].reason = answer.error || text.refusedTitle;
          list[index].again = false;
          list[index].confirm = answer.confirm || ""; // "Record it again" answers its question
          refused = deal.token;
        }
        store(list);
        if (!response.ok) break; // the later ones were typed after it
      }
    } catch (error) {
      offline = true;
      banner();
    } finally {
      sending = false;
    }
    sent(saved, refused);
  }

  // This is the queue of save.js, which owns the submit: offline, a deal form's Save keeps
  // the deal here; the other changes need the network, and the banner says so.
  window.Mille.queue({ offline: () => offline, keep, refuse: warn });
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("main .row-actions a, main .count-link a");
    if (link && offline) {
      event.preventDefault();
      warn();
    }
  }, true);

  // A correction, an undo or a payment tapped offline: the banner says why nothing happens.
  function warn() {
    banner();
    const note = document.getElementById("offline-banner");
    if (!note) return;
    note.querySelector("details").open = true; // why nothing happens: what needs the network
    note.setAttribute("role", "alert");
    note.tabIndex = -1;
    note.focus();
  }

  function wentOffline() { if (!stopped) { offline = true; banner(); } }
  function cameBack() { if (stopped) return; offline = false; banner(); send(); }
  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", cameBack);
  // live.js swapped a new card in: show the kept deals on it again.
  window.Mille.on("swapped", () => { banner(); render(); });
  // A deal saved from this page (save.js put the answer in place): the kept deals go on the
  // new card, and the worker keeps this newest card, which the page asked for with no GET.
  window.Mille.on("answered", (answer) => {
    banner();
    render();
    if (answer.saved && answer.html && "serviceWorker" in navigator && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ page: text.page, html: answer.html });
    }
  });
  // The network can come back without an "online" event (the server was down): try now and then.
  window.setInterval(() => { if (!stopped && !document.hidden && navigator.onLine) send(); }, 5000);

  banner();
  render();
  if (navigator.onLine) send();
})();
