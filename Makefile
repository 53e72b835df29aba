# The two commands (see README.md):
#   make run    install what is missing, build Release, open the app
#   make test   install what is missing, build (warnings are errors), run every
#               test; then the same suites under ASan + UBSan (clang), short
#               fuzz runs and a short GUI soak; then the browser build's checks
#
# Other targets:
#   make build        Release build only (what `make run` opens; warnings are not errors)
#   make test-release the Release suites only, built in build-test with -Werror
#   make test-sanitize the clang ASan + UBSan build, its suites and the short fuzz runs
#   make fuzz         longer fuzz runs (FUZZ_SECONDS per target, default 600)
#   make soak         the GUI soak under ASan + UBSan: SOAK_FRAMES frames (default
#                     10000), no time limit, then SOAK_KEY_STORM (60) seconds of random
#                     key taps; prints what it did and resident memory
#   make bench        poslab bench --json and tests/bench/compare.py (numpy, torch);
#                     tests/bench/lab_compare.py: the lab's training speed against numpy's
#                     sgemm, its gradients against torch, the default lab's time and memory
#   make web          poslab for the browser: build-web/site/ (Debian's emscripten)
#   make serve-web    serves build-web/site/ on http://127.0.0.1:8080 (WEB_PORT)
#   make test-web     the browser build's checks: the core suite under node, wasm
#                     tables = native tables, every lesson opened by link in
#                     headless Chromium (tests/web/run_web_tests.py)
#   make install PREFIX=...   make clean

BUILD_DIR ?= build
TEST_DIR ?= build-test
ASAN_DIR ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 600
SOAK_FRAMES ?= 10000
SOAK_KEY_STORM ?= 60
WEB_DIR ?= build-web
WEB_PORT ?= 8080

.PHONY: run test build test-build deps clean install test-release test-sanitize sanitize-build fuzz soak bench \
  web web-deps serve-web test-web

deps:
	@scripts/install-deps.sh

# `make run` builds without -Werror: a newer compiler's new warning must never
# stop a teacher. `make test` builds the same sources with warnings as errors in
# a folder of its own, so switching between the two never rebuilds everything.
build: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DPOSLAB_WERROR=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test-build: deps
	@cmake -S . -B $(TEST_DIR) -DCMAKE_BUILD_TYPE=Release -DPOSLAB_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(TEST_DIR) -j $(JOBS)

run: build
	./$(BUILD_DIR)/app/poslab

test: test-release test-sanitize test-web

test-release: test-build
	ctest --test-dir $(TEST_DIR) --output-on-failure -j $(JOBS)

sanitize-build: deps
	@CC=clang CXX=clang++ cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOSLAB_WERROR=ON \
	  -DPOSLAB_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_DIR) -j $(JOBS)

test-sanitize: sanitize-build
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_DIR) --output-on-failure -j $(JOBS)

fuzz: deps
	@CC=clang CXX=clang++ cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOSLAB_FUZZ=ON \
	  -DPOSLAB_FUZZ_SECONDS=$(FUZZ_SECONDS) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_DIR) -j $(JOBS)
	ctest --test-dir $(ASAN_DIR) --output-on-failure -R '^fuzz_'
	@cmake -S . -B $(ASAN_DIR) -DPOSLAB_FUZZ_SECONDS=15 >/dev/null

soak: sanitize-build
	$(ASAN_DIR)/tests/soak/run_soak.sh --frames $(SOAK_FRAMES) --key-storm $(SOAK_KEY_STORM) --report $(ASAN_DIR)/soak-report.txt

bench: build
	@scripts/install-deps.sh --bench
	./$(BUILD_DIR)/app/poslab bench --json
	/usr/bin/python3 tests/bench/compare.py --poslab ./$(BUILD_DIR)/app/poslab
	/usr/bin/python3 tests/bench/lab_compare.py --poslab ./$(BUILD_DIR)/app/poslab --lab-runs

web-deps:
	@scripts/install-deps.sh --web

web: web-deps
	@WEB_DIR=$(WEB_DIR) JOBS=$(JOBS) scripts/build-web.sh

serve-web: web
	@echo "poslab: http://127.0.0.1:$(WEB_PORT)/ (Ctrl+C stops)"
	/usr/bin/python3 -m http.server $(WEB_PORT) --bind 127.0.0.1 --directory $(WEB_DIR)/site

# One emscripten build serves the site and the node test programs.
test-web: test-build web-deps
	@WEB_DIR=$(WEB_DIR) JOBS=$(JOBS) scripts/build-web.sh --tests
	/usr/bin/python3 tests/web/run_web_tests.py --site $(WEB_DIR)/site --wasm $(WEB_DIR)/wasm \
	  --native $(TEST_DIR)/poslab

install: build
	cmake --install $(BUILD_DIR) $(if $(PREFIX),--prefix $(PREFIX),)

clean:
	rm -rf $(BUILD_DIR) $(TEST_DIR) $(ASAN_DIR) $(WEB_DIR)
