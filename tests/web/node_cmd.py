"""How to run an emscripten-built .js under node here (shared by tests/web and tests/bench)."""
import shutil
import subprocess


def node_cmd():
    node = shutil.which("node") or "/usr/bin/node"
    cmd = [node]
    # Emscripten 3.1.6 loads the .wasm with fetch() when it exists (node 18+);
    # fetch cannot read a file path.
    if subprocess.run([node, "--no-experimental-fetch", "-e", "0"], capture_output=True).returncode == 0:
        cmd.append("--no-experimental-fetch")
    return cmd
