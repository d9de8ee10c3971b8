// SPDX-License-Identifier: MIT
// Validates every rules/TM*.json against rules/schema.json with Ajv (JSON Schema 2020-12).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;

const rulesDir = process.argv[2];
const schema = JSON.parse(readFileSync(join(rulesDir, "schema.json"), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
const validate = ajv.compile(schema);

let failures = 0;
let passed = 0;
for (const name of readdirSync(rulesDir).filter((f) => /^TM\d{3}\.json$/.test(f)).sort()) {
  const entry = JSON.parse(readFileSync(join(rulesDir, name), "utf8"));
  if (!validate(entry)) {
    failures++;
    for (const error of validate.errors) console.error(`${name}: ${error.instancePath || "/"} ${error.message}`);
  } else if (entry.code !== name.replace(".json", "")) {
    failures++;
    console.error(`${name}: code ${entry.code} does not match the file name`);
  } else {
    passed++;
  }
}
console.log(`${passed} passed, ${failures} failed`);
process.exit(failures === 0 && passed > 0 ? 0 : 1);
