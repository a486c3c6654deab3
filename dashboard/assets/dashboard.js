// What every dashboard page shares: the JSON calls to /dashboard/data/ (CSRF token, JSON body,
// the ErrorEnvelope turned into an ApiError), the session, the navigation, the alert region and
// small formatting helpers. The server decides everything; these pages only show it.

const dataRoot = '/dashboard/data/';
let csrfToken = '';

// A refusal of the server: its HTTP status and the ErrorEnvelope's errors
// ([{code, path, message}]).
export class ApiError extends Error {
  constructor(status, errors) {
    super(errors.map((error) => error.message).join(' '));
    this.status = status;
    this.errors = errors;
  }

  get code() {
    return this.errors.length > 0 ? this.errors[0].code : '';
  }
}

async function errorsOf(response) {
  try {
    const body = await response.json();
    if (Array.isArray(body.errors) && body.errors.length > 0) return body.errors;
  } catch {
    // not an ErrorEnvelope: fall through to the status line
  }
  return [{ code: `Http${response.status}`, path: null, message: `The server answered ${response.status}.` }];
}

// GET or POST one /dashboard/data/ endpoint: the parsed JSON answer (null for 204), or an
// ApiError. Every call carries the session's CSRF token and declares a JSON body.
export async function callData(method, path, body) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (csrfToken !== '') headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(dataRoot + path, {
    method,
    headers,
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (!response.ok) throw new ApiError(response.status, await errorsOf(response));
  if (response.status === 204) return null;
  return response.json();
}

// Shows an error (an ApiError's messages, or any other error's) in a role="alert" region;
// with null, empties and hides it.
export function showError(region, error) {
  region.replaceChildren();
  if (error === null) {
    region.hidden = true;
    return;
  }
  const messages = error instanceof ApiError ? error.errors.map((each) => each.message) : [error.message];
  for (const message of messages) {
    const paragraph = document.createElement('p');
    paragraph.textContent = message;
    region.append(paragraph);
  }
  region.hidden = false;
}

export function pageAlert() {
  return document.getElementById('page-alert');
}

// The page's success messages: a status region (aria-live polite) after the page's alert,
// made when the page starts so that a screen reader already knows it when a message comes.
function pageStatus() {
  let region = document.getElementById('page-status');
  if (region === null) {
    region = document.createElement('p');
    region.id = 'page-status';
    region.className = 'status page-status';
    region.setAttribute('role', 'status');
    pageAlert().after(region);
  }
  return region;
}

// Says that a change succeeded, in the page's status region; '' empties it.
export function announce(message) {
  pageStatus().textContent = message;
}

// Asks before a change that cannot be taken back, in a modal alert dialog: its heading
// (question), what will happen (consequence), the button that goes ahead (action) and Cancel,
// which has the focus. Resolves true only when that button was pressed; Cancel, Escape and
// closing resolve false. The page's last success message goes as the question comes.
export function confirmChange({ question, consequence, action, danger = true }) {
  announce('');
  const dialog = document.createElement('dialog');
  dialog.setAttribute('role', 'alertdialog');
  dialog.setAttribute('aria-modal', 'true');
  const form = document.createElement('form');
  form.method = 'dialog';
  const heading = document.createElement('h2');
  heading.id = 'confirm-heading';
  heading.textContent = question;
  const text = document.createElement('p');
  text.id = 'confirm-consequence';
  text.textContent = consequence;
  dialog.setAttribute('aria-labelledby', heading.id);
  dialog.setAttribute('aria-describedby', text.id);
  const go = document.createElement('button');
  go.type = 'submit';
  go.value = 'confirm';
  go.textContent = action;
  if (danger) go.className = 'danger';
  const cancel = document.createElement('button');
  cancel.type = 'submit';
  cancel.value = 'cancel';
  cancel.className = 'secondary';
  cancel.textContent = 'Cancel';
  cancel.autofocus = true;
  const buttons = document.createElement('p');
  buttons.className = 'buttons';
  buttons.append(go, cancel);
  form.append(heading, text, buttons);
  dialog.append(form);
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'confirm');
    });
    dialog.showModal();
  });
}

// Runs a change after confirmChange(question) said yes: the change (guarded, so a refusal
// shows in the page's alert) and then its success message. Nothing happens on Cancel.
export async function confirmThenChange(question, change, success) {
  if (!await confirmChange(question)) return;
  const done = await guarded(async () => {
    await change();
    return true;
  });
  if (done === true) announce(success);
}

// Runs an action of the page; its failure goes to the region (the page's alert by default), or to
// show when one is given. A session that ended sends the browser to the sign-in page; an
// organization that requires a second factor the user has not set up sends it to the account page.
export async function guarded(action, region = pageAlert(), show = (error) => showError(region, error)) {
  showError(region, null);
  try {
    return await action();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'Unauthenticated') {
      window.location.assign('/dashboard/sign-in');
    } else if (error instanceof ApiError && error.code === 'TotpRequired' &&
               window.location.pathname !== '/dashboard/account') {
      window.location.assign('/dashboard/account');
    } else {
      show(error);
    }
    return undefined;
  }
}

