// The page around poslab's program (poslab.js + poslab.wasm, built from the
// same C++ as the desktop app; see app/platform/web/). Everything the C++
// side asks of the browser is here: fitting the canvas to the page and its
// devicePixelRatio, the link in the address bar, downloads, the clipboard,
// settings and the autosave in localStorage, touch as mouse, the message bar;
// and around it: the Web Worker that builds slow figures (worker.js), the
// service worker that keeps the site for offline use (sw.js), the bench.
// Nothing is fetched from another host.
'use strict';

const SITE_VERSION = '@POSLAB_SITE_VERSION@';  // written by scripts/build-web.sh

(function () {
  const canvas = document.getElementById('canvas');
  const messageBox = document.getElementById('message');
  const STORE = 'poslab:';                      // localStorage key prefix
  const CONFIG_FILES = ['settings.json', 'autosave.json'];
  // index.html#bench[=VIEW,…][&keys=KEY,…][&max][&in-place][&warm][&after-warm], read
  // before the program rewrites the address.
  const BENCH = /^#bench(?:=([^&]*))?((?:&[\w,=-]+)*)$/.exec(location.hash);
  // index.html#embed&…: one figure in a course page's <iframe>; it leaves the
  // reader's own poslab (settings, autosave) alone.
  const EMBED = /^#embed(&|=|$)/.test(location.hash);
  document.body.dataset.version = SITE_VERSION;
  if (EMBED) document.body.dataset.embed = '1';

  function showMessage(text, isError) {
    document.getElementById('message-text').textContent = text;
    messageBox.className = isError ? '' : 'note';
    messageBox.style.display = 'block';
  }
  document.getElementById('message-close').onclick = () => { messageBox.style.display = 'none'; };

  function utf8(bytes) { return new TextDecoder().decode(bytes); }

  function base64(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }

  function save(blob, name) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  const TYPES = {svg: 'image/svg+xml', png: 'image/png', csv: 'text/csv', json: 'application/json',
                 md: 'text/markdown', tex: 'application/x-tex', txt: 'text/plain'};

  // A ".png" the program wrote as SVG (app/platform/web/figure_export_web.cpp)
  // is drawn on a canvas of the SVG's size, with the fonts the page carries,
  // and saved as PNG.
  let fontFaces = null;
  function embeddedFonts() {
    if (fontFaces !== null) return fontFaces;
    const faces = [['DejaVu Sans', 'normal', 'DejaVuSans-subset.ttf'],
                   ['DejaVu Sans', 'bold', 'DejaVuSans-Bold-subset.ttf'],
                   ['WenQuanYi Micro Hei', 'normal', 'wqy-microhei-subset.ttf']];
    fontFaces = faces.map(([family, weight, file]) => {
      try {
        const data = Module.FS.readFile('/assets/fonts/' + file);
        return `@font-face{font-family:"${family}";font-weight:${weight};src:url(data:font/ttf;base64,${base64(data)})}`;
      } catch (e) { return ''; }
    }).join('');
    return fontFaces;
  }

  function rasterize(svgText, name) {
    const style = '<style>' + embeddedFonts() + '</style>';
    const withFonts = svgText.replace(/(<svg[^>]*>)/, '$1' + style);
    const w = +(/<svg[^>]*\swidth="(\d+)"/.exec(withFonts) || [])[1];
    const h = +(/<svg[^>]*\sheight="(\d+)"/.exec(withFonts) || [])[1];
    const img = new Image();
    const url = URL.createObjectURL(new Blob([withFonts], {type: 'image/svg+xml'}));
    img.onload = () => {
      const c = document.createElement('canvas');
      c.width = w || img.width;
      c.height = h || img.height;
      c.getContext('2d').drawImage(img, 0, 0, c.width, c.height);
      URL.revokeObjectURL(url);
      c.toBlob((blob) => {
        if (blob) save(blob, name);
        else showMessage('The browser could not make the PNG ' + name + '.', true);
      }, 'image/png');
    };
    img.onerror = () => { URL.revokeObjectURL(url); showMessage('The browser could not draw ' + name + '.', true); };
    img.src = url;
  }

  // ---- the Web Worker: a second poslab.wasm that builds slow figures

  let worker = null;
  let workerStarts = 0;
  const jobs = new Set();  // ids sent and not answered

  function startWorker() {
    if (typeof Worker !== 'function' || (BENCH && /&in-place\b/.test(BENCH[2] || ''))) return;
    try {
      worker = new Worker('worker.js');
    } catch (e) {
      return;  // the page builds every figure itself, as before it had a worker
    }
    ++workerStarts;
    const started = worker;
    worker.onmessage = (e) => {
      const m = e.data || {};
      if (m.type === 'ready') {
        document.body.dataset.worker = 'ready';
        Module._poslab_worker_ready(1);
        labDispatch();
        if (!figureHelper) startFigureHelper();
        warmUp(worker, true);
      } else if (m.type === 'warm-part') {
        if (started === worker) warmPart(m.part);
      } else if (m.type === 'warmed') {
        document.body.dataset.workerWarm = String(Math.round(+m.ms || 0));  // for tests/web and the bench
        document.body.dataset.workerWarmSlowest = `${Math.round(+m.slowest)} (${m.slowestFigure || '-'})`;
        pageWarm.expected = +m.handedBack || 0;
        pageWarmDone();
      } else if (m.type === 'died') {
        workerDied(String(m.message));
      } else {
        if (m.type === 'done' || m.type === 'failed') {
          labFreed(started, m.id);
          mainBuilds.delete(m.id);
        }
        deliver(m, started);
      }
    };
    worker.onerror = (e) => workerDied(e && e.message ? e.message : 'the worker failed to start');
  }

  // A job's answer or progress, from whichever worker (`from`) ran it, to
  // the program. A large reply's buffer goes back to its worker once read,
  // for its next large reply (worker.js, "spare buffers").
  function deliver(m, from) {
    if (m.type === 'done') {
      const reply = m.reply instanceof ArrayBuffer ? m.reply : new ArrayBuffer(0);
      const size = Number.isInteger(m.size) && m.size >= 0 && m.size <= reply.byteLength ? m.size : reply.byteLength;
      const handBack = () => {
        if (from && reply.byteLength >= 65536) {
          try {
            from.postMessage({type: 'spare', buffer: reply}, [reply]);
          } catch (e) { /* a worker gone meanwhile: the buffer is collected */ }
        }
      };
      if (m.spare) document.body.dataset.spareReplies = String(+(document.body.dataset.spareReplies || 0) + 1);  // for tests/web
      if (!jobs.delete(m.id)) return handBack();
      const at = Module._malloc(size || 1);
      Module.HEAPU8.set(new Uint8Array(reply, 0, size), at);
      handBack();  // (read: the program reads the copy at `at`)
      Module._poslab_worker_landed(m.id, at, size);
      Module._free(at);
    } else if (m.type === 'failed') {
      if (jobs.delete(m.id)) Module.ccall('poslab_worker_failed', null, ['number', 'string'], [m.id, String(m.message)]);
    } else if (m.type === 'progress') {
      if (jobs.has(m.id))
        Module.ccall('poslab_worker_progress', null, ['number', 'number', 'number', 'string'],
                     [m.id, +m.done || 0, +m.total || 0, String(m.note || '')]);
    }
  }

  function workerDied(why) {
    console.warn('poslab: the page\'s worker stopped: ' + why);
    if (worker) worker.terminate();
    labMainDied();
    worker = null;
    jobs.clear();
    mainBuilds.clear();
    if (figureHelper) figureHelper.jobs.clear();  // failed below with the rest; the helper stays
    document.body.dataset.worker = 'stopped';
    Module.ccall('poslab_worker_died', null, ['string'], [why]);
    if (workerStarts < 3) setTimeout(startWorker, 1000);  // once more, then the page builds alone
  }

  // A figure worker warms up once it is up (web/worker.js, "warming up"):
  // it builds every lesson's figures at their defaults and at larger sizes
  // while nothing else waits (warmUp says how often), so V8 optimizes the
  // code the figures run before the reader drags.
  // Not in an embed: one figure, and a course page may hold several.
  //
  // The page's own thread needs warming too: at the largest sizes it lands
  // each figure the worker sends (decoding megabytes) and lays it out and
  // draws it, and that code ran cold as well — after the workers' warm-up
  // ALiBi's heads trailed 84–142 ms, with the bench's own sweep warming this
  // thread too 32 (against 17 natively; docs/PERFORMANCE.md, "The wasm
  // cold"). So the page's worker hands back what it builds in its warm-up
  // (`handBack`: its first round, and its first larger round's replies up
  // to 1 MB), and the page lands and draws
  // each off screen (poslab_warm_land: decoded, laid out, drawn onto a
  // scratch list, forgotten), one per idle moment of its thread
  // (requestIdleCallback), so no frame waits for it, then draws
  // PAGE_WARM_FRAMES frames. data-page-warm: how many it landed and their
  // ms, and the frames, once the worker's warm-up is over, all it handed
  // back are landed and the frames drawn (tests/web, the bench's &after-warm).
  function warmUp(w, handBack) {
    if (EMBED) return;
    // Each lesson's figures at the defaults, then at larger sizes, each
    // built again until its builds took 40 ms together (at most 64 times):
    // V8 optimizes a function once it has run long enough, and a figure built
    // in a fraction of a millisecond (ALiBi's slopes) was still optimized
    // during the first drag after three rounds at fixed counts
    // (docs/PERFORMANCE.md, "Warming by time, not by count").
    const request = {rounds: 1, large_rounds: 1, min_ms: 40, max_repeats: 64};
    if (handBack) request.hand_back = true;
    w.postMessage({type: 'warm', request: JSON.stringify(request)});
  }

  const pageWarm = {parts: [], landed: 0, failed: 0, ms: 0, slowest: 0, slowestAt: '', expected: -1, busy: false,
                    frames: -1, framesMs: 0};
  // Then the page draws this many frames (the same picture, so nothing
  // shows), which the first drag otherwise pays for: ImGui's Begin is
  // optimized within the first 50 (NewFrame and App::draw take 100–150, the
  // sliders' code ~350: those the first drag still optimizes;
  // docs/PERFORMANCE.md, "Warming by time, not by count").
  const PAGE_WARM_FRAMES = 60;
  const PAGE_WARM_QUEUE_MAX = 512;  // parts waiting (~150 come; each a few to a few hundred kB)

  function warmPart(part) {
    if (!(part instanceof ArrayBuffer) || !part.byteLength) return;
    if (pageWarm.parts.length >= PAGE_WARM_QUEUE_MAX) { ++pageWarm.failed; return; }
    pageWarm.parts.push(part);
    if (!pageWarm.busy) landWarmParts();
  }

  function landWarmParts() {
    pageWarm.busy = true;
    whenIdle(landWarmPart);
  }

  function whenIdle(f) {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(f, {timeout: 2000});
    else setTimeout(f, 50);
  }

  // One part per idle moment: the longest (a cold layout of a larger figure)
  // is tens of ms, and an idle period is up to 50.
  function landWarmPart() {
    const part = pageWarm.parts.shift();
    if (part && Module._poslab_warm_land) {
      const at = Module._malloc(part.byteLength);
      Module.HEAPU8.set(new Uint8Array(part), at);
      const ms = Module._poslab_warm_land(at, part.byteLength);
      Module._free(at);
      if (ms >= 0) {
        ++pageWarm.landed;
        pageWarm.ms += ms;
        if (ms > pageWarm.slowest) {
          pageWarm.slowest = ms;
          pageWarm.slowestAt = `the ${pageWarm.landed}. landed, ${Math.round(part.byteLength / 1024)} kB`;
        }
      } else {
        ++pageWarm.failed;
      }
    }
    if (pageWarm.parts.length) whenIdle(landWarmPart);
    else {
      pageWarm.busy = false;
      pageWarmDone();
    }
  }

  // The worker's warm-up is over and every part it handed back is landed:
  // the frames (once), then data-page-warm.
  function pageWarmDone() {
    if (pageWarm.expected < 0 || pageWarm.busy || pageWarm.parts.length) return;
    if (pageWarm.frames < 0) {
      warmFrames();
      return;
    }
    document.body.dataset.pageWarm = `${pageWarm.landed} of ${pageWarm.expected} in ${Math.round(pageWarm.ms)} ms ` +
      `(longest ${Math.round(pageWarm.slowest)}: ${pageWarm.slowestAt || '-'}; ${pageWarm.failed} not landed), ` +
      `then ${pageWarm.frames} frames in ${Math.round(pageWarm.framesMs)} ms`;
  }

  // PAGE_WARM_FRAMES frames, one an animation frame (a hidden tab draws none
  // and waits); frames the reader causes meanwhile count too.
  function warmFrames() {
    pageWarm.busy = true;
    const first = Module._poslab_frames(), t0 = performance.now();
    const next = () => {
      const drawn = Module._poslab_frames() - first;
      if (drawn >= PAGE_WARM_FRAMES) {
        pageWarm.frames = drawn;
        pageWarm.framesMs = performance.now() - t0;
        pageWarm.busy = false;
        if (pageWarm.parts.length) landWarmParts();  // (a restarted worker's)
        else pageWarmDone();
        return;
      }
      Module._poslab_wake();
      requestAnimationFrame(next);
    };
    next();
  }

  // ---- a second worker for figures (issue 31)
  //
  // At the largest sizes one slider move rebuilds every figure of a lesson
  // (ALiBi's 256 heads: six figures of 30–70 ms each in the worker), and in
  // one worker each waits for the others: the last trails the slider by the
  // sum. Where the browser reports three cores or more, a second worker (the
  // same worker.js) takes figures too: each figure keeps to one of the two
  // (below, "figureLane"), the figures of a lesson spread over both, so two
  // figures build at once, as the desktop's figures would on two threads.
  // Not with two cores: the page and two busy workers on two cores slowed
  // the page's frames (decay's log_x at the maxima: frame p95 13–15 → 16–17
  // ms, docs/PERFORMANCE.md), while each worker with a core of its own only
  // gains. The bench can ask for one or two (#bench…&figure-workers=N).
  // Started once the page's worker is up (the page's own start comes first);
  // not in an embed (one figure) nor in the in-place bench. It holds no state:
  // a figure request carries everything it reads (app/ui/remote_builds.hpp).
  // If it fails, the jobs it held go to the page's worker (a copy of each
  // request is kept while it builds: a few hundred bytes), and from then on
  // every figure does.
  let figureHelper = null;     // {w, ready, jobs: Map id → request bytes}
  const mainBuilds = new Set();  // "build" ids the page's worker has in hand

  function figureWorkers() {
    const asked = BENCH && /&figure-workers=([12])\b/.exec(BENCH[2] || '');
    if (asked) return +asked[1];
    return Math.floor(+navigator.hardwareConcurrency || 1) >= 3 ? 2 : 1;
  }

  function startFigureHelper() {
    if (EMBED || figureWorkers() < 2) return;
    let w;
    try {
      w = new Worker('worker.js');
    } catch (e) {
      return;
    }
    const helper = {w, ready: false, jobs: new Map(), built: 0};
    figureHelper = helper;
    w.onmessage = (e) => {
      const m = e.data || {};
      if (m.type === 'ready') {
        helper.ready = true;
        document.body.dataset.figureWorkers = '2';
        warmUp(w);
      } else if (m.type === 'warmed') {
        document.body.dataset.figureHelperWarm = String(Math.round(+m.ms || 0));
      } else if (m.type === 'died') {
        figureHelperDied(helper, String(m.message));
      } else {
        if (m.type === 'done' || m.type === 'failed') helper.jobs.delete(m.id);
        if (m.type === 'done') document.body.dataset.figureHelperBuilt = String(++helper.built);  // for tests/web
        deliver(m, w);
      }
    };
    w.onerror = (e) => figureHelperDied(helper, e && e.message ? e.message : 'the worker failed to start');
  }

  function figureHelperDied(helper, why) {
    console.warn('poslab: the second figure worker stopped: ' + why);
    helper.w.terminate();
    if (figureHelper === helper) figureHelper = null;  // not started again: the page's worker builds alone
    figureLane.clear();
    document.body.dataset.figureWorkers = '1';
    const held = [...helper.jobs];
    helper.jobs.clear();
    for (const [id, bytes] of held) {
      if (!jobs.has(id)) continue;  // cancelled or answered meanwhile
      if (worker) postBuild(id, 'build', bytes);
      else if (jobs.delete(id)) Module.ccall('poslab_worker_failed', null, ['number', 'string'], [id, why]);
    }
  }

  // Which figure a build request is for: the view and figure ids at its head
  // (app/ui/remote_builds.cpp, encode_request: "PLQ1", the kind byte, then
  // each id as a little-endian u32 length and its bytes); '' if not one.
  function buildTarget(bytes) {
    try {
      if (bytes.length < 13 || bytes[0] !== 0x50 || bytes[1] !== 0x4c || bytes[2] !== 0x51 || bytes[3] !== 0x31) return '';
      const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const at = 9 + v.getUint32(5, true);
      const text = new TextDecoder();
      return text.decode(bytes.subarray(9, at)) + '#' + text.decode(bytes.subarray(at + 4, at + 4 + v.getUint32(at, true)));
    } catch (e) {
      return '';
    }
  }

  // Each figure keeps to the worker it first went to: a worker remembers the
  // curves it computed (the decay lesson's memos), so the same figure built
  // in the other would compute them again. A figure is placed, once both
  // workers are up, on the one with fewer jobs in hand (the page's worker
  // counting a model it trains): the figures of one lesson spread over both.
  const figureLane = new Map();  // buildTarget → 'helper' or 'main'

  // A figure or readouts job ("build") to its worker; any other kind to the
  // page's worker.
  function postBuild(id, kind, bytes) {
    const helper = figureHelper && figureHelper.ready ? figureHelper : null;
    const message = {type: 'job', id, kind, request: bytes.buffer};
    let lane = 'main';
    if (helper && kind === 'build') {
      const target = buildTarget(bytes);
      lane = figureLane.get(target);
      if (!lane) {
        lane = helper.jobs.size < mainBuilds.size + (labMainJob ? 1 : 0) ? 'helper' : 'main';
        if (target) figureLane.set(target, lane);
      }
    }
    if (lane === 'helper') {
      helper.jobs.set(id, bytes.slice());
      helper.w.postMessage(message, [bytes.buffer]);
    } else {
      mainBuilds.add(id);
      worker.postMessage(message, [bytes.buffer]);
    }
  }

  // ---- the lab's models: trained in several workers at once (issue 26)
  //
  // A "lab_model" job (one model of the lab lesson, seconds of training) goes
  // to a worker that trains no other model, so each worker trains one model
  // from start to end and hands it back as soon as it is done: the lesson's
  // "k of n" and its loss curves advance model by model. The page's worker
  // above takes models too; up to LAB_WORKERS_MAX − 1 more, one per core the
  // browser reports (navigator.hardwareConcurrency, as the desktop trains on
  // one lane per core), start with the first model and stay for the visit.
  // One that fails to start or dies is dropped and its model goes back in
  // line: the lab then trains in the workers left, at worst in the page's
  // worker alone, as before. Figures ("build" jobs) stay the page's worker's.
  const LAB_WORKERS_MAX = 4;
  const labQueue = [];     // {id, bytes}: models waiting for a worker
  const labHelpers = [];   // {w, ready, job, bytes}: the extra workers (job: the model it trains, 0 none)
  let labMainJob = 0;      // the model the page's worker trains, 0 none
  let labHelpersStarted = false;

  function labPost(id, bytes) {
    labQueue.push({id, bytes});
    if (!labHelpersStarted) labStartHelpers();
    labDispatch();
    return true;
  }

  function labStartHelpers() {
    labHelpersStarted = true;
    const cores = Math.floor(+navigator.hardwareConcurrency || 1);
    const helpers = Math.max(0, Math.min(LAB_WORKERS_MAX, cores) - 1);
    for (let i = 0; i < helpers; ++i) {
      let w;
      try {
        w = new Worker('worker.js');
      } catch (e) {
        return;
      }
      const helper = {w, ready: false, job: 0, bytes: null};
      labHelpers.push(helper);
      w.onmessage = (e) => {
        const m = e.data || {};
        if (m.type === 'ready') {
          helper.ready = true;
          labDispatch();
        } else if (m.type === 'died') {
          labHelperDied(helper, String(m.message));
        } else {
          if ((m.type === 'done' || m.type === 'failed') && helper.job === m.id) helper.job = 0;
          deliver(m, w);
          labDispatch();
        }
      };
      w.onerror = (e) => labHelperDied(helper, e && e.message ? e.message : 'the worker failed to start');
    }
    document.body.dataset.labWorkers = String(1 + labHelpers.length);
  }

  // Gives each idle worker the next model in line.
  function labDispatch() {
    // (copied, not transferred: a helper that dies hands its model back to the line)
    const send = (w, next) => w.postMessage({type: 'job', id: next.id, kind: 'lab_model', request: next.bytes.buffer});
    for (const helper of labHelpers) {
      if (!labQueue.length) return;
      if (helper.ready && !helper.job) {
        const next = labQueue.shift();
        helper.job = next.id;
        helper.bytes = next.bytes;
        send(helper.w, next);
      }
    }
    if (labQueue.length && worker && document.body.dataset.worker === 'ready' && !labMainJob) {
      const next = labQueue.shift();
      labMainJob = next.id;
      send(worker, next);
    }
  }

  // The page's worker answered job `id`: if it was its model, the next may go.
  function labFreed(from, id) {
    if (from === worker && id === labMainJob) {
      labMainJob = 0;
      labDispatch();
    }
  }

  // Stop: a model in line is dropped, one training is ended at its next slice.
  function labCancel(id) {
    const i = labQueue.findIndex((q) => q.id === id);
    if (i >= 0) {
      labQueue.splice(i, 1);
      return true;
    }
    const helper = labHelpers.find((h) => h.job === id);
    if (helper) {
      helper.job = 0;
      helper.w.postMessage({type: 'cancel', id});
    } else if (id === labMainJob) {
      labMainJob = 0;
      worker.postMessage({type: 'cancel', id});
    } else {
      return false;
    }
    labDispatch();
    return true;
  }

  function labHelperDied(helper, why) {
    console.warn('poslab: a worker of the lab stopped: ' + why);
    helper.w.terminate();
    labHelpers.splice(labHelpers.indexOf(helper), 1);
    document.body.dataset.labWorkers = String(1 + labHelpers.length);
    if (helper.job && jobs.has(helper.job)) labQueue.unshift({id: helper.job, bytes: helper.bytes});  // first in line again
    labDispatch();
  }

  // The page's worker died: every job in flight fails (workerDied), the
  // models training in the other workers too; those workers stay.
  function labMainDied() {
    labMainJob = 0;
    labQueue.length = 0;
    for (const helper of labHelpers) {
      if (helper.job) helper.w.postMessage({type: 'cancel', id: helper.job});
      helper.job = 0;
    }
  }

  // ---- the lab's kept models: IndexedDB (issue 26)
  //
  // As the desktop keeps every model the lab trains in <config>/lab-models,
  // the page keeps them in its IndexedDB, so a lecture rehearsed in this
  // browser shows its models at once. The lab writes each model into its
  // folder /config/lab-models (in memory; LabRun::save's bytes, whose header
  // names the build and the config: app/lessons/lab/setting.hpp), and beside
  // it what it read of the model (<name>.readings: the same header, so it is
  // only ever read with that model of that build; with them a kept model is
  // shown without reading it again, which takes seconds in wasm), and calls
  // labKept for each file; before main the folder is filled from the store,
  // each file with the time it was kept (the lab drops the oldest past 64
  // models). The store keeps at most LAB_KEPT_MAX files and LAB_KEPT_BYTES,
  // the oldest dropped first. What is stored is never trusted: a name that
  // is not a model's or its readings', a value that is not bytes is deleted;
  // bytes of another build or config, or damaged ones, the lab refuses
  // (LabRun::restore; readings: lab_lesson::load_kept_read) and trains or
  // reads that model again, replacing them. Storage off or full: the lab trains, as before.
  // An embed reads the store but never writes it (the reader's own poslab).
  const LAB_DB = 'poslab-lab-models';
  const LAB_STORE = 'models';      // {name, bytes: ArrayBuffer, time (ms)} by name
  const LAB_DIR = '/config/lab-models';
  const LAB_NAME = /^[0-9a-f]{16}\.(model|readings)$/;
  const LAB_KEPT_MAX = 128;  // files: 64 models and their readings
  const LAB_KEPT_BYTES = 64 << 20;
  const labStored = new Map();     // name → {time, size}: what the store holds, as far as this page knows

  // The models the store holds (as far as this page knows), readings not counted.
  function labModelsStored() {
    let n = 0;
    for (const name of labStored.keys()) n += name.endsWith('.model');
    return n;
  }

  function labDb() {
    return new Promise((resolve) => {
      let open;
      try {
        open = indexedDB.open(LAB_DB, 1);
      } catch (e) {
        resolve(null);
        return;
      }
      open.onupgradeneeded = () => open.result.createObjectStore(LAB_STORE, {keyPath: 'name'});
      open.onsuccess = () => resolve(open.result);
      open.onerror = open.onblocked = () => resolve(null);
    });
  }

  // preRun: the store into the lab's folder; main waits for it (2 s at most).
  function labRestore() {
    if (typeof indexedDB === 'undefined') return;
    const dep = 'poslab-lab-models';
    let waiting = true;
    const done = () => {
      if (!waiting) return;
      waiting = false;
      Module.removeRunDependency(dep);
      document.body.dataset.labKeptLoaded = String(labModelsStored());
    };
    Module.addRunDependency(dep);
    setTimeout(done, 2000);
    labDb().then((db) => {
      if (!db) return done();
      const tx = db.transaction(LAB_STORE, 'readwrite');
      const cursor = tx.objectStore(LAB_STORE).openCursor();
      cursor.onsuccess = () => {
        const c = cursor.result;
        if (!c) return;
        const v = c.value || {};
        if (!waiting) return;  // too late for main: the rest stays stored for the next visit
        if (typeof v.name === 'string' && LAB_NAME.test(v.name) && v.bytes instanceof ArrayBuffer && v.bytes.byteLength > 0) {
          try {
            const path = LAB_DIR + '/' + v.name;
            Module.FS.mkdirTree(LAB_DIR);
            Module.FS.writeFile(path, new Uint8Array(v.bytes));
            const time = Number.isFinite(+v.time) ? +v.time : 0;
            Module.FS.utime(path, time, time);
            labStored.set(v.name, {time, size: v.bytes.byteLength});
          } catch (e) { /* not written: that model trains again */ }
        } else {
          c.delete();  // not a kept model
        }
        c.continue();
      };
      tx.oncomplete = tx.onerror = tx.onabort = () => { db.close(); done(); };
    }).catch(done);
  }

  // The lab kept `path` (a file of its folder): into the store, then the oldest out past the bounds.
  function labKept(path) {
    const name = path.split('/').pop();
    if (EMBED || typeof indexedDB === 'undefined' || !LAB_NAME.test(name)) return;
    let bytes;
    try {
      bytes = Module.FS.readFile(path);
    } catch (e) {
      return;
    }
    const time = Date.now();
    labStored.set(name, {time, size: bytes.length});
    const drop = [];
    const byAge = [...labStored.entries()].sort((a, b) => a[1].time - b[1].time);
    let total = byAge.reduce((n, [, e]) => n + e.size, 0);
    for (const [old, e] of byAge) {
      if (byAge.length - drop.length <= LAB_KEPT_MAX && total <= LAB_KEPT_BYTES) break;
      if (old === name) continue;
      drop.push(old);
      total -= e.size;
    }
    for (const old of drop) labStored.delete(old);
    labDb().then((db) => {
      if (!db) return;
      const tx = db.transaction(LAB_STORE, 'readwrite');
      const store = tx.objectStore(LAB_STORE);
      store.put({name, bytes: bytes.slice().buffer, time});
      for (const old of drop) store.delete(old);
      tx.oncomplete = () => {
        db.close();
        document.body.dataset.labKeptStored = String(labModelsStored());
        document.body.dataset.labKeptReadings = String(labStored.size - labModelsStored());
      };
      tx.onerror = tx.onabort = () => db.close();  // full, or storage off: the lab trains it again next time
    }).catch(() => {});
  }

  // ---- the service worker: the whole site kept for offline use

  const site = {offline: '', update: ''};

  function registerServiceWorker() {
    if (!('serviceWorker' in navigator) || location.protocol === 'file:') return;
    site.offline = 'saving';
    document.body.dataset.offline = site.offline;
    navigator.serviceWorker.register('sw.js').then((reg) => {
      const cached = () => caches.has('poslab-' + SITE_VERSION).then((has) => {
        if (has) site.offline = document.body.dataset.offline = 'ready';
      });
      // A newer version, cached and waiting: it opens on the next visit, never in this one.
      const waiting = (sw) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => {
          const v = e.data && e.data.version;
          if (!v || v === SITE_VERSION) return;
          site.update = document.body.dataset.update = v;
          Module.ccall('poslab_site_update', null, ['string'], [v]);  // a note in the app's language
        };
        sw.postMessage({type: 'version'}, [channel.port2]);
      };
      navigator.serviceWorker.ready.then(cached);
      if (reg.waiting && navigator.serviceWorker.controller) waiting(reg.waiting);
      reg.addEventListener('updatefound', () => {
        const sw = reg.installing;
        if (!sw) return;
        sw.addEventListener('statechange', () => {
          if (sw.state === 'installed' && navigator.serviceWorker.controller) waiting(sw);
          if (sw.state === 'installed' || sw.state === 'activated') cached();
        });
      });
    }).catch((e) => {
      site.offline = document.body.dataset.offline = '';
      console.warn('poslab: no offline copy (' + e + ')');
    });
  }

  const poslab = {
    clipboard: '',
    downloads: [],  // names handed over (the tests read it)

    fitCanvas() {
      const ratio = window.devicePixelRatio || 1;
      const rect = canvas.getBoundingClientRect();
      const width = Math.max(1, Math.round(rect.width * ratio));
      const height = Math.max(1, Math.round(rect.height * ratio));
      if (canvas.width !== width) canvas.width = width;
      if (canvas.height !== height) canvas.height = height;
      return {width, height, ratio};
    },

    showMessage,

    download(path) {
      const name = path.split('/').pop();
      let bytes;
      try {
        bytes = Module.FS.readFile(path);
        Module.FS.unlink(path);
      } catch (e) {
        return;
      }
      poslab.downloads.push(name);
      const ext = name.split('.').pop().toLowerCase();
      const head = utf8(bytes.subarray(0, 64));
      if (ext === 'png' && /^\s*<(\?xml|svg)/.test(head)) rasterize(utf8(bytes), name);
      else save(new Blob([bytes], {type: TYPES[ext] || 'application/octet-stream'}), name);
    },

    screenshot(name) {
      // Called right after the frame is drawn, before the browser presents it.
      canvas.toBlob((blob) => { if (blob) save(blob, name); }, 'image/png');
      poslab.downloads.push(name);
    },

    setClipboard(text) {
      poslab.clipboard = text;
      if (navigator.clipboard && navigator.clipboard.writeText)
        navigator.clipboard.writeText(text).catch(() => {});
    },

    setFullscreen(on) {
      if (on && !document.fullscreenElement) document.documentElement.requestFullscreen().catch(() => {});
      else if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
    },

    // /config/*.json → localStorage (settings and the autosave survive reloads).
    persist() {
      if (EMBED) return;  // an embed never writes the reader's own poslab
      for (const f of CONFIG_FILES) {
        try {
          localStorage.setItem(STORE + f, utf8(Module.FS.readFile('/config/' + f)));
        } catch (e) { /* not written yet, or storage is off: the app still works */ }
      }
    },

    ready() {
      document.getElementById('loading').remove();
      canvas.focus();
      document.body.dataset.ready = '1';
      document.body.dataset.firstFrameMs = String(Math.round(performance.now()));
      startWorker();  // after the first frame: the page's own start comes first
      registerServiceWorker();
      if (BENCH) setTimeout(runBench, 100);
    },

    postJob(id, kind, bytes) {
      if (!worker) return false;
      jobs.add(id);
      if (kind === 'lab_model') return labPost(id, bytes);
      postBuild(id, kind, bytes);
      return true;
    },

    cancelJob(id) {
      if (!worker || !jobs.delete(id)) return;
      if (figureHelper && figureHelper.jobs.delete(id)) {
        figureHelper.w.postMessage({type: 'cancel', id});
      } else if (!labCancel(id)) {
        mainBuilds.delete(id);
        worker.postMessage({type: 'cancel', id});
      }
    },

    site(what) {
      return what === 0 ? SITE_VERSION : what === 1 ? site.offline : site.update;
    },

    labKept,
    // How many of the lab's models train at once: the workers it has, or will start.
    labWorkers() {
      if (labHelpersStarted) return 1 + labHelpers.length;
      return Math.max(1, Math.min(LAB_WORKERS_MAX, Math.floor(+navigator.hardwareConcurrency || 1)));
    },
  };

  // index.html#bench: poslab bench's frame measurements, printed to the
  // console and into the page (<pre id="bench">) as JSON;
  // index.html#bench=why-position,alibi: those lessons alone; &keys=a,b:
  // those keys alone; &max: at the maxima alone; &in-place:
  // figures built in the frame (no worker); &warm: each lesson warmed up
  // before it is timed; &after-warm: begun once the page's workers have
  // warmed up (below). The bench runs a frame at a time and returns to the
  // browser in between (frames paced at 60 Hz), so the worker's figures land.
  function runBench() {
    const views = decodeURIComponent(BENCH[1] || '');
    const flags = BENCH[2] || '';
    const inPlace = /&in-place\b/.test(flags) ? 1 : 0;
    const warm = /&warm\b/.test(flags) ? 1 : 0;
    const maxOnly = /&max\b/.test(flags) ? 1 : 0;
    const keys = (/&keys=([\w,-]*)/.exec(flags) || [])[1] || '';
    const finish = () => {
      const text = Module.ccall('poslab_bench_report', 'string', [], []);
      console.log(text);
      const pre = document.createElement('pre');
      pre.id = 'bench';
      pre.textContent = text;
      pre.style.cssText = 'position:fixed;inset:0;overflow:auto;margin:0;background:#fff;color:#000;font:12px monospace;z-index:20';
      document.body.appendChild(pre);
      document.body.dataset.bench = 'done';
    };
    const channel = new MessageChannel();  // a turn of the event loop without setTimeout's clamp
    const step = () => {
      const wait = Module._poslab_bench_step();
      if (wait === -1) finish();
      else if (wait === -2) waitForFigures();
      else if (wait < 1) channel.port2.postMessage(null);
      else setTimeout(step, wait);
    };
    channel.port1.onmessage = step;
    const waitForFigures = () => {
      if (Module._poslab_bench_figures_pending() === 0) step();
      else setTimeout(waitForFigures, 1);
    };
    const begin = () => {
      if (Module.ccall('poslab_bench_start', 'number', ['string', 'number', 'number', 'string', 'number'],
                       [views, inPlace, warm, keys, maxOnly])) step();
      else finish();
    };
    // With the worker: once it is up (30 s at most; without it the report says "in the frame").
    const started = performance.now();
    // &after-warm: once the workers and the page's thread have also warmed up (what a reader who
    // reads a few seconds before dragging gets; without it the bench drags the
    // moment the worker is up, its warm-up running beside).
    const afterWarm = /&after-warm\b/.test(flags);
    const whenReady = () => {
      const warmed = !afterWarm || (document.body.dataset.workerWarm !== undefined &&
                                    document.body.dataset.pageWarm !== undefined &&
                                    (figureWorkers() < 2 || document.body.dataset.figureHelperWarm !== undefined));
      const up = warmed && document.body.dataset.worker === 'ready' && (figureWorkers() < 2 || document.body.dataset.figureWorkers === '2');
      if (inPlace || up || !worker || performance.now() - started > 30000) begin();
      else setTimeout(whenReady, 50);
    };
    whenReady();
  }

  function restoreConfig() {
    Module.FS.mkdirTree('/config');
    for (const f of EMBED ? [] : CONFIG_FILES) {  // an embed starts from its link alone
      let text = null;
      try { text = localStorage.getItem(STORE + f); } catch (e) { /* storage off */ }
      if (text) Module.FS.writeFile('/config/' + f, text);
    }
    // The browser's language, as the desktop reads LANG.
    const lang = (navigator.languages && navigator.languages[0]) || navigator.language || 'en';
    Module.ENV.LANG = lang.replace('-', '_') + '.UTF-8';
  }

  window.Module = {
    canvas,
    poslab,
    preRun: [restoreConfig, labRestore],
    print: (t) => console.log(t),
    printErr: (t) => console.warn(t),
    onAbort: (what) => showMessage('poslab stopped: ' + what + ' — reload the page to start again.', true),
  };

  // poslab.wasm throws and catches WebAssembly exceptions (Chrome and Edge
  // 95, Firefox 100, Safari 15.2 and later) and computes with WebAssembly
  // SIMD (Chrome 91, Firefox 89, Safari 16.4). An older browser is told so
  // instead of failing to compile the program: a module with one exception
  // tag, and one whose function splats and counts a v128, validate only
  // where they are supported.
  const EXCEPTION_TAG = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 13, 3, 1, 0, 0]);
  const SIMD = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0,
                               253, 15, 253, 98, 11]);
  if (!(typeof WebAssembly === 'object' && WebAssembly.validate(EXCEPTION_TAG) && WebAssembly.validate(SIMD))) {
    Module.instantiateWasm = () => {
      const loading = document.getElementById('loading');
      if (loading) loading.remove();
      showMessage('This browser is too old for poslab: it needs WebAssembly exceptions and SIMD ' +
                  '(Chrome or Edge 95, Firefox 100, Safari 16.4 or later).', true);
      return {};  // the program is not started
    };
  }

  // ---- events the program does not get through GLFW

  window.addEventListener('resize', () => Module._poslab_resize && Module._poslab_resize());
  // A change of devicePixelRatio (zoom, moving to another screen) fires no resize everywhere.
  (function watchRatio() {
    const m = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
    m.addEventListener('change', () => { if (Module._poslab_resize) Module._poslab_resize(); watchRatio(); }, {once: true});
  })();
  window.addEventListener('hashchange', () => Module._poslab_hash_changed && Module._poslab_hash_changed());
  const saveNow = () => Module._poslab_save_now && Module._poslab_save_now();
  window.addEventListener('pagehide', saveNow);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') saveNow(); });
  document.addEventListener('fullscreenchange', () => Module._poslab_resize && Module._poslab_resize());
  window.addEventListener('paste', (e) => {
    poslab.clipboard = (e.clipboardData && e.clipboardData.getData('text/plain')) || poslab.clipboard;
    if (Module._poslab_wake) Module._poslab_wake();
  }, true);

  // Keys the app uses that the browser would take (reload, help, save page, …).
  // Registered before the program's own listeners, so they run first.
  window.addEventListener('keydown', (e) => {
    const ctrl = e.ctrlKey || e.metaKey;
    if (ctrl && !e.shiftKey && e.key.toLowerCase() === 'o') {  // Open session: the browser's file picker
      e.preventDefault();
      e.stopImmediatePropagation();
      document.getElementById('upload').click();
      return;
    }
    const appKeys = ['F1', 'F2', 'F5', 'F11', 'F12'];
    if (appKeys.includes(e.key) || (ctrl && ['s', 'e', '=', '-', '0', '+'].includes(e.key.toLowerCase())) ||
        (ctrl && e.shiftKey && ['c', 'v'].includes(e.key.toLowerCase())))
      e.preventDefault();
  }, true);

  // Sessions, decks and model configs come in as uploads: picked (Ctrl+O,
  // File → Open…) or dropped on the page; the program tells them apart.
  // Not in an embed: a course page's figure opens nothing.
  function openSessionFile(file) {
    if (EMBED) return;
    file.arrayBuffer().then((buffer) => {
      const path = '/uploads/' + file.name.replace(/[^\w.\-]/g, '_');
      Module.FS.mkdirTree('/uploads');
      Module.FS.writeFile(path, new Uint8Array(buffer));
      Module.ccall('poslab_open_file', null, ['string'], [path]);
    });
  }
  document.getElementById('upload').addEventListener('change', (e) => {
    if (e.target.files[0]) openSessionFile(e.target.files[0]);
    e.target.value = '';
  });
  window.addEventListener('dragover', (e) => e.preventDefault(), true);
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    e.stopImmediatePropagation();
    if (e.dataTransfer.files[0]) openSessionFile(e.dataTransfer.files[0]);
  }, true);

  // ---- touch (issue 33): a tap is a click, a drag is a drag with the left
  // button (a slider's track, a figure's pan, the page's scroll); two
  // fingers pinch a figure (wheel notches at their middle: the figure under
  // them zooms, as a click then the wheel does) and drag it; a long press
  // shows what hover shows (the value under the finger: the button is let
  // go away from the finger, which then moves the pointer alone).
  (function touchAsMouse() {
    const NOTCH = Math.log(1.18);      // one wheel notch zooms a figure by 1.18 (plot_widget.cpp)
    const LONG_PRESS_MS = 500, STILL_PX = 8;
    const fingers = new Map();         // pointerId → {x, y}
    let pressed = null;                // the finger holding the button: {id, x0, y0, timer, hover}
    let pinch = null;                  // two fingers: {mid0, dist, at: where the button is held, acc}
    function asMouse(type, x, y) {
      canvas.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, button: 0,
                                                 buttons: type === 'mouseup' ? 0 : 1, bubbles: true, cancelable: true}));
    }
    // Emscripten's GLFW hands deltaY over as it is, and ImGui adds it to its
    // wheel: +1 is one notch up (zoom in).
    function wheel(x, y, notches) {
      canvas.dispatchEvent(new WheelEvent('wheel', {clientX: x, clientY: y, deltaY: notches, deltaMode: 0,
                                                    bubbles: true, cancelable: true}));
    }
    function two() {
      const [a, b] = [...fingers.values()];
      return {mid: {x: (a.x + b.x) / 2, y: (a.y + b.y) / 2}, dist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y))};
    }
    canvas.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'mouse') return;
      e.preventDefault();
      canvas.setPointerCapture(e.pointerId);
      fingers.set(e.pointerId, {x: e.clientX, y: e.clientY});
      if (fingers.size === 1) {
        asMouse('mousemove', e.clientX, e.clientY);
        asMouse('mousedown', e.clientX, e.clientY);
        const fire = () => {
          // Held still: let the button go away from everything, then hover at the finger.
          if (!pressed || pinch) return;
          // A timer that ran late (a busy page) may be ahead of the finger's
          // own up or move, still queued: give those one turn first.
          if (performance.now() - pressed.t0 > LONG_PRESS_MS + 100 && !pressed.deferred) {
            pressed.deferred = true;
            pressed.timer = setTimeout(fire, 30);
            return;
          }
          pressed.hover = true;
          asMouse('mousemove', -10000, -10000);
          asMouse('mouseup', -10000, -10000);
          asMouse('mousemove', pressed.x0, pressed.y0);
        };
        pressed = {id: e.pointerId, x0: e.clientX, y0: e.clientY, t0: e.timeStamp, hover: false, deferred: false,
                   timer: setTimeout(fire, LONG_PRESS_MS)};
      } else if (fingers.size === 2 && pressed && !pressed.hover) {
        clearTimeout(pressed.timer);
        const t = two();
        const first = fingers.get(pressed.id) || {x: pressed.x0, y: pressed.y0};
        pinch = {mid0: t.mid, dist: t.dist, at: {x: first.x, y: first.y}, acc: 0};
      }
    });
    canvas.addEventListener('pointermove', (e) => {
      if (e.pointerType === 'mouse' || !fingers.has(e.pointerId)) return;
      e.preventDefault();
      fingers.set(e.pointerId, {x: e.clientX, y: e.clientY});
      if (pinch && fingers.size >= 2) {
        const t = two();
        // Two fingers drag: the held button moves with their middle.
        asMouse('mousemove', pinch.at.x + t.mid.x - pinch.mid0.x, pinch.at.y + t.mid.y - pinch.mid0.y);
        pinch.acc += Math.log(t.dist / pinch.dist);
        pinch.dist = t.dist;
        while (Math.abs(pinch.acc) >= NOTCH) {
          const n = pinch.acc > 0 ? 1 : -1;
          wheel(pinch.at.x + t.mid.x - pinch.mid0.x, pinch.at.y + t.mid.y - pinch.mid0.y, n);
          pinch.acc -= n * NOTCH;
        }
        return;
      }
      if (!pressed || e.pointerId !== pressed.id) return;
      const moved = Math.hypot(e.clientX - pressed.x0, e.clientY - pressed.y0) > STILL_PX;
      if (moved) clearTimeout(pressed.timer);
      // The long press is decided by when the finger moved, not by when this
      // page got to hear of it: a busy page (a slow phone, a loaded test
      // machine) runs the timer before moves made well inside the 500 ms.
      // Such a move takes the press back: the button goes down again where
      // the finger first touched, and the gesture is the drag it was.
      if (moved && pressed.hover && e.timeStamp - pressed.t0 < LONG_PRESS_MS) {
        pressed.hover = false;
        asMouse('mousemove', pressed.x0, pressed.y0);
        asMouse('mousedown', pressed.x0, pressed.y0);
      }
      asMouse('mousemove', e.clientX, e.clientY);
    });
    const up = (e) => {
      if (e.pointerType === 'mouse' || !fingers.has(e.pointerId)) return;
      e.preventDefault();
      fingers.delete(e.pointerId);
      if (!pressed) return;
      if (pinch) {
        // The first finger up ends the gesture; the button is let go where it is held.
        if (fingers.size === 1 || e.pointerId === pressed.id) {
          asMouse('mouseup', -10000, -10000);
          pinch = null;
          pressed.hover = true;  // the other finger's moves do nothing more until it is up too
        }
        if (fingers.size === 0) pressed = null;
        return;
      }
      if (e.pointerId !== pressed.id) return;
      clearTimeout(pressed.timer);
      if (pressed.hover && e.timeStamp - pressed.t0 < LONG_PRESS_MS) {
        // A tap the page took for a long press (it ran the timer first): the
        // click it was, pressed again where the finger touched and let go two
        // frames later (ImGui sees a press and a release in one frame as none).
        const {x0, y0} = pressed;
        asMouse('mousemove', x0, y0);
        asMouse('mousedown', x0, y0);
        requestAnimationFrame(() => requestAnimationFrame(() => asMouse('mouseup', x0, y0)));
      } else if (!pressed.hover) {
        asMouse('mouseup', e.clientX, e.clientY);
      }
      pressed = null;
    };
    canvas.addEventListener('pointerup', up);
    canvas.addEventListener('pointercancel', up);
    // The touch events themselves would reach the program as button presses at the old position.
    for (const t of ['touchstart', 'touchmove', 'touchend', 'touchcancel'])
      window.addEventListener(t, (e) => { if (e.target === canvas) { e.stopImmediatePropagation(); e.preventDefault(); } },
                              {capture: true, passive: false});
  })();
  // ---- the on-screen keyboard (issue 33): while the program types into one
  // of its fields (a slider's value), the hidden #keyboard field holds the
  // focus, so a phone shows its keyboard; what is typed there goes to the
  // program, Enter and Backspace as the keys they are.
  (function keyboardField() {
    const field = document.getElementById('keyboard');
    if (!field) return;
    poslab.textInput = (on) => {
      if (on && document.activeElement !== field) field.focus({preventScroll: true});
      else if (!on && document.activeElement === field) { field.blur(); canvas.focus({preventScroll: true}); }
    };
    // A keyboard that sends keypress (a desktop's, iOS's) reaches the program
    // through GLFW already; one that does not (Android's, keyCode 229) only
    // fills the field. Registered before GLFW's listener: seen first.
    let keypressed = false;
    window.addEventListener('keypress', (e) => { if (e.target === field) keypressed = true; }, true);
    field.addEventListener('input', () => {
      if (field.value && !keypressed && Module._poslab_text_input)
        Module.ccall('poslab_text_input', null, ['string'], [field.value]);
      keypressed = false;
      field.value = '';
    });
  })();
})();

