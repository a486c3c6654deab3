// Drives examples/javascript/client.mjs's CodePayloadClient for tests/examples/examples_test.sh,
// with the same commands and transcript as client_driver.py (read its header).
// Usage: node client_driver.mjs EXAMPLES_DIR URL CA CLIENT_ID (the secret in $CLIENT_SECRET).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const [examplesDir, baseUrl, caFile, clientId] = process.argv.slice(2);
const { CodePayloadClient, ServiceError, printResponse } =
  await import(pathToFileURL(path.join(examplesDir, 'javascript', 'client.mjs')).href);

let now = 1000;
const client = new CodePayloadClient({ baseUrl, clientId, clientSecret: process.env.CLIENT_SECRET, caFile,
  clock: () => now, log: (line) => console.log('log: ' + line) });
for await (const command of readline.createInterface({ input: process.stdin })) {
  const [verb, argument] = command.split(' ');
  if (verb === 'post') {
    try {
      printResponse(await client.postCodes(JSON.parse(readFileSync(argument, 'utf8'))));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      console.log(`error: ${error.message}`);
    }
  } else if (verb === 'advance') {
    now += Number(argument);
  } else {
    throw new Error(`client_driver.mjs: unknown command ${verb}`);
  }
  console.log('.');
}
client.close();