// GOV.UK's error summary pattern. The summary region (role="alert") gets the title "There is a
// problem" and a list of the messages, and takes the focus. A fault with a place links to its
// first control (when it has one) and is said again beside it (place.slot, between the label and
// the control); every control of the place is marked aria-invalid, and the elements it describes
// (the controls, or a group's fieldset) are described by that message. faults:
// [{ message, place: { controls: [element, ...], slot: element, describes: [element, ...] } | null }].
export function showErrorSummary(summary, faults) {
  const title = document.createElement(summary.closest('dialog, form') === null ? 'h2' : 'h3');
  title.textContent = 'There is a problem';
  const list = document.createElement('ul');
  for (const { message, place } of faults) {
    const item = document.createElement('li');
    list.append(item);
    if (place === null || place.controls.length === 0) {
      item.textContent = message;
    } else {
      const link = document.createElement('a');
      link.href = `#${place.controls[0].id}`;
      link.textContent = message;
      link.addEventListener('click', (event) => {
        event.preventDefault();
        place.controls[0].focus();
      });
      item.append(link);
    }
    if (place === null) continue;
    const beside = document.createElement('span');
    const hidden = document.createElement('span');
    hidden.className = 'visually-hidden';
    hidden.textContent = 'Error:';
    beside.append(hidden, ` ${message}`);
    place.slot.append(beside);
    place.slot.hidden = false;
    for (const control of place.controls) control.setAttribute('aria-invalid', 'true');
    for (const element of place.describes) {
      const described = element.getAttribute('aria-describedby');
      if ((described ?? '').split(' ').includes(place.slot.id)) continue;
      element.setAttribute('aria-describedby', described ? `${described} ${place.slot.id}` : place.slot.id);
    }
  }
  summary.replaceChildren(title, list);
  summary.hidden = false;
  summary.tabIndex = -1;
  summary.focus();
  if (!document.title.startsWith('Error: ')) document.title = `Error: ${document.title}`;
}

