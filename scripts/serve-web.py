#!/usr/bin/env python3
"""Serves poslab's site (make serve-web): a folder of static files, on
127.0.0.1, with the two headers that make the page cross-origin isolated —
the browser then gives it shared memory, and page.js loads poslab-mt, which
builds figures on a thread of its own (docs/WEB.md, "Hosting").

    scripts/serve-web.py [--port 8080] [--bind 127.0.0.1] [--plain] SITE
"""
import argparse
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".svg": "image/svg+xml",
                      ".webmanifest": "application/manifest+json"}
    isolated = True

    def end_headers(self):
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("site")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--bind", default="127.0.0.1")
    ap.add_argument("--plain", action="store_true", help="without the two headers (the page then runs poslab.js)")
    a = ap.parse_args()
    Handler.isolated = not a.plain
    handler = functools.partial(Handler, directory=a.site)
    try:
        server = http.server.ThreadingHTTPServer((a.bind, a.port), handler)
    except OSError as e:
        sys.exit(f"poslab: cannot serve on {a.bind}:{a.port}: {e.strerror} (WEB_PORT=… picks another port)")
    print(f"poslab: http://{a.bind}:{a.port}/ ({'plain' if a.plain else 'cross-origin isolated: threads'}; "
          "Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
