"""PEP 517 build backend for `pip install ./python`, with no build
requirements (so it installs offline): configures and builds the project's
CMake with -DNVM_PYTHON=ON for the interpreter running it, then writes the
wheel (the nvmodel package and its _nvmodel extension) with zipfile. The
version is project(VERSION) of the top CMakeLists.txt, defined once."""
import base64
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"project\(\s*nvmodel\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("no project(nvmodel VERSION x.y.z) in CMakeLists.txt")
    return m.group(1)


def _tag():
    impl = "cp%d%d" % sys.version_info[:2]
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "%s-%s-%s" % (impl, impl, plat)


def _metadata(version):
    return ("Metadata-Version: 2.1\nName: nvmodel\nVersion: %s\n"
            "Summary: Functional model of the NVIDIA GPU front end\nRequires-Python: >=3.9\n" % version)


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    version = _version()
    di = "nvmodel-%s.dist-info" % version
    os.makedirs(os.path.join(metadata_directory, di), exist_ok=True)
    with open(os.path.join(metadata_directory, di, "METADATA"), "w") as f:
        f.write(_metadata(version))
    return di


def _build(tmp):
    build = os.path.join(tmp, "build")
    jobs = str(os.cpu_count() or 2)
    cfg = ["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DNVM_PYTHON=ON",
           "-DNVM_TESTS=OFF", "-DPython3_EXECUTABLE=" + sys.executable]
    subprocess.check_call(cfg, stdout=sys.stderr)
    subprocess.check_call(["cmake", "--build", build, "--target", "_nvmodel", "-j", jobs], stdout=sys.stderr)
    return os.path.join(build, "python", "nvmodel")


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    di = "nvmodel-%s.dist-info" % version
    name = "nvmodel-%s-%s.whl" % (version, _tag())
    with tempfile.TemporaryDirectory() as tmp:
        pkg = _build(tmp)
        files = {}
        for f in sorted(os.listdir(pkg)):
            if f.endswith((".py", ".pyi", ".so")) or f == "py.typed":
                with open(os.path.join(pkg, f), "rb") as fh:
                    files["nvmodel/" + f] = fh.read()
        if not any(k.endswith(".so") for k in files):
            raise RuntimeError("the build made no extension module")
        files[di + "/METADATA"] = _metadata(version).encode()
        files[di + "/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: nvm_build\nRoot-Is-Purelib: false\nTag: %s\n"
                                % _tag()).encode()
        record = []
        for k, data in files.items():
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (k, digest, len(data)))
        record.append(di + "/RECORD,,")
        files[di + "/RECORD"] = ("\n".join(record) + "\n").encode()
        out = os.path.join(wheel_directory, name)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for k, data in files.items():
                z.writestr(k, data)
    return name


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("nvmodel's Python package is built from the source tree: pip install ./python")
