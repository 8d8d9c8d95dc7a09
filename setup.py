"""Packaging glue: the cffi extension needs setup.py's cffi_modules."""

import shutil
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

DATA_DIR = Path(__file__).resolve().parent / "core_c" / "data"

PACKAGE_DIRS = {
    "brass": "core_c/python/brass",
    "brass_service": "service",
    "brass_clients": "clients",
}


def packages() -> list[str]:
    found = []
    for name, path in PACKAGE_DIRS.items():
        found.append(name)
        found += [f"{name}.{sub}" for sub in find_packages(path)]
    return found


class BuildPyWithData(build_py):
    """Ships core_c/data/*.json as brass/data in a built package: the board description
    and the bots read them (a checkout reads core_c/data itself)."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "brass" / "data"
        target.mkdir(parents=True, exist_ok=True)
        for source in DATA_DIR.glob("*.json"):
            shutil.copyfile(source, target / source.name)


setup(
    cmdclass={"build_py": BuildPyWithData},
    packages=packages(),
    package_dir=PACKAGE_DIRS,
    package_data={"brass": ["data/*.json", "schemas/*.json"],
                  "brass_clients.bots": ["weights/*.npz"],
                  "brass_service": ["*.json", "gen/**/*"],
                  "brass_service.api": ["static/*"]},
    cffi_modules=["core_c/build_ffi.py:ffibuilder"],
)