// ---- the accessible mirror (issue 31): the canvas is opaque to a screen
// reader and to the keyboard's Tab, so the lesson's words, the step's
// buttons and sliders, and the figure's description are also real HTML
// (app/ui/a11y_mirror.hpp gives them as JSON; poslab_a11y_* drive the app).
// The panel is visually hidden until something in it has the focus; Tab
// from the canvas reaches it; arrows move a focused slider. The figure's
// description is an ARIA live region, announced once it settles (not on
// every step of a drag).
(function () {
  'use strict';
  const SETTLE_MS = 600;   // a description is announced once unchanged this long …
  const MAX_WAIT_MS = 2500;  // … or at the latest this long after it first changed
  const POLL_MS = 200;
  const panel = document.createElement('section');
  panel.id = 'a11y';
  const style = document.createElement('style');
  style.textContent = `
    #a11y { position: fixed; left: 8px; bottom: 8px; width: min(560px, calc(100vw - 16px)); max-height: 60vh;
            overflow: auto; z-index: 15; background: #f6f6f6; color: #111; border: 2px solid #1f5fbf;
            border-radius: 6px; padding: 8px 12px; font: 15px/1.45 "DejaVu Sans", system-ui, sans-serif; }
    #a11y:not(:focus-within) { clip-path: inset(50%); width: 1px; height: 1px; overflow: hidden; padding: 0;
                               border: 0; white-space: nowrap; }
    #a11y h2 { font-size: 16px; margin: 0 0 4px; }
    #a11y p { margin: 4px 0; white-space: pre-wrap; }
    #a11y label { display: block; margin: 6px 0 2px; }
    #a11y input[type=range] { width: 100%; }
    #a11y button, #a11y select { font: inherit; margin: 2px 4px 2px 0; }
    #a11y :focus { outline: 3px solid #e07b00; outline-offset: 1px; }`;
  document.head.appendChild(style);
  const el = (tag, props) => Object.assign(document.createElement(tag), props || {});
  const title = el('h2', {id: 'a11y-lesson'});
  const indicator = el('p', {id: 'a11y-indicator'});
  const words = el('div', {id: 'a11y-text'});
  words.setAttribute('aria-live', 'polite');
  const nav = el('div', {id: 'a11y-nav'});
  const controls = el('div', {id: 'a11y-controls'});
  const more = el('details', {id: 'a11y-more'});
  const moreSummary = el('summary');
  more.appendChild(moreSummary);
  const figureLabel = el('label', {htmlFor: 'a11y-figure-select'});
  const figureSelect = el('select', {id: 'a11y-figure-select'});
  const described = el('div', {id: 'a11y-figure'});
  described.setAttribute('role', 'status');
  described.setAttribute('aria-live', 'polite');
  described.setAttribute('aria-atomic', 'true');
  panel.append(title, indicator, words, nav, controls, more, figureLabel, figureSelect, described);

  let last = null;          // the state last drawn
  let layoutKey = '';       // what the controls were built for (lesson, step, keys)
  let lastFrames = -1;
  const inputs = new Map(); // key → its input
  const pending = {text: null, first: 0, timer: 0};

  function call(name, types, args) { return Module.ccall(name, 'string', types, args); }
  function refused(why) { if (why) Module.poslab.showMessage(why, true); }
  function action(what) { refused(call('poslab_a11y_action', ['string'], [what])); poll(true); }

  function announce(text) {
    if (text === pending.text || text === described.dataset.text) {
      if (text === described.dataset.text) { pending.text = null; clearTimeout(pending.timer); }
      return;
    }
    const now = performance.now();
    if (pending.text === null) pending.first = now;
    pending.text = text;
    clearTimeout(pending.timer);
    const wait = Math.max(0, Math.min(SETTLE_MS, pending.first + MAX_WAIT_MS - now));
    pending.timer = setTimeout(() => {
      described.dataset.text = pending.text;
      described.textContent = pending.text;
      document.body.dataset.a11yAnnounced = String((+document.body.dataset.a11yAnnounced || 0) + 1);
      pending.text = null;
    }, wait);
  }

  function button(label, what) {
    const b = el('button', {type: 'button', textContent: label});
    b.dataset.action = what;
    b.addEventListener('click', () => action(what));
    return b;
  }

  function control(c) {
    const id = 'a11y-' + c.key;
    const label = el('label', {htmlFor: id, textContent: c.name + (c.unit ? ' (' + c.unit + ')' : '')});
    let input;
    if (c.type === 'number') {
      input = el('input', {type: 'range', id, min: 0, max: c.positions, step: 1});
      input.addEventListener('input', () => refused(call('poslab_a11y_slide', ['string', 'number'], [c.key, +input.value])));
    } else if (c.type === 'boolean') {
      input = el('input', {type: 'checkbox', id});
      input.addEventListener('change', () => refused(call('poslab_a11y_set', ['string', 'string'], [c.key, input.checked ? 'true' : 'false'])));
    } else if (c.type === 'choice') {
      input = el('select', {id});
      for (const ch of c.choices) input.appendChild(el('option', {value: ch.word, textContent: ch.label}));
      input.addEventListener('change', () => refused(call('poslab_a11y_set', ['string', 'string'], [c.key, input.value])));
    } else {
      input = el('input', {type: 'text', id});
      input.addEventListener('change', () => refused(call('poslab_a11y_set', ['string', 'string'], [c.key, input.value])));
    }
    input.dataset.key = c.key;
    inputs.set(c.key, input);
    const box = el('div');
    box.append(label, input);
    return box;
  }

  function update(c, input) {
    if (c.type === 'number') {
      if (document.activeElement !== input || input.dataset.position !== String(c.position)) input.value = c.position;
      input.dataset.position = String(c.position);
      input.setAttribute('aria-valuetext', c.text);
      input.title = c.min_text + ' … ' + c.max_text;
    } else if (c.type === 'boolean') {
      input.checked = !!c.value;
    } else if (document.activeElement !== input) {
      input.value = c.value;
    }
  }

  function draw(s) {
    document.documentElement.lang = s.lang === 'zh' ? 'zh-CN' : 'en';
    panel.setAttribute('aria-label', s.labels.panel);
    title.textContent = s.lesson;
    indicator.textContent = s.indicator;
    const text = [s.caption, s.question, s.answer || s.hint].filter(Boolean).join('\n\n');
    if (words.textContent !== text) {
      words.replaceChildren(...[s.caption, s.question, s.answer || s.hint].filter(Boolean).map((t) => el('p', {textContent: t})));
    }
    const keys = s.controls.map((c) => c.key + (c.step ? '' : '*')).join(',');
    const layout = [s.view, s.step, s.steps, s.revealed, s.lang, keys, s.figures.map((f) => f.id + f.title).join()].join('|');
    if (layout !== layoutKey) {
      const focused = document.activeElement && panel.contains(document.activeElement) ? document.activeElement : null;
      const focusKey = focused ? (focused.dataset.key || focused.dataset.action || focused.id) : null;
      layoutKey = layout;
      nav.replaceChildren();
      if (s.step >= 0) nav.append(button(s.labels.back, 'prev'), button(s.labels.next, 'next'), button(s.labels.all, 'all'));
      else if (s.steps > 0) nav.append(button(s.labels.start, 'step:0'));
      inputs.clear();
      controls.replaceChildren(el('h3', {textContent: s.labels.params, style: 'font-size:15px;margin:8px 0 0'}));
      more.replaceChildren(moreSummary);
      moreSummary.textContent = s.labels.more;
      for (const c of s.controls) (c.step ? controls : more).appendChild(control(c));
      more.style.display = s.controls.some((c) => !c.step) ? '' : 'none';
      figureLabel.textContent = s.labels.figures;
      figureSelect.replaceChildren(...s.figures.map((f) => el('option', {value: f.id, textContent: f.title})));
      if (focusKey) {
        const again = panel.querySelector(`[data-key="${focusKey}"], [data-action="${focusKey}"], #${CSS.escape(focusKey)}`);
        if (again) again.focus();
      }
    }
    for (const c of s.controls) if (inputs.has(c.key)) update(c, inputs.get(c.key));
    if (document.activeElement !== figureSelect) figureSelect.value = s.figure.id;
    if (!s.figure.updating && s.figure.description)
      announce((s.figure.title ? s.figure.title + (s.lang === 'zh' ? '。' : '. ') : '') + s.figure.description);
    document.body.dataset.a11yFigure = s.figure.id;
  }

  function poll(force) {
    if (!window.Module || !Module._poslab_a11y_state) return;
    const frames = Module._poslab_frames();
    if (!force && frames === lastFrames) return;
    lastFrames = frames;
    let s;
    try { s = JSON.parse(call('poslab_a11y_state', [], [])); } catch (e) { return; }
    if (!s || !s.view) return;
    last = s;
    draw(s);
  }

  figureSelect.addEventListener('change', () => action('figure:' + figureSelect.value));

  // Keys typed in the panel are the panel's (GLFW listens on the whole
  // window and would also take them: → on a slider would turn the step);
  // Tab on the canvas moves the focus (GLFW cancels Tab's default).
  // Registered before the program's listeners, so they run first.
  for (const type of ['keydown', 'keypress', 'keyup']) {
    window.addEventListener(type, (e) => {
      if (panel.contains(e.target)) e.stopImmediatePropagation();
      else if (e.key === 'Tab' && e.target === document.getElementById('canvas')) e.stopImmediatePropagation();
    }, true);
  }

  const start = setInterval(() => {
    if (document.body.dataset.ready !== '1') return;
    clearInterval(start);
    if (document.body.dataset.embed === '1') return;  // a course page's figure: the page around it describes it
    document.getElementById('canvas').after(panel);
    poll(true);
    setInterval(() => poll(false), POLL_MS);
  }, 100);
  window.poslabA11y = {state: () => last, poll: () => poll(true)};  // tests/web
})();
