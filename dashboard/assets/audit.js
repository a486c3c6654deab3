// The audit log, filtered by action (and, for an operator, by organization).
import { callData, cell, fillBody, formatTime, guarded, startPage } from './dashboard.js';

let isOperator = false;

// A cell with an identifier (the target, the organization), in a <code> never broken inside.
function identifierCell(value) {
  const element = document.createElement('td');
  if (value !== null && value !== undefined) {
    const code = document.createElement('code');
    code.className = 'id';
    code.textContent = value;
    element.append(code);
  }
  return element;
}

function recordRow(record) {
  const row = document.createElement('tr');
  row.append(cell(formatTime(record.at), 'th'), cell(record.actor), cell(record.action), identifierCell(record.target),
             identifierCell(record.organization), cell(record.address), cell(record.result), cell(record.detail ?? ''));
  return row;
}

async function load() {
  const query = new URLSearchParams();
  const action = document.getElementById('audit-action').value.trim();
  if (action !== '') query.set('action', action);
  query.set('limit', document.getElementById('audit-limit').value || '100');
  const organization = document.getElementById('audit-organization').value.trim();
  if (isOperator && organization !== '') query.set('organization', organization);
  const answer = await callData('GET', `audit?${query}`);
  fillBody(document.querySelector('#audit tbody'), answer.records.map(recordRow), 8, 'No records match.');
}

document.getElementById('audit-filter').addEventListener('submit', (event) => {
  event.preventDefault();
  guarded(load);
});

const session = await startPage();
if (session !== undefined) {
  isOperator = session.kind === 'operator';
  document.getElementById('audit-organization-field').hidden = !isOperator;
  await guarded(load);
}
