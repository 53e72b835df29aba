// --pre-js of the node programs (poslab-cli.js, poslab-core-tests.js): the
// process's environment becomes the program's (getenv), so POSLAB_ASSETS,
// LANG and the rest work as for the native binary. Emscripten otherwise
// gives a program only a few made-up variables.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  for (var key in process.env) ENV[key] = process.env[key];
});
