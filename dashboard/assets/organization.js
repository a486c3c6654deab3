// Organization: name, plan, subscription and users. Owners add and remove users, reset a
// user's password (a one-time link the user completes) and may require a second factor for
// everyone.
import {
  announce, button, callData, cell, confirmThenChange, fillBody, formatTime, guarded, guardedForm, identifier,
  startPage,
} from './dashboard.js';

let isOwner = false;
let myId = '';

function yesNo(value, yes, no) {
  return value ? yes : no;
}

function userRow(user) {
  const row = document.createElement('tr');
  const actions = document.createElement('td');
  if (isOwner && user.id !== myId) {
    actions.append(button('Remove', () => confirmThenChange({
      question: `Remove ${user.email}?`,
      consequence: `${user.email} is signed out at once and can no longer sign in to this organization. What they ` +
        'did stays in the audit log; to give them access again, add them as a new user.',
      action: 'Remove user',
    }, async () => {
      await callData('POST', `organization/users/${encodeURIComponent(user.id)}/delete`, {});
      await load();
    }, `Removed ${user.email}.`), 'danger'));
  }
  if (isOwner && user.id !== myId) {
    actions.append(' ', button('Reset password', () => confirmThenChange({
      question: `Reset the password of ${user.email}?`,
      consequence: `${user.email} is signed out at once and their current password stops working. You get a ` +
        'one-time link to give them, valid for 24 hours, with which they choose a new password.',
      action: 'Reset password',
    }, async () => {
      const reset = await callData('POST', `organization/users/${encodeURIComponent(user.id)}/reset-password`, {});
      showResetLink(user.email, reset);
    }, `Reset the password of ${user.email}: give them the link below.`), 'danger'));
  }
  row.append(cell(user.email, 'th'), cell(user.role), cell(yesNo(user.totpEnabled, 'on', 'off')),
             cell(formatTime(user.createdAt)), actions);
  return row;
}

// The one-time link of a reset, in the page's origin: the code rides in the fragment, which
// browsers never send to a server.
function showResetLink(email, reset) {
  const link = `${window.location.origin}/dashboard/reset-password#code=${reset.resetCode}`;
  document.getElementById('reset-link-for').textContent =
      `Give ${email} this link. It works once, until ${formatTime(reset.expiresAt)}.`;
  document.getElementById('reset-link-value').replaceChildren(identifier(link, 'reset link'));
  const section = document.getElementById('reset-link');
  section.hidden = false;
  section.scrollIntoView();
}

function showOrganization(organization) {
  document.getElementById('org-name').textContent = organization.name;
  document.getElementById('org-id').replaceChildren(identifier(organization.id, 'organization ID'));
  document.getElementById('org-plan').textContent = organization.plan;
  document.getElementById('org-subscription').textContent = organization.subscription;
  document.getElementById('org-covers').textContent =
      yesNo(organization.coversApiClients, 'allowed by the plan and subscription',
            'not allowed: the plan is below Starter or the subscription is inactive');
  document.getElementById('org-totp').textContent = yesNo(organization.requireTotp, 'required for every user', 'optional');
  document.getElementById('require-totp').checked = organization.requireTotp;
  requiresTotp = organization.requireTotp;
}

async function load() {
  const organization = await callData('GET', 'organization');
  showOrganization(organization);
  fillBody(document.querySelector('#users tbody'), organization.users.map(userRow), 5, 'No users.');
}

let requiresTotp = false;

document.getElementById('require-totp-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const required = document.getElementById('require-totp').checked;
  const save = async () => {
    await callData('POST', 'organization/require-totp', { required });
    await load();
  };
  if (required && !requiresTotp) {
    confirmThenChange({
      question: 'Require two-factor authentication for every user?',
      consequence: 'Every user without it, at their next request, is sent to their Account page and can open no ' +
        'other page until they have set it up. Users who have it notice nothing.',
      action: 'Require it',
      danger: false,
    }, save, 'Two-factor authentication is now required for every user.');
  } else {
    guarded(async () => {
      announce('');
      await save();
      announce(required ? 'Two-factor authentication stays required for every user.'
                        : 'Two-factor authentication is now optional.');
    });
  }
});

document.getElementById('add-user-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  guardedForm(form, { email: 'user-email', role: 'user-role', password: 'user-password' }, async () => {
    await callData('POST', 'organization/users', {
      email: document.getElementById('user-email').value,
      role: document.getElementById('user-role').value,
      password: document.getElementById('user-password').value,
    });
    form.reset();
    await load();
  });
});

const session = await startPage();
if (session !== undefined) {
  isOwner = session.role === 'owner';
  myId = session.id;
  document.getElementById('require-totp-form').hidden = !isOwner;
  document.getElementById('add-user').hidden = !isOwner;
  await guarded(load);
}