// Takes away what showErrorSummary showed: the summary, the messages beside the controls in
// scope (an element holding them), their aria-invalid and the title's "Error: ".
export function clearErrorSummary(summary, scope) {
  summary.replaceChildren();
  summary.hidden = true;
  for (const slot of scope.querySelectorAll('.field-error')) {
    slot.replaceChildren();
    slot.hidden = true;
    for (const described of scope.querySelectorAll(`[aria-describedby~="${slot.id}"]`)) {
      const rest = described.getAttribute('aria-describedby').split(' ').filter((id) => id !== '' && id !== slot.id);
      if (rest.length > 0) described.setAttribute('aria-describedby', rest.join(' '));
      else described.removeAttribute('aria-describedby');
    }
  }
  for (const control of scope.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  if (document.title.startsWith('Error: ')) document.title = document.title.slice('Error: '.length);
}

// The place of a form's field for showErrorSummary: an input, select or textarea, or a fieldset
// (its controls, the message after its legend). The message's element is made on first use.
function fieldPlace(field) {
  const group = field.tagName === 'FIELDSET';
  const controls = group ? [...field.querySelectorAll('input, select, textarea')] : [field];
  let slot = document.getElementById(`${field.id}-error`);
  if (slot === null) {
    slot = document.createElement('span');
    slot.id = `${field.id}-error`;
    slot.className = 'field-error';
    slot.hidden = true;
    if (group) field.querySelector('legend').after(slot);
    else field.before(slot);
  }
  return { controls, slot, describes: [field] };
}

// Runs a form's submission (see guarded). A refusal shows in the summary as GOV.UK's error
// summary: fields maps an error's path (the server's field name) to the id of its control or
// fieldset in the form; an error on no such field is listed in the summary alone.
export function guardedForm(form, fields, action, summary = pageAlert()) {
  clearErrorSummary(summary, form);
  return guarded(action, summary, (error) => {
    const errors = error instanceof ApiError ? error.errors : [{ path: null, message: error.message }];
    showErrorSummary(summary, errors.map(({ path, message }) => {
      const id = path === null ? undefined : fields[path];
      const field = id === undefined ? null : document.getElementById(id);
      return { message, place: field === null || field.closest('[hidden]') !== null ? null : fieldPlace(field) };
    }));
  });
}

// The navigation of every signed-in page, in order: link text, page, and the kind of account
// it is for (null: both).
const navigation = [
  ['Organization', '/dashboard/organization', 'user'],
  ['API', '/dashboard/api', 'user'],
  ['Organizations', '/dashboard/organizations', 'operator'],
  ['Try it', '/dashboard/try-it', null],
  ['Audit', '/dashboard/audit', null],
  ['Account', '/dashboard/account', null],
];

// Fills the page's <header id="banner">: the name, the navigation for this kind of account
// (the current page marked), "Sign out" (a button: it changes state, so it POSTs) and who is
// signed in.
function fillBanner(session) {
  const brand = document.createElement('a');
  brand.className = 'brand';
  brand.href = '/dashboard/';
  brand.textContent = 'Code-Payload dashboard';
  const list = document.createElement('ul');
  for (const [label, href, kind] of navigation) {
    if (kind !== null && kind !== session.kind) continue;
    const link = document.createElement('a');
    link.href = href;
    link.textContent = label;
    if (href === window.location.pathname) link.setAttribute('aria-current', 'page');
    const item = document.createElement('li');
    item.append(link);
    list.append(item);
  }
  const signOut = document.createElement('li');
  signOut.append(button('Sign out', () => guarded(async () => {
    await callData('POST', 'sign-out', {});
    window.location.assign('/dashboard/sign-in');
  }), 'link'));
  list.append(signOut);
  const nav = document.createElement('nav');
  nav.setAttribute('aria-label', 'Dashboard');
  nav.append(list);
  const who = document.createElement('p');
  who.className = 'signed-in-as';
  who.textContent = session.kind === 'operator' ? `${session.email} (operator)`
                                                : `${session.email} (${session.role}, ${session.organization.name})`;
  document.getElementById('banner').replaceChildren(brand, nav, who);
}

// While the organization's API clients cannot get tokens, its users read so at the top of every
// page, in the server's words (the session's organization.clientsSuspended), in a notification
// banner as GOV.UK's: a region named by its title.
function fillSuspensionNotice(session) {
  const suspension = session.organization?.clientsSuspended ?? null;
  if (suspension === null) return;
  const title = document.createElement('h2');
  title.id = 'suspension-title';
  title.className = 'notification-title';
  title.textContent = 'Important';
  const message = document.createElement('p');
  message.className = 'notification-message';
  message.textContent = suspension.message;
  const notice = document.createElement('div');
  notice.className = 'notification';
  notice.setAttribute('role', 'region');
  notice.setAttribute('aria-labelledby', title.id);
  notice.append(title, message);
  document.querySelector('main').prepend(notice);
}

// Loads the session, keeps its CSRF token for every later call and fills the banner.
export async function startPage() {
  const session = await guarded(() => callData('GET', 'session'));
  if (session === undefined) return undefined;
  csrfToken = session.csrfToken;
  fillBanner(session);
  fillSuspensionNotice(session);
  pageStatus();
  return session;
}

// "2026-11-24T04:51:00Z" -> "2026-11-24 04:51 UTC" (every time the server sends is RFC 3339 UTC).
export function formatTime(rfc3339) {
  if (rfc3339 === null || rfc3339 === undefined) return 'never';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(rfc3339);
  return match === null ? rfc3339 : `${match[1]} ${match[2]} UTC`;
}

// A table cell (or header cell) with text.
export function cell(text, tag = 'td') {
  const element = document.createElement(tag);
  element.textContent = text;
  if (tag === 'th') element.scope = 'row';
  return element;
}

export function button(label, onClick, className = '') {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  if (className !== '') element.className = className;
  element.addEventListener('click', onClick);
  return element;
}

// Puts text on the clipboard and says "Copied" in the live region status; when the browser
// refuses the clipboard, selects the element that shows the text and says to copy it by hand.
export async function copyText(text, shownIn, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied';
  } catch {
    window.getSelection().selectAllChildren(shownIn);
    status.textContent = 'Selected: copy it with Ctrl+C';
  }
}

// An identifier (a client ID, an organization ID) shown whole, never broken inside, with a
// "Copy" button that puts it on the clipboard and says so in a live region beside it. what
// names the identifier for a screen reader ("client ID"); the button's visible text stays "Copy".
export function identifier(value, what) {
  const code = document.createElement('code');
  code.textContent = value;
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'secondary copy';
  const hidden = document.createElement('span');
  hidden.className = 'visually-hidden';
  hidden.textContent = ` ${what}`;
  copy.append('Copy', hidden);
  const status = document.createElement('span');
  status.className = 'copied';
  status.setAttribute('role', 'status');
  copy.addEventListener('click', () => copyText(value, code, status));
  const box = document.createElement('span');
  box.className = 'identifier';
  box.append(code, copy, status);
  return box;
}

// Fills a <tbody> with rows, or with one row saying there is nothing when rows is empty. Each
// cell gets its column's header as data-label: a narrow screen shows the rows stacked, each
// value under its label (dashboard.css, table.stacks).
export function fillBody(body, rows, columns, emptyText) {
  const labels = [...body.closest('table').tHead.rows[0].cells].map((header) => header.textContent);
  for (const row of rows) {
    for (const [index, each] of [...row.cells].entries()) each.dataset.label = labels[index];
  }
  body.replaceChildren(...rows);
  if (rows.length === 0) {
    const row = document.createElement('tr');
    const only = cell(emptyText);
    only.colSpan = columns;
    row.append(only);
    body.append(row);
  }
}
