// poslab's Web Worker: a second instance of poslab.wasm (the same file the
// page runs; main() does not run here) that does the page's long work —
// building figures at large sizes, training the lab's models —
// while the page keeps drawing. Started by page.js after the first frame.
//
// Messages (structured clone; bytes as transferred ArrayBuffers):
//   page → worker
//     {type: 'job', id, kind, request: ArrayBuffer}   kind: 'build' (app/ui/remote_builds.hpp),
//                                                      'lab' (JSON, app/ui/worker_jobs.hpp),
//                                                      'lab_model' (one model of the lab lesson,
//                                                      sent back whole: its progress note is
//                                                      its loss per step so far; the page sends
//                                                      a worker one at a time, and starts more
//                                                      workers for them: page.js, "the lab's models")
//                                                      or a kind added to ui::WorkerJobs
//     {type: 'cancel', id}                             not started: dropped; running: ended
//                                                      at its next slice; no reply either way
//     {type: 'warm', request: string}                  warm up (below, "warming up"): JSON for
//                                                      the "warm" job (app/ui/worker_jobs.cpp)
//     {type: 'spare', buffer: ArrayBuffer}             a large reply's buffer handed back once the
//                                                      page has read it: the next large reply is
//                                                      copied into it (below, "spare buffers")
//   worker → page
//     {type: 'ready', version}                         the wasm is up: jobs may come
//     {type: 'progress', id, done, total, note}        a long job, at most every 100 ms
//     {type: 'done', id, reply: ArrayBuffer, size, spare, ms}
//                                                      the reply is reply's first `size` bytes (a
//                                                      spare buffer may be longer; `spare`: it is
//                                                      one); ms: from the job's arrival to its end
//     {type: 'failed', id, message}                    the job raised (bad bytes, a bug)
//     {type: 'warm-part', part: ArrayBuffer}          one build of the warm-up handed back, when
//                                                      the warm-up was asked with hand_back ('f' or
//                                                      'r', then the reply's bytes): the page lands
//                                                      and draws it off screen (page.js, "warming up")
//     {type: 'warmed', ms, slowest, slowestFigure, handedBack}
//                                                      the warm-up is over (ms: from its start;
//                                                      slowest: its longest build, ms, or -1,
//                                                      and that build's "view/figure"; handedBack:
//                                                      how many warm-parts came before)
//     {type: 'died', message}                          the wasm stopped (out of memory…):
//                                                      the page fails what is in flight and
//                                                      builds in place from then on
//
// A job runs in slices of SLICE_MS (app/ui/worker_jobs.hpp: WorkerJob::step);
// between two slices the worker returns to its event loop, so a cancel or a
// new job gets in, and unfinished jobs take turns (a figure is never stuck
// behind a long training run).
'use strict';

const SITE_VERSION = '@POSLAB_SITE_VERSION@';  // written by scripts/build-web.sh
const SLICE_MS = 50;
// Warming up. A fresh page runs poslab.wasm as V8's baseline code and
// optimizes each function once it has run enough, compiling it on other
// threads meanwhile: the first seconds of dragging a slider at the largest
// sizes trailed the desktop 5–18× (ALiBi's heads: 205–320 ms against 17),
// warm 1.1–1.7× (docs/PERFORMANCE.md, "The wasm cold"). The page asks its
// figure workers to warm up once they are up: every lesson's figures built
// at their defaults and at larger sizes, each again until its builds took
// 40 ms together (page.js says how many), so the code the figures run is
// optimized while the reader reads rather than while they drag (6–8 s on two
// cores). The page's worker also
// hands back what it builds ('warm-part'), for the page's own thread to land
// and draw off screen: that code needs warming too (page.js).
// The warm-up runs only while no other job waits, in slices of a few ms, so
// a figure asked for meanwhile waits at most for the one build under way.
const WARM_SLICE_MS = 4;
const PROGRESS_EVERY_MS = 100;

const queue = [];  // {id, kind, request (Uint8Array), handle (0: not started), arrived, reported}

// Spare buffers. A reply leaves the wasm's memory as a copy in a buffer of
// its own, transferred to the page. A fresh buffer of a few megabytes for
// each large reply (ALiBi's bias at a million positions: 4.7 MB, on every
// move of a slider) cost 15–55 ms here — the allocation, not the copy: new
// memory paged in, and garbage collections driven by it — as long as the
// build. The page hands large buffers back once it has read them ('spare'),
// and the next large reply is copied into the smallest that holds it.
const SPARE_MIN_BYTES = 65536;  // below this a fresh buffer is cheap (and the page keeps it)
const SPARE_MAX = 4;
const spares = [];

function replyBuffer(size) {
  let best = -1;
  if (size >= SPARE_MIN_BYTES)
    for (let i = 0; i < spares.length; ++i)
      if (spares[i].byteLength >= size && (best < 0 || spares[i].byteLength < spares[best].byteLength)) best = i;
  return best >= 0 ? spares.splice(best, 1)[0] : new ArrayBuffer(size);
}
let ready = false;
let scheduled = false;
const channel = new MessageChannel();  // a turn of the event loop without setTimeout's 4 ms clamp
channel.port1.onmessage = slice;

