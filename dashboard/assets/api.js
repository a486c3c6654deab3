// Organization -> API: the organization's API clients (create, block, unblock, delete, create a
// replacement) and their usage. Owners and developers change clients; viewers only read (the
// server refuses their changes anyway).
import {
  announce, button, callData, cell, clearErrorSummary, confirmChange, confirmThenChange, fillBody, formatTime, guarded,
  guardedForm, identifier, startPage,
} from './dashboard.js';
import { drawUsageChart, fillUsageTable } from './usage.js';

const createButton = document.getElementById('create-client');
const cannotCreateReason = document.getElementById('cannot-create-reason');
const clientsBody = document.querySelector('#clients tbody');
const usageOf = document.getElementById('usage-of');
const createDialog = document.getElementById('create-dialog');
const createForm = document.getElementById('create-form');
const secretDialog = document.getElementById('secret-dialog');
const deleteDialog = document.getElementById('delete-dialog');
const deleteForm = document.getElementById('delete-form');

let knownScopes = [];
let clients = [];
let mayChange = false;
let deleting = null;
// The delete dialog asks for this many of the client ID's last characters (the server checks
// the same number): a client and its replacement share a name, never an ID.
const idEndLength = 6;

function dialogAlert(dialog) {
  return dialog.querySelector('[role="alert"]');
}

// How a program gets a token with this client, in a shell: the secret is read at a prompt
// into $CLIENT_SECRET, so it is in neither the example nor the shell's history. The address is
// the one this page came from, which serves /oauth/token unless dashboard.listen moved the
// dashboard to a listener of its own.
function tokenExample(clientId) {
  return [
    'read -rs -p "Client secret: " CLIENT_SECRET',
    `curl -u "${clientId}:$CLIENT_SECRET" \\`,
    '  -d grant_type=client_credentials \\',
    `  ${window.location.origin}/oauth/token`,
  ].join('\n');
}

function showSecret(created) {
  const { client } = created;
  document.getElementById('new-client-id').value = client.id;
  document.getElementById('new-client-secret').value = created.secret;
  document.getElementById('token-example').textContent = tokenExample(client.id);
  const replaces = document.getElementById('new-client-replaces');
  replaces.hidden = client.replaces === null;
  replaces.textContent = client.replaces === null ? ''
    : `It replaces ${client.replaces}, which keeps working until you delete it: move your programs to the new ` +
      'client first.';
  document.getElementById('copy-status').textContent = '';
  document.getElementById('secret-stored').checked = false;
  secretDialog.showModal();
}

// Copies one of the secret dialog's values, saying so in its status line; when the browser
// refuses the clipboard, selects it for Ctrl+C instead.
async function copyFromSecretDialog(text, what, select) {
  const status = document.getElementById('copy-status');
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = `The ${what} is on the clipboard.`;
  } catch {
    select();
    status.textContent = `The browser refused the clipboard: the ${what} is selected, copy it with Ctrl+C.`;
  }
}

// The line under a client's name that links it to its replacement, or to the client it
// replaces: they share a name, and only this tells which is which.
function replacementNote(client) {
  const note = document.createElement('span');
  note.className = 'replacement-note';
  const id = document.createElement('code');
  id.className = 'id';
  if (client.replacedBy !== null) {
    id.textContent = client.replacedBy;
    const reminder = document.createElement('span');
    reminder.className = 'replacement-reminder';
    reminder.textContent = 'Delete this client once your programs use the new one.';
    note.append('replaced by ', id, reminder);
  } else {
    id.textContent = client.replaces;
    note.append('replaces ', id);
  }
  return note;
}

