// Preloaded (LD_PRELOAD) into the GUI test and soak processes of the
// sanitizer build, nowhere else: dlclose() does nothing.
//
// Why: glfwTerminate() unloads the OpenGL driver (Mesa's swrast_dri.so under
// Xvfb). Memory the driver still points to from its own globals is then
// referenced from nowhere LeakSanitizer scans, and the exit-time check
// reports it as leaked from "<unknown module>" — a report about Mesa, not
// about poslab, and one no suppression can name because the module is gone.
// With the driver left mapped, LeakSanitizer scans its globals (no false
// report) and a real leak anywhere is still reported, with its library named.
// No suppressions are needed (checked with Mesa 22.3 / llvmpipe, Debian 12).
//
// Built without sanitizer flags: xvfb-run's shell and Xvfb load it too.

extern "C" int dlclose(void* handle) {
  (void)handle;
  return 0;
}