self.Module = {
  noInitialRun: true,
  print: (t) => console.log('[worker] ' + t),
  printErr: (t) => console.warn('[worker] ' + t),
  onRuntimeInitialized() {
    ready = true;
    postMessage({type: 'ready', version: SITE_VERSION});
    schedule();
  },
  onAbort(what) {
    ready = false;
    postMessage({type: 'died', message: String(what)});
  },
};

self.onmessage = (e) => {
  const m = e.data || {};
  if (m.type === 'job') {
    queue.push({id: m.id, kind: String(m.kind), request: new Uint8Array(m.request || new ArrayBuffer(0)),
                handle: 0, arrived: performance.now(), reported: 0});
    schedule();
  } else if (m.type === 'warm') {
    queue.push({id: 'warm', kind: 'warm', request: new TextEncoder().encode(String(m.request || '')),
                handle: 0, arrived: performance.now(), reported: 0, warm: true});
    schedule();
  } else if (m.type === 'spare') {
    if (m.buffer instanceof ArrayBuffer && m.buffer.byteLength >= SPARE_MIN_BYTES) {
      spares.push(m.buffer);
      if (spares.length > SPARE_MAX) {  // keep the largest few
        spares.sort((a, b) => b.byteLength - a.byteLength);
        spares.length = SPARE_MAX;
      }
    }
  } else if (m.type === 'cancel') {
    const i = queue.findIndex((j) => j.id === m.id);
    if (i >= 0) {
      const [job] = queue.splice(i, 1);
      if (job.handle) Module._poslab_job_end(job.handle);
    }
  }
};

function schedule() {
  if (scheduled || !ready || !queue.length) return;
  scheduled = true;
  channel.port2.postMessage(null);
}

function start(job) {
  const n = job.request.length;
  const bytes = Module._malloc(n || 1);
  Module.HEAPU8.set(job.request, bytes);
  job.handle = Module.ccall('poslab_job_start', 'number', ['string', 'number', 'number'], [job.kind, bytes, n]);
  Module._free(bytes);
  job.request = null;
}

// One slice of the first job in line (the warm-up only when nothing else
// waits); an unfinished job goes to the back.
function slice() {
  scheduled = false;
  const at = queue.findIndex((j) => !j.warm);
  const job = queue.splice(at >= 0 ? at : 0, 1)[0];
  if (!job || !ready) return;
  try {
    if (!job.handle) start(job);
    const status = Module._poslab_job_step(job.handle, job.warm ? WARM_SLICE_MS : SLICE_MS);
    const partSize = job.warm ? Module._poslab_job_part_size(job.handle) : 0;
    if (partSize > 0) {
      const at = Module._poslab_job_part(job.handle);
      const part = new ArrayBuffer(partSize);
      new Uint8Array(part).set(Module.HEAPU8.subarray(at, at + partSize));
      postMessage({type: 'warm-part', part}, [part]);
    }
    if (job.warm && status !== 0) {
      let slowest = -1, slowestFigure = '', handedBack = 0;
      try {
        if (status === 1) {
          const r = JSON.parse(Module.UTF8ToString(Module._poslab_job_reply(job.handle)));
          slowest = +r.slowest_ms;
          slowestFigure = String(r.slowest);
          handedBack = +r.handed_back || 0;
        }
      } catch (e) { /* (the reply is only for the record) */ }
      Module._poslab_job_end(job.handle);
      postMessage({type: 'warmed', ms: performance.now() - job.arrived, slowest, slowestFigure, handedBack});
      schedule();
      return;
    }
    if (status === 0) {
      const now = performance.now();
      if (!job.warm && now - job.reported >= PROGRESS_EVERY_MS) {
        job.reported = now;
        postMessage({type: 'progress', id: job.id, done: Module._poslab_job_progress(job.handle, 0),
                     total: Module._poslab_job_progress(job.handle, 1),
                     note: Module.UTF8ToString(Module._poslab_job_note(job.handle))});
      }
      queue.push(job);
    } else if (status === 1) {
      const at = Module._poslab_job_reply(job.handle);
      const size = Module._poslab_job_reply_size(job.handle);
      const spareCount = spares.length;
      const reply = replyBuffer(size);
      new Uint8Array(reply, 0, size).set(Module.HEAPU8.subarray(at, at + size));
      Module._poslab_job_end(job.handle);
      postMessage({type: 'done', id: job.id, reply, size, spare: spares.length < spareCount,
                   ms: performance.now() - job.arrived}, [reply]);
    } else {
      const message = Module.UTF8ToString(Module._poslab_job_error(job.handle));
      Module._poslab_job_end(job.handle);
      postMessage({type: 'failed', id: job.id, message});
    }
  } catch (e) {
    // The wasm itself failed (onAbort says so too): nothing more runs here.
    ready = false;
    postMessage({type: 'died', message: String(e && e.message || e)});
    return;
  }
  schedule();
}

importScripts('poslab.js');
