// The dashboard in a real browser: Debian's chromium-headless-shell
// driven by playwright-core against a real codepayload-server that run-browser-tests.sh started
// and bootstrapped (organization "Acme Foods" on Starter, owner, viewer, operator). Elements are
// found by role and accessible name, the names the issue fixes. The cases run in order and share
// the server's state: each builds on the clients the previous ones made. axe-core checks every
// state of a page they visit (WCAG 2.2 A and AA), and one case visits every page again at a
// phone's size.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { chromium, request } from 'playwright-core';

const execFileAsync = promisify(execFile);
const environment = (name) => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set (run-browser-tests.sh sets it)`);
  return value;
};
const baseURL = environment('DASHBOARD_TEST_URL');
const artifacts = environment('DASHBOARD_TEST_ARTIFACTS');
const batch = JSON.parse(readFileSync(environment('DASHBOARD_TEST_BATCH'), 'utf8'));
const organizationId = environment('DASHBOARD_TEST_ORGANIZATION');
const certificate = environment('DASHBOARD_TEST_CERTIFICATE'); // the server's, for curl
const owner = { email: 'owner@acme.example', password: environment('DASHBOARD_TEST_OWNER_PASSWORD') };
const viewer = { email: 'viewer@acme.example', password: environment('DASHBOARD_TEST_VIEWER_PASSWORD') };
const operator = { email: 'operator@example.com', password: environment('DASHBOARD_TEST_OPERATOR_PASSWORD') };
const clientName = 'line 4 printer';
// examples/batch.json: two codes the service generates and one with a wrong check digit.
const batchAccepted = 2;
const batchRejected = 1;
// A registry change reaches the token endpoint and the bearer check within a second (the
// registry's version is polled); the tests wait up to 3 s for it, not to fail on a loaded CI
// machine (make test runs the suites in parallel). They time nothing.
const registryDelay = 3000;

let browser;
let api; // a plain HTTP client (no cookies): the machine side, /oauth/token and /codes
const pageProblems = []; // console errors and failed page loads (a CSP violation is one)
const contexts = {};

// A browser context of its own (its own cookies); 15 s for any wait: a broken page fails
// sooner than after Playwright's default 30 s, and a loaded CI machine (the suites run in
// parallel, the sanitizer build is several times slower) still gets its answers in time.
async function newContext(options = {}) {
  const context = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 },
                                             ...options });
  context.setDefaultTimeout(15000);
  return context;
}

async function newSignedInPage(account, home) {
  const context = await newContext();
  const page = await context.newPage();
  page.on('console', (message) => {
    // A refusal the test provokes (4xx) is logged by Chromium too; anything else is a problem.
    if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d /.test(message.text())) {
      pageProblems.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => pageProblems.push(`${page.url()}: ${error.message}`));
  await signIn(page, account);
  await page.waitForURL(`**${home}`);
  return page;
}

async function signIn(page, account) {
  await page.goto('/dashboard/sign-in');
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

// Retries an async check until it stops throwing (every 50 ms, at most 5 s): for what the page
// shows after an answer arrives, and for registry changes the service sees within a second.
async function eventually(check) {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

// axe-core (pinned in package.json) with the WCAG 2.0, 2.1 and 2.2 A and AA rules. It is evaluated
// in the page through the DevTools protocol rather than added as a <script>: the pages'
// Content-Security-Policy refuses inline scripts, and stays as strict under test as in use.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function expectAccessible(page, state) {
  if (!await page.evaluate(() => 'axe' in window)) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const results = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return results.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  }, axeTags);
  assert.deepEqual(violations, [], `axe-core on ${state}:\n` + violations.map(
    (violation) => `  ${violation.id} (${violation.help}): ${violation.targets.join(', ')}`).join('\n'));
}

// A state of a page the tests visit: axe-core finds no violation in it, and its screenshot
// goes to the artifacts.
async function checkState(page, name) {
  await expectAccessible(page, name);
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

// The row of a client: the one whose Client ID cell shows it (another row may name it as its
// replacement).
function clientRow(page, clientId) {
  return page.getByRole('row').filter({ has: page.locator('.identifier').getByText(clientId, { exact: true }) });
}

// A confirmation dialog (dashboard.js, confirmChange): its question and consequence, then the
// button pressed, which closes it.
async function answerConfirmation(page, question, button, state) {
  const dialog = page.getByRole('alertdialog', { name: question, exact: true });
  await dialog.waitFor();
  const consequence = await dialog.locator('#confirm-consequence').innerText();
  if (state !== undefined) await checkState(page, state);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  return consequence;
}

// The page's success message (dashboard.js, announce).
// GOV.UK's error summary: titled "There is a problem", its messages listed in order, the page's
// title starting "Error: ".
async function expectErrorSummary(summary, messages) {
  await summary.getByRole('heading', { name: 'There is a problem', exact: true }).waitFor();
  assert.deepEqual(await summary.getByRole('listitem').allInnerTexts(), messages);
  assert.match(await summary.page().title(), /^Error: /);
}

// A field the server refused: marked aria-invalid, its message shown beside it (after a
// visually hidden "Error: ") and read as its description; the summary's link leads to it.
async function expectFieldError(summary, control, message) {
  const field = await control.evaluate((element) => {
    const described = element.closest('fieldset:not(.row)[aria-describedby]') ?? element;
    return {
      invalid: element.getAttribute('aria-invalid'),
      description: (described.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'))
        .map((id) => document.getElementById(id).textContent).join(' '),
      beside: document.getElementById(`${described.id}-error`)?.textContent,
    };
  });
  assert.deepEqual(field, { invalid: 'true', description: `Error: ${message}`, beside: `Error: ${message}` });
  await summary.getByRole('link', { name: message, exact: true }).click();
  assert.equal(await control.evaluate((element) => element === document.activeElement), true);
}

async function expectAnnounced(page, message) {
  await page.locator('#page-status').filter({ hasText: message }).waitFor();
  assert.equal(await page.locator('#page-status').getAttribute('role'), 'status');
  assert.equal(await page.locator('#page-status').innerText(), message);
}

// What the service answered each client, to know its exact usage: tokens issued (200s of
// /oauth/token) and batches answered (200s of /codes, each 2 codes accepted and 1 rejected).
// The polls that wait for a block to take effect make a number of 200s that depends on timing.
const usageSeen = new Map();
const clientOfToken = new Map();

function seen(clientId) {
  if (!usageSeen.has(clientId)) usageSeen.set(clientId, { tokens: 0, batches: 0 });
  return usageSeen.get(clientId);
}

async function requestToken(clientId, secret) {
  const response = await api.post('/oauth/token', {
    headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    form: { grant_type: 'client_credentials' },
  });
  const body = await response.json();
  if (response.status() === 200) {
    seen(clientId).tokens += 1;
    clientOfToken.set(body.access_token, clientId);
  }
  return { status: response.status(), body };
}

async function postCodes(token) {
  const response = await api.post('/codes', { headers: { Authorization: `Bearer ${token}` }, data: batch });
  if (response.status() === 200) seen(clientOfToken.get(token)).batches += 1;
  return response.status();
}

// [tokens issued, codes accepted, codes rejected] of today, as the usage table must show them.
function expectedUsage(clientIds) {
  const total = [0, 0, 0];
  for (const clientId of clientIds) {
    const { tokens, batches } = seen(clientId);
    total[0] += tokens;
    total[1] += batches * batchAccepted;
    total[2] += batches * batchRejected;
  }
  return total;
}

// A new token of the client and one POST /codes with it: {token, status}. A change in the
// registry (a client created, unblocked) reaches the token endpoint and the bearer check within
// a second, so each is retried for up to registryDelay until it answers 200. One token is issued and one
// batch accepted (refused requests are not counted as usage), so the usage counts are exact.
async function tokenAndCodes(client) {
  const deadline = Date.now() + registryDelay;
  let token = await requestToken(client.clientId, client.secret);
  while (token.status !== 200 && Date.now() < deadline) token = await requestToken(client.clientId, client.secret);
  if (token.status !== 200) return { token: null, status: token.status };
  let status = await postCodes(token.body.access_token);
  while (status !== 200 && Date.now() < deadline) status = await postCodes(token.body.access_token);
  return { token: token.body.access_token, status };
}

// What the secret dialog shows, read through its labels: both values copied with their buttons,
// the example, then "I have copied the secret" and "Done". With checkClosing, first Escape and
// "Done" without that tick, each asking and each cancelled, and the example run in a shell; with
// closeWithoutTick, "Done" and "Close without the secret" close it instead.
async function readSecretDialog(page, { checkClosing = false, closeWithoutTick = false } = {}) {
  const dialog = page.getByRole('dialog', { name: 'API client created' });
  await dialog.waitFor();
  const clientId = await dialog.getByLabel('Client ID', { exact: true }).inputValue();
  const secret = await dialog.getByLabel('Client secret', { exact: true }).inputValue();
  await assert.doesNotReject(dialog.getByText('it cannot be shown again').waitFor());
  for (const [button, message, value] of [['Copy client ID', 'The client ID is on the clipboard.', clientId],
                                          ['Copy secret', 'The secret is on the clipboard.', secret]]) {
    await dialog.getByRole('button', { name: button, exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: message }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), value);
  }
  const example = await dialog.locator('#token-example').innerText();
  assert.equal(example, 'read -rs -p "Client secret: " CLIENT_SECRET\n' +
                        `curl -u "${clientId}:$CLIENT_SECRET" \\\n` +
                        '  -d grant_type=client_credentials \\\n' +
                        `  ${baseURL}/oauth/token`);
  assert.equal(example.includes(secret), false);
  await expectAccessible(page, 'the secret dialog');
  if (checkClosing) {
    // The example as a user pastes it in a shell, the secret typed at its prompt: a token.
    const shell = spawnSync('bash', ['-c', example], {
      input: `${secret}\n`, encoding: 'utf8', env: { PATH: process.env.PATH, CURL_CA_BUNDLE: certificate },
    });
    assert.equal(shell.status, 0, shell.stderr);
    const answer = JSON.parse(shell.stdout);
    assert.equal(answer.token_type, 'Bearer');
    assert.equal(answer.expires_in, 3600);
    clientOfToken.set(answer.access_token, clientId);
    seen(clientId).tokens += 1;

    const steps = [['Escape', () => page.keyboard.press('Escape')],
                   ['Done', () => dialog.getByRole('button', { name: 'Done', exact: true }).click()]];
    for (const [how, close] of steps) {
      await close();
      const consequence = await answerConfirmation(page, 'Close without the secret?', 'Cancel',
                                                   how === 'Escape' ? 'api-secret-close-asks' : undefined);
      assert.equal(consequence, 'You have not ticked "I have copied the secret". Once this dialog closes the ' +
                   'secret cannot be shown again: without it the client cannot get tokens, and you would have to ' +
                   'create a replacement.');
      assert.equal(await dialog.isVisible(), true, how);
      assert.equal(await dialog.getByLabel('Client secret', { exact: true }).inputValue(), secret, how);
    }
  }
  if (closeWithoutTick) {
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();
    await answerConfirmation(page, 'Close without the secret?', 'Close without the secret');
  } else {
    await dialog.getByLabel('I have copied the secret and stored it safely', { exact: true }).check();
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  }
  await dialog.waitFor({ state: 'hidden' });
  // The dialog's close event, which empties it, comes a task after the dialog is hidden.
  await page.waitForFunction(() => document.getElementById('new-client-secret').value === '');
  assert.equal(await page.locator('#new-client-secret').inputValue(), '', 'the secret leaves the page with its dialog');
  assert.match(clientId, /^svc_client_/);
  assert.ok(secret.length >= 32);
  return { clientId, secret };
}

// POST to a /dashboard/data/ endpoint from the page itself (the browser's cookie), with the
// session's CSRF token unless told otherwise: what a page would send, to prove the server refuses.
async function postFromPage(page, endpoint, body, { withCsrf = true } = {}) {
  return page.evaluate(async ({ endpoint, body, withCsrf }) => {
    const session = await (await fetch('/dashboard/data/session')).json();
    const headers = { 'Content-Type': 'application/json' };
    if (withCsrf) headers['X-CSRF-Token'] = session.csrfToken;
    const response = await fetch(`/dashboard/data/${endpoint}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: await response.text() };
  }, { endpoint, body, withCsrf });
}

