// The browser side of WebPlatform (app/platform/web/web_platform.cpp): what
// C++ asks of the page. Linked with --js-library; the page's own script
// (web/poslab.js) provides Module.poslab (canvas fitting, downloads,
// messages, clipboard, storage), so these stay thin.
mergeInto(LibraryManager.library, {
  poslab_js_set_title: function(text) {
    document.title = UTF8ToString(text);
  },

  // The page's address follows what is shown, without flooding Back.
  poslab_js_set_fragment: function(text) {
    var f = UTF8ToString(text);
    document.body.dataset.fragment = f;  // readable in the page's DOM (tests/web)
    if (decodeURIComponent(location.hash.slice(1)) === decodeURIComponent(f)) return;
    history.replaceState(history.state, '', '#' + f);
  },

  // The page's address without its fragment: "Copy link" writes it first.
  poslab_js_page_address: function() {
    return allocateUTF8(location.href.split('#')[0]);
  },

  poslab_js_fragment: function() {
    return allocateUTF8(location.hash.slice(1));
  },

  // Fits the canvas's drawing buffer to its CSS size × devicePixelRatio
  // (crisp on HiDPI) and reports both.
  poslab_js_fit_canvas: function(width, height, ratio) {
    var fit = Module.poslab.fitCanvas();
    HEAP32[width >> 2] = fit.width;
    HEAP32[height >> 2] = fit.height;
    HEAPF64[ratio >> 3] = fit.ratio;
  },

  // The program types into a field of its own (on) or stopped (off): the
  // page's keyboard field takes the focus, so a phone shows its keyboard.
  poslab_js_text_input: function(on) {
    if (Module.poslab.textInput) Module.poslab.textInput(!!on);
  },

  poslab_js_message: function(text, isError) {
    Module.poslab.showMessage(UTF8ToString(text), !!isError);
  },

  // Hands a file of the in-memory file system to the user as a download and
  // removes it.
  poslab_js_download: function(path) {
    Module.poslab.download(UTF8ToString(path));
  },

  // The canvas as drawn this frame, downloaded as a PNG.
  poslab_js_screenshot: function(name) {
    Module.poslab.screenshot(UTF8ToString(name));
  },

  // The page's file input (sessions, decks, model configs). A menu click is
  // still a user activation a frame later, so the browser shows its picker.
  poslab_js_pick_file: function() {
    document.getElementById('upload').click();
  },

  poslab_js_clipboard_set: function(text) {
    Module.poslab.setClipboard(UTF8ToString(text));
  },

  poslab_js_clipboard_get: function() {
    return allocateUTF8(Module.poslab.clipboard || '');
  },

  poslab_js_set_fullscreen: function(on) {
    Module.poslab.setFullscreen(!!on);
  },

  poslab_js_fullscreen: function() {
    return document.fullscreenElement ? 1 : 0;
  },

  // Settings and the autosave (files under /config) into localStorage.
  poslab_js_persist: function() {
    Module.poslab.persist();
  },

  // The page's Web Worker (web/worker.js): a job's bytes go out (copied),
  // page.js passes the answers back in. 0 when there is no worker.
  poslab_js_worker_post: function(id, kind, bytes, length) {
    return Module.poslab.postJob(id, UTF8ToString(kind), HEAPU8.slice(bytes, bytes + length)) ? 1 : 0;
  },

  poslab_js_worker_cancel: function(id) {
    Module.poslab.cancelJob(id);
  },

  // How many of the lab's models came back from the worker, how many the
  // lab restored from the page's kept models (read in the worker, or shown
  // with their kept readings) and how many of those with their readings, no
  // worker asked: the page's body says so (data-lab-from-worker,
  // data-lab-from-kept, data-lab-kept-read), for the web checks.
  poslab_js_lab_from_worker: function(n, kept, read) {
    if (typeof document === 'undefined') return;
    document.body.dataset.labFromWorker = String(n);
    document.body.dataset.labFromKept = String(kept);
    document.body.dataset.labKeptRead = String(read);
  },

  // How many of the lab's models the page trains at once (its workers).
  poslab_js_lab_workers: function() {
    return Module.poslab && Module.poslab.labWorkers ? Module.poslab.labWorkers() : 1;
  },

  // The lab kept a trained model in its folder (/config/lab-models, in
  // memory): the page stores it in its IndexedDB (web/page.js). Not in
  // the worker, nor the command line under node (no page).
  poslab_js_lab_kept: function(path) {
    if (Module.poslab && Module.poslab.labKept) Module.poslab.labKept(UTF8ToString(path));
  },

  // The site: 0 its version, 1 offline ("ready", "saving" or ""), 2 a newer
  // version waiting for the next visit ("" when none).
  poslab_js_site: function(what) {
    return allocateUTF8(Module.poslab.site(what));
  },

  // The first frame is on screen: the page drops its loading note.
  poslab_js_ready: function() {
    Module.poslab.ready();
  },
});
