# SPDX-License-Identifier: MIT
"""The CI recipes shipped as files: the GitHub Action (action.yml), the GitLab CI template, the
pre-commit hooks and the Dockerfile. Their structure is checked as each system reads it, and
every torchmigrate command in them runs against the built binary on the example project, the
way the CI system would run it. The image is built only where a container engine can build it."""
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import yaml

from tm_e2e import BINARY, EXAMPLE, SOURCE_DIR, TempTree, run

ACTION = SOURCE_DIR / "action.yml"
GITLAB = SOURCE_DIR / "ci" / "gitlab" / "torchmigrate.gitlab-ci.yml"
HOOKS = SOURCE_DIR / ".pre-commit-hooks.yaml"
DOCKERFILE = SOURCE_DIR / "Dockerfile"
# GitLab's global keywords: every other top-level key not starting with "." is a job.
GITLAB_KEYWORDS = {"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
                   "before_script", "after_script"}
ENV = {k: v for k, v in os.environ.items() if k not in ("GITHUB_WORKSPACE", "CI_PROJECT_DIR", "TORCHMIGRATE_SHARD",
                                                        "TORCHMIGRATE_OUTPUT_FORMAT", "TORCHMIGRATE_CACHE_DIR")}


def binary_directory():
    found = shutil.which(BINARY)
    if found is None:
        raise AssertionError(f"torchmigrate binary not found: {BINARY}")
    return str(Path(found).resolve().parent)


def shell(script, cwd, env):
    """Runs one CI script line as the runner does: bash, with the job's variables set."""
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def copy_of_example(test):
    tree = TempTree(EXAMPLE)
    test.addCleanup(tree.cleanup)
    return tree