function errorCode(answer) {
  return JSON.parse(answer.body).errors[0].code;
}

before(async () => {
  browser = await chromium.launch({ executablePath: environment('DASHBOARD_TEST_CHROMIUM') });
  api = await request.newContext({ baseURL, ignoreHTTPSErrors: true });
});

after(async () => {
  for (const context of Object.values(contexts)) await context.close();
  await api?.dispose();
  await browser?.close();
});

test('the browser is Debian\'s chromium-headless-shell', () => {
  const version = browser.version();
  console.log(`browser: chromium-headless-shell ${version} (playwright-core 1.64.1 targets Chromium 156)`);
  assert.match(version, /^\d+\.\d+\.\d+\.\d+$/);
});

test('sign-in: an unknown email and a wrong password get the same answer', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await signIn(page, { email: owner.email, password: 'not the password at all' });
  const wrongPassword = await page.getByRole('alert').innerText();
  await signIn(page, { email: 'nobody@acme.example', password: 'not the password at all' });
  const unknownEmail = await page.getByRole('alert').innerText();
  await expectErrorSummary(page.getByRole('alert'), ['The email, password or authentication code is not right.']);
  assert.equal(await page.getByRole('alert').evaluate((element) => element === document.activeElement), true);
  assert.equal(unknownEmail, wrongPassword);
  assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in');
  await checkState(page, 'sign-in');
  await context.close();
});

// axe runs as a script in the page, which a page without JavaScript cannot run. It checks a copy
// instead: the page's DOM as rendered (the <noscript> content as the elements it then is), served
// at the same address to a page whose own scripts are blocked.
async function expectAccessibleWithoutJavaScript(page, state) {
  const html = (await page.content()).replace(/<\/?noscript>/g, '');
  const context = await newContext();
  const copy = await context.newPage();
  await copy.route('**/dashboard/assets/*.js', (route) => route.abort());
  await copy.route(page.url(), (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await copy.goto(page.url());
  await expectAccessible(copy, state);
  await context.close();
}

test('without JavaScript: the sign-in form posts and redirects home; signed-in pages say they need JavaScript', async () => {
  const context = await newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, { email: owner.email, password: 'not the password at all' });
  await page.waitForURL('**/dashboard/sign-in');
  await expectErrorSummary(page.getByRole('alert'), ['The email, password or authentication code is not right.']);
  assert.equal(await page.getByRole('alert').evaluate((element) => element === document.activeElement), true);
  assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), owner.email);
  await expectAccessibleWithoutJavaScript(page, 'sign-in without JavaScript, refused');
  await signIn(page, owner);
  await page.waitForURL('**/dashboard/api');
  await page.getByText('This page needs JavaScript, which is turned off in this browser: turn it on and reload the page.',
                       { exact: true }).waitFor();
  await expectAccessibleWithoutJavaScript(page, 'the API page without JavaScript');
  await context.close();
});

let owner_;
let first;
let firstToken;

test('the owner signs in and lands on Organization -> API', async () => {
  owner_ = await newSignedInPage(owner, '/dashboard/api');
  contexts.owner = owner_.context();
  const nav = owner_.getByRole('navigation');
  // The links show once the page has its session.
  await eventually(async () => assert.deepEqual(await nav.getByRole('link').filter({ visible: true }).allInnerTexts(),
                                                ['Organization', 'API', 'Try it', 'Audit', 'Account']));
  await nav.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  await owner_.getByRole('cell', { name: 'No API clients yet.' }).waitFor();
  await expectAccessible(owner_, 'the API page without clients');
  await owner_.goto('/dashboard/');
  assert.equal(new URL(owner_.url()).pathname, '/dashboard/api');
});

test('create a client: the secret is shown once and works at /oauth/token and /codes', async () => {
  await owner_.getByRole('button', { name: 'Create API client', exact: true }).click();
  const dialog = owner_.getByRole('dialog', { name: 'Create API client' });
  await dialog.getByLabel('Name', { exact: true }).fill(clientName);
  await expectAccessible(owner_, 'the create dialog');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const noScope = 'A client needs at least one scope (known scopes: read:codes, write:codes).';
  await expectErrorSummary(dialog.getByRole('alert'), [noScope]);
  await expectAccessible(owner_, 'the create dialog refusing a client without scopes');
  const scopes = dialog.getByRole('group', { name: 'Scopes', exact: true });
  await expectFieldError(dialog.getByRole('alert'), scopes.getByLabel('read:codes', { exact: true }), noScope);
  assert.equal(await scopes.getByLabel('write:codes', { exact: true }).getAttribute('aria-invalid'), 'true');
  await dialog.getByLabel('write:codes', { exact: true }).check();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await owner_.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  first = await readSecretDialog(owner_, { checkClosing: true });
  // The refusal went with its dialog.
  assert.equal(await owner_.title(), 'API clients - Code-Payload dashboard');
  assert.equal(await dialog.getByRole('alert', { includeHidden: true }).isHidden(), true);

  const row = clientRow(owner_, first.clientId);
  await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
  await row.getByRole('rowheader', { name: clientName, exact: true }).waitFor();
  await row.getByRole('cell', { name: 'write:codes', exact: true }).waitFor();
  await row.getByRole('cell', { name: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC by owner@acme\.example$/ }).waitFor();
  await row.getByRole('cell', { name: 'never', exact: true }).waitFor();

  const used = await tokenAndCodes(first);
  assert.equal(used.status, 200);
  firstToken = used.token;
});

test('block asks first; then the client\'s token and new token requests fail as the spec says', async () => {
  const row = clientRow(owner_, first.clientId);
  const question = `Block ${clientName}?`;
  await row.getByRole('button', { name: 'Block', exact: true }).click();
  assert.equal(await answerConfirmation(owner_, question, 'Cancel', 'api-block-asks'),
               `Every access token issued to ${first.clientId} until now stops working at once, for good: ` +
               'unblocking the client later lets it request new tokens, never use these again. Until then its ' +
               'token requests are refused.');
  // Cancelled: nothing changed, the token still works.
  assert.equal(await owner_.locator('#page-status').innerText(), '');
  await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
  assert.equal(await postCodes(firstToken), 200);
  assert.equal((await (await owner_.context().request.get('/dashboard/data/clients')).json()).clients[0].state, 'active');

  await row.getByRole('button', { name: 'Block', exact: true }).click();
  await answerConfirmation(owner_, question, 'Block client');
  await expectAnnounced(owner_, `Blocked ${clientName} (${first.clientId}): its tokens are revoked.`);
  await expectAccessible(owner_, 'the API page after a block');
  await row.getByRole('cell', { name: 'blocked', exact: true }).waitFor();
  await row.getByRole('button', { name: 'Unblock', exact: true }).waitFor();
  assert.equal(await row.getByRole('button', { name: 'Block', exact: true }).count(), 0);

  const deadline = Date.now() + registryDelay;
  let status = await postCodes(firstToken);
  while (status !== 401 && Date.now() < deadline) status = await postCodes(firstToken);
  assert.equal(status, 401);
  const refused = await requestToken(first.clientId, first.secret);
  assert.equal(refused.status, 401);
  assert.equal(refused.body.error, 'invalid_client');
});

test('unblock: new tokens work, the tokens held before the block stay revoked', async () => {
  const row = clientRow(owner_, first.clientId);
  await row.getByRole('button', { name: 'Unblock', exact: true }).click();
  await expectAnnounced(owner_, `Unblocked ${clientName} (${first.clientId}): it can request tokens again.`);
  await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
  assert.equal((await tokenAndCodes(first)).status, 200);
  assert.equal(await postCodes(firstToken), 401);
});

let replacement;

