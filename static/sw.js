// The service worker (served as /sw.js): a game page opened once opens again without
// a network, with the app's assets. Network first, so the card is never older than it
// must be; the cache only answers when the network does not. What the page refers to
// is cached by its address, whatever it is: a fingerprinted /static/ URL keeps its
// "?v=" (an old script and a new one never share one slot). A game page the server no
// longer gives this browser (signed out, no longer a member) is dropped from the cache, and
// signing out empties it (app.js, and the server's Clear-Site-Data), so a private page
// does not open offline for whoever holds the phone next.
"use strict";

const CACHE = "mille-v2";
const GAME_PAGE = /^\/games\/\d+$/;

self.addEventListener("install", () => self.skipWaiting());
// Older caches (mille-v1 kept files without their fingerprint) are removed.
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) {
    if (name.startsWith("mille-") && name !== CACHE) await caches.delete(name);
  }
  await self.clients.claim();
})()));

function kept(url) {
  return url.origin === self.location.origin &&
    (GAME_PAGE.test(url.pathname) || url.pathname.startsWith("/static/"));
}

// A game page is kept under its address without query or fragment; a file under its
// whole address, fingerprint included.
function key(url) {
  return GAME_PAGE.test(url.pathname) ? url.origin + url.pathname : url.origin + url.pathname + url.search;
}

async function networkFirst(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    // Only a page or file as it is meant to be: not an error, a redirect or a refusal.
    if (response.ok && response.status === 200 && !response.redirected) {
      await cache.put(key(url), response.clone());
    } else if (GAME_PAGE.test(url.pathname) && (response.redirected || response.type === "opaqueredirect" || [401, 403, 404].includes(response.status))) {
      await cache.delete(key(url)); // no longer this browser's to see: not offline either
    }
    return response;
  } catch (error) {
    const cached = await cache.match(key(url));
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!kept(url)) return;
  // A script asking the server itself, redirects and all (offline.js: a fresh CSRF token,
  // who is signed in now) goes to the network alone: a kept copy is no answer to that.
  if (request.redirect === "manual" && request.mode !== "navigate") return;
  event.respondWith(networkFirst(request, url));
});

// The page, on its first visit (before this worker took charge), names itself and
// what it refers to, to be kept at once.
self.addEventListener("message", (event) => {
  // A deal saved from the page is answered with the game page itself (no GET follows):
  // that newest card is kept as if it had been loaded.
  const answered = event.data && event.data.page;
  if (typeof answered === "string" && typeof event.data.html === "string") {
    const url = new URL(answered, self.location.origin);
    if (!GAME_PAGE.test(url.pathname) || url.origin !== self.location.origin) return;
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key(url), new Response(event.data.html, {
      headers: { "Content-Type": "text/html; charset=utf-8" },
    }))));
    return;
  }
  const urls = event.data && event.data.keep;
  if (!Array.isArray(urls)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const address of urls) {
      const url = new URL(address, self.location.origin);
      if (!kept(url)) continue;
      try {
        // Fetched in the background: the page leaves its messages for the one shown next.
        const response = await fetch(url.href, { credentials: "same-origin", cache: "no-store", headers: { "X-Requested-With": "background" } });
        if (response.ok && response.status === 200 && !response.redirected) {
          await cache.put(key(url), response);
        }
      } catch (error) {
        // Offline already: it will be kept on the next visit.
      }
    }
    if (event.source) event.source.postMessage({ kept: urls.length });
  })());
});
