"""A small Chrome DevTools Protocol client over --remote-debugging-pipe (no
websocket library needed): the web tests drive the page as a user would —
taps and drags on a touch screen, keys — and read it back."""
import json
import os
import subprocess
import tempfile
import time


class Browser:
    def __init__(self, chromium, width=1280, height=800, touch=False):
        self.profile = tempfile.TemporaryDirectory(prefix="poslab-cdp-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4.
        def child_fds():  # (high copies first: either pipe end may already be 3 or 4)
            r, w = os.dup(to_chrome_r) + 100, os.dup(from_chrome_w) + 100
            os.dup2(to_chrome_r, r)
            os.dup2(from_chrome_w, w)
            os.dup2(r, 3)
            os.dup2(w, 4)
        self.proc = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--ignore-gpu-blocklist", "--no-first-run", "--disable-extensions", "--remote-debugging-pipe",
             f"--user-data-dir={self.profile.name}", f"--window-size={width},{height}"]
            # Extra switches for an experiment (profiling, V8 flags), never set by the tests.
            + os.environ.get("POSLAB_CHROMIUM_FLAGS", "").split() + ["about:blank"],
            pass_fds=(3, 4), preexec_fn=child_fds, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, cwd=self.profile.name)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.session = None
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        if touch:
            self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)

    def call(self, method, timeout=60, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        end = time.time() + timeout
        while time.time() < end:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self._id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self._buf += chunk
        raise TimeoutError(method)

    def eval(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return r.get("result", {}).get("value")

    def wait_for(self, expression, seconds=30):
        end = time.time() + seconds
        while time.time() < end:
            value = self.eval(expression)
            if value:
                return value
            time.sleep(0.1)
        return None

    def touch(self, kind, x, y):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        self.call("Input.dispatchTouchEvent", type=kind, touchPoints=points)

    def tap(self, x, y):
        self.touch("touchStart", x, y)
        time.sleep(0.1)
        self.touch("touchEnd", x, y)

    def drag(self, x0, y0, x1, y1, steps=12):
        self.touch("touchStart", x0, y0)
        time.sleep(0.1)
        for i in range(1, steps + 1):
            self.touch("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            time.sleep(0.05)
        self.touch("touchEnd", x1, y1)

    def key(self, key, code, key_code, modifiers=0):
        # Held for a tenth of a second, as a finger does: ImGui 1.86 reads keys as held
        # at each frame, so a press and release between two frames would be missed.
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=key_code,
                      nativeVirtualKeyCode=key_code, modifiers=modifiers)
            time.sleep(0.1)

    def screenshot(self, path, clip=None):
        """The page as drawn now (or the rectangle `clip`: x, y, width, height, scale), as a PNG file."""
        import base64
        data = self.call("Page.captureScreenshot", format="png", **({"clip": clip} if clip else {}))["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def new_tab(self):
        """Opens a new tab (same profile), drives it from now on and closes the old one."""
        old_session = self.session
        old = self.call("Target.getTargets")["targetInfos"]
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        for t in old:
            if t["type"] == "page" and t["targetId"] != target:
                self.call("Target.closeTarget", targetId=t["targetId"])
        del old_session

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)
        self.profile.cleanup()