test('create replacement: a new client with the same name and scopes, each row naming the other', async () => {
  await clientRow(owner_, first.clientId).getByRole('button', { name: 'Create replacement', exact: true }).click();
  await owner_.getByRole('dialog', { name: 'API client created' })
    .getByText(`It replaces ${first.clientId}, which keeps working until you delete it: move your programs to the ` +
               'new client first.', { exact: true }).waitFor();
  replacement = await readSecretDialog(owner_, { closeWithoutTick: true });
  assert.notEqual(replacement.clientId, first.clientId);
  const row = clientRow(owner_, replacement.clientId);
  const old = clientRow(owner_, first.clientId);
  await row.getByRole('cell', { name: 'write:codes', exact: true }).waitFor();
  await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
  await old.getByRole('cell', { name: 'active', exact: true }).waitFor();
  // Same name; under it, which replaces which.
  const name = async (of) => (await of.getByRole('rowheader').innerText()).split('\n');
  assert.deepEqual(await name(row), [clientName, `replaces ${first.clientId}`]);
  assert.deepEqual(await name(old), [clientName, `replaced by ${replacement.clientId}`,
                                     'Delete this client once your programs use the new one.']);
  // One replacement at a time: the old one offers no second, and the server refuses it.
  assert.equal(await old.getByRole('button', { name: 'Create replacement', exact: true }).count(), 0);
  const twice = await postFromPage(owner_, `clients/${first.clientId}/replacement`, {});
  assert.equal(twice.status, 409);
  assert.deepEqual(JSON.parse(twice.body).errors[0], {
    code: 'Conflict', path: null,
    message: `This client is already replaced by ${replacement.clientId}; delete one of the two before creating ` +
             'another replacement.',
  });
  await checkState(owner_, 'api-replacement');
  assert.equal((await tokenAndCodes(replacement)).status, 200);
});

test('delete asks for the end of the client ID, which tells a client from its replacement', async () => {
  const label = 'Type the last 6 characters of the client ID to confirm';
  await clientRow(owner_, first.clientId).getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = owner_.getByRole('dialog', { name: 'Delete API client' });
  assert.equal(await dialog.locator('#delete-id strong').innerText(), first.clientId.slice(-6));
  assert.equal(await dialog.locator('#delete-id').innerText(), first.clientId);
  await dialog.getByText(`Its replacement, ${replacement.clientId}, has the same name; it is not deleted and keeps ` +
                         'working.', { exact: true }).waitFor();
  // The name, and the end of the other client's ID, are refused.
  for (const typed of [clientName.slice(0, 6), replacement.clientId.slice(-6)]) {
    await dialog.getByLabel(label, { exact: true }).fill(typed);
    await dialog.getByRole('button', { name: 'Delete client', exact: true }).click();
    const wrong = 'Type the last 6 characters of the client ID exactly to confirm that it should be deleted.';
    await dialog.getByRole('alert').filter({ hasText: wrong }).waitFor();
    await expectFieldError(dialog.getByRole('alert'), dialog.getByLabel(label, { exact: true }), wrong);
  }
  await expectAccessible(owner_, 'the delete dialog refusing the wrong characters');
  await clientRow(owner_, first.clientId).waitFor();

  await dialog.getByLabel(label, { exact: true }).fill(first.clientId.slice(-6));
  await dialog.getByRole('button', { name: 'Delete client', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expectAnnounced(owner_, `Deleted ${clientName} (${first.clientId}).`);
  await clientRow(owner_, first.clientId).waitFor({ state: 'detached' });
  // The replacement's label went with the deleted client: its name alone again.
  assert.equal(await owner_.getByRole('rowheader', { name: clientName, exact: true }).count(), 1);
  assert.deepEqual((await clientRow(owner_, replacement.clientId).getByRole('rowheader').innerText()).split('\n'),
                   [clientName]);
  await checkState(owner_, 'api-clients');
  let refused = await requestToken(first.clientId, first.secret);
  for (const deadline = Date.now() + registryDelay; refused.status !== 401 && Date.now() < deadline;) {
    refused = await requestToken(first.clientId, first.secret);
  }
  assert.equal(refused.status, 401);
});

async function usageOfToday(page) {
  const today = new Date().toISOString().slice(0, 10);
  const table = page.getByRole('table', { name: 'Usage per day' });
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: today, exact: true }) });
  return (await row.getByRole('cell').allInnerTexts()).map(Number);
}

test('usage: the chart and the table count today\'s tokens and codes, per organization and per client', async () => {
  await owner_.reload();
  await owner_.getByRole('img', { name: 'Usage of the whole organization, last 30 days' }).waitFor();
  await owner_.getByText('The numbers as a table', { exact: true }).click();
  assert.equal(await owner_.getByRole('table', { name: 'Usage per day' }).getByRole('row').count(), 31);
  // Tokens: three for the first client (the secret dialog's example, before the block, after the
  // unblock), one for the replacement; the first client's batches include those answered while
  // the block spread.
  assert.equal(seen(first.clientId).tokens, 3);
  assert.deepEqual(await usageOfToday(owner_), expectedUsage([first.clientId, replacement.clientId]));
  await owner_.getByLabel('Usage of', { exact: true }).selectOption(replacement.clientId);
  await owner_.getByRole('img', { name: `Usage of ${clientName} (${replacement.clientId}), last 30 days` }).waitFor();
  assert.deepEqual(await usageOfToday(owner_), [1, batchAccepted, batchRejected]);
  assert.deepEqual(expectedUsage([replacement.clientId]), [1, batchAccepted, batchRejected]);
  // Used this minute: "Last used" is no longer "never".
  await clientRow(owner_, replacement.clientId)
    .getByRole('cell', { name: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/ }).waitFor();
  await owner_.getByText('The numbers as a table', { exact: true }).click();
  await checkState(owner_, 'api');
});

