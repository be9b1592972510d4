#!/usr/bin/python3
"""Runs README.md's embedding snippets as written, so the README cannot drift from
the API (issue #18 item 5): the C blocks under "C (also C++" and "C sequences and
optionals" and the C++ block under "C++ (`#include <gkrun/gkrun.hpp>`" each
compiled into a main() and run, the Python block under "Python (`import gkrun`"
run as a script, in a folder holding tests/api/affine.onnx as model.onnx (input x
[1, 3], output y) and sequence.onnx; with a prefix, the CMake block as an outside
project's CMakeLists.txt around the C block. c-source and deb-sh print a block for
a build or a run elsewhere (deb_clean_install.sh, in its Debian root).

    readme_snippets.py c SOURCE_DIR WORK_DIR INCLUDE_DIR LIBGKRUN_SO
    readme_snippets.py cpp SOURCE_DIR WORK_DIR INCLUDE_DIR LIBGKRUN_SO
    readme_snippets.py python SOURCE_DIR WORK_DIR PYTHONPATH
    readme_snippets.py cmake SOURCE_DIR WORK_DIR PREFIX
    readme_snippets.py c-source SOURCE_DIR    (prints the C program)
    readme_snippets.py deb-sh SOURCE_DIR      (prints the .deb install block as a script)
"""
import os
import re
import shutil
import subprocess
import sys


def fail(msg):
    print("readme_snippets: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def block_after(readme, marker, lang):
    at = readme.find(marker)
    if at < 0:
        fail("README has no '{}'".format(marker))
    m = re.compile(r"```" + lang + r"\n(.*?)```", re.S).search(readme, at)
    if not m:
        fail("no ```{} block after '{}'".format(lang, marker))
    return m.group(1)


def c_program(readme, marker="C (also C++"):
    body = block_after(readme, marker, "c")
    includes = [l for l in body.splitlines() if l.startswith("#include")]
    code = [l for l in body.splitlines() if not l.startswith("#include")]
    return "\n".join(["#include <stdio.h>"] + includes + ["int main(void) {"] + ["  " + l for l in code] +
                     ['  if (st) { fprintf(stderr, "%s\\n", gkrun_status_message(st)); return 1; }',
                      '  printf("snippet ran\\n");', "  return 0;", "}"]) + "\n"


def cpp_program(readme):
    body = block_after(readme, "C++ (`#include <gkrun/gkrun.hpp>`", "cpp")
    includes = [l for l in body.splitlines() if l.startswith("#include")]
    code = [l for l in body.splitlines() if not l.startswith("#include")]
    return "\n".join(["#include <cstdio>", "#include <vector>"] + includes + ["int main() {"] +
                      ["  " + l for l in code] + ['  std::printf("snippet ran\\n");', "  return 0;", "}"]) + "\n"


def deb_script(readme):
    """The .deb block as a shell script, `sudo ` dropped (the test runs as root)."""
    body = block_after(readme, "Install from the .deb", "sh")
    return "set -e\n" + re.sub(r"^sudo ", "", body, flags=re.M)


def run(cmd, cwd, env=None):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        fail("{} exited {}:\n{}{}".format(" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def main():
    mode, src = sys.argv[1], sys.argv[2]
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    if mode == "c-source":
        sys.stdout.write(c_program(readme))
        return 0
    if mode == "deb-sh":
        sys.stdout.write(deb_script(readme))
        return 0
    work = sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    shutil.copy(os.path.join(src, "tests", "api", "affine.onnx"), os.path.join(work, "model.onnx"))
    shutil.copy(os.path.join(src, "tests", "api", "sequence.onnx"), os.path.join(work, "sequence.onnx"))
    if mode in ("c", "cpp"):
        include, lib = sys.argv[4], sys.argv[5]
        link = ["-I" + include, lib, "-Wl,-rpath," + os.path.dirname(lib)]
        if mode == "c":
            programs = [("app.c", c_program(readme)), ("values.c", c_program(readme, "C sequences and optionals"))]
            compiler = ["cc", "-std=c11", "-Wall", "-Werror", "-Wno-unused-variable"]
        else:
            programs = [("app.cpp", cpp_program(readme))]
            compiler = ["c++", "-std=c++17", "-Wall", "-Werror", "-Wno-unused-variable"]
        out = ""
        for name, text in programs:
            with open(os.path.join(work, name), "w") as f:
                f.write(text)
            exe = os.path.splitext(name)[0]
            run(compiler + [name, "-o", exe] + link, work)
            result = run(["./" + exe], work)
            if "snippet ran" not in result:
                fail("{} printed: {}".format(name, result))
            out += result
    elif mode == "python":
        with open(os.path.join(work, "snippet.py"), "w") as f:
            f.write(block_after(readme, "Python (`import gkrun`", "python") + '\nprint("snippet ran")\n')
        env = dict(os.environ, PYTHONPATH=sys.argv[4])
        out = run(["/usr/bin/python3", "snippet.py"], work, env)
        if not any(n.endswith(".json") for n in os.listdir(work)):
            fail("the Python snippet's end_profiling() wrote no trace in {}".format(work))
    elif mode == "cmake":
        prefix = sys.argv[4]
        with open(os.path.join(work, "app.c"), "w") as f:
            f.write(c_program(readme))
        with open(os.path.join(work, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.16)\nproject(app LANGUAGES C)\nadd_executable(app app.c)\n" +
                    block_after(readme, "CMake (`tools/examples/embed/`", "cmake"))
        run(["cmake", "-S", ".", "-B", "build", "-DCMAKE_PREFIX_PATH=" + prefix], work)
        run(["cmake", "--build", "build"], work)
        out = run([os.path.join("build", "app")], work)
    else:
        fail("unknown mode " + mode)
    if "snippet ran" not in out:
        fail("{} snippet printed: {}".format(mode, out))
    print("readme_snippets: {} OK".format(mode))
    return 0


if __name__ == "__main__":
    sys.exit(main())
