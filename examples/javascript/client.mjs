#!/usr/bin/env node
// A small client of the codepayload service, on Node's built-in modules only.
//
// It gets a token with the client credentials grant (HTTP Basic), keeps it for
// its lifetime and renews it shortly before it expires (30 s, or a tenth of the
// lifetime when that is shorter); on a 401 it gets a new token and tries once
// more; on a 429 it waits the Retry-After seconds and tries once more. This is
// what the interface specification's Authentication 5 asks of a caller.
//
//   CLIENT_SECRET=... node client.mjs --url https://localhost:8443 \
//       --ca data/dev-tls-cert.pem --client-id svc_client_... batch.json
//
// prints one line per code and per failure on stdout, what it does with tokens
// on stderr; exit status 0 when the batch was handled (even with failures),
// 1 when the service refused it, 2 on a usage error.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const MEDIA_TYPE = 'application/vnd.codepayload.public.v1+json';
const LONGEST_RETRY_AFTER = 60; // seconds; a longer wait is reported instead

// An answer other than 200, after the one retry.
export class ServiceError extends Error {
  constructor(path, status, body, retryAfter) {
    let text = `${path}: HTTP ${status}: ${body}`;
    if (retryAfter !== undefined) text += ` (Retry-After: ${retryAfter} s)`;
    super(text);
    Object.assign(this, { path, status, body, retryAfter });
  }
}

const monotonicSeconds = () => Number(process.hrtime.bigint()) / 1e9;
const sleepSeconds = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

export class CodePayloadClient {
  #baseUrl; #basic; #agent; #clock; #sleep; #log;
  #token = null;
  #renewAt = 0;

  constructor({ baseUrl, clientId, clientSecret, caFile,
    clock = monotonicSeconds, sleep = sleepSeconds, log = (line) => console.error(line) }) {
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
    this.#basic = 'Basic ' + Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    this.#agent = new https.Agent({ ca: readFileSync(caFile), keepAlive: true });
    this.#clock = clock;
    this.#sleep = sleep;
    this.#log = log;
  }

  // POST the CodesRequest `batch` (an object); resolves to the CodesResponse.
  async postCodes(batch) {
    const body = JSON.stringify(batch);
    let renewed = false;
    let waited = false;
    for (;;) {
      const headers = { Authorization: 'Bearer ' + await this.#accessToken(),
        'Content-Type': MEDIA_TYPE, Accept: MEDIA_TYPE };
      const answer = await this.#post('/codes', body, headers);
      if (answer.status === 200) return JSON.parse(answer.body);
      if (answer.status === 401 && !renewed) {
        this.#log('POST /codes: 401, getting a new token and trying once more');
        this.#token = null;
        renewed = true;
        continue;
      }
      if (answer.status === 429 && !waited && await this.#waitRetryAfter('POST /codes', answer)) {
        waited = true;
        continue;
      }
      throw new ServiceError('POST /codes', answer.status, answer.body, answer.retryAfter);
    }
  }

  // Ends the kept-alive connections, so that the process can exit.
  close() { this.#agent.destroy(); }

  async #accessToken() {
    if (this.#token !== null && this.#clock() < this.#renewAt) return this.#token;
    const body = 'grant_type=client_credentials';
    const headers = { Authorization: this.#basic, 'Content-Type': 'application/x-www-form-urlencoded' };
    let answer = await this.#post('/oauth/token', body, headers);
    if (answer.status === 429 && await this.#waitRetryAfter('POST /oauth/token', answer)) {
      answer = await this.#post('/oauth/token', body, headers);
    }
    if (answer.status !== 200) {
      throw new ServiceError('POST /oauth/token', answer.status, answer.body, answer.retryAfter);
    }
    const token = JSON.parse(answer.body);
    const lifetime = Number(token.expires_in);
    const margin = Math.min(30, lifetime / 10);
    this.#log(`token: ${this.#token === null ? 'new' : 'renewed'}, expires in ${lifetime} s, ` +
      `renewed ${margin} s before`);
    this.#token = token.access_token;
    this.#renewAt = this.#clock() + lifetime - margin;
    return this.#token;
  }

  // True when the answer says how long to wait and it is short enough: then it has waited.
  async #waitRetryAfter(what, answer) {
    if (!/^\d+$/.test(answer.retryAfter ?? '') || Number(answer.retryAfter) > LONGEST_RETRY_AFTER) return false;
    this.#log(`${what}: 429, trying once more in ${answer.retryAfter} s`);
    await this.#sleep(Number(answer.retryAfter));
    return true;
  }

  #post(path, body, headers) {
    return new Promise((resolve, reject) => {
      const request = https.request(this.#baseUrl + path, {
        method: 'POST', agent: this.#agent, timeout: 60000,
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode,
          retryAfter: response.headers['retry-after'], body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`${path}: no answer within 60 s`)));
      request.on('error', reject);
      request.end(body);
    });
  }
}

export function printResponse(response) {
  for (const code of response.codes) {
    console.log(`code ${code.reference}: ${code.barcodeText}  HRI ${code.hri}`);
  }
  for (const failure of response.failures) {
    for (const error of failure.errors) {
      console.log(`failure ${failure.reference}: ${error.code} at ${error.path} ` +
        `args [${error.args.map((arg) => JSON.stringify(arg)).join(', ')}]`);
    }
  }
}

async function main() {
  const usage = 'usage: CLIENT_SECRET=... node client.mjs --url URL --ca CA_FILE --client-id ID BATCH_FILE';
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: {
      url: { type: 'string' }, ca: { type: 'string' }, 'client-id': { type: 'string' } } });
  } catch (error) {
    console.error(`client.mjs: ${error.message}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (!values.url || !values.ca || !values['client-id'] || positionals.length !== 1 || !process.env.CLIENT_SECRET) {
    console.error(usage);
    return 2;
  }
  const batch = JSON.parse(readFileSync(positionals[0], 'utf8'));
  const client = new CodePayloadClient({ baseUrl: values.url, clientId: values['client-id'],
    clientSecret: process.env.CLIENT_SECRET, caFile: values.ca });
  try {
    printResponse(await client.postCodes(batch));
    return 0;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    console.error(`client.mjs: ${error.message}`);
    return 1;
  } finally {
    client.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
