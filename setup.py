"""Packaging glue: the cffi extension needs setup.py's cffi_modules."""

from setuptools import find_packages, setup

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


setup(
    packages=packages(),
    package_dir=PACKAGE_DIRS,
    package_data={"brass": ["data/*.json"], "brass_service": ["*.json", "gen/**/*"]},
    cffi_modules=["core_c/build_ffi.py:ffibuilder"],
)
