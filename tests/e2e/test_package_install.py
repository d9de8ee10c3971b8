# SPDX-License-Identifier: MIT
"""The packages `cpack` makes, installed the way a user would: a clean Debian 12 root made with
mmdebstrap from the Debian mirror, the relocatable tarball run there as it is, then the .deb
installed with apt (which resolves its dependencies) without its recommended libclang, then with
it. Needs root, network access to the Debian mirror and several minutes.

Run by its own ctest entry, `ctest -L package` (not by the end_to_end discovery); skipped when
mmdebstrap is not installed. TORCHMIGRATE_BUILD_DIR is the configured build directory."""
import json
import os
import posixpath
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tm_e2e import EXAMPLE, run

# Inside the new root, everything the test brings lives in this folder and commands run in it,
# so the paths below are relative to it.
GUEST_DIR = "torchmigrate-test"
MIRROR = os.environ.get("TORCHMIGRATE_DEBIAN_MIRROR", "http://deb.debian.org/debian")
CXX_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh")
NOTE = "libclang could not be loaded ("


def load_tests(loader, tests, pattern):
    # Discovery (end_to_end) passes a pattern; `python3 -m unittest test_package_install` does not.
    return unittest.TestSuite() if pattern is not None else tests


def findings(stdout, root):
    """(path relative to the project, code, row, column, message) of a JSON report."""
    return sorted((os.path.relpath(f["filename"], root), f["code"], f["location"]["row"], f["location"]["column"],
                   f["message"]) for f in json.loads(stdout))


class PackageInstall(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if shutil.which("mmdebstrap") is None:
            raise unittest.SkipTest("mmdebstrap is not installed (apt-get install mmdebstrap): "
                                    "the package test builds a Debian 12 root with it")
        build = Path(os.environ["TORCHMIGRATE_BUILD_DIR"])
        cls.scratch = Path(tempfile.mkdtemp(prefix="torchmigrate-package-"))
        packages = cls.scratch / "packages"
        subprocess.run(["cpack", "-G", "DEB;TGZ", "-B", packages], cwd=build, check=True, capture_output=True)
        cls.deb = next(packages.glob("*.deb"))
        cls.tarball = next(packages.glob("*.tar.gz"))
        cls.root = cls.scratch / "root"
        # The apt variant: Essential packages and apt, nothing else; apt's lists are kept so that
        # apt can resolve the package's dependencies inside.
        subprocess.run(["mmdebstrap", "--variant=apt", "--skip=cleanup/apt/lists", "bookworm", cls.root, MIRROR],
                       check=True, stdin=subprocess.DEVNULL, capture_output=True)
        shutil.copy("/etc/resolv.conf", cls.root / "etc" / "resolv.conf")
        shutil.copytree(EXAMPLE, cls.root / GUEST_DIR / "project")
        shutil.copy(cls.deb, cls.root / GUEST_DIR)
        shutil.copy(cls.tarball, cls.root / GUEST_DIR)
        # Findings of the build under test on the host, as the reference.
        host = run("check", "--no-cache", "--output-format", "json", EXAMPLE)
        cls.expected = findings(host.stdout, EXAMPLE)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def chroot(self, command, check=True):
        # /proc in a mount namespace of the command's own, gone when it ends: the dynamic loader
        # finds $ORIGIN (the tarball's run path) through /proc/self/exe.
        inside = 'mount -t proc proc "$1/proc" && exec chroot "$1" sh -c "cd \\"$3\\" && $2"'
        result = subprocess.run(["unshare", "--mount", "--fork", "sh", "-c", inside, "sh", self.root, command,
                                 posixpath.join(posixpath.sep, GUEST_DIR)],
                                capture_output=True, text=True,
                                env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C.UTF-8",
                                     "DEBIAN_FRONTEND": "noninteractive"}, timeout=1200)
        if check and result.returncode not in (0, 1):
            self.fail(f"{command}: exit {result.returncode}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
        return result

    def check_project(self, binary):
        result = self.chroot(f"{binary} check --no-cache --output-format json project")
        self.assertEqual(1, result.returncode, result.stderr)
        return findings(result.stdout, "project"), result

    def assert_without_libclang(self, found):
        def is_cxx(finding):
            return finding[0].endswith(CXX_SUFFIXES)

        self.assertEqual([f for f in self.expected if not is_cxx(f)], [f for f in found if not is_cxx(f)])
        cxx = [f for f in found if is_cxx(f)]
        self.assertEqual(1, len(cxx), cxx)
        self.assertTrue(cxx[0][4].startswith(NOTE), cxx)
        self.assertIn("install libclang1-14 to check C/C++ sources", cxx[0][4])

    def test_packages(self):
        # One test, in order: each step changes what is installed in the root.
        with self.subTest("the tarball runs in a base system, its libraries beside it"):
            self.chroot(f"mkdir -p unpacked && tar xzf {self.tarball.name} -C unpacked")
            binary = f"unpacked/{self.tarball.name.removesuffix('.tar.gz')}/bin/torchmigrate"
            version = self.chroot(f"{binary} --version")
            self.assertEqual(0, version.returncode, version.stderr)
            found, _ = self.check_project(binary)
            self.assert_without_libclang(found)
            for name in ("share/doc/torchmigrate/LICENSE", "share/man/man1/torchmigrate.1"):
                self.assertEqual(0, self.chroot(f"test -s {Path(binary).parents[1] / name}").returncode, name)

        with self.subTest("the .deb installs with apt, without its recommended libclang"):
            install = self.chroot(f"apt-get install -y -q --no-install-recommends ./{self.deb.name}")
            self.assertEqual(0, install.returncode, install.stdout[-2000:] + install.stderr[-2000:])
            self.assertNotEqual(0, self.chroot("dpkg -s libclang1-14", check=False).returncode)
            recommends = self.chroot("dpkg-query -W -f '${Recommends}' torchmigrate").stdout
            self.assertEqual("libclang1-14", recommends)
            for name in ("/usr/share/doc/torchmigrate/LICENSE", "/usr/share/man/man1/torchmigrate.1"):
                self.assertEqual(0, self.chroot(f"test -s {name}").returncode, name)
            found, _ = self.check_project("torchmigrate")
            self.assert_without_libclang(found)

        with self.subTest("with libclang1-14 the C/C++ findings appear"):
            install = self.chroot("apt-get install -y -q --no-install-recommends libclang1-14")
            self.assertEqual(0, install.returncode, install.stdout[-2000:] + install.stderr[-2000:])
            found, _ = self.check_project("torchmigrate")
            self.assertEqual(self.expected, found)
            self.assertIn("TM151", {f[1] for f in found if f[0].endswith(".cpp")})


if __name__ == "__main__":
    unittest.main()
