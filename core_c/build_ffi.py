"""cffi (API mode) builder for the C core: `brass._core`."""

from __future__ import annotations

import re
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
HEADER = HERE / "include" / "brass.h"
# Besides the public header, each ruleset's own header: its state struct and constants, read
# by its Python position reader and its tests (the public API names none of them).
RULESET_HEADERS = [HERE / "src" / "birmingham" / "birmingham.h"]
SOURCES = sorted(str(p.relative_to(HERE.parent)) for p in (HERE / "src").rglob("*.c"))

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


ffibuilder = FFI()
ffibuilder.cdef(cdef_text())
ffibuilder.set_source(
    "brass._core",
    '#include "brass.h"\n#include "birmingham/birmingham.h"',
    # relative to the project root, where setup.py runs (setuptools refuses absolute paths)
    sources=SOURCES,
    include_dirs=["core_c/include", "core_c/src"],
    extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