class GitHubAction(unittest.TestCase):
    def setUp(self):
        self.text = ACTION.read_text()
        self.action = yaml.safe_load(self.text)

    def test_structure(self):
        self.assertTrue(self.action["name"])
        self.assertTrue(self.action["description"])
        self.assertEqual(self.action["runs"]["using"], "composite")
        steps = self.action["runs"]["steps"]
        self.assertTrue(steps)
        for step in steps:
            with self.subTest(step=step.get("name")):
                self.assertTrue(("run" in step and "shell" in step) or "uses" in step, step)
        referenced = set(re.findall(r"\binputs\.([A-Za-z0-9_-]+)", self.text))
        self.assertTrue(referenced)
        self.assertLessEqual(referenced, set(self.action["inputs"]))
        self.assertEqual(set(self.action["inputs"]), {"version", "args", "paths", "upload-sarif"})
        # The ref names the release (`uses: owner/torchmigrate@v0.1.0`): no input is required.
        for name, spec in self.action["inputs"].items():
            with self.subTest(input=name):
                self.assertFalse(spec.get("required", False))
        uses = [step["uses"] for step in steps if "uses" in step]
        self.assertTrue(any(u.startswith("github/codeql-action/upload-sarif@") for u in uses), uses)
        self.assertIn("$GITHUB_STEP_SUMMARY", self.text)

    def test_check_runs_once_and_every_report_comes_from_its_results(self):
        runs = [step["run"] for step in self.action["runs"]["steps"] if "run" in step]
        checks = [line for run_text in runs for line in run_text.splitlines() if "torchmigrate check" in line]
        self.assertEqual(len(checks), 1, checks)
        self.assertIn("--shard 1/1 --output-format json", checks[0])
        merges = " ".join(line for run_text in runs for line in run_text.splitlines() if "torchmigrate merge" in line)
        for report in ("sarif", "markdown", "github"):
            self.assertIn(f"--output-format {report}", merges)

    def test_the_sarif_upload_can_be_skipped_and_is_on_fork_pull_requests(self):
        upload = next(step for step in self.action["runs"]["steps"]
                      if step.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
        condition = upload["if"]
        self.assertIn("inputs.upload-sarif == 'true'", condition)
        self.assertIn("github.event.pull_request.head.repo.full_name == github.repository", condition)
        self.assertEqual(self.action["inputs"]["upload-sarif"]["default"], "true")

    def install_plan(self, os_release, version="", ref="", action_path="/actions/torchmigrate"):
        temp = Path(tempfile.mkdtemp(prefix="torchmigrate-action-"))
        self.addCleanup(shutil.rmtree, temp, True)
        (temp / "os-release").write_text(os_release)
        env = dict(ENV, TORCHMIGRATE_VERSION=version, TORCHMIGRATE_ACTION_REF=ref, TORCHMIGRATE_ACTION_PATH=action_path,
                   TORCHMIGRATE_OS_RELEASE=str(temp / "os-release"), TORCHMIGRATE_INSTALL_PLAN="1")
        result = subprocess.run(["bash", str(SOURCE_DIR / "ci" / "github" / "install.sh")], env=env,
                                capture_output=True, text=True, timeout=60)
        return result.returncode, result.stdout.strip(), result.stderr

    def test_install_takes_the_version_from_the_ref_and_builds_where_the_deb_cannot_go(self):
        debian = "ID=debian\nVERSION_CODENAME=bookworm\n"
        ubuntu = "ID=ubuntu\nVERSION_CODENAME=noble\n"
        self.assertEqual(self.install_plan(debian, ref="v0.1.0")[:2], (0, "deb 0.1.0"))
        self.assertEqual(self.install_plan(debian, version="0.2.0", ref="v0.1.0")[:2], (0, "deb 0.2.0"))
        # ubuntu-latest: the .deb is Debian 12's; the action's own checkout is built.
        self.assertEqual(self.install_plan(ubuntu, ref="v0.1.0")[:2], (0, "source /actions/torchmigrate"))
        self.assertEqual(self.install_plan(ubuntu, ref="main")[:2], (0, "source /actions/torchmigrate"))
        self.assertEqual(self.install_plan(ubuntu, version="v0.1.0", ref="v0.1.0")[:2],
                         (0, "source /actions/torchmigrate"))
        # Another release than the ref's: its tag is cloned and built.
        self.assertEqual(self.install_plan(ubuntu, version="0.2.0", ref="main")[:2], (0, "clone v0.2.0"))
        # A branch ref in a Debian 12 container: no release to download, so the checkout is built.
        self.assertEqual(self.install_plan(debian, ref="main")[:2], (0, "source /actions/torchmigrate"))
        code, _, error = self.install_plan(ubuntu, ref="main", action_path="")
        self.assertEqual(code, 2)
        self.assertIn("`version` input", error)

    def expand(self, text, temp):
        """The expressions the runner would substitute, with each input's default."""
        defaults = {name: str(spec.get("default", "")) for name, spec in self.action["inputs"].items()}
        text = re.sub(r"\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}", lambda m: defaults[m.group(1)], text)
        text = re.sub(r"\$\{\{\s*runner\.temp\s*\}\}", str(temp), text)
        self.assertNotIn("${{", text)
        return text

    def test_the_steps_run_on_the_example_project(self):
        tree = copy_of_example(self)
        summary = tree.root / "summary.md"
        steps = [s for s in self.action["runs"]["steps"] if "run" in s]
        # The first step installs torchmigrate (ci/github/install.sh); the others run it.
        self.assertIn("ci/github/install.sh", steps[0]["run"])
        exits = {}
        for step in steps[1:]:
            env = dict(ENV, PATH=binary_directory() + os.pathsep + ENV["PATH"], GITHUB_STEP_SUMMARY=str(summary),
                       RUNNER_TEMP=str(tree.root))
            env.update({k: self.expand(str(v), tree.root) for k, v in step.get("env", {}).items()})
            result = shell(self.expand(step["run"], tree.root), tree.project, env)
            self.assertNotEqual(result.returncode, 2, result.stderr)
            exits[step["name"]] = result.returncode
            if "--output-format github" in step["run"]:
                self.assertIn("::error title=torchmigrate", result.stdout)
        self.assertEqual(exits, {"torchmigrate (check)": 0, "Reports (SARIF, job summary)": 0, "torchmigrate": 1})
        sarif = json.loads((tree.project / "torchmigrate.sarif").read_text())
        self.assertEqual(sarif["version"], "2.1.0")
        self.assertTrue(sarif["runs"][0]["results"])
        self.assertTrue(summary.read_text().startswith("## torchmigrate\n"))


class GitLabTemplate(unittest.TestCase):
    def setUp(self):
        self.template = yaml.safe_load(GITLAB.read_text())
        self.jobs = {k: v for k, v in self.template.items() if not k.startswith(".") and k not in GITLAB_KEYWORDS}

    def resolved(self, job):
        """A job with what it `extends` filled in (one level, as the template uses it)."""
        merged = {}
        for base in ([job["extends"]] if isinstance(job.get("extends"), str) else job.get("extends", [])):
            merged.update(self.template[base])
        merged.update(job)
        return merged

    def test_structure(self):
        self.assertEqual(set(self.jobs), {"torchmigrate-shard", "torchmigrate"})
        for name, job in self.jobs.items():
            with self.subTest(job=name):
                job = self.resolved(job)
                self.assertTrue(job["script"])
                self.assertTrue(all(isinstance(line, str) for line in job["script"]))
                self.assertIn("image", job)
                for needed in job.get("needs", []):
                    self.assertIn(needed, self.jobs)
        self.assertIsInstance(self.jobs["torchmigrate-shard"]["parallel"], int)
        reports = self.jobs["torchmigrate"]["artifacts"]["reports"]
        self.assertEqual(set(reports), {"codequality", "junit"})

    def test_the_pipeline_runs_on_the_example_project(self):
        tree = copy_of_example(self)
        variables = {k: str(v) for k, v in self.template["variables"].items()}
        env = dict(ENV, PATH=binary_directory() + os.pathsep + ENV["PATH"], **variables)
        shard_job, merge_job = self.resolved(self.jobs["torchmigrate-shard"]), self.resolved(self.jobs["torchmigrate"])
        total = shard_job["parallel"]
        for index in range(1, total + 1):
            for line in shard_job["script"]:
                result = shell(line, tree.project, dict(env, CI_NODE_INDEX=str(index), CI_NODE_TOTAL=str(total)))
                self.assertEqual(result.returncode, 0, result.stderr)
        exits = [shell(line, tree.project, env).returncode for line in merge_job["script"]]
        self.assertEqual(exits, [0, 0, 1])
        for name in merge_job["artifacts"]["reports"].values():
            self.assertTrue((tree.project / name).is_file(), name)
        # The merged reports are the single run's.
        for name, output_format in (("gl-code-quality-report.json", "gitlab"), ("torchmigrate-junit.xml", "junit")):
            single = run("check", "--no-cache", "--output-format", output_format, ".", cwd=tree.project, env=ENV)
            self.assertEqual((tree.project / name).read_text(), single.stdout)
        ElementTree.parse(tree.project / "torchmigrate-junit.xml")


class PreCommitHooks(unittest.TestCase):
    def setUp(self):
        self.hooks = yaml.safe_load(HOOKS.read_text())

    def test_structure(self):
        ids = [hook["id"] for hook in self.hooks]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertIn("torchmigrate-docker", ids)
        for hook in self.hooks:
            with self.subTest(hook=hook["id"]):
                for key in ("id", "name", "entry", "language", "files", "exclude"):
                    self.assertTrue(hook.get(key), key)
                self.assertIn(hook["language"], ("system", "docker_image"))
                re.compile(hook["files"])
                re.compile(hook["exclude"])
                self.assertTrue(re.search(hook["files"], "src/legacy_models/models.py"))

    def test_the_docker_hook_runs_the_image_the_dockerfile_builds(self):
        (hook,) = [h for h in self.hooks if h["language"] == "docker_image"]
        image = shlex.split(hook["entry"])[0]
        self.assertIn(f"docker build -t {image} .", DOCKERFILE.read_text())

    def test_each_entry_runs_on_a_file(self):
        for hook in self.hooks:
            with self.subTest(hook=hook["id"]):
                tree = copy_of_example(self)
                # A system hook's entry starts with the program, a docker_image hook's with the
                # image, whose entrypoint is torchmigrate: the rest are torchmigrate's arguments.
                arguments = shlex.split(hook["entry"])[1:]
                result = run(*arguments, "src/legacy_models/models.py", cwd=tree.project, env=ENV)
                self.assertEqual(result.returncode, 1, result.stderr)


def instructions(text):
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    joined = re.sub(r"\\\n", " ", text)
    out = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def package_of(library):
    owner = subprocess.run(["dpkg", "-S", library], capture_output=True, text=True)
    if owner.returncode != 0:
        real = os.path.realpath(library)
        owner = subprocess.run(["dpkg", "-S", real], capture_output=True, text=True, check=True)
    return owner.stdout.split(":")[0].strip()


def dependency_closure(packages):
    """The packages and everything they depend on, as installed here."""
    seen, todo = set(), list(packages)
    while todo:
        package = todo.pop()
        if package in seen:
            continue
        seen.add(package)
        query = subprocess.run(["dpkg-query", "-W", "-f", "${Depends}, ${Pre-Depends}", package],
                               capture_output=True, text=True)
        for alternative in re.split(r"[,|]", query.stdout):
            name = alternative.strip().split(" ")[0].split(":")[0]
            if name:
                todo.append(name)
    return seen


class DockerfileRecipe(unittest.TestCase):
    def setUp(self):
        self.instructions = instructions(DOCKERFILE.read_text())
        starts = [i for i, (keyword, _) in enumerate(self.instructions) if keyword == "FROM"]
        self.stages = [self.instructions[a:b] for a, b in zip(starts, starts[1:] + [len(self.instructions)])]

    def test_two_stages_on_debian_12(self):
        self.assertEqual(len(self.stages), 2)
        self.assertEqual(self.stages[0][0][1].split()[0], "debian:12")
        self.assertEqual(self.stages[1][0][1], "debian:12-slim")
        build_steps = " ".join(rest for keyword, rest in self.stages[0] if keyword == "RUN")
        self.assertIn("scripts/bootstrap.sh demo", build_steps)
        self.assertIn("cmake --install", build_steps)
        self.assertIn(("ENTRYPOINT", '["torchmigrate"]'), self.stages[1])

    def test_every_copy_source_exists_and_is_not_ignored(self):
        ignored = [line.strip().rstrip("/") for line in (SOURCE_DIR / ".dockerignore").read_text().splitlines()
                   if line.strip() and not line.startswith("#")]
        copies = [shlex.split(rest) for keyword, rest in self.instructions if keyword == "COPY"]
        local = [words for words in copies if not words[0].startswith("--from=")]
        self.assertTrue(local)
        for words in local:
            for source in words[:-1]:
                with self.subTest(source=source):
                    self.assertTrue((SOURCE_DIR / source).exists(), source)
                    first = Path(source).parts[0]
                    self.assertFalse(any(Path(first).match(pattern) for pattern in ignored), source)

    def test_the_runtime_stage_installs_what_the_binary_links(self):
        if shutil.which("dpkg") is None or shutil.which("ldd") is None:
            self.skipTest("dpkg and ldd are needed to map the binary's libraries to Debian packages")
        runtime = " ".join(rest for keyword, rest in self.stages[1] if keyword == "RUN")
        listed = re.search(r"apt-get install (.*?)(&&|$)", runtime).group(1).split()
        listed = [word for word in listed if not word.startswith("-")]
        libraries = re.findall(r"=>\s+(/\S+)", subprocess.run(["ldd", shutil.which(BINARY)], capture_output=True,
                                                               text=True, check=True).stdout)
        # A sanitizer build (scripts/bootstrap.sh sanitize) also links the sanitizers' runtimes,
        # which a release build and so the image do not.
        needed = {package_of(library) for library in libraries} - {"libasan8", "libubsan1"}
        # Every Debian image has the C and C++ runtimes (apt itself is linked against them).
        available = dependency_closure(listed) | {"libc6", "libgcc-s1", "libstdc++6"}
        self.assertEqual(needed - available, set())
        # And nothing listed is unneeded. Two libraries are loaded, not linked: libclang for C/C++
        # files, libgit2 for configured globs (which such a run cannot do without).
        loaded = {"libclang1-14", "libgit2-1.5"}
        self.assertLessEqual(loaded, set(listed))
        self.assertLessEqual(set(listed), needed | loaded)

    def test_the_image_builds_where_an_engine_can(self):
        engine = next((e for e in ("docker", "podman", "buildah") if shutil.which(e)), None)
        if engine is None:
            self.skipTest("no container engine (docker, podman or buildah) is installed; the Dockerfile was "
                          "only checked statically")
        probe = ["info"] if engine != "buildah" else ["version"]
        if subprocess.run([engine, *probe], capture_output=True, timeout=60).returncode != 0:
            self.skipTest(f"{engine} is installed but cannot build here (no daemon or no permission); the "
                          "Dockerfile was only checked statically")
        tag = "torchmigrate-ci-recipes-test"
        build = ["build", "-t", tag, str(SOURCE_DIR)] if engine != "buildah" else ["bud", "-t", tag, str(SOURCE_DIR)]
        built = subprocess.run([engine, *build], capture_output=True, text=True, timeout=3600)
        self.assertEqual(built.returncode, 0, built.stderr[-4000:])
        if engine != "buildah":
            with tempfile.TemporaryDirectory() as empty:
                version = subprocess.run([engine, "run", "--rm", "-v", f"{empty}:/src", tag, "--version"],
                                         capture_output=True, text=True, timeout=120)
            self.assertEqual(version.returncode, 0, version.stderr)
            self.assertTrue(version.stdout.startswith("torchmigrate "))


if __name__ == "__main__":
    unittest.main()
