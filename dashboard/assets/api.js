// Organization -> API: the organization's API clients (create, block, unblock, delete, create a
// replacement) and their usage. Owners and developers change clients; viewers only read (the
// server refuses their changes anyway).
import { button, callData, cell, fillBody, formatTime, guarded, identifier, showError, startPage } from './dashboard.js';
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

function dialogAlert(dialog) {
  return dialog.querySelector('[role="alert"]');
}

function showSecret(created) {
  document.getElementById('new-client-id').value = created.client.id;
  document.getElementById('new-client-secret').value = created.secret;
  document.getElementById('copy-status').textContent = '';
  secretDialog.showModal();
}

function clientRow(client) {
  const row = document.createElement('tr');
  row.dataset.clientId = client.id;
  const id = document.createElement('td');
  id.append(identifier(client.id, 'client ID'));
  const state = cell(client.state);
  state.className = `state state-${client.state}`;
  const created = client.createdBy === '' ? formatTime(client.createdAt)
                                          : `${formatTime(client.createdAt)} by ${client.createdBy}`;
  const actions = document.createElement('td');
  if (mayChange) {
    const path = `clients/${encodeURIComponent(client.id)}/`;
    if (client.state === 'active') {
      actions.append(button('Block', () => guarded(async () => { await callData('POST', `${path}block`, {}); await load(); })));
    } else {
      actions.append(button('Unblock', () => guarded(async () => { await callData('POST', `${path}unblock`, {}); await load(); })));
    }
    actions.append(button('Delete', () => askDelete(client), 'danger'));
    actions.append(button('Create replacement', () => guarded(async () => {
      showSecret(await callData('POST', `${path}replacement`, {}));
      await load();
    })));
  }
  row.append(cell(client.name, 'th'), id, cell(client.scopes.join(', ')), state, cell(created),
             cell(formatTime(client.lastUsedAt)), actions);
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
  showError(dialogAlert(deleteDialog), null);
  document.getElementById('delete-name').textContent = client.name;
  document.getElementById('delete-id').textContent = client.id;
  deleteDialog.showModal();
}

createButton.addEventListener('click', () => {
  createForm.reset();
  showError(dialogAlert(createDialog), null);
  const scopes = document.getElementById('create-scopes');
  scopes.replaceChildren(...knownScopes.map((scope, index) => {
    const line = document.createElement('p');
    line.className = 'checkbox';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `create-scope-${index}`;
    box.value = scope;
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
  guarded(async () => {
    const created = await callData('POST', 'clients', { name, scopes });
    createDialog.close();
    showSecret(created);
    await load();
  }, dialogAlert(createDialog));
});

deleteForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const typed = document.getElementById('delete-confirm').value;
  guarded(async () => {
    await callData('POST', `clients/${encodeURIComponent(deleting.id)}/delete`, { name: typed });
    deleteDialog.close();
    await load();
  }, dialogAlert(deleteDialog));
});

document.getElementById('copy-secret').addEventListener('click', async () => {
  const status = document.getElementById('copy-status');
  const secret = document.getElementById('new-client-secret');
  try {
    await navigator.clipboard.writeText(secret.value);
    status.textContent = 'The secret is on the clipboard.';
  } catch {
    secret.select();
    status.textContent = 'The browser refused the clipboard: the secret is selected, copy it with Ctrl+C.';
  }
});

// The secret leaves the page when its dialog closes.
secretDialog.addEventListener('close', () => {
  document.getElementById('new-client-id').value = '';
  document.getElementById('new-client-secret').value = '';
});

for (const closer of document.querySelectorAll('[data-close]')) {
  closer.addEventListener('click', () => closer.closest('dialog').close());
}

usageOf.addEventListener('change', () => guarded(showUsage));

const session = await startPage();
if (session !== undefined) {
  mayChange = session.role === 'owner' || session.role === 'developer';
  await guarded(load);
}
