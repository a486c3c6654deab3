// The second renderer of tests/verify: bwip-js (BWIPP in JavaScript), pinned in
// tests/dashboard/package.json beside the browser tests' packages, so that the one
// `npm ci` of scripts/install-deps.sh installs both. Many symbols in one process:
// the symbols come in as a JSON file, never on the command line.
//
// usage: node render-bwip.mjs NPM_DIR JOBS_JSON OUT_DIR
//   NPM_DIR    the folder whose node_modules holds bwip-js (tests/dashboard)
//   JOBS_JSON  [{"symbol": "gs1datamatrix" | "qrcode", "text": "...", "png": "name.png"}, ...]
//              gs1datamatrix: the service's element string, "(01)...(10)AB^040C^041";
//              qrcode: a Digital Link URI, drawn as it is
//   OUT_DIR    where each job's PNG is written, and results.txt: one line a job, in the
//              order of the jobs, "drawn" or "refused <BWIPP's message>"
// Prints the versions of bwip-js and BWIPP. Exits 0 when every job has its line (a
// refusal is the caller's to judge); 1, saying why, when bwip-js cannot be loaded or a
// file cannot be read or written.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [npmDir, jobsFile, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node render-bwip.mjs NPM_DIR JOBS_JSON OUT_DIR');
  process.exit(2);
}

let bwipjs;
try {
  bwipjs = createRequire(resolve(npmDir, 'package.json'))('bwip-js');
} catch (error) {
  console.error(`bwip-js cannot be loaded from ${join(npmDir, 'node_modules')} ` +
                `(scripts/install-deps.sh test runs npm ci there): ${error.message}`);
  process.exit(1);
}

// BWIPP draws a module 2 units wide; scale and padding count those units. Scale 3: 6 pixels a
// module. Padding 8: a white quiet zone of 4 modules, the QR Code's (a DataMatrix needs 1), without
// which the decoders find no symbol.
const common = { scale: 3, paddingwidth: 8, paddingheight: 8, backgroundcolor: 'FFFFFF' };
const options = {
  // BWIPP reads the bracketed element string itself ("(AI)value...": GS1 DataMatrix with
  // FNC1 first and after each value not of a pre-defined length, from its own copy of the
  // GS1 Barcode Syntax Dictionary) and lints every AI. `parse` turns the ^NNN ordinals
  // inside a value into their characters, so ^040 and ^041, the service's escapes, are
  // read as "(" and ")"; BWIPP splits the text at the brackets before it resolves them,
  // so an escaped parenthesis never ends an AI or a value. Without `parse` the "^" is
  // refused as a character outside CSET 82. Nothing else in a valid value begins "^".
  gs1datamatrix: { parse: true },
  // The URI's bytes as they are: a plain QR Code, scanned with the identifier ]Q1.
  qrcode: {},
};

const jobs = JSON.parse(readFileSync(jobsFile, 'utf8'));
const results = [];
for (const job of jobs) {
  if (!Object.hasOwn(options, job.symbol)) {
    console.error(`render-bwip: unknown symbol ${JSON.stringify(job.symbol)}`);
    process.exit(1);
  }
  let png;
  try {
    png = await bwipjs.toBuffer({ bcid: job.symbol, text: job.text, ...common, ...options[job.symbol] });
  } catch (error) {
    results.push('refused ' + String(error.message ?? error).replace(/\s+/g, ' '));
    continue;
  }
  writeFileSync(join(outDir, job.png), png);
  results.push('drawn');
}
writeFileSync(join(outDir, 'results.txt'), results.map((line) => line + '\n').join(''));
console.log(`bwip-js ${bwipjs.BWIPJS_VERSION}, BWIPP ${bwipjs.BWIPP_VERSION}: ${jobs.length} symbols`);