function clientRow(client) {
  const row = document.createElement('tr');
  row.dataset.clientId = client.id;
  const id = document.createElement('td');
  id.append(identifier(client.id, 'client ID'));
  // The standing, not the stored state: the server says "suspended" while the organization's
  // plan or subscription keeps an active client from getting tokens, and why.
  const state = cell(client.standing);
  state.className = `state state-${client.standing}`;
  if (client.standingReason !== null) {
    const reason = document.createElement('span');
    reason.className = 'standing-reason';
    reason.textContent = client.standingReason;
    state.append(reason);
  }
  const created = client.createdBy === '' ? formatTime(client.createdAt)
                                          : `${formatTime(client.createdAt)} by ${client.createdBy}`;
  const actions = document.createElement('td');
  const named = `${client.name} (${client.id})`;
  if (mayChange) {
    const path = `clients/${encodeURIComponent(client.id)}/`;
    if (client.state === 'active') {
      actions.append(button('Block', () => confirmThenChange({
        question: `Block ${client.name}?`,
        consequence: `Every access token issued to ${client.id} until now stops working at once, for good: ` +
          'unblocking the client later lets it request new tokens, never use these again. Until then its token ' +
          'requests are refused.',
        action: 'Block client',
      }, async () => {
        await callData('POST', `${path}block`, {});
        await load();
      }, `Blocked ${named}: its tokens are revoked.`)));
    } else {
      actions.append(button('Unblock', () => guarded(async () => {
        announce('');
        await callData('POST', `${path}unblock`, {});
        await load();
        announce(`Unblocked ${named}: it can request tokens again.`);
      })));
    }
    actions.append(button('Delete', () => askDelete(client), 'danger'));
    if (client.replacedBy === null) {
      actions.append(button('Create replacement', () => guarded(async () => {
        announce('');
        showSecret(await callData('POST', `${path}replacement`, {}));
        await load();
      })));
    }
  }
  const name = cell(client.name, 'th');
  if (client.replaces !== null || client.replacedBy !== null) name.append(replacementNote(client));
  row.append(name, id, cell(client.scopes.join(', ')), state, cell(created), cell(formatTime(client.lastUsedAt)),
             actions);
  return row;
}

async function showUsage() {
  const query = usageOf.value === 'organization' ? 'organization=current' : `client=${encodeURIComponent(usageOf.value)}`;
  const usage = await callData('GET', `usage?${query}`);
  const chosen = usageOf.options[usageOf.selectedIndex].textContent;
  drawUsageChart(document.getElementById('usage-chart'), usage.days, `Usage of ${chosen}, last 30 days`);
  fillUsageTable(document.querySelector('#usage-table tbody'), usage.days);
}

async function load() {
  const data = await callData('GET', 'clients');
  knownScopes = data.knownScopes;
  clients = data.clients;
  // The server's reason first (the plan gate); a viewer is told why too.
  const reason = data.cannotCreateReason ?? (mayChange ? '' : 'Viewers only read: owners and developers create API clients.');
  createButton.disabled = !data.canCreate || !mayChange;
  cannotCreateReason.textContent = reason;
  cannotCreateReason.hidden = !createButton.disabled || reason === '';
  fillBody(clientsBody, clients.map(clientRow), 7, 'No API clients yet.');

  const chosen = usageOf.value;
  const options = [usageOf.options[0]];
  for (const client of clients) {
    const option = document.createElement('option');
    option.value = client.id;
    option.textContent = `${client.name} (${client.id})`;
    options.push(option);
  }
  usageOf.replaceChildren(...options);
  usageOf.value = options.some((option) => option.value === chosen) ? chosen : 'organization';
  await showUsage();
}

function askDelete(client) {
  deleting = client;
  deleteForm.reset();
  document.getElementById('delete-name').textContent = client.name;
  const end = document.createElement('strong');
  end.textContent = client.id.slice(-idEndLength);
  document.getElementById('delete-id').replaceChildren(client.id.slice(0, -idEndLength), end);
  const link = document.getElementById('delete-link');
  link.hidden = client.replaces === null && client.replacedBy === null;
  link.textContent = client.replacedBy !== null
    ? `Its replacement, ${client.replacedBy}, has the same name; it is not deleted and keeps working.`
    : client.replaces !== null
      ? `It replaces ${client.replaces}, which has the same name; that client is not deleted and keeps working.`
      : '';
  deleteDialog.showModal();
}

