// The audit log, filtered by action or how actions begin (and, for an operator, by organization),
// with the same selection to download as CSV.
import { callData, cell, fillBody, guarded, guardedForm, startPage } from './dashboard.js';

let isOperator = false;

// An element with a class and text.
function styled(tag, className, text) {
  return Object.assign(document.createElement(tag), { className, textContent: text });
}

// A cell holding the given nodes.
function cellOf(...children) {
  const element = document.createElement('td');
  element.append(...children);
  return element;
}

// An identifier (a client, an organization, an account that no longer exists) in a <code> never
// broken inside.
function identifierCell(value) {
  return value === null || value === undefined || value === '' ? cellOf() : cellOf(styled('code', 'id', value));
}

// Text kept on one line: a browser may break after a hyphen ("2026-", "sign-"), and these are single
// words (a date, an email, an action, an address, a result).
function token(text) {
  return styled('span', 'token', text);
}

function tokenCell(text) {
  return cellOf(token(text));
}

// When, to the second, in UTC: "2026-11-28 02:16:39 UTC", its machine form in datetime; it may wrap
// between the date and the time of day only.
function timeCell(rfc3339) {
  const element = cell('', 'th');
  const time = document.createElement('time');
  time.dateTime = rfc3339;
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})Z$/.exec(rfc3339);
  if (match === null) time.textContent = rfc3339;
  else time.append(token(match[1]), ' ', token(`${match[2]} UTC`));
  element.append(time);
  return element;
}

// A person by email while the account exists; a client by its ID with its name beside.
function targetCell(record) {
  if (record.targetEmail !== null) return tokenCell(record.targetEmail);
  const element = identifierCell(record.target);
  if (record.targetName !== null && record.targetName !== '') element.append(' ', record.targetName);
  return element;
}

function recordRow(record) {
  const row = document.createElement('tr');
  row.append(timeCell(record.at), tokenCell(record.actor), tokenCell(record.action), targetCell(record));
  // A user's records are all of the own organization: the column is an operator's only.
  if (isOperator) row.append(identifierCell(record.organization));
  row.append(tokenCell(record.address), tokenCell(record.result), cell(record.detail ?? ''));
  return row;
}

async function load() {
  const filters = new URLSearchParams();
  const action = document.getElementById('audit-action').value.trim();
  if (action !== '') filters.set('action', action);
  const organization = document.getElementById('audit-organization').value.trim();
  if (isOperator && organization !== '') filters.set('organization', organization);
  const query = new URLSearchParams(filters);
  query.set('limit', document.getElementById('audit-limit').value || '100');
  const answer = await callData('GET', `audit?${query}`);
  fillBody(document.querySelector('#audit tbody'), answer.records.map(recordRow), isOperator ? 8 : 7,
           'No records match.');
  const download = document.getElementById('audit-download');
  download.href = filters.size === 0 ? '/dashboard/data/audit.csv' : `/dashboard/data/audit.csv?${filters}`;
}

document.getElementById('audit-filter').addEventListener('submit', (event) => {
  event.preventDefault();
  guardedForm(event.target, { limit: 'audit-limit' }, load);
});

const session = await startPage();
if (session !== undefined) {
  isOperator = session.kind === 'operator';
  document.getElementById('audit-organization-field').hidden = !isOperator;
  if (!isOperator) document.getElementById('audit-organization-column').remove();
  await guarded(load);
}
