// Parlour's service worker. The server serves it at /sw.js (scope "/") with two lines written
// above this code: VERSION, a hash of the pages' files, and FILES, their addresses (the modules,
// styles, texts, icons, the offline page and each game's board and words).
//
// - The files are kept in the cache "parlour-VERSION" when the worker is installed and answered
//   from it (a phone loads the pages without waiting on the network); older caches are deleted
//   once the new worker is active. Nothing else is written to the cache (but its stale mark).
// - A page (a navigation: the HTML shell) is always fetched from the network; when that fails,
//   the offline page answers, in the browser's language, with a "Try again" button.
// - The shell says which version of the files it goes with (X-Parlour-Static). When that is not
//   this worker's (the server was upgraded), the cache is marked stale: from then on the files
//   come from the network (the cache only when the network fails), and the browser is asked to
//   install the new worker, whose own cache replaces this one.
// - The API (/api/), the sockets (/ws/) and anything else are left to the network.

/* global VERSION, FILES */

const CACHE = `parlour-${VERSION}`;
const OFFLINE = "/static/offline.html";
const STALE = "/parlour-stale"; // an entry of the cache: it is of another version than the server's
const KEPT = new Set(FILES);
let stale = null; // a promise: whether the cache is stale (read once each time the worker starts)

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES.map((url) => new Request(url, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("parlour-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (KEPT.has(url.pathname) && !url.search) {
    event.respondWith(file(request, url.pathname));
  }
});

async function page(request) {
  let response;
  try {
    response = await fetch(request);
  } catch {
    const offline = await caches.match(OFFLINE, { cacheName: CACHE });
    return offline || Response.error();
  }
  const served = response.headers.get("X-Parlour-Static");
  if (served && served !== VERSION) {
    // The server has other files than this cache: mark it stale before the page asks for its
    // files, and fetch the new worker now.
    stale = Promise.resolve(true);
    const cache = await caches.open(CACHE);
    await cache.put(STALE, new Response(served));
    self.registration.update().catch(() => {});
  }
  return response;
}

async function file(request, path) {
  if (stale === null) {
    stale = caches.open(CACHE).then((cache) => cache.match(STALE)).then(Boolean);
  }
  if (await stale) {
    try {
      return await fetch(request);
    } catch {
      return (await caches.match(path, { cacheName: CACHE })) || Response.error();
    }
  }
  return (await caches.match(path, { cacheName: CACHE })) || fetch(request);
}
