"""`pip install --no-build-isolation .`: the Python package bcast, built by
the project's own CMake build (BCAST_BUILD_PYTHON) -- this file only hands
setuptools the extension CMake made; the build is described once, in
CMakeLists.txt."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
VERSION = re.search(r"project\(bcast VERSION ([0-9.]+)",
                    (ROOT / "CMakeLists.txt").read_text()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        subprocess.check_call([
            "cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython3_EXECUTABLE={sys.executable}", "-DBCAST_BUILD_PYTHON=ON",
            "-DBCAST_BUILD_TOOLS=OFF", "-DBCAST_BUILD_TESTS=OFF", "-DBCAST_BUILD_BENCH=OFF"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "bcast_python",
                               "-j", str(os.cpu_count() or 1)])
        built = next((build / "python" / "bcast").glob("_bcast*.so"))
        dest = pathlib.Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, dest)


setup(
    name="bcast",
    version=VERSION,
    description="Tensor broadcasting (NumPy, MLIR, TOSA, XLA, ONNX) for NumPy arrays",
    packages=["bcast"],
    package_dir={"": "python"},
    package_data={"bcast": ["*.pyi", "py.typed"]},  # type stubs (PEP 561)
    ext_modules=[Extension("bcast._bcast", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.8",
    install_requires=["numpy"],
)