test('a viewer sees the clients but cannot change anything; the server refuses', async () => {
  const page = await newSignedInPage(viewer, '/dashboard/api');
  contexts.viewer = page.context();
  const row = clientRow(page, replacement.clientId);
  await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
  // Copying the client ID is all a viewer may do with a client.
  assert.equal(await row.getByRole('button').count(), 1);
  await row.getByRole('button', { name: 'Copy client ID', exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Create API client', exact: true }).isDisabled(), true);
  await expectAccessible(page, 'the API page of a viewer');

  for (const [endpoint, body] of [
    ['clients', { name: 'viewer made this', scopes: ['write:codes'] }],
    [`clients/${replacement.clientId}/block`, {}],
    [`clients/${replacement.clientId}/delete`, { idEnd: replacement.clientId.slice(-6) }],
    [`clients/${replacement.clientId}/replacement`, {}],
    ['organization/users', { email: 'new@acme.example', role: 'owner', password: 'a long enough password' }],
    ['organization/require-totp', { required: true }],
  ]) {
    const answer = await postFromPage(page, endpoint, body);
    assert.equal(answer.status, 403, `${endpoint}: ${answer.body}`);
    assert.equal(errorCode(answer), 'Forbidden');
  }
  await page.reload();
  await clientRow(page, replacement.clientId).getByRole('cell', { name: 'active', exact: true }).waitFor();
  assert.equal(await page.getByRole('rowheader', { name: clientName, exact: true }).count(), 1);
  await page.getByRole('link', { name: 'Organization', exact: true }).click();
  await page.getByRole('table', { name: 'Users' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Add user', exact: true }).isVisible(), false);
});

// Try it: the terms and values of a result's <dl class="facts">.
async function factsOf(region) {
  return region.locator('dl.facts').evaluate((list) => Object.fromEntries(
    [...list.querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling.textContent])));
}

// The symbol shown: an <img> named by the symbol's label, loaded (the CSP lets it load its blob:
// URL) from the SVG the server sent, which names the same text.
async function expectSymbol(page, answer, symbology, label) {
  assert.equal(answer.symbol.symbology, symbology);
  assert.equal(answer.symbol.label, label);
  assert.ok(answer.symbol.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" '), answer.symbol.svg.slice(0, 80));
  const escaped = label.replaceAll('&', '&amp;');
  assert.ok(answer.symbol.svg.includes(` role="img" aria-label="${escaped}" `), answer.symbol.svg.slice(0, 300));
  assert.ok(answer.symbol.svg.includes(`<title>${escaped}</title>`));
  const image = page.getByRole('img', { name: label, exact: true });
  await image.waitFor();
  await eventually(async () => assert.ok(await image.evaluate((element) => element.complete && element.naturalWidth > 0)));
  assert.match(await image.getAttribute('src'), /^blob:https:\/\/127\.0\.0\.1:\d+\//);
}

// Submits a Try it form and returns the server's JSON answer.
async function submitTryIt(page, endpoint, buttonName) {
  const answered = page.waitForResponse((response) => response.url().endsWith(`/dashboard/data/try-it/${endpoint}`));
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  const response = await answered;
  assert.equal(response.status(), 200);
  return response.json();
}

test('Try it: a viewer generates a definition: its barcodeText, HRI and symbol, or its faults beside the fields', async () => {
  const page = (await contexts.viewer.pages())[0];
  await page.getByRole('link', { name: 'Try it', exact: true }).click();
  await page.waitForURL('**/dashboard/try-it');
  await eventually(async () => assert.deepEqual(
    await page.getByRole('navigation').getByRole('link').filter({ visible: true }).allInnerTexts(),
    ['Organization', 'API', 'Try it', 'Audit', 'Account']));
  const form = page.getByRole('region', { name: 'Generate a code' });
  const primary = form.getByRole('group', { name: 'Primary key' });
  assert.equal(await primary.getByLabel('AI', { exact: true }).inputValue(), '01');
  await primary.getByLabel('Value', { exact: true }).fill('09506000134352');
  for (const [index, key, value] of [[1, '10', 'AB(C)'], [2, '17', '271231'], [3, '21', 'removed']]) {
    await form.getByRole('button', { name: 'Add an AI', exact: true }).click();
    const row = form.getByRole('group', { name: `Further AI ${index}` });
    await row.getByLabel('AI', { exact: true }).fill(key);
    await row.getByLabel('Value', { exact: true }).fill(value);
  }
  await form.getByRole('button', { name: 'Remove further AI 3', exact: true }).click();
  assert.equal(await form.getByRole('group', { name: /^Further AI \d+$/ }).count(), 2);

  const generated = await submitTryIt(page, 'generate', 'Generate');
  const result = page.locator('#generate-result');
  await result.getByRole('heading', { name: 'Generated', exact: true }).waitFor();
  assert.deepEqual(await factsOf(result), {
    'Barcode text': '(01)09506000134352(10)AB^040C^041(17)271231',
    HRI: '(01)09506000134352(10)AB(C)(17)271231',
  });
  await expectSymbol(page, generated, 'GS1 DataMatrix', 'GS1 DataMatrix: (01)09506000134352(10)AB(C)(17)271231');
  await checkState(page, 'try-it');

  // Two faults: each listed above the form and shown beside its field.
  await primary.getByLabel('Value', { exact: true }).fill('09506000134353');
  await form.getByRole('group', { name: 'Further AI 2' }).getByLabel('Value', { exact: true }).fill('271331');
  const refused = await submitTryIt(page, 'generate', 'Generate');
  assert.equal(refused.code, null);
  const checkDigit = 'AI 01: the check digit \'3\' (character 14 of \'09506000134353\') is wrong; the right check digit is 2.';
  const month = 'AI 17: the month \'13\' (characters 3 to 4 of \'271331\') must be 01 to 12.';
  const summary = form.getByRole('alert');
  await summary.getByRole('link', { name: checkDigit, exact: true }).waitFor();
  await summary.getByRole('link', { name: month, exact: true }).waitFor();
  assert.equal(await page.locator('#primary-error').textContent(), `Error: ${checkDigit}`);
  assert.equal(await form.getByRole('group', { name: 'Further AI 2' }).locator('.field-error').textContent(),
               `Error: ${month}`);
  assert.equal(await primary.getByLabel('Value', { exact: true }).getAttribute('aria-invalid'), 'true');
  await result.getByRole('heading', { name: 'Not generated', exact: true }).waitFor();
  assert.equal(await result.getByRole('img').count(), 0);
  await checkState(page, 'try-it-faults');

  // With a stem: a Digital Link URI in a QR Code.
  await primary.getByLabel('Value', { exact: true }).fill('09506000134352');
  await form.getByRole('group', { name: 'Further AI 2' }).getByLabel('Value', { exact: true }).fill('271231');
  await form.getByLabel('Stem', { exact: true }).fill('https://id.example.com');
  const link = await submitTryIt(page, 'generate', 'Generate');
  const uri = 'https://id.example.com/01/09506000134352/10/AB%28C%29?17=271231';
  await eventually(async () => assert.deepEqual(await factsOf(result), {
    'Barcode text': uri,
    HRI: '(01)09506000134352(10)AB(C)(17)271231',
  }));
  assert.equal(await page.locator('#primary-error').isVisible(), false);
  assert.equal(await primary.getByLabel('Value', { exact: true }).getAttribute('aria-invalid'), null);
  await expectSymbol(page, link, 'QR Code', `QR Code: ${uri}`);

  // A phone's width: nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 780 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
            'the page scrolls sideways at 360 px');
  await checkState(page, 'try-it-phone');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('Try it: scanner data with a GS is read back to its AIs; a fault marks its characters in the data', async () => {
  const page = (await contexts.viewer.pages())[0];
  const form = page.getByRole('region', { name: 'Read scanner data' });
  const field = form.getByLabel('Scanner data', { exact: true });
  // A scanner in keyboard mode sends GS as Ctrl+]; the field shows it as {GS}.
  await field.click();
  await page.keyboard.type(']d2010950600013435210ABC');
  await page.keyboard.press('Control+BracketRight');
  await page.keyboard.type('21XYZ');
  assert.equal(await field.inputValue(), ']d2010950600013435210ABC{GS}21XYZ');
  const read = await submitTryIt(page, 'parse', 'Read');
  const result = page.locator('#read-result');
  await result.getByRole('heading', { name: 'Read', exact: true }).waitFor();
  const table = result.getByRole('table', { name: 'AIs read' });
  const rows = [];
  for (const row of await table.getByRole('row').all()) rows.push(await row.locator('th, td').allInnerTexts());
  assert.deepEqual(rows, [['AI', 'Value', 'Part'], ['01', '09506000134352', 'primary key'], ['10', 'ABC', ''],
                          ['21', 'XYZ', '']]);
  const facts = await factsOf(result);
  assert.equal(facts.Form, 'Scanner data');
  assert.equal(facts['Symbology identifier'], ']d2 (GS1 DataMatrix)');
  assert.equal(facts['Element string'], '(01)09506000134352(10)ABC(21)XYZ');
  assert.equal(facts['Digital Link'], 'none');
  // GS shown as a boxed "GS" (it has no glyph).
  assert.equal(await result.locator('code.data').first().innerText(), ']d2010950600013435210ABCGS21XYZ');
  assert.equal(await result.locator('code.data abbr').getAttribute('title'), 'group separator');
  await expectSymbol(page, read, 'GS1 DataMatrix', 'GS1 DataMatrix: (01)09506000134352(10)ABC(21)XYZ');
  await checkState(page, 'try-it-read');

  await field.fill(']d20109506000134353\\x1D10AB');
  const faulty = await submitTryIt(page, 'parse', 'Read');
  assert.equal(faulty.parsed, null);
  await result.getByRole('heading', { name: 'Not read', exact: true }).waitFor();
  const fault = result.getByRole('listitem').filter({
    hasText: 'AI 01: the check digit \'3\' (character 14 of \'09506000134353\') is wrong; the right check digit is 2.',
  });
  await fault.waitFor();
  assert.equal(await fault.locator('mark').innerText(), '09506000134353');
  assert.match(await fault.innerText(), /At characters 6 to 19: \]d20109506000134353GS10AB/);
  assert.equal(await result.getByRole('img').count(), 0);
  await checkState(page, 'try-it-fault');
});

// RFC 6238 (HMAC-SHA-1, 30 s, 6 digits) of a base32 secret, for the account page's check.
function totpCode(base32Secret, unixSeconds) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const character of base32Secret.replace(/=+$/, '').toUpperCase()) {
    bits += alphabet.indexOf(character).toString(2).padStart(5, '0');
  }
  const key = Buffer.from(bits.match(/.{8}/g).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

// What a phone's camera reads in the QR code the Account page shows: the <img> as the browser
// draws it, screenshot to a PNG, decoded by Debian's ZXingReader (zxing-cpp-tools, as the
// symbol tests use it); its bytes, from ZXingReader's hex "Bytes:" line. The PNG, which holds
// the secret, is removed at once.
async function scanQrCode(image) {
  const folder = await mkdtemp(path.join(tmpdir(), 'dashboard-qr-'));
  try {
    const picture = path.join(folder, 'qr.png');
    await image.screenshot({ path: picture });
    const { stdout } = await execFileAsync('ZXingReader', [picture]);
    assert.match(stdout, /^Format: +QRCode$/m, stdout);
    const hex = /^Bytes: +([0-9A-Fa-f ]+)$/m.exec(stdout);
    assert.ok(hex !== null, stdout);
    return Buffer.from(hex[1].replaceAll(' ', ''), 'hex').toString('latin1');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

// Sets up TOTP on the Account page as a person with a phone does: scans the QR code, computes
// the code from the secret it holds and turns TOTP on. The secret, once the page shows it on.
// state names the set-up's page state (its axe-core check and screenshot).
async function enrolTotp(page, email, state) {
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await page.getByRole('button', { name: 'Set up two-factor authentication', exact: true }).click();
  await page.getByLabel('Authentication code', { exact: true }).waitFor();
  const image = page.getByRole('img', { name: 'QR Code of the key, for your authenticator app', exact: true });
  await eventually(async () => assert.ok(await image.evaluate((element) => element.complete && element.naturalWidth > 0)));
  assert.match(await image.getAttribute('src'), /^blob:https:\/\/127\.0\.0\.1:\d+\//);
  const uri = await scanQrCode(image);
  const secret = new URL(uri).searchParams.get('secret');
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.equal(uri, `otpauth://totp/Code-Payload%20Service:${encodeURIComponent(email)}?secret=${secret}` +
                    '&issuer=Code-Payload%20Service&algorithm=SHA1&digits=6&period=30');
  // The same key to type, in groups of four, and the same URI as a link for the phone that runs the app.
  assert.equal(await page.getByLabel('Key', { exact: true }).inputValue(), secret.match(/.{4}/g).join(' '));
  assert.equal(await page.getByRole('link', { name: 'Open in an authenticator app', exact: true }).getAttribute('href'), uri);
  await checkState(page, state);
  await page.getByLabel('Authentication code', { exact: true }).fill(totpCode(secret, Date.now() / 1000));
  await page.getByRole('button', { name: 'Turn on two-factor authentication', exact: true }).click();
  await page.getByText('Two-factor authentication is on.', { exact: true }).waitFor();
  assert.equal(await image.count(), 0, 'the QR code leaves the page once TOTP is on');
  return secret;
}

// The recovery codes the Account page shows, once all ten are there.
async function shownRecoveryCodes(page) {
  const items = page.getByRole('region', { name: 'Recovery codes' }).getByRole('list').getByRole('listitem');
  await items.nth(9).waitFor();
  const codes = await items.allInnerTexts();
  assert.equal(codes.length, 10);
  for (const code of codes) assert.match(code, /^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
  return codes;
}

async function signInAnswer(account, code) {
  const fresh = await request.newContext({ baseURL, ignoreHTTPSErrors: true });
  try {
    const response = await fresh.post('/dashboard/data/sign-in', { data: { ...account, code } });
    return { status: response.status(), body: await response.text() };
  } finally {
    await fresh.dispose();
  }
}

test('two-factor: the viewer scans the QR code, turns TOTP on, keeps the codes, signs in with one, makes new ones, turns it off', async () => {
  const page = (await contexts.viewer.pages())[0];
  await enrolTotp(page, viewer.email, 'account-totp-set-up');
  const codes = await shownRecoveryCodes(page);
  await page.getByRole('status').filter({ hasText: 'You have 10 unused recovery codes.' }).waitFor();
  const codesText = `Code-Payload Service recovery codes for ${viewer.email}\n` +
                    'Each code signs you in once, in place of a code from your authenticator app.\n\n' +
                    codes.join('\n') + '\n';

  // Copy: the ten codes, one a line, and "Copied" in a live region.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy codes', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), codes.join('\n'));
  // Download: a text file made in the page (a blob: URL), nothing fetched from the server.
  const downloaded = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download as a text file', exact: true }).click();
  const download = await downloaded;
  assert.equal(download.suggestedFilename(), 'codepayload-recovery-codes.txt');
  assert.match(download.url(), /^blob:https:\/\/127\.0\.0\.1:\d+\//);
  assert.equal(readFileSync(await download.path(), 'utf8'), codesText);
  await download.delete();
  // Print: the browser's print, and a print stylesheet that prints the codes alone.
  await page.evaluate(() => {
    window.printCalls = 0;
    window.print = () => { window.printCalls += 1; };
  });
  await page.getByRole('button', { name: 'Print codes', exact: true }).click();
  assert.equal(await page.evaluate(() => window.printCalls), 1);
  await page.emulateMedia({ media: 'print' });
  try {
    const printed = await page.locator('body *').evaluateAll((elements) => elements
      .filter((element) => element.checkVisibility() && element.children.length === 0)
      .map((element) => element.textContent.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(printed, [`Code-Payload Service recovery codes for ${viewer.email}`,
                               'Keep these codes somewhere safe: each signs you in once without the app. They cannot ' +
                               'be shown again.',
                               ...codes]);
    await checkState(page, 'account-recovery-codes-printed');
  } finally {
    await page.emulateMedia({ media: null });
  }
  await checkState(page, 'account-totp');

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL('**/dashboard/sign-in');
  assert.equal(await page.getByLabel('Authentication code', { exact: true }).isVisible(), false);
  await signIn(page, viewer);
  const code = page.getByLabel('Authentication code', { exact: true });
  await code.waitFor();
  await page.getByRole('alert').waitFor();
  await code.fill(codes[0]);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/dashboard/api');

  // The Account page counts the codes left; the codes themselves are not shown again.
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'You have 9 unused recovery codes.' }).waitFor();
  const recovery = page.getByRole('region', { name: 'Recovery codes' });
  assert.equal(await recovery.getByRole('listitem').count(), 0);
  await checkState(page, 'account-totp-on');

  // New codes need the password; then they take the place of the old ones.
  const makeNew = page.getByRole('region', { name: 'Make new recovery codes' });
  await makeNew.getByLabel('Password', { exact: true }).fill('not the password');
  await makeNew.getByRole('button', { name: 'Make new recovery codes', exact: true }).click();
  await expectErrorSummary(page.getByRole('alert'), ['The password is not right.']);
  await expectAccessible(page, 'the account page refusing new recovery codes');
  await expectFieldError(page.getByRole('alert'), makeNew.getByLabel('Password', { exact: true }),
                         'The password is not right.');
  await makeNew.getByLabel('Password', { exact: true }).fill(viewer.password);
  await makeNew.getByRole('button', { name: 'Make new recovery codes', exact: true }).click();
  const newCodes = await shownRecoveryCodes(page);
  await page.getByRole('status').filter({ hasText: 'You have 10 unused recovery codes.' }).waitFor();
  assert.equal(await page.locator('#page-alert').isVisible(), false);
  assert.equal(await makeNew.getByLabel('Password', { exact: true }).inputValue(), '');
  assert.deepEqual(newCodes.filter((each) => codes.includes(each)), []);
  await page.getByRole('button', { name: 'Copy codes', exact: true }).click();
  await eventually(async () => assert.equal(await page.evaluate(() => navigator.clipboard.readText()), newCodes.join('\n')));
  await checkState(page, 'account-recovery-codes-new');
  const old = await signInAnswer(viewer, codes[1]);
  assert.equal(old.status, 401, old.body);
  assert.equal(errorCode(old), 'SignInRefused');
  const fresh = await signInAnswer(viewer, newCodes[1]);
  assert.equal(fresh.status, 200, fresh.body);
  await page.reload();
  await page.getByRole('status').filter({ hasText: 'You have 9 unused recovery codes.' }).waitFor();

  // Turning TOTP off has its own heading, its own password field and its own button.
  const turnOff = page.getByRole('region', { name: 'Turn off two-factor authentication' });
  await turnOff.getByRole('heading', { name: 'Turn off two-factor authentication', exact: true }).waitFor();
  assert.equal(await turnOff.getByLabel('Password', { exact: true }).count(), 1);
  assert.equal(await turnOff.getByRole('button', { name: 'Turn off two-factor authentication', exact: true }).count(), 1);
  assert.equal(await recovery.getByRole('button', { name: 'Turn off two-factor authentication' }).count(), 0);
  await turnOff.getByLabel('Password', { exact: true }).fill(viewer.password);
  await turnOff.getByRole('button', { name: 'Turn off two-factor authentication', exact: true }).click();
  await page.getByText('Two-factor authentication is off.', { exact: true }).waitFor();
  assert.equal(await recovery.isVisible(), false);
  assert.equal(await turnOff.isVisible(), false);
  const passwordOnly = await signInAnswer(viewer, '');
  assert.equal(passwordOnly.status, 200, passwordOnly.body);
});

test('a POST without the CSRF token and a cross-site POST are refused', async () => {
  const before = (await (await owner_.context().request.get('/dashboard/data/clients')).json()).clients.length;
  const withoutToken = await postFromPage(owner_, 'clients', { name: 'no token', scopes: ['write:codes'] },
                                          { withCsrf: false });
  assert.equal(withoutToken.status, 403);
  assert.equal(errorCode(withoutToken), 'Forbidden');

  // The browser's own cookie and CSRF token, but sent from another site: refused on the
  // Sec-Fetch-Site header, and on the Origin header alone.
  const session = await (await owner_.context().request.get('/dashboard/data/session')).json();
  for (const headers of [{ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://attacker.example' },
                         { 'Sec-Fetch-Site': 'same-site' },
                         { Origin: 'https://attacker.example' }]) {
    const response = await owner_.context().request.post('/dashboard/data/clients', {
      headers: { 'X-CSRF-Token': session.csrfToken, ...headers },
      data: { name: 'cross site', scopes: ['write:codes'] },
    });
    assert.equal(response.status(), 403, JSON.stringify(headers));
    assert.equal((await response.json()).errors[0].code, 'Forbidden');
  }
  const afterwards = (await (await owner_.context().request.get('/dashboard/data/clients')).json()).clients.length;
  assert.equal(afterwards, before);
});

test('an access token sent to the dashboard gets 403 with the ErrorEnvelope', async () => {
  const token = (await requestToken(replacement.clientId, replacement.secret)).body.access_token;
  for (const target of ['/dashboard/data/clients', '/dashboard/api']) {
    const response = await api.get(target, { headers: { Authorization: `Bearer ${token}` }, maxRedirects: 0 });
    assert.equal(response.status(), 403, target);
    assert.equal((await response.json()).errors[0].code, 'Forbidden');
  }
});

test('the plan gate: below Starter or with an inactive subscription, Create is disabled and refused', async () => {
  const operatorPage = await newSignedInPage(operator, '/dashboard/organizations');
  contexts.operator = operatorPage.context();
  const operatorNav = operatorPage.getByRole('navigation');
  await eventually(async () => assert.deepEqual(
    await operatorNav.getByRole('link').filter({ visible: true }).allInnerTexts(),
    ['Organizations', 'Try it', 'Audit', 'Account']));
  const acme = operatorPage.getByRole('row').filter({ has: operatorPage.getByText(organizationId, { exact: true }) });
  await acme.getByRole('cell', { name: 'allowed', exact: true }).waitFor();
  await checkState(operatorPage, 'organizations');

  const createButton = owner_.getByRole('button', { name: 'Create API client', exact: true });
  // why: the sentence shown next to the disabled button and in the server's refusal; null: allowed.
  const expectGate = async (why) => {
    await owner_.reload();
    await clientRow(owner_, replacement.clientId).waitFor();
    assert.equal(await createButton.isEnabled(), why === null);
    const reason = owner_.locator('#cannot-create-reason');
    assert.equal(await reason.isVisible(), why !== null);
    const answer = await postFromPage(owner_, 'clients', { name: 'gated', scopes: ['write:codes'] });
    if (why === null) return answer;
    assert.equal(await reason.innerText(), why);
    assert.equal(answer.status, 409, answer.body);
    assert.deepEqual(JSON.parse(answer.body).errors[0], { code: 'PlanExcludesClients', path: null, message: why });
    return answer;
  };

  // While the organization cannot get tokens, its users read why on every page (a region named
  // "Important"), and its active clients show as suspended with the reason. null: they can.
  const notice = owner_.getByRole('region', { name: 'Important', exact: true });
  const expectSuspension = async (message, reason) => {
    const state = clientRow(owner_, replacement.clientId).locator('td[data-label="State"]');
    if (message === null) {
      assert.equal(await notice.count(), 0);
      assert.equal(await state.innerText(), 'active');
      return;
    }
    assert.equal(await notice.getByRole('paragraph').innerText(), message);
    assert.equal(await state.innerText(), `suspended\n${reason}`);
  };
  await expectSuspension(null);

  await acme.getByLabel('Plan of Acme Foods').selectOption('free');
  await acme.getByRole('button', { name: 'Set plan', exact: true }).click();
  await expectAnnounced(operatorPage, 'Set the plan of Acme Foods to free.');
  await acme.getByRole('cell', { name: 'not allowed', exact: true }).waitFor();
  await expectGate('The organization\'s plan (free) does not include API clients; they need the Starter plan or higher.');
  await expectSuspension('Your organization\'s plan (free) does not include API clients: they cannot get tokens ' +
                         'until an operator moves it to the Starter plan or higher.',
                         'The organization\'s plan (free) does not include API clients.');
  await checkState(owner_, 'api-plan-gate');

  await acme.getByLabel('Plan of Acme Foods').selectOption('starter');
  await acme.getByRole('button', { name: 'Set plan', exact: true }).click();
  await acme.getByRole('cell', { name: 'allowed', exact: true }).waitFor();
  // Deactivating asks first; Cancel leaves the subscription active.
  const deactivate = 'Deactivate the subscription of Acme Foods?';
  await acme.getByRole('button', { name: 'Deactivate subscription', exact: true }).click();
  assert.equal(await answerConfirmation(operatorPage, deactivate, 'Cancel', 'organizations-deactivate-asks'),
               'The API clients of Acme Foods stop working at once: their token requests are refused and their ' +
               'tokens get 403 at /codes. Its users cannot create API clients. Nothing is deleted: activating the ' +
               'subscription again lets the same clients and tokens work again.');
  await acme.getByRole('cell', { name: 'active', exact: true }).waitFor();
  const listed = await (await operatorPage.context().request.get('/dashboard/data/organizations')).json();
  assert.equal(listed.organizations.find((each) => each.id === organizationId).subscription, 'active');
  assert.equal((await requestToken(replacement.clientId, replacement.secret)).status, 200);
  await acme.getByRole('button', { name: 'Deactivate subscription', exact: true }).click();
  await answerConfirmation(operatorPage, deactivate, 'Deactivate subscription');
  await expectAnnounced(operatorPage, 'Deactivated the subscription of Acme Foods.');
  await acme.getByRole('cell', { name: 'inactive', exact: true }).waitFor();
  await expectGate('The organization\'s subscription is inactive; API clients need an active subscription on the ' +
                   'Starter plan or higher.');
  await expectSuspension('Your organization\'s subscription is inactive: API clients cannot get tokens until an ' +
                         'operator reactivates it.', 'The organization\'s subscription is inactive.');
  await checkState(owner_, 'api-subscription-inactive');
  // Every page of the organization's users says so, not only the API page.
  await owner_.getByRole('link', { name: 'Organization', exact: true }).click();
  await owner_.waitForURL('**/dashboard/organization');
  await notice.getByText('Your organization\'s subscription is inactive', { exact: false }).waitFor();
  await checkState(owner_, 'organization-subscription-inactive');
  await owner_.getByRole('link', { name: 'API', exact: true }).click();
  await owner_.waitForURL('**/dashboard/api');

  await acme.getByRole('button', { name: 'Activate subscription', exact: true }).click();
  await expectAnnounced(operatorPage, 'Activated the subscription of Acme Foods.');
  await acme.getByRole('cell', { name: 'allowed', exact: true }).waitFor();
  const created = await expectGate(null);
  assert.equal(created.status, 201, created.body);
  await owner_.reload();
  await clientRow(owner_, replacement.clientId).waitFor();
  await expectSuspension(null);
});

test('an operator creates an organization and adds its first owner, who signs in', async () => {
  const operatorPage = (await contexts.operator.pages())[0];
  await operatorPage.getByLabel('Organization name', { exact: true }).fill('Fresh Farms');
  await operatorPage.getByLabel('Plan', { exact: true }).selectOption('starter');
  await operatorPage.getByRole('button', { name: 'Create organization', exact: true }).click();
  const fresh = operatorPage.getByRole('row').filter({ has: operatorPage.getByRole('rowheader', { name: 'Fresh Farms' }) });
  const freshId = await fresh.locator('.identifier code').innerText();
  await expectAnnounced(operatorPage, `Created Fresh Farms (${freshId}) on the starter plan: add its first owner below.`);

  const freshOwner = { email: 'first@fresh.example', password: 'fresh farms first owner' };
  const addOwner = async () => {
    await operatorPage.getByLabel('Organization', { exact: true }).selectOption({ label: 'Fresh Farms' });
    await operatorPage.getByLabel('Email', { exact: true }).fill(freshOwner.email);
    await operatorPage.getByLabel('Initial password', { exact: true }).fill(freshOwner.password);
    await operatorPage.getByRole('button', { name: 'Add owner', exact: true }).click();
  };
  await addOwner();
  await expectAnnounced(operatorPage, 'Added first@fresh.example as an owner of Fresh Farms: they can sign in now.');
  assert.equal(await operatorPage.getByLabel('Initial password', { exact: true }).inputValue(), '');
  await checkState(operatorPage, 'organizations-owner-added');
  await addOwner();
  const alert = operatorPage.locator('#page-alert');
  const taken = 'The email address first@fresh.example already has an account.';
  await expectErrorSummary(alert, [taken]);
  await expectFieldError(alert, operatorPage.getByLabel('Email', { exact: true }), taken);
  assert.equal(await operatorPage.locator('#page-status').innerText(), '');
  await checkState(operatorPage, 'organizations-owner-refused');

  const ownerPage = await newSignedInPage(freshOwner, '/dashboard/api');
  await ownerPage.getByRole('heading', { name: 'API clients', exact: true }).waitFor();
  assert.equal(await ownerPage.locator('.signed-in-as').innerText(), 'first@fresh.example (owner, Fresh Farms)');
  assert.equal(await ownerPage.getByRole('region', { name: 'Important', exact: true }).count(), 0);
  await checkState(ownerPage, 'api-new-organization');
  await ownerPage.context().close();
});

test('the audit log shows the dashboard\'s changes with who and from where', async () => {
  await owner_.getByRole('link', { name: 'Audit', exact: true }).click();
  const table = owner_.getByRole('table', { name: 'Audit records' });
  await table.getByRole('row').nth(1).waitFor();
  await owner_.getByLabel('Action', { exact: true }).fill('client.delete');
  await owner_.getByRole('button', { name: 'Filter', exact: true }).click();
  const deleted = table.getByRole('row').filter({ hasText: first.clientId });
  // the header row and the one deletion
  await eventually(async () => assert.equal(await table.getByRole('row').count(), 2));
  const cells = await deleted.getByRole('cell').allInnerTexts();
  // The client by its ID, whole, with its name beside.
  assert.deepEqual([cells[0], cells[1], cells[2]], [owner.email, 'client.delete', `${first.clientId} ${clientName}`]);
  // A user's page has no Organization column: every record is of the own organization.
  assert.equal(cells[3], '127.0.0.1');
  assert.equal(cells[4], 'success');
  // When, to the second in UTC, and the same instant for machines.
  const when = deleted.getByRole('rowheader').locator('time');
  const instant = await when.getAttribute('datetime');
  assert.match(instant, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  const shownWhen = `${instant.slice(0, 10)} ${instant.slice(11, 19)} UTC`;
  assert.equal(await when.innerText(), shownWhen);
  await checkState(owner_, 'audit-client-delete');
  // The download holds what the filter selects, as CSV.
  const downloaded = owner_.waitForEvent('download');
  await owner_.getByRole('link', { name: 'Download the records this filter selects (CSV)', exact: true }).click();
  const download = await downloaded;
  assert.equal(download.suggestedFilename(), 'audit-log.csv');
  assert.equal(readFileSync(await download.path(), 'utf8'),
               'time,actor,action,target,target_name,organization,address,result,detail\r\n' +
               `${instant},${owner.email},client.delete,${first.clientId},${clientName},${organizationId},127.0.0.1,` +
               `success,${cells[5]}\r\n`);
  await download.delete();

  // A prefix finds every action that begins with it.
  await owner_.getByLabel('Action', { exact: true }).fill('client');
  await owner_.getByRole('button', { name: 'Filter', exact: true }).click();
  await table.getByRole('row').filter({ hasText: 'client.create' }).first().waitFor();
  const actions = new Set();
  for (const row of (await table.getByRole('row').all()).slice(1)) actions.add((await row.getByRole('cell').allInnerTexts())[1]);
  assert.deepEqual([...actions].sort(), ['client.block', 'client.create', 'client.delete', 'client.replace', 'client.unblock']);
  await checkState(owner_, 'audit-client');
  // Words break only at spaces; a table wider than the page scrolls inside itself, never the page.
  await expectWordsWhole(table);
  assert.ok(await owner_.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  // The first step of a two-factor sign-in is no refusal.
  await owner_.getByLabel('Action', { exact: true }).fill('account.sign');
  await owner_.getByRole('button', { name: 'Filter', exact: true }).click();
  const codeAsked = table.getByRole('row').filter({ hasText: 'password accepted, code asked' }).first();
  await codeAsked.waitFor();
  const asked = await codeAsked.getByRole('cell').allInnerTexts();
  assert.deepEqual([asked[0], asked[1], asked[2], asked[4]], [viewer.email, 'account.sign-in', viewer.email, 'success']);
  await table.getByRole('row').filter({ hasText: 'account.sign-out' }).first().waitFor();
  await checkState(owner_, 'audit-sign-in');
  const userColumns = ['When', 'Who', 'Action', 'Target', 'Address', 'Result', 'Detail'];
  assert.deepEqual(await table.getByRole('columnheader').allInnerTexts(), userColumns);

  // An operator sees every organization's records, with their organization, and the same times and prefixes.
  const operatorPage = (await contexts.operator.pages())[0];
  await operatorPage.getByRole('link', { name: 'Audit', exact: true }).click();
  const every = operatorPage.getByRole('table', { name: 'Audit records' });
  await every.getByRole('row').nth(1).waitFor();
  await operatorPage.getByLabel('Action', { exact: true }).fill('client.delete');
  await operatorPage.getByRole('button', { name: 'Filter', exact: true }).click();
  await eventually(async () => assert.equal(await every.getByRole('row').count(), 2));
  assert.deepEqual(await every.getByRole('columnheader').allInnerTexts(),
                   ['When', 'Who', 'Action', 'Target', 'Organization', 'Address', 'Result', 'Detail']);
  const deletedForOperator = await every.getByRole('row').nth(1).getByRole('cell').allInnerTexts();
  assert.deepEqual(deletedForOperator.slice(0, 5),
                   [owner.email, 'client.delete', `${first.clientId} ${clientName}`, organizationId, '127.0.0.1']);
  assert.equal(await every.getByRole('row').nth(1).getByRole('rowheader').innerText(), shownWhen);
  await expectWordsWhole(every);
  assert.ok(await operatorPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  await checkState(operatorPage, 'audit-operator');
  await owner_.getByLabel('Action', { exact: true }).fill('');
  await owner_.getByRole('button', { name: 'Filter', exact: true }).click();
  await table.getByRole('row').filter({ hasText: 'client.create' }).first().waitFor();
  // The replacement: one record naming both clients.
  const replaced = await table.getByRole('row').filter({ hasText: 'client.replace' }).filter({ hasText: 'success' })
    .getByRole('cell').allInnerTexts();
  assert.deepEqual([replaced[0], replaced[1], replaced[2], replaced[5]],
                   [owner.email, 'client.replace', `${replacement.clientId} ${clientName}`,
                    `replaces=${first.clientId} scopes=write:codes`]);
  const everything = await table.innerText();
  assert.equal(everything.includes(first.secret), false);
  assert.equal(everything.includes(replacement.secret), false);
  assert.equal(everything.includes(owner.password), false);
  await checkState(owner_, 'audit');
});

test('the Organization and Account pages', async () => {
  await owner_.getByRole('link', { name: 'Organization', exact: true }).click();
  const users = owner_.getByRole('table', { name: 'Users' });
  await users.getByRole('rowheader', { name: viewer.email, exact: true }).waitFor();
  await users.getByRole('rowheader', { name: owner.email, exact: true }).waitFor();
  await owner_.getByText('Acme Foods', { exact: true }).waitFor();
  await owner_.getByLabel('Email', { exact: true }).fill('developer@acme.example');
  await owner_.getByLabel('Role', { exact: true }).selectOption('developer');
  await owner_.getByLabel('Initial password', { exact: true }).fill('developer password 0001');
  await owner_.getByRole('button', { name: 'Add user', exact: true }).click();
  const developer = users.getByRole('row').filter({ has: owner_.getByRole('rowheader', { name: 'developer@acme.example' }) });
  await developer.waitFor();
  assert.deepEqual((await developer.getByRole('cell').allInnerTexts()).slice(0, 2), ['developer', 'off']);
  await checkState(owner_, 'organization');
  // Removing asks first; Cancel keeps the user.
  const question = 'Remove developer@acme.example?';
  await developer.getByRole('button', { name: 'Remove', exact: true }).click();
  assert.equal(await answerConfirmation(owner_, question, 'Cancel', 'organization-remove-asks'),
               'developer@acme.example is signed out at once and can no longer sign in to this organization. What ' +
               'they did stays in the audit log; to give them access again, add them as a new user.');
  const emails = async () => (await (await owner_.context().request.get('/dashboard/data/organization')).json())
    .users.map((user) => user.email);
  assert.ok((await emails()).includes('developer@acme.example'));
  await developer.waitFor();
  await developer.getByRole('button', { name: 'Remove', exact: true }).click();
  await answerConfirmation(owner_, question, 'Remove user');
  await expectAnnounced(owner_, 'Removed developer@acme.example.');
  await developer.waitFor({ state: 'detached' });
  assert.equal((await emails()).includes('developer@acme.example'), false);
  await owner_.getByRole('link', { name: 'Account', exact: true }).click();
  await owner_.getByText('Two-factor authentication is off.', { exact: true }).waitFor();
  await checkState(owner_, 'account');
});

test('an owner requires TOTP only with it on: refused without it, enrols, requires it, then lifts the rule', async () => {
  await owner_.getByRole('link', { name: 'Organization', exact: true }).click();
  const requireQuestion = 'Require two-factor authentication for every user?';
  await owner_.getByLabel('Require two-factor authentication for every user', { exact: true }).check();
  await owner_.getByRole('button', { name: 'Save', exact: true }).click();
  await answerConfirmation(owner_, requireQuestion, 'Require it');
  // Without a second factor of their own the rule would shut the owner out of this page: refused, and the
  // page says why.
  await owner_.getByRole('alert').filter({ hasText: 'Turn on TOTP for your own account first (on the Account page)' })
    .waitFor();
  await expectAccessible(owner_, 'the organization page refusing the rule');
  assert.equal(new URL(owner_.url()).pathname, '/dashboard/organization');
  await owner_.getByText('optional', { exact: true }).waitFor();
  const stillAllowed = await owner_.context().request.get('/dashboard/data/clients');
  assert.equal(stillAllowed.status(), 200);

  await enrolTotp(owner_, owner.email, 'account-totp-set-up-owner');

  await owner_.getByRole('link', { name: 'Organization', exact: true }).click();
  const requireTotp = owner_.getByLabel('Require two-factor authentication for every user', { exact: true });
  const required = async () => (await (await owner_.context().request.get('/dashboard/data/organization')).json())
    .requireTotp;
  await requireTotp.check();
  await owner_.getByRole('button', { name: 'Save', exact: true }).click();
  assert.equal(await answerConfirmation(owner_, requireQuestion, 'Cancel', 'organization-require-totp-asks'),
               'Every user without it, at their next request, is sent to their Account page and can open no other ' +
               'page until they have set it up. Users who have it notice nothing.');
  assert.equal(await required(), false);
  await owner_.getByText('optional', { exact: true }).waitFor();
  await owner_.getByRole('button', { name: 'Save', exact: true }).click();
  await answerConfirmation(owner_, requireQuestion, 'Require it');
  await expectAnnounced(owner_, 'Two-factor authentication is now required for every user.');
  await owner_.getByText('required for every user', { exact: true }).waitFor();
  assert.equal(await required(), true);
  assert.equal(await owner_.locator('#page-alert').isVisible(), false);
  await requireTotp.uncheck();
  await owner_.getByRole('button', { name: 'Save', exact: true }).click();
  await expectAnnounced(owner_, 'Two-factor authentication is now optional.');
  await owner_.getByText('optional', { exact: true }).waitFor();
});

// A user the owner adds for the password cases; their password as it changes.
const pat = { email: 'pat@acme.example', password: 'pat initial password' };

test('change password on the Account page: other sessions end, this one stays, the new password signs in', async () => {
  await owner_.getByRole('link', { name: 'Organization', exact: true }).click();
  await owner_.getByLabel('Email', { exact: true }).fill(pat.email);
  await owner_.getByLabel('Role', { exact: true }).selectOption('developer');
  await owner_.getByLabel('Initial password', { exact: true }).fill(pat.password);
  await owner_.getByRole('button', { name: 'Add user', exact: true }).click();
  await owner_.getByRole('rowheader', { name: pat.email, exact: true }).waitFor();

  const page = await newSignedInPage(pat, '/dashboard/api');
  const elsewhere = await newSignedInPage(pat, '/dashboard/api');
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  const newPassword = 'pat chose this password';
  await page.getByLabel('Current password', { exact: true }).fill(pat.password);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password', { exact: true }).fill(`${newPassword}!`);
  await page.getByRole('button', { name: 'Change password', exact: true }).click();
  const differ = 'The two new passwords differ; type the same password in both fields.';
  await expectErrorSummary(page.getByRole('alert'), [differ]);
  await checkState(page, 'account-change-password-refused');
  await expectFieldError(page.getByRole('alert'), page.getByLabel('Confirm new password', { exact: true }), differ);
  await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
  await checkState(page, 'account-change-password-filled');
  await page.getByRole('button', { name: 'Change password', exact: true }).click();
  await expectAnnounced(page, 'Your password is changed. Every other session of your account has ended.');
  await checkState(page, 'account-password-changed');
  // The refusal is gone with the change: no summary, no field marked, the title as it was.
  assert.equal(await page.locator('#page-alert').isVisible(), false);
  assert.equal(await page.getByLabel('Confirm new password', { exact: true }).getAttribute('aria-invalid'), null);
  assert.equal(await page.title(), 'Account - Code-Payload dashboard');
  assert.equal(await page.getByLabel('New password', { exact: true }).inputValue(), '');
  assert.equal((await page.context().request.get('/dashboard/data/session')).status(), 200);
  assert.equal((await elsewhere.context().request.get('/dashboard/data/session')).status(), 401);
  await elsewhere.context().close();
  assert.equal((await signInAnswer(pat)).status, 401);
  pat.password = newPassword;
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL('**/dashboard/sign-in');
  await signIn(page, pat);
  await page.waitForURL('**/dashboard/api');
  contexts.pat = page.context();
});

test('an owner resets a user\'s password: the old one is refused, the user sets a new one with the link once', async () => {
  const patsPage = (await contexts.pat.pages())[0];
  await owner_.getByRole('link', { name: 'Organization', exact: true }).click();
  const row = owner_.getByRole('row').filter({ has: owner_.getByRole('rowheader', { name: pat.email, exact: true }) });
  const question = `Reset the password of ${pat.email}?`;
  await row.getByRole('button', { name: 'Reset password', exact: true }).click();
  assert.equal(await answerConfirmation(owner_, question, 'Cancel', 'organization-reset-password-asks'),
               `${pat.email} is signed out at once and their current password stops working. You get a one-time ` +
               'link to give them, valid for 24 hours, with which they choose a new password.');
  assert.equal((await patsPage.context().request.get('/dashboard/data/session')).status(), 200);
  assert.equal(await owner_.getByRole('button', { name: 'Reset password' }).count(), 2, 'not on the owner\'s own row');
  await row.getByRole('button', { name: 'Reset password', exact: true }).click();
  await answerConfirmation(owner_, question, 'Reset password');
  await expectAnnounced(owner_, `Reset the password of ${pat.email}: give them the link below.`);
  const section = owner_.getByRole('region', { name: 'Password reset link' });
  const link = await section.locator('code').innerText();
  assert.match(link, new RegExp(`^${baseURL.replace(/\/$/, '')}/dashboard/reset-password#code=[A-Za-z0-9_-]{43}$`));
  await section.getByRole('button', { name: 'Copy reset link', exact: true }).waitFor();
  await checkState(owner_, 'organization-reset-link');
  await contexts.pat.close();

  // The old password is right but no longer signs in; the page says what to do.
  const refused = await signInAnswer(pat);
  assert.equal(refused.status, 401);
  assert.equal(JSON.parse(refused.body).errors[0].message,
               'An owner of your organization reset your password, so it no longer signs in: open the reset link ' +
               'they gave you and choose a new password.');

  const context = await newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => pageProblems.push(`${page.url()}: ${error.message}`));
  await page.goto(link);
  await page.getByRole('heading', { name: 'Choose a new password', exact: true }).waitFor();
  assert.equal(new URL(page.url()).hash, '', 'the code leaves the address bar');
  await checkState(page, 'reset-password');
  const chosen = 'pat after the reset';
  await page.getByLabel('New password', { exact: true }).fill(chosen);
  await page.getByLabel('Confirm new password', { exact: true }).fill(chosen);
  await page.getByRole('button', { name: 'Set new password', exact: true }).click();
  await page.waitForURL('**/dashboard/sign-in?password=reset');
  await expectAnnounced(page, 'Your new password is set: sign in with it.');
  await checkState(page, 'sign-in-password-reset');
  await signIn(page, { email: pat.email, password: chosen });
  await page.waitForURL('**/dashboard/api');
  assert.equal((await signInAnswer(pat)).status, 401);

  // The link works once.
  const again = await newContext();
  const used = await again.newPage();
  await used.goto(link);
  await used.getByLabel('New password', { exact: true }).fill('another new password');
  await used.getByLabel('Confirm new password', { exact: true }).fill('another new password');
  await used.getByRole('button', { name: 'Set new password', exact: true }).click();
  await used.getByRole('alert').filter({ hasText: 'This reset link is not valid' }).waitFor();
  await checkState(used, 'reset-password-used');
  await again.close();
  await context.close();
});

// A phone's screen in CSS pixels (an iPhone 12 to 15), and the desktop size the other cases use.
const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 900 };

// At a phone's size: nothing is wider than the screen (no sideways scrolling), every button shown
// (of scope: an open dialog) lies within the screen, and axe-core finds no violation.
async function expectFitsPhone(page, state, scope = page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.equal(innerWidth, phone.width);
  assert.ok(scrollWidth <= innerWidth, `${state}: the page is ${scrollWidth} px wide on a ${innerWidth} px screen`);
  const buttons = await scope.getByRole('button').filter({ visible: true }).all();
  assert.ok(buttons.length > 0, `${state}: no button shown`);
  for (const button of buttons) {
    const box = await button.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= phone.width,
              `${state}: the button "${await button.innerText()}" spans ${box.x} to ${box.x + box.width} px`);
  }
  await checkState(page, `${state}-phone`);
}

// Every word of the cells (text between spaces) on one line: none broken inside.
async function expectWordsWhole(table) {
  const broken = await table.evaluate((element) => {
    const found = [];
    for (const each of element.querySelectorAll('tbody td, tbody th')) {
      const walker = document.createTreeWalker(each, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (const word of node.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          if (range.getClientRects().length > 1) found.push(word[0]);
        }
      }
    }
    return found;
  });
  assert.deepEqual(broken, [], 'words broken across lines');
}

// An identifier's <code> shows it whole: on one line, none of it scrolled out of view or off the screen.
async function expectWholeIdentifier(code) {
  const shape = await code.evaluate((element) => ({
    text: element.textContent,
    height: element.getBoundingClientRect().height,
    lineHeight: parseFloat(getComputedStyle(element).lineHeight),
    hiddenWidth: element.scrollWidth - element.clientWidth,
    right: element.getBoundingClientRect().right,
  }));
  assert.ok(shape.height < 1.5 * shape.lineHeight, `${shape.text} takes ${shape.height} px, lines of ${shape.lineHeight} px`);
  assert.equal(shape.hiddenWidth, 0, `${shape.text} is cut`);
  assert.ok(shape.right <= phone.width, `${shape.text} ends at ${shape.right} px`);
}

test('on a phone every page fits the screen: tables stacked, identifiers whole, the chart readable', async () => {
  const signInContext = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, viewport: phone });
  const signInPage = await signInContext.newPage();
  await signInPage.goto('/dashboard/sign-in');
  await expectFitsPhone(signInPage, 'sign-in');
  await signIn(signInPage, { email: owner.email, password: 'not the password at all' });
  await signInPage.getByRole('alert').waitFor();
  await expectFitsPhone(signInPage, 'sign-in-refused');
  await signInContext.close();

  await owner_.setViewportSize(phone);
  try {
    await owner_.getByRole('link', { name: 'Organization', exact: true }).click();
    await owner_.getByRole('table', { name: 'Users' }).getByRole('rowheader', { name: owner.email, exact: true }).waitFor();
    await expectWholeIdentifier(owner_.locator('#org-id code'));
    await expectFitsPhone(owner_, 'organization');

    await owner_.getByRole('link', { name: 'API', exact: true }).click();
    const row = clientRow(owner_, replacement.clientId);
    const idCell = row.getByRole('cell', { name: `${replacement.clientId} Copy client ID`, exact: true });
    // Each row a block, each value under its column's name; the cells stay cells for a screen reader.
    assert.equal(await idCell.getAttribute('data-label'), 'Client ID');
    assert.equal(await idCell.evaluate((element) => getComputedStyle(element, '::before').display), 'block');
    await expectWholeIdentifier(idCell.locator('code'));
    // Down to WCAG's reflow width, 320 px.
    await owner_.setViewportSize({ width: 320, height: phone.height });
    await expectWholeIdentifier(idCell.locator('code'));
    await owner_.setViewportSize(phone);
    await row.getByRole('button', { name: 'Copy client ID', exact: true }).click();
    await row.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await owner_.evaluate(() => navigator.clipboard.readText()), replacement.clientId);
    // The chart is drawn at the screen's width: its text at the stylesheet's 12 px, not scaled down.
    await owner_.getByRole('img', { name: 'Usage of the whole organization, last 30 days' }).waitFor();
    const textSizes = await owner_.locator('#usage-chart svg text').evaluateAll((texts) => texts.map(
      (text) => text.getScreenCTM().a * parseFloat(getComputedStyle(text).fontSize)));
    assert.ok(Math.min(...textSizes) >= 12, `the chart's text is ${Math.min(...textSizes)} px`);
    await expectFitsPhone(owner_, 'api');

    await owner_.getByRole('button', { name: 'Create API client', exact: true }).click();
    const createDialog = owner_.getByRole('dialog', { name: 'Create API client' });
    await expectFitsPhone(owner_, 'api-create-dialog', createDialog);
    await createDialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    const deleteDialog = owner_.getByRole('dialog', { name: 'Delete API client' });
    await expectFitsPhone(owner_, 'api-delete-dialog', deleteDialog);
    await deleteDialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await deleteDialog.waitFor({ state: 'hidden' });

    await owner_.getByRole('link', { name: 'Audit', exact: true }).click();
    const records = owner_.getByRole('table', { name: 'Audit records' });
    await records.getByRole('row').nth(1).waitFor();
    const identifiers = await records.locator('code').all();
    assert.ok(identifiers.length > 0);
    for (const code of identifiers) await expectWholeIdentifier(code);
    await expectWordsWhole(records);
    await expectFitsPhone(owner_, 'audit');

    await owner_.getByRole('link', { name: 'Account', exact: true }).click();
    await owner_.getByText('Two-factor authentication is on.', { exact: true }).waitFor();
    await expectFitsPhone(owner_, 'account');

    await owner_.getByRole('link', { name: 'Try it', exact: true }).click();
    await owner_.getByRole('group', { name: 'Primary key' }).getByLabel('Value', { exact: true }).fill('09506000134352');
    await submitTryIt(owner_, 'generate', 'Generate');
    await owner_.locator('#generate-result').getByRole('heading', { name: 'Generated', exact: true }).waitFor();
    await expectFitsPhone(owner_, 'try-it-generated');
  } finally {
    await owner_.setViewportSize(desktop);
  }

  const operatorPage = (await contexts.operator.pages())[0];
  await operatorPage.setViewportSize(phone);
  try {
    await operatorPage.getByRole('link', { name: 'Organizations', exact: true }).click();
    const acme = operatorPage.getByRole('row').filter({ has: operatorPage.getByText(organizationId, { exact: true }) });
    await acme.getByRole('cell', { name: 'allowed', exact: true }).waitFor();
    await expectWholeIdentifier(acme.locator('code'));
    await expectFitsPhone(operatorPage, 'organizations');
  } finally {
    await operatorPage.setViewportSize(desktop);
  }
});

test('sign out ends the session', async () => {
  await owner_.getByRole('button', { name: 'Sign out', exact: true }).click();
  await owner_.waitForURL('**/dashboard/sign-in');
  for (const target of ['/dashboard/api', '/dashboard/']) {
    await owner_.goto(target);
    assert.equal(new URL(owner_.url()).pathname, '/dashboard/sign-in', target);
  }
  const answer = await owner_.context().request.get('/dashboard/data/clients');
  assert.equal(answer.status(), 401);
  assert.equal((await answer.json()).errors[0].code, 'Unauthenticated');
});

test('sign out everywhere ends the account\'s sessions in every browser', async () => {
  const elsewhere = await newSignedInPage(operator, '/dashboard/organizations');
  contexts.operatorElsewhere = elsewhere.context();
  const page = (await contexts.operator.pages())[0];
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  // Asks first; Cancel keeps every session.
  await page.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
  assert.equal(await answerConfirmation(page, 'Sign out everywhere?', 'Cancel', 'account-sign-out-everywhere-asks'),
               'Every session of your account ends at once, this one included: you, and anyone else signed in as ' +
               'you, must sign in again on every browser and device.');
  assert.equal(new URL(page.url()).pathname, '/dashboard/account');
  assert.equal((await elsewhere.context().request.get('/dashboard/data/session')).status(), 200);
  assert.equal((await page.context().request.get('/dashboard/data/session')).status(), 200);

  await page.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
  await answerConfirmation(page, 'Sign out everywhere?', 'Sign out everywhere');
  await page.waitForURL('**/dashboard/sign-in?signed-out=everywhere');
  await expectAnnounced(page, 'You are signed out everywhere: every session of your account has ended.');
  await checkState(page, 'sign-in-signed-out-everywhere');
  const answer = await elsewhere.context().request.get('/dashboard/data/session');
  assert.equal(answer.status(), 401);
  assert.equal((await answer.json()).errors[0].code, 'Unauthenticated');
});

test('no page logged an error or broke its Content-Security-Policy', () => {
  assert.deepEqual(pageProblems, []);
});
