// poslab's service worker: after one visit the site opens and runs with no
// network (a lecture hall's Wi-Fi fails), from a cache that holds one whole
// version of the site — page, program, worker, data — and nothing else.
//
// Updates never reach a running page: a new version (a new sw.js, which the
// browser fetches when poslab is opened) is cached in full beside the old
// one and waits; the old version keeps serving every open poslab tab, the
// reloads of those tabs included. Once no tab of the old version is open,
// the next visit opens the new one and the old cache is deleted. A deploy
// cut short (a file missing) fails the install: the old version stays.
//
// The version and the file list are written in by scripts/build-web.sh.
'use strict';

const VERSION = '@POSLAB_SITE_VERSION@';
const CACHE = 'poslab-' + VERSION;
const FILES = [/*@POSLAB_SITE_FILES@*/];

self.addEventListener('install', (event) => {
  // {cache: 'reload'}: from the server, not from the browser's HTTP cache
  // (which may still hold the previous version's files).
  event.waitUntil(caches.open(CACHE).then((cache) =>
    cache.addAll(FILES.map((f) => new Request(f, {cache: 'reload'})))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((keys) =>
    Promise.all(keys.filter((k) => k.startsWith('poslab-') && k !== CACHE).map((k) => caches.delete(k)))));
});

// The page asks which version this worker serves.
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'version' && event.ports[0])
    event.ports[0].postMessage({version: VERSION});
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // The folder itself ("…/poslab/") is index.html.
  const key = request.mode === 'navigate' && url.pathname.endsWith('/')
    ? new URL('index.html', self.registration.scope).href : url.href.split('#')[0];
  event.respondWith(caches.open(CACHE)
    .then((cache) => cache.match(key, {ignoreSearch: true}))
    .then((hit) => hit || fetch(request)));
});
