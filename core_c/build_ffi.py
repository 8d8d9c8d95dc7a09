"""cffi (API mode) builder for the C core: `brass._core`."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tempfile
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
HEADER = HERE / "include" / "brass.h"
# Besides the public header, each ruleset's own header: its state struct and constants, read
# by its Python position reader and its tests (the public API names none of them).
RULESET_HEADERS = [HERE / "src" / "birmingham" / "birmingham.h"]
SOURCES = sorted(str(p.relative_to(HERE.parent)) for p in (HERE / "src").rglob("*.c"))
# nanopb's generated code for the views the core encodes in protobuf binary (brass_view_proto)
NANOPB_SOURCES = sorted(str(p.relative_to(HERE.parent)) for p in (HERE / "nanopb").rglob("*.c"))
NANOPB_LIBRARY = "protobuf-nanopb"  # nanopb's runtime (Debian: libnanopb-dev)
_NANOPB_PROBE = """#include <pb_encode.h>
int main(void) { pb_ostream_t s = pb_ostream_from_buffer(0, 0); return (int)s.bytes_written; }
"""


def nanopb_wanted() -> bool:
    """Whether to build brass_view_proto's encoder. BRASS_NANOPB=1: yes, and the build fails
    without nanopb's runtime (CI); 0: no (the core answers BRASS_E_UNSUPPORTED and the
    service builds its typed views from the JSON text, about 0.3 ms slower a response);
    unset: where the runtime compiles and links."""
    wanted = os.environ.get("BRASS_NANOPB", "")
    if wanted == "0":
        return False
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text(_NANOPB_PROBE)
        compiler = shlex.split(os.environ.get("CC", "cc"))
        found = subprocess.run(
            [*compiler, str(probe), "-o", str(Path(tmp) / "probe"), f"-l{NANOPB_LIBRARY}"],
            capture_output=True,
        ).returncode == 0
    if wanted == "1" and not found:
        raise RuntimeError("BRASS_NANOPB=1 but nanopb's runtime (pb_encode.h and "
                           f"lib{NANOPB_LIBRARY}) is not found: apt-get install libnanopb-dev")
    return found


def cdef_text() -> str:
    """The public and ruleset headers, minus preprocessor lines cffi cannot parse."""
    text = "\n".join(h.read_text() for h in [HEADER, *RULESET_HEADERS])
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    lines = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#define"):
            parts = s.split()
            if len(parts) >= 3 and re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)u?", parts[2]):
                lines.append(f"#define {parts[1]} {parts[2].rstrip('u')}")
            continue
        if s.startswith("#"):
            continue
        lines.append(line)
    return "\n".join(lines)


NANOPB = nanopb_wanted()
ffibuilder = FFI()
ffibuilder.cdef(cdef_text())
ffibuilder.set_source(
    "brass._core",
    '#include "brass.h"\n#include "birmingham/birmingham.h"',
    # relative to the project root, where setup.py runs (setuptools refuses absolute paths)
    sources=SOURCES + (NANOPB_SOURCES if NANOPB else []),
    include_dirs=["core_c/include", "core_c/src", *(["core_c/nanopb"] if NANOPB else [])],
    define_macros=[("BRASS_HAVE_NANOPB", "1")] if NANOPB else [],
    libraries=[NANOPB_LIBRARY] if NANOPB else [],
    extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