createButton.addEventListener('click', () => {
  createForm.reset();
  const scopes = document.getElementById('create-scopes');
  scopes.replaceChildren(...knownScopes.map((scope, index) => {
    const line = document.createElement('p');
    line.className = 'checkbox';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `create-scope-${index}`;
    box.value = scope;
    // With one scope to choose, it is chosen.
    box.checked = knownScopes.length === 1;
    const label = document.createElement('label');
    label.htmlFor = box.id;
    label.textContent = scope;
    line.append(box, label);
    return line;
  }));
  createDialog.showModal();
});

createForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const name = document.getElementById('create-name').value;
  const scopes = [...createForm.querySelectorAll('#create-scopes input:checked')].map((box) => box.value);
  guardedForm(createForm, { name: 'create-name', scopes: 'create-scopes-group' }, async () => {
    const created = await callData('POST', 'clients', { name, scopes });
    createDialog.close();
    showSecret(created);
    await load();
  }, dialogAlert(createDialog));
});

deleteForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const typed = document.getElementById('delete-confirm').value;
  const deleted = deleting;
  guardedForm(deleteForm, { idEnd: 'delete-confirm' }, async () => {
    await callData('POST', `clients/${encodeURIComponent(deleted.id)}/delete`, { idEnd: typed });
    deleteDialog.close();
    await load();
    announce(`Deleted ${deleted.name} (${deleted.id}).`);
  }, dialogAlert(deleteDialog));
});

for (const [buttonId, inputId, what] of [['copy-client-id', 'new-client-id', 'client ID'],
                                         ['copy-secret', 'new-client-secret', 'secret']]) {
  document.getElementById(buttonId).addEventListener('click', () => {
    const input = document.getElementById(inputId);
    return copyFromSecretDialog(input.value, what, () => input.select());
  });
}
document.getElementById('copy-example').addEventListener('click', () => {
  const example = document.getElementById('token-example');
  return copyFromSecretDialog(example.textContent, 'example', () => window.getSelection().selectAllChildren(example));
});

// The secret is gone once its dialog closes: closing it (Done, Escape) before "I have copied
// the secret" is ticked asks first.
let askingToClose = false;
async function closeSecretDialog() {
  if (askingToClose) return;
  if (!document.getElementById('secret-stored').checked) {
    askingToClose = true;
    const close = await confirmChange({
      question: 'Close without the secret?',
      consequence: 'You have not ticked "I have copied the secret". Once this dialog closes the secret cannot be ' +
        'shown again: without it the client cannot get tokens, and you would have to create a replacement.',
      action: 'Close without the secret',
    });
    askingToClose = false;
    if (!close) return;
  }
  secretDialog.close();
}
document.getElementById('secret-form').addEventListener('submit', (event) => {
  event.preventDefault();
  closeSecretDialog();
});
// Escape asks too: the keydown is the close request, the cancel event a second way to it.
secretDialog.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  closeSecretDialog();
});
secretDialog.addEventListener('cancel', (event) => {
  event.preventDefault();
  closeSecretDialog();
});

// The secret leaves the page when its dialog closes.
secretDialog.addEventListener('close', () => {
  document.getElementById('new-client-id').value = '';
  document.getElementById('new-client-secret').value = '';
  document.getElementById('token-example').textContent = '';
});

// A dialog's refusal goes with it (the title's "Error: " too).
for (const [dialog, form] of [[createDialog, createForm], [deleteDialog, deleteForm]]) {
  dialog.addEventListener('close', () => clearErrorSummary(dialogAlert(dialog), form));
}

for (const closer of document.querySelectorAll('[data-close]')) {
  closer.addEventListener('click', () => closer.closest('dialog').close());
}

usageOf.addEventListener('change', () => guarded(showUsage));

const session = await startPage();
if (session !== undefined) {
  mayChange = session.role === 'owner' || session.role === 'developer';
  await guarded(load);
}
