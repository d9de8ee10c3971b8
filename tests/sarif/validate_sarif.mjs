// SPDX-License-Identifier: MIT
// Produces SARIF for the example project with the built torchmigrate and validates it twice:
// against the SARIF 2.1.0 JSON schema (Ajv) and with Microsoft's SARIF Multitool `validate`,
// failing on any error or warning either reports.
//   node validate_sarif.mjs TORCHMIGRATE_BIN SOURCE_DIR WORK_DIR
import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const [binary, sourceDir, workDir] = process.argv.slice(2);
let passed = 0;
let failed = 0;
function check(ok, what, details = []) {
  if (ok) {
    passed++;
    console.log(`ok: ${what}`);
  } else {
    failed++;
    console.error(`FAILED: ${what}`);
    for (const line of details) console.error(`  ${line}`);
  }
}

rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });

// 1. The report, written through --output-file into a directory that does not exist yet.
const sarifPath = join(workDir, "reports", "torchmigrate.sarif");
const run = spawnSync(binary, ["check", "examples/legacy-project", "--output-format", "sarif", "--output-file", sarifPath],
                      { cwd: sourceDir, encoding: "utf8" });
check(run.status === 1, "torchmigrate exits 1 on the example project's findings", [`exit ${run.status}`, run.stderr]);
const log = JSON.parse(readFileSync(sarifPath, "utf8"));
const results = log.runs?.[0]?.results ?? [];
check(results.length > 0, "the report has results", [`${results.length} results`]);
check(results.some((result) => (result.fixes ?? []).length > 0), "some results carry fixes");

// 2. JSON schema: the SARIF 2.1.0 schema that ships with the Multitool.
const multitoolDir = require.resolve("@microsoft/sarif-multitool-linux/package.json").replace(/package\.json$/, "");
const Ajv2020 = require("ajv/dist/2020").default;
const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addFormat("uri", /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/);
ajv.addFormat("uri-reference", /^[^\s]*$/);
ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i);
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const validateSchema = ajv.compile(JSON.parse(readFileSync(join(multitoolDir, "sarif-2.1.0.json"), "utf8")));
check(validateSchema(log), "the report matches the SARIF 2.1.0 schema",
      (validateSchema.errors ?? []).map((error) => `${error.instancePath} ${error.message}`));

// 3. The Multitool. Its npm package makes the binary executable in a postinstall script,
// which `npm ci --ignore-scripts` skips: do the same here.
const tool = join(multitoolDir, "Sarif.Multitool");
try {
  accessSync(tool, constants.X_OK);
} catch {
  chmodSync(tool, statSync(tool).mode | 0o100);
}
// Its .NET runtime needs ICU unless globalization is invariant; SARIF validation needs none.
const env = { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: "1", DOTNET_CLI_TELEMETRY_OPTOUT: "1" };
// The Multitool exits 0 even when it finds errors, so its findings are read from its own SARIF log.
function multitoolErrors(input) {
  const output = `${input}.validation.sarif`;
  rmSync(output, { force: true });
  const validation = spawnSync(tool, ["validate", input, "--output", output, "--log", "ForceOverwrite"],
                               { encoding: "utf8", env });
  if (validation.status !== 0) return { ran: false, messages: [`exit ${validation.status}`, validation.stdout, validation.stderr] };
  const runs = JSON.parse(readFileSync(output, "utf8")).runs ?? [];
  const messages = [];
  let executionFailed = false;
  for (const validationRun of runs) {
    for (const invocation of validationRun.invocations ?? []) {
      if (invocation.executionSuccessful === false) executionFailed = true;
      for (const notification of invocation.toolExecutionNotifications ?? []) {
        if ((notification.level ?? "warning") !== "note") messages.push(`tool: ${notification.message?.text}`);
      }
    }
    for (const result of validationRun.results ?? []) {
      // Warnings fail too (SARIF2005: no informationUri, for one); notes are advice.
      if ((result.level ?? "warning") !== "note") {
        messages.push(`${result.ruleId}: ${result.message?.text ?? JSON.stringify(result.message)}`);
      }
    }
  }
  if (executionFailed) messages.push("the Multitool reports an unsuccessful execution");
  return { ran: true, messages };
}

const ours = multitoolErrors(sarifPath);
check(ours.ran && ours.messages.length === 0, "sarif-multitool validate reports no errors or warnings", ours.messages);
const driver = log.runs[0].tool.driver;
check(/^https?:\/\//.test(driver.informationUri ?? ""), "the driver has an informationUri", [driver.informationUri]);
const noHelp = driver.rules.filter((rule) => !(rule.properties?.tags ?? []).includes("torchmigrate-internal") &&
                                            !/^https?:\/\//.test(rule.helpUri ?? ""));
check(noHelp.length === 0, "every rule has a helpUri", noHelp.map((rule) => rule.id));

// A control, so a validator that silently checks nothing cannot pass: an out-of-range line
// must be reported.
const broken = structuredClone(log);
broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
const brokenPath = join(workDir, "broken.sarif");
writeFileSync(brokenPath, JSON.stringify(broken, null, 2));
const control = multitoolErrors(brokenPath);
check(control.ran && control.messages.length > 0, "sarif-multitool validate reports an error for a broken report",
      control.messages);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
