// The bill's Share and Copy buttons (issue 23). Without this script the sentence is on the
// page, to select and copy by hand; with it, "Share" opens the phone's share sheet (the Web
// Share API) and, where there is none, "Copy" puts the same sentence on the clipboard. An
// amount or address marked data-copy gets a Copy button of its own; a box marked
// data-copy-too gets both Copy and Share.
"use strict";

(function () {
  function words() {
    const box = document.querySelector(".share");
    return box ? box.dataset : null;
  }

  function status(after) {
    const note = document.createElement("span");
    note.className = "copy-status muted";
    note.setAttribute("role", "status");
    after.after(note);
    return note;
  }

  // The clipboard needs a secure page (HTTPS or this machine); on plain http the text is
  // selected and copied the older way, or left selected for the phone's own Copy.
  async function copy(text, element, note) {
    const said = words();
    try {
      await navigator.clipboard.writeText(text);
      note.textContent = said.copied;
      return;
    } catch (error) { /* no clipboard here: select it instead */ }
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    let done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    note.textContent = done ? said.copied : said.select;
  }

  function button(label, className) {
    const made = document.createElement("button");
    made.type = "button";
    made.className = className;
    made.textContent = label;
    return made;
  }

  function enhance() {
    const said = words();
    if (!said) return;
    document.querySelectorAll(".share:not([data-ready])").forEach((box) => {
      box.dataset.ready = "1";
      const sentence = box.querySelector(".share-text");
      const text = sentence.textContent.trim();
      const share = navigator.share ? button(said.shareLabel, "primary share-button") : button(said.copyLabel, "secondary copy-button");
      box.append(share);
      const note = status(share);
      share.addEventListener("click", () => {
        if (navigator.share) navigator.share({ text }).catch(() => { /* closed: nothing to do */ });
        else copy(text, sentence, note);
      });
      // A link shown once (an invitation's: data-copy-too) is copied in one tap even where
      // the phone's share sheet is offered too.
      if ("copyToo" in box.dataset && navigator.share) {
        const copying = button(said.copyLabel, "secondary copy-button");
        share.before(copying, " ");
        copying.addEventListener("click", () => copy(text, sentence, note));
      }
    });
    document.querySelectorAll("[data-copy]:not([data-ready])").forEach((element) => {
      element.dataset.ready = "1";
      const made = button(said.copyLabel, "link copy-button");
      element.after(" ", made);
      const note = status(made);
      made.addEventListener("click", () => copy(element.dataset.copy, element, note));
    });
  }

  enhance();
  if (window.Mille) window.Mille.on("swapped", enhance); // the card was put in afresh (live.js)
})();
